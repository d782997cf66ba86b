package io.sparkrca.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.sparkrca.core.evidence.ClusterEvidenceProvider.ClusterEvidence;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.kubernetes.testing.ApiServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace that holds more than one page or more than a cap of what the provider reads: events
 * past the events kept, SparkApplications past the first page of their list. What matters is kept
 * (the warnings, the application's own SparkApplication), and what a cap leaves out is a gap that
 * says how much, never a silent loss.
 */
class KubernetesListCapsTest {
  private static final String NS = "spark";
  private static final String APP_ID = "spark-5d1c8a0e2f7b4c3a9e6d1f0b2a4c6e8d";
  private static final String DRIVER = "caps-app-driver";
  private static final String EVENTS = "/api/v1/namespaces/" + NS + "/events";
  private static final String APPS = "/apis/sparkoperator.k8s.io/v1beta2/namespaces/" + NS + "/sparkapplications";
  private static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");
  @TempDir Path dir;
  private ApiServer api;

  @BeforeEach
  void start() {
    api = ApiServer.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private SparkPods connect() {
    return SparkPods.connect(api.settings(dir).namespace(NS).build());
  }

  private static SparkPods.Target target() {
    return SparkPods.Target.of(APP_ID);
  }

  /** The application's driver pod, launched by the operator as {@code operatorApp} when not null. */
  private void driverPod(String operatorApp) {
    Map<String, String> labels = new HashMap<>(Map.of("spark-app-selector", APP_ID, "spark-role", "driver"));
    if (operatorApp != null) {
      labels.put("sparkoperator.k8s.io/app-name", operatorApp);
    }
    Pod pod = new PodBuilder().withNewMetadata().withName(DRIVER).withNamespace(NS).withLabels(labels).endMetadata()
        .withNewSpec().addNewContainer().withName("spark-kubernetes-driver").endContainer().endSpec()
        .withNewStatus().withPhase("Running").endStatus().build();
    api.create(pod);
  }

  private static Event event(int i, String type, String reason) {
    String at = T0.plusSeconds(i).toString();
    return new EventBuilder().withNewMetadata().withName(DRIVER + ".e" + i).withNamespace(NS).endMetadata()
        .withNewInvolvedObject().withKind("Pod").withName(DRIVER).withNamespace(NS).withApiVersion("v1")
        .endInvolvedObject().withType(type).withReason(reason).withMessage("event number " + i).withCount(1)
        .withFirstTimestamp(at).withLastTimestamp(at).withNewSource().withComponent("kubelet").endSource().build();
  }

  private static GenericKubernetesResource sparkApplication(String name, String appId) {
    return new GenericKubernetesResourceBuilder().withApiVersion("sparkoperator.k8s.io/v1beta2")
        .withKind("SparkApplication").withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .addToAdditionalProperties("status", Map.of("applicationState", Map.of("state", "FAILED", "errorMessage",
            "driver container failed"), "sparkApplicationId", appId, "driverInfo", Map.of("podName", name + "-driver")))
        .build();
  }

  private static List<GenericKubernetesResource> others(int n) {
    List<GenericKubernetesResource> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(sparkApplication("other-" + i, "spark-other-" + i));
    }
    return out;
  }

  @Test
  void eventsPastTheCapKeepTheWarningsAndTheNewestAndSayHowManyWereLeftOut() {
    driverPod(null);
    // 1500 events about the driver's pod over three pages; the one warning, late, is the one that matters.
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      events.add(i == 1400 ? event(i, "Warning", "OOMKilling") : event(i, "Normal", "Pulled"));
    }
    api.paged(EVENTS, "EventList", "v1", events);

    try (SparkPods k8s = connect()) {
      EventsView v = k8s.events(target());

      assertThat(v.events()).hasSize(1000);
      assertThat(v.events()).filteredOn(EventInfo::warning).singleElement()
          .satisfies(e -> assertThat(e.reason()).isEqualTo("OOMKilling"));
      // The normal events kept are the newest: the oldest kept is the 500th.
      assertThat(v.events().get(0).time()).contains(T0.plusSeconds(500));
      assertThat(v.summary()).startsWith("1000 event(s), 1 warning(s)");
      List<EvidenceGap> cut = v.gaps().stream().filter(g -> g.uri().contains("/events")).toList();
      assertThat(cut).singleElement().satisfies(g -> {
        assertThat(g.reason()).isEqualTo(GapReason.PARTIAL);
        assertThat(g.detail()).isEqualTo("500 of the 1500 events about the application in namespace spark were left out "
            + "(at most 1000 are kept): all 1 warning(s) are kept, with the newest normal events");
        assertThat(g.whatToDo()).contains("kubectl get events -n spark");
      });

      // rca's path: the warning is among the cluster records, the cut among the gaps.
      ClusterEvidence e = k8s.evidence(target(), LogSignatures.standard());
      assertThat(e.events()).anySatisfy(c -> assertThat(c.reason()).isEqualTo("OOMKilling"));
      assertThat(e.gaps()).anySatisfy(g -> assertThat(g.detail()).startsWith("500 of the 1500 events"));
    }
  }

  @Test
  void theOperatorsSparkApplicationIsReadByTheNameItsPodsGiveWhateverTheListHolds() {
    driverPod("target-app");
    api.createSparkApplication(sparkApplication("target-app", APP_ID));
    // The namespace's list: 500 other applications on the first page, the application's on the second.
    List<GenericKubernetesResource> all = others(500);
    all.add(sparkApplication("target-app", APP_ID));
    api.paged(APPS, "SparkApplicationList", "sparkoperator.k8s.io/v1beta2", all);

    try (SparkPods k8s = connect()) {
      PodsView v = k8s.pods(target());

      assertThat(v.applications()).singleElement().satisfies(a -> {
        assertThat(a.name()).isEqualTo("target-app");
        assertThat(a.sparkApplicationId()).contains(APP_ID);
        assertThat(a.state()).isEqualTo("FAILED");
      });
      assertThat(v.gaps()).noneSatisfy(g -> assertThat(g.uri()).contains("sparkapplications"));
    }
    assertThat(api.requests()).contains("GET " + APPS + "/target-app")
        .noneSatisfy(q -> assertThat(q).startsWith("GET " + APPS + "?"));
  }

  @Test
  void withThePodsGoneTheSparkApplicationIsFoundPastTheFirstPage() {
    List<GenericKubernetesResource> all = others(500);
    all.add(sparkApplication("target-app", APP_ID));
    all.addAll(others(3));
    api.paged(APPS, "SparkApplicationList", "sparkoperator.k8s.io/v1beta2", all);

    try (SparkPods k8s = connect()) {
      PodsView v = k8s.pods(target());

      assertThat(v.applications()).singleElement().satisfies(a -> assertThat(a.name()).isEqualTo("target-app"));
      assertThat(v.gaps()).noneSatisfy(g -> assertThat(g.uri()).contains("sparkapplications"));
    }
    assertThat(api.requests()).anySatisfy(q -> assertThat(q).startsWith("GET " + APPS).contains("continue=500"));
  }

  @Test
  void withThePodsGoneASearchThatReachesTheCapIsAGap() {
    api.paged(APPS, "SparkApplicationList", "sparkoperator.k8s.io/v1beta2", others(5200));

    try (SparkPods k8s = connect()) {
      PodsView v = k8s.pods(target());

      assertThat(v.applications()).isEmpty();
      assertThat(v.gaps()).filteredOn(g -> g.uri().contains("sparkapplications")).singleElement().satisfies(g -> {
        assertThat(g.reason()).isEqualTo(GapReason.PARTIAL);
        assertThat(g.detail()).isEqualTo("only the first 5000 SparkApplications in namespace spark were searched for the "
            + "one of " + APP_ID + ", and it was not among them; the rest were not read");
        assertThat(g.whatToDo()).contains("kubectl get sparkapplications -n spark");
      });
    }
  }
}
