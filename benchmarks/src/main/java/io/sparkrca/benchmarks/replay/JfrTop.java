package io.sparkrca.benchmarks.replay;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarizes the CPU samples ({@code jdk.ExecutionSample}) of a JFR recording: the hottest methods
 * by self time (top frame) and by total time (anywhere on the stack), as shares of all samples.
 *
 * <pre>{@code java -cp ... io.sparkrca.benchmarks.replay.JfrTop recording.jfr [top-n]}</pre>
 */
public final class JfrTop {
  private JfrTop() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 25;
    Map<String, Integer> self = new HashMap<>();
    Map<String, Integer> total = new HashMap<>();
    int samples = 0;
    try (RecordingFile f = new RecordingFile(Path.of(args[0]))) {
      while (f.hasMoreEvents()) {
        RecordedEvent e = f.readEvent();
        if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
          continue;
        }
        samples++;
        List<RecordedFrame> frames = e.getStackTrace().getFrames();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < frames.size(); i++) {
          String m = name(frames.get(i).getMethod());
          if (i == 0) {
            self.merge(m, 1, Integer::sum);
          }
          if (seen.add(m)) {
            total.merge(m, 1, Integer::sum);
          }
        }
      }
    }
    System.out.println(samples + " CPU samples");
    print("self (top frame)", self, samples, n);
    print("total (on the stack)", total, samples, n);
  }

  private static String name(RecordedMethod m) {
    return m.getType().getName() + "." + m.getName();
  }

  private static void print(String title, Map<String, Integer> counts, int samples, int n) {
    System.out.println();
    System.out.println(title + ":");
    counts.entrySet().stream()
        .sorted((a, b) -> Integer.compare(b.getValue(), a.getValue()))
        .limit(n)
        .forEach(e -> System.out.printf("  %5.1f%%  %s%n", 100.0 * e.getValue() / samples, e.getKey()));
  }
}
