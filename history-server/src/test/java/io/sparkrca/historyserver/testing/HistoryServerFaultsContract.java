package io.sparkrca.historyserver.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.historyserver.HistoryServerHistory;
import io.sparkrca.historyserver.HistoryServerSettings;
import io.sparkrca.historyserver.HistoryServerUri;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.core.evidence.EvidenceCollector;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 12 §4: the client behind a {@link FaultProxy} in front of a History Server. Each fault has
 * one outcome: retried and succeeded, a labelled gap, or a clear error; never a partial answer read
 * as complete, never a healthy verdict on missing data, retries bounded in count (the proxy counts
 * the requests) and in time (backoff and {@code Retry-After} capped by the settings). Subclasses
 * start the upstream: the real History Server (testkit/shs-parity) or {@code serve}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HistoryServerFaultsContract {
  private static final int RETRIES = 2;

  protected FaultProxy proxy;
  private FaultProxy otherHost;
  private String appId;

  /** The fixture the upstream serves (its log alone, or with others). */
  protected abstract TestkitFixtures.Fixture fixture();

  /** Starts the upstream server and returns its root URL, such as {@code http://127.0.0.1:18080}. */
  protected abstract String startUpstream() throws Exception;

  /** Stops the upstream server. */
  protected abstract void stopUpstream();

  @BeforeAll
  void startTheProxies() throws Exception {
    String upstream = startUpstream();
    proxy = FaultProxy.start(upstream, Duration.ZERO);
    otherHost = FaultProxy.start(upstream, Duration.ZERO);
    // The same loopback server by another name: a different host as far as credentials go.
    proxy.redirectTarget(otherHost.url().replace("127.0.0.1", "localhost"));
    appId = fixture().label().path("application").path("id").asText();
  }

  @AfterAll
  void stopAll() {
    if (proxy != null) {
      proxy.close();
    }
    if (otherHost != null) {
      otherHost.close();
    }
    stopUpstream();
  }

  @BeforeEach
  void noFaults() {
    proxy.reset();
    otherHost.reset();
  }

  private static HttpSettings http() {
    return HttpSettings.builder()
        .connectTimeout(Duration.ofSeconds(5)).requestTimeout(Duration.ofSeconds(60)).readTimeout(Duration.ofSeconds(1))
        .maxRetries(RETRIES).backoff(Duration.ofMillis(50), Duration.ofMillis(200)).maxRetryAfter(Duration.ofSeconds(2))
        .build();
  }

  private static HistoryServerSettings.Builder settings() {
    return HistoryServerSettings.builder().http(http());
  }

  private SparkApplication app(HistoryServerSettings s) {
    return HistoryServerHistory.open(proxy.url(), s).application(HistoryServerUri.of(proxy.url(), appId, Optional.empty()));
  }

  private static Predicate<String> endsWith(String suffix) {
    return p -> p.replaceAll("\\?.*", "").endsWith(suffix);
  }

  @Test
  void tooManyRequestsIsRetriedAfterRetryAfterAndSucceeds() {
    proxy.inject(endsWith("/jobs"), FaultProxy.Fault.TOO_MANY_REQUESTS, 1);

    assertThat(app(settings().build()).jobs(EnumSet.noneOf(JobExecutionStatus.class))).isNotEmpty();
    assertThat(proxy.count(endsWith("/jobs"))).as("the 429, then the retry").isEqualTo(2);
  }

  @Test
  void transientServerErrorsAreRetriedAndSucceed() {
    proxy.inject(endsWith("/environment"), FaultProxy.Fault.BAD_GATEWAY, 1);
    proxy.inject(endsWith("/allexecutors"), FaultProxy.Fault.UNAVAILABLE, 2);
    proxy.inject(endsWith("/stages"), FaultProxy.Fault.SERVER_ERROR, 1);

    SparkApplication app = app(settings().build());
    assertThat(app.environment()).isPresent();
    assertThat(app.executors(false)).isNotEmpty();
    assertThat(app.stages(io.sparkrca.core.app.StageQuery.all())).isNotEmpty();
    assertThat(proxy.count(endsWith("/environment"))).isEqualTo(2);
    assertThat(proxy.count(endsWith("/allexecutors"))).isEqualTo(3);
    assertThat(proxy.count(endsWith("/stages"))).isEqualTo(2);
  }

  @Test
  void aServerThatStaysUnavailableIsAClearErrorAfterBoundedRetries() {
    proxy.inject(endsWith("/jobs"), FaultProxy.Fault.UNAVAILABLE, Integer.MAX_VALUE);
    SparkApplication app = app(settings().build());

    assertThatThrownBy(() -> app.jobs(EnumSet.noneOf(JobExecutionStatus.class)))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("HTTP 503")
        .hasMessageContaining("after " + (RETRIES + 1) + " attempts");
    assertThat(proxy.count(endsWith("/jobs"))).as("one request and %s retries", RETRIES).isEqualTo(RETRIES + 1);
  }

  @Test
  void aBodyStalledPastTheReadTimeoutIsRetriedAsAWhole() {
    proxy.stall(Duration.ofSeconds(3)).inject(endsWith("/allexecutors"), FaultProxy.Fault.SLOW_BODY, 1);

    assertThat(app(settings().build()).executors(false)).isNotEmpty();
    assertThat(proxy.count(endsWith("/allexecutors"))).isEqualTo(2);
  }

  @Test
  void aBodyThatAlwaysStallsIsAnErrorNamingTheTimeout() {
    proxy.stall(Duration.ofSeconds(3)).inject(endsWith("/allexecutors"), FaultProxy.Fault.SLOW_BODY, Integer.MAX_VALUE);
    SparkApplication app = app(settings().build());

    assertThatThrownBy(() -> app.executors(false))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("stalled for longer than the read timeout (1000 ms)")
        .hasMessageContaining("never read as complete");
    assertThat(proxy.count(endsWith("/allexecutors"))).isEqualTo(RETRIES + 1);
  }

  @Test
  void anAnswerThatTricklesInJustFastEnoughForEachReadIsStoppedAsTooSlow() {
    proxy.inject(endsWith("/allexecutors"), FaultProxy.Fault.TRICKLE, Integer.MAX_VALUE);
    SparkApplication app = app(settings().build());

    assertThatThrownBy(() -> app.executors(false))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("/allexecutors: the answer arrives too slowly")
        .hasMessageContaining("at least 1 MiB per 1 s is expected")
        .hasMessageContaining("--timeout");
    assertThat(proxy.count(endsWith("/allexecutors"))).as("too slow is not retried").isEqualTo(1);
  }

  @Test
  void aBodyCutMidJsonIsNeverReadAsAPartialAnswer() {
    proxy.inject(endsWith("/stages"), FaultProxy.Fault.CUT_MID_JSON, Integer.MAX_VALUE);
    SparkApplication app = app(settings().build());

    assertThatThrownBy(() -> app.stages(io.sparkrca.core.app.StageQuery.all()))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("not complete JSON");
    assertThat(proxy.count(endsWith("/stages"))).isEqualTo(RETRIES + 1);
  }

  @Test
  void aConnectionClosedWithoutAnAnswerIsRetried() {
    proxy.inject(endsWith("/jobs"), FaultProxy.Fault.CLOSE_WITHOUT_ANSWER, 1);

    assertThat(app(settings().build()).jobs(EnumSet.noneOf(JobExecutionStatus.class))).isNotEmpty();
    assertThat(proxy.count(endsWith("/jobs"))).isEqualTo(2);
  }

  @Test
  void anHtmlLoginPageIsRecognisedAndExplained() {
    proxy.inject(endsWith("/applications"), FaultProxy.Fault.HTML_LOGIN, Integer.MAX_VALUE);

    assertThatThrownBy(() -> HistoryServerHistory.open(proxy.url(), settings().build()).list(Optional.empty(), 10))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("HTML page titled 'Sign in - Example Corp SSO'")
        .hasMessageContaining(HistoryServerSettings.ENV_COOKIE);
    assertThat(proxy.count(endsWith("/applications"))).as("a login page is not retried").isEqualTo(1);
  }

  @Test
  void anOversizeAnswerIsAnErrorNamingTheCap() {
    proxy.inject(endsWith("/jobs"), FaultProxy.Fault.OVERSIZE, Integer.MAX_VALUE);
    SparkApplication app = app(settings().build());

    assertThatThrownBy(() -> app.jobs(EnumSet.noneOf(JobExecutionStatus.class)))
        .isInstanceOf(UnsupportedInputException.class)
        .hasMessageContaining("more than the cap of " + HistoryServerSettings.DEFAULT_MAX_RESPONSE_BYTES + " bytes")
        .hasMessageContaining("nothing of it was used");
  }

  @Test
  void credentialsAreNeverForwardedAcrossARedirectToAnotherHost() {
    proxy.inject(endsWith("/jobs"), FaultProxy.Fault.REDIRECT_OTHER_HOST, 1);
    SparkApplication app = app(settings().authorization("Bearer s3cret-token").build());

    assertThat(app.jobs(EnumSet.noneOf(JobExecutionStatus.class))).isNotEmpty();
    assertThat(proxy.requests()).as("requests to the server named").isNotEmpty()
        .allSatisfy(r -> assertThat(r.authorization()).as("Authorization sent on %s", r.pathAndQuery()).isTrue());
    assertThat(otherHost.requests()).as("requests that followed the redirect").hasSize(1)
        .allSatisfy(r -> assertThat(r.authorization()).as("Authorization on the other host").isFalse());
  }

  @Test
  void unauthorizedNamesTheVariablesToSetAndIsNotRetried() {
    proxy.inject(endsWith("/applications"), FaultProxy.Fault.UNAUTHORIZED, Integer.MAX_VALUE);

    assertThatThrownBy(() -> HistoryServerHistory.open(proxy.url(), settings().build()).list(Optional.empty(), 10))
        .isInstanceOf(io.sparkrca.core.error.AccessDeniedException.class)
        .hasMessageContaining("401")
        .hasMessageContaining("set " + HistoryServerSettings.ENV_AUTHORIZATION);
    assertThat(proxy.count(endsWith("/applications"))).as("a 4xx is never retried").isEqualTo(1);
  }

  @Test
  void forbiddenWithCredentialsSaysTheyWereRefused() {
    proxy.inject(endsWith("/applications"), FaultProxy.Fault.FORBIDDEN, Integer.MAX_VALUE);

    assertThatThrownBy(() -> HistoryServerHistory.open(proxy.url(), settings().authorization("Bearer tok-4711").build())
        .list(Optional.empty(), 10))
        .isInstanceOf(io.sparkrca.core.error.AccessDeniedException.class)
        .hasMessageContaining("403")
        .hasMessageContaining("the credentials sent were refused")
        .hasMessageNotContaining("tok-4711");
    assertThat(proxy.count(endsWith("/applications"))).isEqualTo(1);
  }

  @Test
  void anUnknownApplicationNamesTheNearestIds() {
    String wrong = appId.substring(0, appId.length() - 1) + (appId.endsWith("9") ? "8" : "9");

    assertThatThrownBy(() -> HistoryServerHistory.open(proxy.url(), settings().build())
        .application(HistoryServerUri.of(proxy.url(), wrong, Optional.empty())))
        .isInstanceOf(io.sparkrca.core.error.InputNotFoundException.class)
        .hasMessageContaining(wrong)
        .hasMessageContaining(appId);
  }

  @Test
  void aRefusedConnectionIsAClearErrorAndNotRetried() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port;

    assertThatThrownBy(() -> HistoryServerHistory.open(url, settings().maxRetries(20).build()).list(Optional.empty(), 1))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("connection refused");
  }

  @Test
  void aTaskListThatCannotBeFetchedIsALabelledGapAndNeverAHealthyVerdict() {
    proxy.inject(p -> p.contains("/taskList") || p.contains("/taskSummary"), FaultProxy.Fault.UNAVAILABLE, Integer.MAX_VALUE);
    String uri = HistoryServerUri.of(proxy.url(), appId, Optional.empty()).toString();
    SourceSettings source = SourceSettings.builder().http(http()).build();

    RcaReport report = RcaEngine.standard().analyze(EvidenceCollector.builder().settings(source).application(uri).build().collect());

    assertThat(proxy.count(p -> p.contains("/taskList") || p.contains("/taskSummary")))
        .as("per-stage requests were made and failed").isPositive();
    assertThat(report.verdict()).as("verdict with the per-stage data missing").isNotEqualTo(Verdict.HEALTHY);
    assertThat(report.toMarkdown()).as("the report names the gap").containsPattern("task (list|summary) could not be fetched");
  }

  /** The fixture's answers the proxy passed through, for subclasses that check more. */
  protected List<FaultProxy.Request> passed() {
    return proxy.requests();
  }
}
