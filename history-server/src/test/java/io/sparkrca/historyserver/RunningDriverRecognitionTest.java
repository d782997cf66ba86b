package io.sparkrca.historyserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A running driver's UI is told from a History Server by its listing alone. Here the negative side,
 * on every listing a real History Server (3.5.9 and 4.0.4) was recorded answering for the testkit's
 * fixtures, in progress ones included: none is taken for a running driver. The positive side, a
 * real driver's UI, is testkit/shs-parity's {@code LiveDriverUiParityTest}.
 */
class RunningDriverRecognitionTest {
  @Test
  void noHistoryServerListingIsTakenForARunningDriver() throws IOException {
    List<String> taken = new ArrayList<>();
    int inProgress = 0;
    int listed = 0;
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      Path listing = f.dir().resolve("shs/applications.json");
      if (!Files.isRegularFile(listing)) {
        continue;
      }
      List<ApplicationInfo> apps = SparkJson.mapper().readValue(listing.toFile(),
          SparkJson.mapper().getTypeFactory().constructCollectionType(List.class, ApplicationInfo.class));
      for (ApplicationInfo app : apps) {
        for (ApplicationAttemptInfo a : app.attempts()) {
          listed++;
          inProgress += a.completed() ? 0 : 1;
          if (HistoryServerApplication.servedByRunningDriver(a)) {
            taken.add(f.sparkVersion() + "/" + f.scenario());
          }
        }
      }
    }
    assertThat(listed).as("application attempts the recorded History Server listings hold").isGreaterThan(40);
    assertThat(inProgress).as("of them not completed (the History Server's view of a running or killed driver)").isGreaterThan(0);
    assertThat(taken).as("fixtures whose History Server listing was taken for a running driver's UI").isEmpty();
  }
}
