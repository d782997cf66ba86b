package io.sparkrca.testing.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.testing.SparkAssertions;
import io.sparkrca.testing.junit.NoFailedStages;
import io.sparkrca.testing.junit.SessionScope;
import io.sparkrca.testing.junit.SparkRun;
import io.sparkrca.testing.junit.SparkTest;
import java.nio.file.Files;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The two other session scopes on real Spark: a session per test, and the session the code under test builds. */
class OtherSessionScopesTest {
  /** A session of its own per test, stopped after the body: the test's application is the whole, ended one. */
  @Nested
  @SparkTest(session = SessionScope.PER_METHOD)
  @NoFailedStages
  class PerMethod {
    private SparkSession session;

    @Test
    void theTestsApplicationIsCompleteAfterItsBody(SparkSession spark, SparkRun run) {
      session = spark;
      Jobs.healthyAggregation(spark);
      assertThat(run.application().jobs(Set.of())).isNotEmpty();
    }

    @AfterEach
    void handedOverEndedAndStopped(SparkApplication app) {
      assertThat(session.sparkContext().isStopped()).isTrue();
      assertThat(app.info().id()).isEqualTo(session.sparkContext().applicationId());
      assertThat(app.info().latestAttempt().completed()).isTrue();
      assertThat(app.info().latestAttempt().endTime()).isAfter(app.info().latestAttempt().startTime());
      SparkAssertions.assertThat(app).hasNoFailedJobs().hasNoTaskFailures();
    }
  }

  /** The code under test builds (and stops) its own session: the extension only points its event log at the run's directory. */
  @Nested
  @SparkTest(session = SessionScope.CODE_UNDER_TEST)
  class CodeUnderTest {
    @Test
    void theApplicationTheCodeBuiltIsReplayed(SparkRun run) throws Exception {
      SparkSession own = SparkSession.builder().master("local[2]").appName("code-under-test").getOrCreate();
      try {
        Jobs.healthyAggregation(own);
      } finally {
        own.stop();
      }
      SparkApplication app = run.application();
      assertThat(app.info().name()).isEqualTo("code-under-test");
      assertThat(app.jobs(Set.of())).isNotEmpty();
      try (var files = Files.list(run.eventLogDirectory())) {
        // 3.5 writes one file named after the application, 4.0 a rolling eventlog_v2_<app> directory.
        assertThat(files.map(p -> p.getFileName().toString())).singleElement().asString().contains(app.info().id());
      }
      SparkAssertions.assertThat(app).hasNoFailedStages().hasNoTaskFailures();
    }
  }
}
