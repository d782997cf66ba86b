package io.sparkrca.inspector.internal;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.evidence.CodeEvidence;
import io.sparkrca.core.evidence.CodeInspectionProvider;
import io.sparkrca.core.evidence.StackFrame;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.inspector.InspectorLimits;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Code evidence from {@link io.sparkrca.inspector.ClassInspector}, for {@link
 * io.sparkrca.core.evidence.EvidenceCollector}: JAR/ZIP/WAR archives, class files and
 * Python/Scala/Java/SQL/Kotlin/R sources (also an entry, {@code app.jar!/com/x/Job.class}). It
 * summarises the code, maps every Spark anti-pattern found to a {@link
 * io.sparkrca.core.evidence.CodeFinding} (at most {@value #MAX_FINDINGS}), and places each stack
 * frame it is given in the code (at most {@value #MAX_LOCATIONS}): a frame of a class in the
 * archive gets the entry, the SourceFile, the line checked against the method's lines and the
 * calls the method makes; a frame of a source file gets the lines around it. Frames that are not
 * in this code are skipped.
 *
 * <p>Not an API (see the package): found with ServiceLoader, or given to the collector.
 *
 * <pre>{@code
 * CodeEvidence code = new ClassInspectorProvider().inspect("gs://b/app.jar", SourceSettings.defaults(),
 *     List.of(new StackFrame("com.x.Job", "parse", "Job.java", OptionalInt.of(42))));
 * code.locations().forEach(l -> System.out.println(l.file() + ":" + l.line().orElse(0) + " " + l.note()));
 * }</pre>
 *
 * <p>Bytes are opened through {@link SourceSettings#byteSources()} (local files, http(s), gs://
 * with the gcp module) and read by ranged reads within {@link InspectorLimits}. Damage in part of
 * the input (a malformed class, an entry over a limit, a scan cut short) becomes a note; only an
 * input that cannot be read at all throws a {@link SparkRcaException} naming it. Stateless and
 * thread-safe.
 */
public final class ClassInspectorProvider implements CodeInspectionProvider {
  /** The most anti-pattern findings reported for one input. */
  public static final int MAX_FINDINGS = 50;
  /** The most stack-frame locations reported for one input. */
  public static final int MAX_LOCATIONS = 20;
  /** Bytes of ranged reads remembered per inspection, so repeated questions cost no requests. */
  static final long CACHE_BYTES = 64L << 20;

  private final InspectorLimits limits;

  /** The provider ServiceLoader creates: {@link InspectorLimits#defaults()}. */
  public ClassInspectorProvider() {
    this(InspectorLimits.defaults());
  }

  /** A provider with other caps against hostile or huge input. */
  public ClassInspectorProvider(InspectorLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  @Override
  public String name() {
    return "inspector";
  }

  @Override
  public boolean supports(String uri) {
    if (uri == null || uri.isBlank()) {
      return false;
    }
    Target t = Target.parse(uri);
    if (!t.chain().isEmpty()) {
      return Kinds.isArchive(fileName(t.base()));
    }
    return Kinds.byName(t.lastName()).isPresent();
  }

  @Override
  public CodeEvidence inspect(String uri, SourceSettings settings, List<StackFrame> frames) {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(frames, "frames");
    Target t = Target.parse(uri);
    if (t.base().isBlank()) {
      throw new InvalidRequestException("no code URI given: pass a path, gs:// or https:// URI");
    }
    ByteSource source;
    try {
      source = new CachingByteSource(settings.byteSources().open(t.base()), CACHE_BYTES);
    } catch (RuntimeException e) {
      throw failure(t.display(), e);
    }
    return new CodeReading(t, source, settings.byteSources(), limits, frames).read();
  }

  @Override
  public Optional<io.sparkrca.core.evidence.CodeDiff> diff(String baselineUri, String candidateUri,
      SourceSettings settings) {
    Objects.requireNonNull(settings, "settings");
    if (!supports(baselineUri) || !supports(candidateUri)
        || !Target.parse(baselineUri).chain().isEmpty() || !Target.parse(candidateUri).chain().isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(io.sparkrca.inspector.ClassInspector.builder().sources(settings.byteSources()).limits(limits)
          .build().diff(baselineUri.strip(), candidateUri.strip()));
    } catch (RuntimeException e) {
      throw failure(Redactor.redactUri(candidateUri.strip()), e);
    }
  }

  /**
   * What a code URI names: the object to open, the {@code !/} entries inside it, how it is shown
   * (credentials removed) and the name of the last part (which tells its kind).
   */
  record Target(String uri, String base, List<String> chain, String display, String lastName) {
    static Target parse(String uri) {
      String base = uri.strip();
      List<String> chain = new ArrayList<>();
      int bang = base.indexOf("!/");
      if (bang >= 0) {
        for (String part : base.substring(bang + 2).split("!/")) {
          if (!part.isBlank()) {
            chain.add(part.strip());
          }
        }
        base = base.substring(0, bang);
      }
      String last = chain.isEmpty() ? fileName(base) : fileName(chain.get(chain.size() - 1));
      return new Target(uri, base, List.copyOf(chain), Redactor.redactUri(uri.strip()), last);
    }

    /** The entry chain as {@link io.sparkrca.inspector.ClassInspector} takes it. */
    Optional<String> entry() {
      return chain.isEmpty() ? Optional.empty() : Optional.of(String.join("!/", chain));
    }
  }

  /** The last path segment, without a query or fragment. */
  static String fileName(String uri) {
    String n = uri;
    int cut = n.indexOf('?');
    if (cut >= 0) {
      n = n.substring(0, cut);
    }
    cut = n.indexOf('#');
    if (cut >= 0) {
      n = n.substring(0, cut);
    }
    while (n.endsWith("/") || n.endsWith("\\")) {
      n = n.substring(0, n.length() - 1);
    }
    int slash = Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\'));
    return slash >= 0 ? n.substring(slash + 1) : n;
  }

  /** What kinds of code there are, by name. */
  static final class Kinds {
    private Kinds() {}

    static boolean isArchive(String name) {
      return byName(name).filter(k -> k.equals("jar") || k.equals("zip") || k.equals("war")).isPresent();
    }

    static boolean isSource(String kind) {
      return List.of("python", "scala", "java", "sql", "kotlin", "r").contains(kind);
    }

    /** {@code jar}, {@code class}, {@code python}, ... from the file name, when it is code. */
    static Optional<String> byName(String name) {
      String n = fileName(name).toLowerCase(Locale.ROOT);
      int dot = n.lastIndexOf('.');
      if (dot < 0) {
        return Optional.empty();
      }
      return switch (n.substring(dot + 1)) {
        case "jar" -> Optional.of("jar");
        case "zip" -> Optional.of("zip");
        case "war" -> Optional.of("war");
        case "class" -> Optional.of("class");
        case "py" -> Optional.of("python");
        case "scala" -> Optional.of("scala");
        case "java" -> Optional.of("java");
        case "sql" -> Optional.of("sql");
        case "kt" -> Optional.of("kotlin");
        case "r" -> Optional.of("r");
        default -> Optional.empty();
      };
    }
  }

  /**
   * The exception for an input that could not be read at all: the inspector's own {@link
   * SparkRcaException} when its message names the input, else the same kind with the input named,
   * so that the collector's gap says which code it was and why (not found, denied, corrupt...).
   */
  static SparkRcaException failure(String display, Throwable error) {
    Throwable e = error;
    while (e instanceof UncheckedIOException && e.getCause() != null) {
      e = e.getCause();
    }
    String m = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName()
        : e.getMessage();
    boolean named = m.contains(display) || m.contains(fileName(display));
    String prefixed = display + ": " + m;
    if (e instanceof SparkRcaException s) {
      if (named) {
        return s;
      }
      SparkRcaException out;
      if (s instanceof CorruptInputException) {
        out = new CorruptInputException(prefixed, s);
      } else if (s instanceof UnsupportedInputException) {
        out = new UnsupportedInputException(prefixed);
        out.initCause(s);
      } else if (s instanceof InvalidRequestException) {
        out = new InvalidRequestException(prefixed);
        out.initCause(s);
      } else {
        out = new SparkRcaException(prefixed, s);
      }
      return out;
    }
    if (e instanceof NoSuchFileException || e instanceof FileNotFoundException) {
      SparkRcaException out = new InputNotFoundException(display, "check the path or URL of the code");
      out.initCause(e);
      return out;
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      SparkRcaException out = new AccessDeniedException(display, m, "check the permissions on the code");
      out.initCause(e);
      return out;
    }
    if (e instanceof IOException) {
      return new SparkRcaException(display + " could not be read: " + m, e);
    }
    return new SparkRcaException(display + " could not be inspected: "
        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
  }
}
