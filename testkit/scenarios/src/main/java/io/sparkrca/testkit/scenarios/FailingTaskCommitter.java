package io.sparkrca.testkit.scenarios;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;

/**
 * A {@link FileOutputCommitter} whose task commit fails on every attempt, the way moving a task's
 * output into place fails on a store that refuses the write (a full disk, a quota, a lost
 * volume). Tasks write their rows normally; committing them throws inside the task, so Spark
 * retries the task, every attempt fails alike and the stage aborts. Selected with
 * {@code spark.sql.sources.outputCommitterClass}.
 */
public class FailingTaskCommitter extends FileOutputCommitter {
  private final Path output;

  public FailingTaskCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context);
    this.output = outputPath;
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    throw new IOException(
        "Injected fault: could not commit task "
            + context.getTaskAttemptID()
            + ": moving its output into "
            + output
            + " failed");
  }
}
