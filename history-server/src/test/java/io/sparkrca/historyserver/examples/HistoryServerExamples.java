package io.sparkrca.historyserver.examples;

import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.historyserver.HistoryProfiles;
import io.sparkrca.historyserver.HistoryServerDiscovery;
import io.sparkrca.historyserver.HistoryServerHistory;
import io.sparkrca.historyserver.HistoryServerSettings;
import io.sparkrca.historyserver.HistoryServerUri;
import io.sparkrca.historyserver.Profile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/** The Javadoc examples of {@code io.sparkrca.historyserver}, compiled (see {@link JavadocExamplesTest}). */
class HistoryServerExamples {
  /** The example of {@code HistoryProfiles}. */
  void historyProfiles() throws Exception {
    SparkApplication app = SparkSources.defaults().application("http://shs:18080/api/v1/applications/app-1");
    System.out.println(HistoryProfiles.failure(app, HistoryProfiles.Limits.defaults()).toJson());
  }

  /** The example of {@code HistoryServerApplication}. */
  void historyServerApplication() throws Exception {
    SparkApplication app = SparkSources.defaults().application("http://shs:18080/api/v1/applications/app-1");
    app.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED)));
  }

  /** The example of {@code HistoryServerDiscovery}. */
  void historyServerDiscovery() throws Exception {
    HistoryServerDiscovery.Result r = HistoryServerDiscovery.discover(System::getenv, HistoryServerSettings.defaults());
    r.url().ifPresentOrElse(u -> System.out.println("History Server: " + u),
        () -> r.eventLogDir().ifPresent(d -> System.out.println("event logs: " + d)));
    r.tried().forEach(System.err::println);
  }

  /** The example of {@code HistoryServerDiscovery}. */
  void historyServerDiscoveryHistory(HistoryServerSettings settings) throws Exception {
    SparkHistory h = HistoryServerDiscovery.history(Optional.empty(), settings, ByteSources.defaults(), System.err::println);
  }

  /** The example of {@code HistoryServerHistory}. */
  void historyServerHistory() throws Exception {
    HistoryServerHistory shs = HistoryServerHistory.open("https://shs:18080", HistoryServerSettings.builder().fromEnvironment().build());
    for (ApplicationInfo a : shs.applications()) System.out.println(a.id() + " " + a.name());
    SparkApplication app = shs.application("application_1700000000000_0042", Optional.of("1")).orElseThrow();
  }

  /** The example of {@code HistoryServerProvider}. */
  void historyServerProvider() throws Exception {
    SparkApplication app = SparkSources.defaults().application("http://localhost:18080/history/app-20240101-0001");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder()
        .application("https://shs.example.com/api/v1/applications/application_1700000000000_0042/1").build().collect());
  }

  /** The example of {@code HistoryServerSettings}. */
  void historyServerSettings() throws Exception {
    HistoryServerSettings s = HistoryServerSettings.builder()
        .fromEnvironment()                         // SPARK_HISTORY_AUTHORIZATION, _COOKIE, _HEADERS_JSON
        .http(HttpSettings.builder().caCertificates(Path.of("corp-ca.pem")).build())
        .concurrency(8)
        .build();
    SparkHistory shs = HistoryServerHistory.open("https://shs.example.com:18080", s);
  }

  /** The example of {@code HistoryServerUri}. */
  void historyServerUri() throws Exception {
    HistoryServerUri u = HistoryServerUri.parse("https://shs:18080/history/app-1/2/jobs/").orElseThrow();
    u.apiRoot();      // https://shs:18080/api/v1/
    u.appId();        // Optional[app-1]
    u.attemptId();    // Optional[2]
    HistoryServerUri.of("http://localhost:18080", "app-1", Optional.empty()).toString();
    // http://localhost:18080/api/v1/applications/app-1
  }

  /** The example of {@code Profile}. */
  void profile(SparkApplication app) throws Exception {
    Profile p = HistoryProfiles.failure(app, HistoryProfiles.Limits.defaults());
    Files.writeString(Path.of("failure.json"), p.toJson());
  }
}
