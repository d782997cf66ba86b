package io.sparkrca.cli;

import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.kubernetes.KubernetesView;
import io.sparkrca.kubernetes.SparkPods;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparkrca k8s pods|events|logs --app-id ID}: what a Kubernetes cluster holds about one
 * Spark application (its pods' termination records, node conditions, events, the driver's and
 * failed executors' log tails), read-only, with kubectl's credentials. Exit code 0 when nothing
 * failed, 1 when a pod failed or was evicted, a warning event or a failure in a log was found, 2
 * when the cluster could not be read or holds nothing about the application.
 *
 * <pre>{@code
 * sparkrca k8s pods --app-id spark-4f1c0e8d2b7a --k8s-namespace spark-jobs --format json
 * sparkrca k8s logs --app-id spark-4f1c0e8d2b7a --executor 3 --previous
 * }</pre>
 */
@Command(
    name = "k8s",
    mixinStandardHelpOptions = true,
    header = "Shows what a Kubernetes cluster holds about a Spark application.",
    description = {
      "",
      "Its driver and executor pods (phase, eviction, each container's termination reason such as "
          + "OOMKilled, exit code, times, restarts, memory limit), the nodes' conditions, the Spark "
          + "Operator's SparkApplication, the events, and the tails of the driver's and failed "
          + "executors' logs (the previous container's too). Read-only (get, list).",
      "",
      "A failed or evicted pod, a warning event or a failure in a log exits 1; no access or no pods "
          + "of that application exits 2.",
      ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  sparkrca k8s pods --app-id spark-4f1c0e8d2b7a --k8s-namespace spark-jobs",
      "  sparkrca k8s events --app-id spark-4f1c0e8d2b7a --format json --output events.json",
      "  sparkrca k8s logs --app-id spark-4f1c0e8d2b7a --executor 3 --previous"
    },
    subcommands = {K8sCommand.Pods.class, K8sCommand.Events.class, K8sCommand.Logs.class})
final class K8sCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "an action is required: pods, events or logs");
  }

  /** An action: its options, and the formats it writes. */
  abstract static class Action extends FormattedCommand {
    @Mixin Common common;

    Action() {
      super(OutputFormat.markdown, OutputFormat.json, OutputFormat.text, OutputFormat.html);
    }
  }

  /** What every action takes: the application, the cluster, the output. */
  static final class Common {
    @Spec(Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--app-id", required = true, paramLabel = "ID",
        description = "The Spark application id (spark.app.id; Spark labels its pods spark-app-selector=ID).")
    String appId;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "markdown", description = "markdown (default), json or text.")
    OutputFormat format;

    @Mixin OutputFile output;

    @Mixin KubernetesOptions k8s;

    /** Reads with {@code read}, writes the result, returns the exit code. */
    int run(Function<SparkPods, KubernetesView> read) {
      PrintWriter out = spec.commandLine().getOut();
      KubernetesView view;
      try (SparkPods pods = SparkPods.connect(k8s.settings())) {
        // Nothing at all was read: say why, as an error, rather than print an empty table.
        view = read.apply(pods).requireRead();
      }
      String text = format == OutputFormat.json ? view.toJson() : format == OutputFormat.text ? view.toText()
          : view.toMarkdown();
      output.write(out, text);
      int missing = view.gaps().size();
      if (!CliContract.quiet(spec)) {
        spec.commandLine().getErr().println("sparkrca: " + Redactor.standard().redactText(view.summary())
            + (missing > 0 ? "; " + missing + " gap(s) in what could be read, listed in the result" : ""));
      }
      return view.exitCode();
    }

    SparkPods.Target target() {
      return SparkPods.Target.of(appId);
    }
  }

  @Command(name = "pods", mixinStandardHelpOptions = true,
      header = "The application's pods: phase, reason, containers' termination records, restarts, limits; their nodes' conditions; its SparkApplication.",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca k8s pods --app-id spark-4f1c0e8d2b7a", "  sparkrca k8s pods --app-id spark-4f1c0e8d2b7a --k8s-context prod --format json"})
  static final class Pods extends Action {

    @Override
    public Integer call() {
      return common.run(p -> p.pods(common.target()));
    }
  }

  @Command(name = "events", mixinStandardHelpOptions = true,
      header = "The events about the application's pods, their nodes and its SparkApplication, oldest first.",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca k8s events --app-id spark-4f1c0e8d2b7a --k8s-namespace spark-jobs"})
  static final class Events extends Action {

    @Override
    public Integer call() {
      return common.run(p -> p.events(common.target()));
    }
  }

  @Command(name = "logs", mixinStandardHelpOptions = true,
      header = "The tails of the driver's and failed executors' container logs (the previous container's too after a restart), with the failures found in them.",
      footerHeading = "%nExamples:%n",
      footer = {"  sparkrca k8s logs --app-id spark-4f1c0e8d2b7a", "  sparkrca k8s logs --app-id spark-4f1c0e8d2b7a --executor 3 --previous"})
  static final class Logs extends Action {

    @Option(names = "--executor", paramLabel = "ID", description = "Only this executor's pod (driver: the driver's).")
    String executor;

    @Option(names = "--previous", description = "Only the previous (restarted) container's log, as kubectl logs --previous.")
    boolean previous;

    @Override
    public Integer call() {
      return common.run(p -> p.logs(common.target(), Optional.ofNullable(executor), previous));
    }
  }
}
