package io.sparkrca.kubernetes.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.ReadArguments;
import io.sparkrca.core.source.SourceReadProvider;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.kubernetes.KubernetesSettings;
import io.sparkrca.kubernetes.KubernetesView;
import io.sparkrca.kubernetes.SparkPods;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code k8s_pods}, {@code k8s_events} and {@code k8s_logs}, the Kubernetes reads of {@code
 * sparkrca k8s} for a front door that holds this module at run time only (the MCP server), through
 * {@link SparkPods} with {@link KubernetesSettings} from the call (the kubeconfig, context and
 * namespace, resolved as kubectl resolves them when not given). Nothing read at all is an error
 * naming why ({@link KubernetesView#requireRead}); otherwise the view's JSON with its one-line
 * {@code summary} and {@code problemFound} (the command line's exit code 1).
 *
 * <pre>{@code
 * String json = new KubernetesReads().read("k8s_pods",
 *     new ReadArguments("k8s_pods", Map.of("appId", "spark-1")), SourceSettings.defaults());
 * }</pre>
 */
public final class KubernetesReads implements SourceReadProvider {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Found with {@link java.util.ServiceLoader}. */
  public KubernetesReads() {}

  @Override
  public String name() {
    return "kubernetes";
  }

  @Override
  public Set<String> reads() {
    return Set.of("k8s_pods", "k8s_events", "k8s_logs");
  }

  /** The cluster's API server is read with the kubeconfig's credentials; {@code settings} are not used. */
  @Override
  public String read(String read, ReadArguments a, SourceSettings settings) {
    return switch (read) {
      case "k8s_pods" -> pods(a);
      case "k8s_events" -> events(a);
      case "k8s_logs" -> logs(a);
      default -> throw new InvalidRequestException("the Kubernetes reads are k8s_pods, k8s_events and k8s_logs, not '" + read + "'");
    };
  }

  private static String pods(ReadArguments a) {
    return read(a, pods -> pods.pods(target(a)));
  }

  private static String events(ReadArguments a) {
    return read(a, pods -> pods.events(target(a)));
  }

  private static String logs(ReadArguments a) {
    return read(a, pods -> pods.logs(target(a), a.string("executor"), a.bool("previous", false)));
  }

  private static String read(ReadArguments a, Function<SparkPods, KubernetesView> read) {
    KubernetesView view;
    try (SparkPods pods = SparkPods.connect(settings(a))) {
      view = read.apply(pods).requireRead();
    }
    try {
      ObjectNode out = (ObjectNode) JSON.readTree(view.toJson());
      out.put("summary", Redactor.standard().redactText(view.summary()));
      out.put("problemFound", view.exitCode() != 0);
      return out.toPrettyString();
    } catch (IOException e) {
      throw new AssertionError("the view's own JSON did not parse", e);
    }
  }

  private static SparkPods.Target target(ReadArguments a) {
    return SparkPods.Target.of(a.requiredString("appId"));
  }

  private static KubernetesSettings settings(ReadArguments a) {
    KubernetesSettings.Builder b = KubernetesSettings.builder();
    a.string("namespace").ifPresent(b::namespace);
    a.string("context").ifPresent(b::context);
    a.string("kubeconfig").ifPresent(f -> b.kubeconfig(Path.of(f)));
    a.string("driverPod").ifPresent(b::driverPod);
    a.optionalInteger("requestTimeoutSeconds").ifPresent(s -> b.requestTimeout(Duration.ofSeconds(s)));
    a.optionalInteger("maxLogLines").ifPresent(b::logTailLines);
    return b.build();
  }
}
