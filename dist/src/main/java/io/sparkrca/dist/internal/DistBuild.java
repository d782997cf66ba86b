package io.sparkrca.dist.internal;

import io.sparkrca.cli.SparkRcaCommand;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Attributes;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import picocli.AutoComplete;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build-time tool (run by Maven in the {@code package} phase, never shipped) that stages the
 * distribution: the shaded jar, the shell completion script and the AsciiDoc man pages generated
 * by picocli from the real command tree, a sample, and the class list of the class-data sharing
 * archive.
 *
 * <pre>{@code
 * java -cp ... io.sparkrca.dist.internal.DistBuild cli/target/sparkrca.jar target/stage target/man-adoc SAMPLE_DIR 0.1.0
 * }</pre>
 *
 * <p>Class-data sharing (CDS): each training command below runs once with
 * {@code -XX:DumpLoadedClassList}, and the merged list is shipped as {@code lib/sparkrca.classlist}.
 * The launcher archives those classes (the JDK's and ours, parsed and verified) with
 * {@code -Xshare:dump} once per installation and JVM. An archive cannot be made here and shipped:
 * JDK 17 accepts an archive only with the jar at the absolute path it was dumped from (with the same
 * size and modification time), and only on the JVM build that dumped it. A dynamic archive
 * ({@code -XX:ArchiveClassesAtExit}) would also hold the classes of one run only, so
 * {@code summarize} and {@code logs} would load theirs from the jar again.
 */
public final class DistBuild {
  private static final long TRAINING_TIMEOUT_MINUTES = 5;

  private DistBuild() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 5) {
      throw new IllegalArgumentException("usage: DistBuild SHADED_JAR STAGE_DIR ADOC_DIR SAMPLE_DIR VERSION");
    }
    String version = args[4];
    Path shaded = Path.of(args[0]);
    Path stage = Path.of(args[1]);
    Path adoc = Path.of(args[2]);
    Path sample = Path.of(args[3]);
    if (!Files.isRegularFile(shaded)) {
      throw new IllegalStateException(shaded + " is missing: build the cli module first (mvn package -pl dist -am)");
    }
    deleteTree(stage);
    deleteTree(adoc);
    Path lib = Files.createDirectories(stage.resolve("lib"));
    Path jar = lib.resolve("sparkrca.jar");
    Files.copy(shaded, jar, StandardCopyOption.COPY_ATTRIBUTES);

    Path completion = Files.createDirectories(stage.resolve("completion"));
    Files.writeString(completion.resolve("sparkrca.bash"),
        AutoComplete.bash("sparkrca", SparkRcaCommand.commandLine()), StandardCharsets.UTF_8);

    Files.createDirectories(adoc);
    int status = ManPageGenerator.generateManPage(adoc.toFile(), null, new boolean[0], true,
        SparkRcaCommand.commandLine().getCommandSpec());
    if (status != 0) {
      throw new IllegalStateException("picocli ManPageGenerator failed with status " + status);
    }
    manPages(adoc, Files.createDirectories(stage.resolve("man").resolve("man1")), version);

    Path samples = Files.createDirectories(stage.resolve("samples").resolve(sample.getFileName()));
    Files.copy(sample.resolve("driver-stderr.log"), samples.resolve("driver-stderr.log"));
    Path eventLogs = Files.createDirectories(samples.resolve("eventlog"));
    try (Stream<Path> logs = Files.list(sample.resolve("eventlog"))) {
      for (Path log : (Iterable<Path>) logs::iterator) {
        Files.copy(log, eventLogs.resolve(log.getFileName()));
      }
    }

    classList(stage, jar, samples);
  }

  /** Turns picocli's AsciiDoc pages into man pages with Asciidoctor's manpage backend. */
  private static void manPages(Path adoc, Path man1, String version) throws IOException {
    List<Path> pages;
    try (Stream<Path> s = Files.list(adoc)) {
      pages = s.filter(p -> p.getFileName().toString().endsWith(".adoc")).sorted().toList();
    }
    if (pages.isEmpty()) {
      throw new IllegalStateException("picocli ManPageGenerator wrote no page into " + adoc);
    }
    try (Asciidoctor asciidoctor = Asciidoctor.Factory.create()) {
      for (Path page : pages) {
        String name = page.getFileName().toString().replaceFirst("\\.adoc$", ".1");
        asciidoctor.convertFile(page.toFile(), Options.builder()
            .backend("manpage")
            .safe(SafeMode.UNSAFE)
            .toFile(man1.resolve(name).toFile())
            .attributes(Attributes.builder()
                .attribute("mansource", "sparkrca " + version)
                .attribute("manmanual", "sparkrca Manual")
                .build())
            .build());
      }
    }
  }

  /** Runs the training commands from the stage and merges the classes they load into lib/sparkrca.classlist. */
  private static void classList(Path stage, Path jar, Path sample) throws IOException, InterruptedException {
    Path work = Files.createDirectories(stage.getParent().resolve("cds"));
    String eventLog = firstFile(sample.resolve("eventlog")).toString();
    String driverLog = sample.resolve("driver-stderr.log").toString();
    List<List<String>> training = List.of(
        List.of("--version"),
        List.of("--help"),
        List.of("summarize", eventLog),
        List.of("summarize", "--format", "json", eventLog),
        List.of("rca", eventLog, "--driver-log", driverLog),
        List.of("logs", "count", "--regex", "Exception|ERROR", driverLog),
        List.of("logs", "search", "--regex", "NumberFormatException", driverLog),
        List.of("logs", "tail", "-n", "5", driverLog));
    Set<String> classes = new LinkedHashSet<>();
    for (int i = 0; i < training.size(); i++) {
      Path list = work.resolve("training-" + i + ".classlist");
      List<String> cmd = new ArrayList<>(List.of(java(), "-XX:DumpLoadedClassList=" + list, "-cp", jar.toString(),
          SparkRcaCommand.class.getName()));
      cmd.addAll(training.get(i));
      int exit = run(cmd, work.resolve("training-" + i + ".out"), stage);
      if (exit > 1) { // 0 healthy, 1 a problem found (the sample has a root cause); 2 is an error
        throw new IllegalStateException("CDS training command " + training.get(i) + " failed with exit " + exit
            + ": see " + work.resolve("training-" + i + ".out"));
      }
      for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
        if (!line.isBlank() && !line.startsWith("#")) {
          classes.add(line);
        }
      }
    }
    Files.write(jar.resolveSibling("sparkrca.classlist"), withoutOldLambdaProxies(classes, jar), StandardCharsets.UTF_8);
  }

  /**
   * The class list without the lambda proxies whose interface is a class file older than Java 6
   * (picocli's): JDK 17 cannot archive such an interface once it is linked for a lambda, and then
   * leaves out of the archive every class that implements it, picocli's converters and handlers
   * among them (41 classes loaded from the jar on every run instead of mapped).
   */
  static List<String> withoutOldLambdaProxies(Set<String> lines, Path jar) throws IOException {
    List<String> out = new ArrayList<>();
    try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(jar.toFile())) {
      for (String line : lines) {
        if (line.startsWith("@lambda-proxy")) {
          String[] f = line.split(" ");
          int close = f.length > 3 ? f[3].indexOf(')') : -1;
          String ret = close < 0 ? "" : f[3].substring(close + 1);
          if (ret.startsWith("L") && ret.endsWith(";") && olderThanJava6(z, ret.substring(1, ret.length() - 1))) {
            continue;
          }
        }
        out.add(line);
      }
    }
    return out;
  }

  private static boolean olderThanJava6(java.util.zip.ZipFile z, String internalName) throws IOException {
    java.util.zip.ZipEntry e = z.getEntry(internalName + ".class");
    if (e == null) {
      return false; // a JDK interface: archived normally
    }
    try (java.io.InputStream in = z.getInputStream(e)) {
      byte[] head = in.readNBytes(8);
      return head.length == 8 && ((head[6] & 0xff) << 8 | (head[7] & 0xff)) < 50;
    }
  }

  private static int run(List<String> command, Path output, Path dir) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    if (!p.waitFor(TRAINING_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException(command + " did not finish in " + TRAINING_TIMEOUT_MINUTES + " minutes");
    }
    return p.exitValue();
  }

  /** The java of the JDK running this build: the archive matches that JVM only. */
  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Path firstFile(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile).sorted().findFirst()
          .orElseThrow(() -> new IllegalStateException(dir + " holds no event log"));
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
