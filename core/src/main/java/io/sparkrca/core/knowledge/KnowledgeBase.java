package io.sparkrca.core.knowledge;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.knowledge.internal.KnowledgeBaseReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The failure knowledge base: what a log line means. Families of failures (each with its
 * root-cause kind, every wording across Spark versions and platforms, decisive or suggestive, what
 * it means, what to check and the fix) and signals (lines the analysis reads in context: exit
 * codes, lost executors, the driver's uncaught exception). It is data, in a versioned JSON
 * resource; users and platform teams add their own families with the same schema. Code decides
 * order and confidence; the base says what a line means. Immutable and thread-safe.
 *
 * <p>Families are tried in order, the most specific first: a user's families before the standard
 * ones, and within a file in the order written. A user family with the id of a standard one
 * replaces it.
 *
 * <pre>{@code
 * KnowledgeBase kb = KnowledgeBase.builder().standard().add(Path.of("our-failures.json")).build();
 * Optional<KnowledgeBase.Match> m = kb.classify("java.lang.OutOfMemoryError: Java heap space", KnowledgeBase.Side.EXECUTOR);
 * m.ifPresent(x -> System.out.println(x.kind() + (x.decisive() ? " (decisive)" : "")));
 * }</pre>
 */
public final class KnowledgeBase {
  /** The class-path resource of the standard base. */
  public static final String STANDARD_RESOURCE = "/io/sparkrca/core/knowledge/failures.json";

  private static final class Standard {
    static final KnowledgeBase BASE = builder().standard().build();
  }

  /** Whose failure a text is: it decides, for example, a driver's or an executor's out-of-memory kind. */
  public enum Side {
    DRIVER,
    EXECUTOR,
    /** Not known: the family's own kind. */
    UNKNOWN
  }

  /**
   * A family found in a text.
   *
   * @param family the family
   * @param wording the wording that matched
   * @param kind the family's kind on the side the text came from
   */
  public record Match(FailureFamily family, Wording wording, io.sparkrca.core.knowledge.RootCauseKind kind) {
    public Match {
      Objects.requireNonNull(family, "family");
      Objects.requireNonNull(wording, "wording");
      Objects.requireNonNull(kind, "kind");
    }

    /** Whether the matching wording establishes the family on its own. */
    public boolean decisive() {
      return wording.decisive();
    }
  }

  private final List<FailureFamily> families;
  private final List<Signal> signals;
  private final List<String> origins;

  private KnowledgeBase(List<FailureFamily> families, List<Signal> signals, List<String> origins) {
    this.families = List.copyOf(families);
    this.signals = List.copyOf(signals);
    this.origins = List.copyOf(origins);
  }

  /** The standard base: the failures users meet most, across Spark 2.4 to 4.x and the common platforms. */
  public static KnowledgeBase standard() {
    return Standard.BASE;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The families, in the order they are tried. */
  public List<FailureFamily> families() {
    return families;
  }

  /** The signals. */
  public List<Signal> signals() {
    return signals;
  }

  /** Where the entries came from, in the order added (the standard base, files, providers). */
  public List<String> origins() {
    return origins;
  }

  /** The family with this id. */
  public Optional<FailureFamily> family(String id) {
    return families.stream().filter(f -> f.id().equals(id)).findFirst();
  }

  /** The signal with this id. */
  public Optional<Signal> signal(String id) {
    return signals.stream().filter(s -> s.id().equals(id)).findFirst();
  }

  /**
   * The most specific family {@code text} (an exception with its causes, a log excerpt) holds: the
   * first family in order with a matching wording.
   */
  public Optional<Match> classify(CharSequence text, Side side) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(side, "side");
    for (FailureFamily f : families) {
      Optional<Wording> w = f.match(text);
      if (w.isPresent()) {
        return Optional.of(new Match(f, w.get(), f.kind(side)));
      }
    }
    return Optional.empty();
  }

  /** Every family {@code text} holds, in order. */
  public List<Match> matches(CharSequence text, Side side) {
    List<Match> out = new ArrayList<>();
    for (FailureFamily f : families) {
      f.match(text).ifPresent(w -> out.add(new Match(f, w, f.kind(side))));
    }
    return out;
  }

  /** Builds a base from the standard one, files, strings and the class path's providers. */
  public static final class Builder {
    private final List<KnowledgeBaseReader.Contents> parts = new ArrayList<>();
    private boolean standard;

    private Builder() {}

    /** Includes the standard base (tried after everything else added). */
    public Builder standard() {
      this.standard = true;
      return this;
    }

    /**
     * Adds the families and signals of a JSON file.
     *
     * @throws BrokenKnowledgeBaseException when the file is broken (every problem listed)
     * @throws InputNotFoundException when it does not exist
     */
    public Builder add(Path file) {
      Objects.requireNonNull(file, "file");
      if (!Files.isRegularFile(file)) {
        throw new InputNotFoundException(file.toString(), "no failure knowledge-base file there: check the path");
      }
      try (InputStream in = Files.newInputStream(file)) {
        parts.add(KnowledgeBaseReader.read(in, file.toString()));
      } catch (IOException e) {
        throw IoErrors.translate(file.toString(), e);
      }
      return this;
    }

    /** Adds the families and signals of a JSON document; {@code name} names it in messages. */
    public Builder add(String json, String name) {
      Objects.requireNonNull(json, "json");
      parts.add(KnowledgeBaseReader.read(json, name));
      return this;
    }

    /** Adds what every {@link KnowledgeBaseProvider} on the class path gives. */
    public Builder serviceProviders() {
      for (KnowledgeBaseProvider p : ServiceLoader.load(KnowledgeBaseProvider.class)) {
        try (InputStream in = p.open()) {
          parts.add(KnowledgeBaseReader.read(in, p.name()));
        } catch (IOException e) {
          throw IoErrors.translate(p.name(), e);
        }
      }
      return this;
    }

    public KnowledgeBase build() {
      List<KnowledgeBaseReader.Contents> all = new ArrayList<>(parts);
      if (standard) {
        try (InputStream in = KnowledgeBase.class.getResourceAsStream(STANDARD_RESOURCE)) {
          if (in == null) {
            throw new AssertionError("the standard knowledge base " + STANDARD_RESOURCE + " is missing from sparkrca-core");
          }
          all.add(KnowledgeBaseReader.read(in, "the standard base"));
        } catch (IOException e) {
          throw new AssertionError("the standard knowledge base could not be read", e);
        }
      }
      // Earlier parts are more specific: their entries win, and their families are tried first.
      Map<String, FailureFamily> families = new LinkedHashMap<>();
      Map<String, Signal> signals = new LinkedHashMap<>();
      List<String> origins = new ArrayList<>();
      for (KnowledgeBaseReader.Contents c : all) {
        origins.add(c.name());
        c.families().forEach(f -> families.putIfAbsent(f.id(), f));
        c.signals().forEach(s -> signals.putIfAbsent(s.id(), s));
      }
      return new KnowledgeBase(new ArrayList<>(families.values()), new ArrayList<>(signals.values()), origins);
    }
  }
}
