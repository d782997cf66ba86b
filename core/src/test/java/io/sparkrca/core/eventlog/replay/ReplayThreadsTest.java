package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.EventLogHistoryProvider;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.ThreadRecordingFiles;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link ReplayOptions#threads()} decides whether a replay reads its file on a second thread. */
class ReplayThreadsTest {

  @Test
  void oneThreadReadsEveryByteOnTheCallingThread() {
    ThreadRecordingFiles files = new ThreadRecordingFiles();
    EventLogs.reader().sources(ByteSources.builder().add(files).build()).threads(1).build().replay(log());
    assertThat(files.readers()).containsExactly(Thread.currentThread().getName());
  }

  @Test
  void twoThreadsReadOnASecondThread() {
    ThreadRecordingFiles files = new ThreadRecordingFiles();
    EventLogs.reader().sources(ByteSources.builder().add(files).build()).threads(2).build().replay(log());
    assertThat(files.readers()).anySatisfy(name -> assertThat(name).isNotEqualTo(Thread.currentThread().getName()));
  }

  @Test
  void sourceSettingsCarryTheReadThreadsToTheEventLogProvider() {
    ThreadRecordingFiles files = new ThreadRecordingFiles();
    SourceSettings settings =
        SourceSettings.builder().byteSources(ByteSources.builder().add(files).build()).readThreads(1).build();
    new EventLogHistoryProvider().application(log(), settings);
    assertThat(settings.readThreads()).isEqualTo(1);
    assertThat(files.readers()).containsExactly(Thread.currentThread().getName());
    assertThat(SourceSettings.defaults().readThreads()).isEqualTo(ReplayOptions.DEFAULT_THREADS);
  }

  @Test
  void bothAnswerTheSame() {
    var one = EventLogs.reader().threads(1).build().replay(log());
    var two = EventLogs.reader().threads(2).build().replay(log());
    assertThat(one.report().events()).isPositive().isEqualTo(two.report().events());
    assertThat(one.stages(StageQuery.all())).isNotEmpty().isEqualTo(two.stages(StageQuery.all()));
  }

  @Test
  void otherThreadCountsAreRefusedWithTheAllowedValues() {
    assertThatThrownBy(() -> ReplayOptions.DEFAULTS.withThreads(3))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("threads must be 1")
        .hasMessageContaining("was 3");
    assertThatThrownBy(() -> EventLogs.reader().threads(0).build()).isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> SourceSettings.builder().readThreads(4))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("read threads must be 1 or 2, not 4");
  }

  /** A single-file testkit event log. */
  private static String log() {
    return TestkitFixtures.all().stream()
        .map(TestkitFixtures.Fixture::eventLog)
        .filter(Files::isRegularFile)
        .map(Path::toString)
        .findFirst()
        .orElseThrow();
  }
}
