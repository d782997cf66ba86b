package io.sparkrca.testkit.scenarios;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;

/**
 * A {@link FileOutputCommitter} whose job commit fails, the way a rename on a flaky or read-only
 * store fails. Tasks write and commit their output normally; only the final commit on the driver
 * throws. Selected with {@code spark.sql.sources.outputCommitterClass}.
 */
public class FailingJobCommitter extends FileOutputCommitter {
  private final Path output;

  public FailingJobCommitter(Path outputPath, TaskAttemptContext context) throws IOException {
    super(outputPath, context);
    this.output = outputPath;
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    throw new IOException(
        "Injected fault: could not commit the job: rename of task output into "
            + output
            + " failed");
  }
}
