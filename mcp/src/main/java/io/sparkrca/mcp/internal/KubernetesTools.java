package io.sparkrca.mcp.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.kubernetes.KubernetesSettings;
import io.sparkrca.kubernetes.KubernetesView;
import io.sparkrca.kubernetes.SparkPods;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * {@code k8s_pods}, {@code k8s_events} and {@code k8s_logs}: the Kubernetes reads of {@code
 * sparkrca k8s}, through {@link SparkPods} with {@link KubernetesSettings} from the call (the
 * kubeconfig, context and namespace, resolved as kubectl resolves them when not given). Nothing
 * read at all is an error naming why ({@link KubernetesView#requireRead}); otherwise the view's JSON
 * with its one-line {@code summary} and {@code problemFound} (the command line's exit code 1).
 *
 * <pre>{@code
 * String json = KubernetesTools.read(new Args("k8s_pods", Map.of("appId", "spark-1")), (pods, t) -> pods.pods(t));
 * }</pre>
 */
final class KubernetesTools {
  private static final ObjectMapper JSON = new ObjectMapper();

  private KubernetesTools() {}

  static String pods(Args a) {
    return read(a, pods -> pods.pods(target(a)));
  }

  static String events(Args a) {
    return read(a, pods -> pods.events(target(a)));
  }

  static String logs(Args a) {
    return read(a, pods -> pods.logs(target(a), a.string("executor"), a.bool("previous", false)));
  }

  private static String read(Args a, Function<SparkPods, KubernetesView> read) {
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

  private static SparkPods.Target target(Args a) {
    return SparkPods.Target.of(a.requiredString("appId"));
  }

  private static KubernetesSettings settings(Args a) {
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
