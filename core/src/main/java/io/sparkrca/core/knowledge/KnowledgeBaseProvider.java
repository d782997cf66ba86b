package io.sparkrca.core.knowledge;

import java.io.InputStream;

/**
 * A source of failure families found with {@link java.util.ServiceLoader}: a platform team ships
 * its own failures (its quota messages, its storage's errors) in a jar, and every embedding of
 * sparkrca that has the jar on its class path reads them ({@link KnowledgeBase.Builder#serviceProviders()}).
 * The file has the schema of the standard base (docs/knowledge-base.md).
 *
 * <pre>{@code
 * public final class OurFailures implements KnowledgeBaseProvider {
 *   public String name() { return "our platform's failures"; }
 *   public InputStream open() { return OurFailures.class.getResourceAsStream("/our-failures.json"); }
 * }
 * // META-INF/services/io.sparkrca.core.knowledge.KnowledgeBaseProvider: com.example.OurFailures
 * }</pre>
 */
public interface KnowledgeBaseProvider {
  /** A name for messages, e.g. the file or product. */
  String name();

  /** The JSON document; closed by the caller. */
  InputStream open();
}
