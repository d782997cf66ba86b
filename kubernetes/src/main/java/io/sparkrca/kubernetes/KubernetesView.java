package io.sparkrca.kubernetes;

import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.report.Report;
import java.util.List;

/**
 * What one read of {@link SparkPods} returns ({@link PodsView}, {@link EventsView}, {@link
 * LogsView}): a report with the gaps in what could be read, whether anything was read at all, a
 * one-line summary, and an exit code (1 when it shows something wrong).
 *
 * <pre>{@code
 * KubernetesView v = k8s.pods(SparkPods.Target.of(appId)).requireRead();
 * System.err.println(v.summary());
 * }</pre>
 */
public sealed interface KubernetesView extends Report permits PodsView, EventsView, LogsView {
  /** What could not be read, with the exact reason. */
  List<EvidenceGap> gaps();

  /** The namespace read. */
  String namespace();

  /** Whether nothing at all about the application was read. */
  boolean nothingRead();

  /** 1 when the view shows something wrong (a failed pod, a warning event, a failure in a log); else 0. */
  int exitCode();

  /** One line: how much was read and how much of it is wrong, and in which namespace. */
  String summary();

  /**
   * This view, or, when nothing at all was read and a gap says why, that gap as an error (rather
   * than an empty result).
   *
   * @throws SparkRcaException naming the call that failed and what to do
   */
  default KubernetesView requireRead() {
    if (nothingRead() && !gaps().isEmpty()) {
      EvidenceGap g = gaps().get(0);
      throw new SparkRcaException(g.uri() + ": " + g.detail() + (g.whatToDo().isEmpty() ? "" : " (" + g.whatToDo() + ")"));
    }
    return this;
  }
}
