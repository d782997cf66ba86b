package io.sparkrca.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unpacks the distribution archive built by {@code package} with the system's tar, as a user
 * would, and runs its launcher from there. Bound to {@code verify}: the archive exists only then.
 */
class DistributionArchiveTest {
  private static final String VERSION = System.getProperty("sparkrca.dist.version", "");
  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

  @TempDir static Path unpacked;
  private static Path home;

  @BeforeAll
  static void unpack() throws Exception {
    Path archive = Path.of(System.getProperty("sparkrca.dist.archive", "target/missing.tar.gz"));
    assertThat(archive).as("the archive that 'mvn package' builds").isRegularFile();
    Result tar = run(List.of("tar", "-xzf", archive.toString(), "-C", unpacked.toString()), Map.of(), unpacked);
    assertThat(tar.exit).as("tar -xzf %s: %s", archive, tar.err).isZero();
    home = unpacked.resolve("sparkrca-" + VERSION);
  }

  @Test
  void theArchiveHoldsTheLauncherJarCdsClassListCompletionManPagesAndDocs() throws IOException {
    assertThat(Files.getPosixFilePermissions(home.resolve("bin/sparkrca"))).contains(PosixFilePermission.OWNER_EXECUTE);
    assertThat(home.resolve("lib/sparkrca.jar")).isRegularFile();
    assertThat(Files.readAllLines(home.resolve("lib/sparkrca.classlist")))
        .as("the class list of the CDS archive, from the training commands")
        .contains("io/sparkrca/cli/SparkRcaCommand", "io/sparkrca/cli/SummarizeCommand", "picocli/CommandLine");
    assertThat(home.resolve("README.md")).isRegularFile();
    assertThat(home.resolve("CHANGELOG.md")).isRegularFile();
    assertThat(Files.readString(home.resolve("completion/sparkrca.bash")))
        .contains("complete -F _complete_sparkrca").contains("_picocli_sparkrca_logs_count");
    assertThat(Files.readString(home.resolve("completion/sparkrca.zsh"))).contains("bashcompinit").contains("sparkrca.bash");
    String man = Files.readString(home.resolve("man/man1/sparkrca.1"));
    assertThat(man).startsWith("'\\\" t").contains(".TH \"SPARKRCA\" \"1\"").contains(".SH \"NAME\"");
    assertThat(home.resolve("man/man1/sparkrca-rca.1")).isRegularFile();
    assertThat(Files.readString(home.resolve("man/man1/sparkrca-logs-count.1"))).contains("\\-\\-regex");
  }

  @Test
  void bashCompletesCommandsAndOptionsFromTheGeneratedScript() throws Exception {
    String script = home.resolve("completion/sparkrca.bash").toString();
    String complete = "source \"$0\"; COMP_WORDS=($1); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE=\"$1\"; "
        + "COMP_POINT=${#COMP_LINE}; _complete_sparkrca 2>/dev/null; echo \"${COMPREPLY[*]}\"";
    Result command = run(List.of("bash", "-c", complete, script, "sparkrca logs co"), Map.of(), unpacked);
    assertThat(command.out.strip()).as(command.toString()).isEqualTo("count");
    Result option = run(List.of("bash", "-c", complete, script, "sparkrca logs count --re"), Map.of(), unpacked);
    assertThat(option.out.strip()).as(option.toString()).isEqualTo("--regex");
  }

  @Test
  void theZipHoldsTheSameFilesAsTheTarball() throws IOException {
    Path zip = Path.of(System.getProperty("sparkrca.dist.zip", "target/missing.zip"));
    Set<String> zipped = new TreeSet<>();
    try (ZipFile z = new ZipFile(zip.toFile())) {
      for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        if (!entry.isDirectory()) {
          zipped.add(entry.getName());
        }
      }
    }
    Set<String> unpackedFiles = new TreeSet<>();
    try (Stream<Path> s = Files.walk(home)) {
      s.filter(Files::isRegularFile).forEach(p -> unpackedFiles.add(unpacked.relativize(p).toString()));
    }
    assertThat(zipped).isEqualTo(unpackedFiles);
  }

  @Test
  void versionRunsFromTheUnpackedArchive() throws Exception {
    Result r = launch(Map.of("JAVA_HOME", JAVA_HOME.toString()), "--version");
    assertThat(r.exit).as(r.toString()).isZero();
    assertThat(r.out).startsWith("sparkrca " + VERSION + "\n").contains("Java ");
    assertThat(r.err).isEmpty();
  }

  @Test
  void helpListsTheCommands() throws Exception {
    Result r = launch(Map.of("JAVA_HOME", JAVA_HOME.toString()), "--help");
    assertThat(r.exit).as(r.toString()).isZero();
    assertThat(r.out).contains("Usage: sparkrca").contains("Commands:").contains("rca").contains("summarize").contains("logs");
  }

  @Test
  void theReadmesFirstCommandOnTheBundledSampleExitsOneWithTheRcaReport() throws Exception {
    Path sample = home.resolve("samples/bad-record");
    Path eventLog;
    try (Stream<Path> s = Files.list(sample.resolve("eventlog"))) {
      eventLog = s.findFirst().orElseThrow();
    }
    Result r = launch(Map.of("JAVA_HOME", JAVA_HOME.toString()),
        "rca", eventLog.toString(), "--driver-log", sample.resolve("driver-stderr.log").toString());
    assertThat(r.exit).as(r.toString()).isEqualTo(1);
    assertThat(r.out).contains("Root Cause Analysis (RCA)").contains("DETERMINISTIC_DATA_FAILURE").contains("NumberFormatException");
  }

  @Test
  void theLauncherResolvesItsHomeThroughSymlinksAndUsesTheJavaOnThePath(@TempDir Path elsewhere) throws Exception {
    Path links = Files.createDirectories(elsewhere.resolve("bin"));
    Path relative = Files.createSymbolicLink(links.resolve("relative"), links.relativize(home.resolve("bin/sparkrca")));
    Path link = Files.createSymbolicLink(links.resolve("sparkrca"), relative.getFileName());
    Map<String, String> env = new HashMap<>();
    env.put("PATH", JAVA_HOME.resolve("bin") + ":/usr/bin:/bin");
    env.put("JAVA_HOME", "");
    Result r = run(List.of(link.toString(), "--version"), env, elsewhere);
    assertThat(r.exit).as(r.toString()).isZero();
    assertThat(r.out).startsWith("sparkrca " + VERSION);
  }

  @Test
  void scanRunsWithTheFleetCompilerSettingsAndOtherCommandsWithTheClientCompiler() throws Exception {
    // The JVM prints the flags it runs with before main: what the launcher gave it, as the JVM read it.
    Map<String, String> env = Map.of("JAVA_HOME", JAVA_HOME.toString(), "JAVA_OPTS", "-XX:+PrintFlagsFinal");
    Result scan = launch(env, "scan", "--help");
    assertThat(scan.exit).as(scan.toString()).isZero();
    assertThat(flags(scan.out))
        .containsEntry("FreqInlineSize", "100")
        .containsEntry("InlineSmallCode", "1000")
        .containsEntry("Tier4InvocationThreshold", "50000")
        .containsEntry("Tier4BackEdgeThreshold", "400000")
        .containsEntry("TieredStopAtLevel", "4")
        .containsEntry("UseSerialGC", "false")
        .as("a mistyped option in JAVA_OPTS still stops the JVM").containsEntry("IgnoreUnrecognizedVMOptions", "false");
    Result rca = launch(env, "rca", "--help");
    assertThat(rca.exit).as(rca.toString()).isZero();
    assertThat(flags(rca.out)).containsEntry("TieredStopAtLevel", "1").containsEntry("UseSerialGC", "true")
        .containsEntry("Tier4InvocationThreshold", "5000");
  }

  @Test
  void theFleetJobsRecommendedExecutorOptionsAreTheLaunchersScanOptions() throws IOException {
    String launcher = Files.readString(home.resolve("bin/sparkrca"));
    Matcher m = Pattern.compile("(?m)^scan_jvm=\"([^\"]+)\"$").matcher(launcher);
    assertThat(m.find()).as("the launcher's scan_jvm line (benchmarks/fleet/run.sh reads it too)").isTrue();
    // docs/fleet.md tells users to give the same options to the Spark job's executors.
    String guide = Files.readString(Path.of("../docs/fleet.md"));
    for (String option : m.group(1).split(" ")) {
      assertThat(guide).as("docs/fleet.md's spark.executor.extraJavaOptions line").contains(option);
    }
  }

  /** The flag table of {@code -XX:+PrintFlagsFinal}: {@code type name = value {kind}} per line. */
  private static Map<String, String> flags(String out) {
    Map<String, String> flags = new HashMap<>();
    for (String line : out.lines().toList()) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[2].equals("=")) {
        flags.put(f[1], f[3]);
      }
    }
    return flags;
  }

  @Test
  void aJavaHomeThatPointsToNothingIsOneClearLineAndExitTwo(@TempDir Path nothing) throws Exception {
    Path missing = nothing.resolve("no-such-jdk");
    Result r = launch(Map.of("JAVA_HOME", missing.toString()), "--version");
    assertThat(r.exit).isEqualTo(2);
    assertThat(r.out).isEmpty();
    assertThat(r.err.strip().lines()).hasSize(1);
    assertThat(r.err).startsWith("sparkrca: JAVA_HOME is '" + missing + "'").contains("Java 17 or newer").contains("unset it");
  }

  @Test
  void noJavaAtAllSaysWhatToInstall() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_HOME", "");
    env.put("PATH", "/nonexistent");
    Result r = run(List.of("/bin/sh", home.resolve("bin/sparkrca").toString(), "--version"), env, unpacked);
    assertThat(r.exit).as(r.toString()).isEqualTo(2);
    assertThat(r.err).startsWith("sparkrca: needs Java 17 or newer and found no java").contains("install Java 17");
  }

  @Test
  void aJavaOlderThanSeventeenIsNamedWithItsVersion(@TempDir Path old) throws Exception {
    Path bin = Files.createDirectories(old.resolve("bin"));
    Path java = Files.writeString(bin.resolve("java"), "#!/bin/sh\necho 'this old java must not be run' >&2\nexit 3\n");
    java.toFile().setExecutable(true);
    Files.writeString(old.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"11.0.20\"\n");
    Result r = launch(Map.of("JAVA_HOME", old.toString()), "--version");
    assertThat(r.exit).as(r.toString()).isEqualTo(2);
    assertThat(r.err).startsWith("sparkrca: needs Java 17 or newer, but " + java + " is Java 11.0.20: install Java 17");
  }

  @Test
  void theCdsArchiveIsMadeOnceInTheBackgroundThenMappedAndADamagedOrForeignOneIsIgnoredQuietly() throws Exception {
    Path copy = unpacked.resolve("cds-home");
    copyTree(home, copy);
    Map<String, String> env = Map.of("JAVA_HOME", JAVA_HOME.toString(), "SPARKRCA_CDS", "on");
    Result first = run(List.of(copy.resolve("bin/sparkrca").toString(), "--version"), env, copy);
    assertThat(first.exit).as(first.toString()).isZero();
    assertThat(first.err).isEmpty();
    Path archive = archiveOf(copy, JAVA_HOME);
    awaitArchive(archive);

    // -Xshare:on after the launcher's -Xshare:auto: the JVM exits with an error if it cannot map the archive.
    Path log = unpacked.resolve("class-load.txt");
    Map<String, String> strict = new HashMap<>(env);
    strict.put("SPARKRCA_OPTS", "-Xshare:on -Xlog:class+load=info:file=" + log);
    Result mapped = run(List.of(copy.resolve("bin/sparkrca").toString(), "--version"), strict, copy);
    assertThat(mapped.exit).as(mapped.toString()).isZero();
    assertThat(Files.readAllLines(log)).anyMatch(l -> l.contains("io.sparkrca.cli.SparkRcaCommand source: shared objects file"));

    Path other = otherJdk();
    if (other != null) { // another JVM given this JVM's archive: it must start normally, saying nothing
      Path foreign = archiveOf(copy, other);
      Files.copy(archive, foreign);
      Result r = run(List.of(copy.resolve("bin/sparkrca").toString(), "--version"),
          Map.of("JAVA_HOME", other.toString(), "SPARKRCA_CDS", "on"), copy);
      assertThat(r.exit).as(r.toString()).isZero();
      assertThat(r.out).startsWith("sparkrca " + VERSION + "\n").contains("Java " + javaVersion(other));
      assertThat(r.err).isEmpty();
    }

    try (RandomAccessFile f = new RandomAccessFile(archive.toFile(), "rw")) {
      f.seek(0);
      f.write(new byte[64]); // the header: magic, version and CRCs
    }
    Result damaged = run(List.of(copy.resolve("bin/sparkrca").toString(), "--version"), env, copy);
    assertThat(damaged.exit).as(damaged.toString()).isZero();
    assertThat(damaged.out).startsWith("sparkrca " + VERSION + "\n");
    assertThat(damaged.err).isEmpty();
  }

  /** Where the launcher keeps the archive of {@code home} for the Java in {@code javaHome}: one per JVM build. */
  private static Path archiveOf(Path home, Path javaHome) throws IOException {
    return home.resolve("lib/cds/sparkrca-" + release(javaHome, "JAVA_RUNTIME_VERSION") + ".jsa");
  }

  private static String javaVersion(Path javaHome) throws IOException {
    return release(javaHome, "JAVA_VERSION");
  }

  private static String release(Path javaHome, String key) throws IOException {
    return Files.readAllLines(javaHome.resolve("release")).stream().filter(l -> l.startsWith(key + "="))
        .map(l -> l.substring(key.length() + 1).replace("\"", "")).findFirst().orElseThrow();
  }

  /** The background dump takes seconds; waits for it, and for its temporary file to be gone. */
  private static void awaitArchive(Path archive) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    String temporary = archive.getFileName() + ".";
    while (System.nanoTime() < deadline) {
      if (Files.isRegularFile(archive)) {
        try (Stream<Path> s = Files.list(archive.getParent())) {
          if (s.noneMatch(p -> p.getFileName().toString().startsWith(temporary))) {
            return;
          }
        }
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the launcher's background -Xshare:dump wrote no " + archive + " in 3 minutes");
  }

  private static Path otherJdk() throws IOException {
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return null;
    }
    Path self = JAVA_HOME.toRealPath();
    try (Stream<Path> s = Files.list(jvms)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        if (Files.isExecutable(p.resolve("bin/java")) && !p.toRealPath().equals(self)) {
          return p;
        }
      }
    }
    return null;
  }

  private static Result launch(Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/sparkrca").toString());
    cmd.addAll(Arrays.asList(args));
    return run(cmd, env, unpacked);
  }

  private static Result run(List<String> command, Map<String, String> env, Path dir) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().remove("JAVA_OPTS");
    pb.environment().remove("SPARKRCA_OPTS");
    pb.environment().put("SPARKRCA_CDS", "off"); // no background dump but in the test of it
    pb.environment().putAll(env);
    if ("".equals(env.get("JAVA_HOME"))) {
      pb.environment().remove("JAVA_HOME");
    }
    Path out = Files.createTempFile(unpacked, "out", ".txt");
    Path err = Files.createTempFile(unpacked, "err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
    if (!p.waitFor(3, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(command + " did not finish in 3 minutes");
    }
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private record Result(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }
}
