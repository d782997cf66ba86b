package io.sparkrca.core.source;

import java.util.Set;

/**
 * Reads that a provider module answers by name, with JSON arguments and a JSON result: the History
 * Server's bounded profiles, Dataproc's workload views, Kubernetes' pod views. It is the seam through
 * which a front door that holds the providers at run time only (the MCP server: sparkrca-mcp lists
 * sparkrca-history-server, -gcp and -kubernetes in {@code runtime} scope) reaches what they read
 * beyond the model ({@link SparkHistoryProvider}) and the evidence ({@code
 * io.sparkrca.core.evidence}): the caller names the read and validates its arguments against its own
 * schema; the provider does the read and renders its JSON. Providers are found with {@link
 * java.util.ServiceLoader} (list the class in {@code
 * META-INF/services/io.sparkrca.core.source.SourceReadProvider}); a read name belongs to one
 * provider.
 *
 * <pre>{@code
 * public final class MyPlatformReads implements SourceReadProvider {
 *   public String name() { return "my-platform"; }
 *   public Set<String> reads() { return Set.of("my_jobs"); }
 *   public String read(String read, ReadArguments arguments, SourceSettings settings) {
 *     return "{\"jobs\": []}";
 *   }
 * }
 * }</pre>
 */
public interface SourceReadProvider {

  /** A short name for messages, such as {@code "history-server"}. */
  String name();

  /** The names of the reads this provider answers, such as {@code "shs_profile"}. */
  Set<String> reads();

  /**
   * Runs {@code read} (one of {@link #reads()}) with {@code arguments}, reading remote servers with
   * {@code settings}' HTTP settings and bytes with its byte sources; the result is the text of one
   * JSON object, every secret in it redacted. A bad argument or an input that cannot be read is a
   * {@link io.sparkrca.core.error.SparkRcaException} whose message names it and says what to do.
   */
  String read(String read, ReadArguments arguments, SourceSettings settings);
}
