package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real run (the testkit's task-write-failure: a SQL write whose tasks fail) with secrets of 36
 * kinds planted where users leave them: event-log properties under names that do not look secret,
 * the application name, a job description, SQL text and plan, a task's exception, driver and
 * executor log lines (a PEM key printed line by line among them), a script and a class constant.
 * Every output path of the command line then runs in-process, and no planted secret's distinctive
 * middle may appear in any of them.
 */
class SecretsCorpusTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path FIXTURES = Path.of("..", "testkit", "fixtures", "spark-3.5.9");
  private static final String APP = "local-1796160714650";

  /** A planted secret: its kind, its text, and the part of it no output may show. */
  record Secret(String kind, String value, String marker) {}

  /** Every planted secret, by kind; each value is assembled from pieces so that the source holds no literal token. */
  static final Map<String, Secret> SECRETS = new LinkedHashMap<>();

  static {
    add("Slack webhook URL (application name)", "https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/" + "SlackHook9x8y7z6w5v4u", "SlackHook9x8y7z6w5v4u");
    add("Google API key (property)", "AIza" + "SyGoogleKey1a2b3c4d5e6f7g8h9i0jKlMn", "GoogleKey1a2b3c4d5e6f7");
    add("GitHub fine-grained token (property)", "github" + "_pat_11AAAAAAA0GhFineGrained_abcdefghijklmnopqrstuvwxyz012345", "GhFineGrained_abcdefgh");
    add("Stripe live key (property)", "sk" + "_live_" + "51StripeLiveKey0a1b2c3d4e5f", "StripeLiveKey0a1b2c3d");
    add("Databricks token (property)", "dapi" + "c0ffee0ddba11c0ffee0ddba11c0ffee", "c0ffee0ddba11c0ffee0ddba11");
    add("Hadoop credential provider path (property)", "jceks://hdfs@nn.example.com:8020/user/etl/CredProvPath-Zq81.jceks", "CredProvPath-Zq81");
    add("*.auth property", "AuthPropValue-Kx72v", "AuthPropValue-Kx72v");
    add("JSON Web Token (property)", "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiJKd3RQcm9wZXJ0eSJ9.Snd0U2lnbmF0dXJlUGFydA", "eyJzdWIiOiJKd3RQcm9wZXJ0eSJ9");
    add("--password VALUE in extraJavaOptions", "CliFlagPw-4431", "CliFlagPw-4431");
    add("--db-secret VALUE in sun.java.command", "SunCmdSec-9981", "SunCmdSec-9981");
    add("password in a class-path URL's user info", "CpUrlPw-5521", "CpUrlPw-5521");
    add("Azure SAS signature (property)", "https://acct.blob.core.windows.net/c/data?sv=2022-11-02&sp=r&sig=SasSignature1234AbCd%3D", "SasSignature1234AbCd");
    add("GitHub token (job description)", "ghp" + "_JobDescGhToken0123456789abcdefghijkl", "JobDescGhToken0123456789");
    add("AWS access key id (job description)", "AKIA" + "JOBDESC0AKID1234", "JOBDESC0AKID1234");
    add("OpenAI key (SQL text)", "sk" + "-proj-SqlTextOpenAiKey0123456789abcdefABCDEF", "SqlTextOpenAiKey0123456789");
    add("GitLab token (SQL plan)", "glpat" + "-SqlPlanGitLab0123456", "SqlPlanGitLab0123456");
    add("Hugging Face token (SQL details)", "hf" + "_SqlDetailsHuggingFaceTok0123456789ab", "SqlDetailsHuggingFaceTok");
    add("JDBC password (exception)", "JdbcExcPw-Tt55", "JdbcExcPw-Tt55");
    add("Bearer token (exception)", "BearerExcTok0123456789", "BearerExcTok0123456789");
    add("Azure storage account key (exception)", "QXp1cmVBY2NvdW50S2V5RXhjZXB0aW9uMDEyMzQ1Njc4OQ==", "QXp1cmVBY2NvdW50S2V5RXhj");
    add("AWS secret access key (driver log)", "wJalrXUtnFEMI/K7MDENG/AwsSecretKeyDriverLog01", "AwsSecretKeyDriverLog");
    add("Google OAuth token (driver log)", "ya29" + ".DriverLogOAuthTok_0123456789", "DriverLogOAuthTok_0123");
    add("PEM private key block (driver log)", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcPemMiddleLine0123456789AbCdEfGh", "PemMiddleLine0123456789");
    add("npm token (driver log)", "npm" + "_NpmDriverTok0123456789abcdefghijklmn", "NpmDriverTok0123456789");
    add("SendGrid key (driver log)", "SG" + ".SendGridDrv0123456789A.SendGridPart2xyz0123456789abcdefghijklmnopq", "SendGridPart2xyz0123456789");
    add("Oracle JDBC password (driver log)", "OraclePw-Drv77", "OraclePw-Drv77");
    add("GCP service-account private_key_id (driver log)", "GcpSaKeyId0f1e2d3c4b5a", "GcpSaKeyId0f1e2d3c4b5a");
    add("Vault token (driver log)", "hvs" + ".VaultDriverTok0123456789abcd", "VaultDriverTok0123456789");
    add("--password VALUE on a logged command line", "LoggedCmdPw-3141", "LoggedCmdPw-3141");
    add("Slack bot token (executor log)", "xoxb" + "-123456789012-ExecLogSlackBot0123", "ExecLogSlackBot0123");
    add("Twilio API key (executor log)", "SK" + "0badc0de0badc0de0badc0de0badc0de", "0badc0de0badc0de0badc0de");
    add("DigitalOcean token (executor log)", "dop" + "_v1_" + "d1617a1" + "0".repeat(56) + "e", "d1617a10000000000000");
    add("Azure AD client secret (executor log)", "abc8Q" + "~ExecAzureAdSecret0123456789abcde", "ExecAzureAdSecret0123456789");
    add("Google OAuth client secret (executor log)", "GOCSPX" + "-ExecGoogleClientSecret01234", "ExecGoogleClientSecret01234");
    add("DB_PASSWORD_PROD script assignment", "ScriptPwProd-8821", "ScriptPwProd-8821");
    add("Stripe restricted key (script)", "rk" + "_live_" + "ScriptStripeRestricted0123", "ScriptStripeRestricted0123");
    add("DB_PASSWORD_PROD class constant", ClassConstants.DB_PASSWORD_PROD, "ClassPwProd-6502");
    add("Hugging Face token (class constant)", ClassConstants.HF, "ClassConstHuggingFace0123");
  }

  private static void add(String kind, String value, String marker) {
    assertThat(value).as(kind).contains(marker);
    SECRETS.put(kind, new Secret(kind, value, marker));
  }

  /** Constants compiled into a real class file, which {@code inspect} reads from a JAR. */
  static final class ClassConstants {
    static final String DB_PASSWORD_PROD = "ClassPwProd-6502";
    static final String HF = "hf" + "_ClassConstHuggingFace0123456789abcdef";

    String endpoint() {
      return "https://api.example.com/v1?key=" + HF;
    }
  }

  @TempDir static Path dir;
  static Path eventLog;
  static Path baseline;
  static Path driverLog;
  static Path executorLogs;
  static Path script;
  static Path jar;

  static String s(String kind) {
    return SECRETS.get(kind).value();
  }

  @BeforeAll
  static void plant() throws Exception {
    Path logs = Files.createDirectories(dir.resolve("events"));
    eventLog = logs.resolve(APP);
    baseline = Files.createDirectories(dir.resolve("baseline")).resolve(APP);
    Path original = FIXTURES.resolve("task-write-failure/eventlog/" + APP);
    Files.copy(original, baseline);
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(original)) {
      ObjectNode e = (ObjectNode) JSON.readTree(line);
      switch (e.path("Event").asText()) {
        case "SparkListenerApplicationStart" -> e.put("App Name", "nightly-etl notify " + s("Slack webhook URL (application name)"));
        case "SparkListenerEnvironmentUpdate" -> {
          ObjectNode spark = (ObjectNode) e.get("Spark Properties");
          spark.put("spark.myapp.maps", s("Google API key (property)"));
          spark.put("spark.myapp.repo", s("GitHub fine-grained token (property)"));
          spark.put("spark.myapp.billing", s("Stripe live key (property)"));
          spark.put("spark.databricks.workspace.pat", s("Databricks token (property)"));
          spark.put("spark.hadoop.hadoop.security.credential.provider.path", s("Hadoop credential provider path (property)"));
          spark.put("spark.myapp.svc.auth", s("*.auth property"));
          spark.put("spark.myapp.session.jwt", s("JSON Web Token (property)"));
          spark.put("spark.myapp.export", s("Azure SAS signature (property)"));
          spark.put("spark.driver.extraJavaOptions", spark.path("spark.driver.extraJavaOptions").asText()
              + " -Dapp.mode=batch --password " + s("--password VALUE in extraJavaOptions"));
          ObjectNode system = (ObjectNode) e.get("System Properties");
          system.put("sun.java.command", "org.apache.spark.deploy.SparkSubmit --class etl.Main app.jar --db-secret "
              + s("--db-secret VALUE in sun.java.command"));
          ObjectNode cp = (ObjectNode) e.get("Classpath Entries");
          cp.put("https://deploy:" + s("password in a class-path URL's user info") + "@repo.example.com/libs/udf.jar", "Added By User");
        }
        case "SparkListenerJobStart" -> ((ObjectNode) e.get("Properties")).put("spark.job.description",
            "nightly load using " + s("GitHub token (job description)") + " and " + s("AWS access key id (job description)"));
        case "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart" -> {
          e.put("description", "INSERT INTO audit SELECT * FROM src WHERE api_key_hint = '" + s("OpenAI key (SQL text)") + "'");
          e.put("details", e.path("details").asText() + "\nfetched with " + s("Hugging Face token (SQL details)"));
          e.put("physicalPlanDescription", e.path("physicalPlanDescription").asText() + "\nscan options: "
              + s("GitLab token (SQL plan)"));
        }
        case "SparkListenerTaskEnd" -> {
          ObjectNode reason = (ObjectNode) e.get("Task End Reason");
          if (reason.has("Description")) {
            String extra = " caused by: could not reach jdbc:postgresql://db.example.com/etl?user=etl&password="
                + s("JDBC password (exception)") + " with Authorization: Bearer " + s("Bearer token (exception)")
                + " nor DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + s("Azure storage account key (exception)")
                + ";EndpointSuffix=core.windows.net";
            reason.put("Description", reason.path("Description").asText() + extra);
            reason.put("Full Stack Trace", reason.path("Description").asText() + "\n" + reason.path("Full Stack Trace").asText());
          }
        }
        default -> { }
      }
      out.add(JSON.writeValueAsString(e));
    }
    Files.write(eventLog, out);

    driverLog = dir.resolve("driver-stderr.log");
    List<String> driver = new ArrayList<>(Files.readAllLines(FIXTURES.resolve("task-write-failure/driver-stderr.log")));
    int middle = driver.size() / 2;
    driver.addAll(middle, List.of(
        "26/12/08 10:00:01 INFO Credentials: using aws_secret_access_key=" + s("AWS secret access key (driver log)"),
        "26/12/08 10:00:01 INFO Auth: refreshed access token " + s("Google OAuth token (driver log)"),
        "26/12/08 10:00:02 WARN Tls: loaded key -----BEGIN " + "PRIVATE KEY-----",
        "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDfirstLine012345",
        s("PEM private key block (driver log)"),
        "Zm9vYmFyQmF6UXV4TGFzdExpbmU=",
        "-----END PRIVATE KEY-----",
        "26/12/08 10:00:03 INFO Npm: registry auth " + s("npm token (driver log)"),
        "26/12/08 10:00:03 INFO Mail: client key " + s("SendGrid key (driver log)"),
        "26/12/08 10:00:04 INFO Jdbc: url jdbc:oracle:thin:scott/" + s("Oracle JDBC password (driver log)") + "@db.example.com:1521/orcl",
        "26/12/08 10:00:04 INFO Gcp: credentials {\"type\": \"service_account\", \"private_key_id\": \""
            + s("GCP service-account private_key_id (driver log)") + "\", \"client_email\": \"etl@p.iam.gserviceaccount.com\"}",
        "26/12/08 10:00:05 INFO Vault: token " + s("Vault token (driver log)"),
        "26/12/08 10:00:05 INFO Launcher: exec /opt/tools/loader --user etl --password " + s("--password VALUE on a logged command line") + " --verbose"));
    Files.write(driverLog, driver);

    executorLogs = Files.createDirectories(dir.resolve("executor-logs"));
    List<String> executor = new ArrayList<>(Files.readAllLines(FIXTURES.resolve("executor-oom/executor-logs/0.stderr")));
    executor.addAll(Math.min(20, executor.size()), List.of(
        "26/12/08 10:01:00 INFO Notifier: posting with " + s("Slack bot token (executor log)"),
        "26/12/08 10:01:00 INFO Sms: api key " + s("Twilio API key (executor log)"),
        "26/12/08 10:01:01 INFO Droplets: using " + s("DigitalOcean token (executor log)"),
        "26/12/08 10:01:01 INFO Graph: client secret " + s("Azure AD client secret (executor log)"),
        "26/12/08 10:01:02 INFO OAuth: client " + s("Google OAuth client secret (executor log)")));
    Files.write(executorLogs.resolve("0.stderr"), executor);

    script = dir.resolve("etl.py");
    Files.writeString(script, String.join("\n",
        "from pyspark.sql import SparkSession",
        "DB_PASSWORD_PROD = \"" + s("DB_PASSWORD_PROD script assignment") + "\"",
        "STRIPE = \"" + s("Stripe restricted key (script)") + "\"",
        "spark = SparkSession.builder.appName(\"etl\").getOrCreate()",
        "df = spark.read.jdbc(\"jdbc:postgresql://db/etl\", \"t\", properties={\"user\": \"etl\", \"password\": DB_PASSWORD_PROD})",
        "for c in df.columns:",
        "    print(df.select(c).count())",
        ""));

    String entry = ClassConstants.class.getName().replace('.', '/') + ".class";
    byte[] cls;
    try (var in = SecretsCorpusTest.class.getResourceAsStream("SecretsCorpusTest$ClassConstants.class")) {
      cls = in.readAllBytes();
    }
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (JarOutputStream j = new JarOutputStream(b)) {
      j.putNextEntry(new ZipEntry(entry));
      j.write(cls);
    }
    jar = dir.resolve("app.jar");
    Files.write(jar, b.toByteArray());
  }

  /** The outputs of every command, by a name that says which. */
  private final Map<String, String> outputs = new LinkedHashMap<>();

  private void run(String name, String... args) {
    CliRun r = CliRun.of(args);
    outputs.put(name + " (exit " + r.exitCode() + ")", r.out() + "\n--- stderr ---\n" + r.err());
  }

  private void assertNoLeak() {
    List<String> failed = new ArrayList<>();
    outputs.forEach((name, text) -> {
      if (!name.endsWith("(exit 0)") && !name.endsWith("(exit 1)")) {
        failed.add(name + ": " + text.substring(0, Math.min(400, text.length())));
      }
    });
    assertThat(failed).as("every command ran (exit 0 or 1); a failed one proves nothing").isEmpty();
    List<String> leaks = new ArrayList<>();
    outputs.forEach((name, text) -> SECRETS.values().forEach(sec -> {
      if (text.contains(sec.marker())) {
        int at = text.indexOf(sec.marker());
        leaks.add(sec.kind() + " leaks in `" + name + "`: ..."
            + text.substring(Math.max(0, at - 80), Math.min(text.length(), at + 40)).replace('\n', ' ') + "...");
      }
    }));
    assertThat(leaks).as("planted secrets in outputs:\n" + String.join("\n", leaks)).isEmpty();
  }

  @Test
  void thePlantedSecretsAreWhereTheOutputsReadThem() {
    // Without redaction the secrets are there to find: the corpus tests something.
    String env = CliRun.of("api", eventLog.toString(), "applications/" + APP + "/environment").out();
    assertThat(env).contains(SECRETS.get("Google API key (property)").marker())
        .contains(SECRETS.get("*.auth property").marker());
    String jobs = CliRun.of("api", eventLog.toString(), "applications/" + APP + "/jobs").out();
    assertThat(jobs).contains(SECRETS.get("GitHub token (job description)").marker());
    String raw = CliRun.of("logs", "search", "--no-redact", "--literal", "INFO", "-C", "0", "--max-matches", "5000",
        driverLog.toString(), executorLogs.toString()).out();
    assertThat(raw).contains(SECRETS.get("Vault token (driver log)").marker())
        .contains(SECRETS.get("Slack bot token (executor log)").marker());
    assertThat(SECRETS).hasSizeGreaterThanOrEqualTo(30);
  }

  @Test
  void noPlantedSecretLeaksThroughRcaSummarizeOrCompare() {
    String log = eventLog.toString();
    for (String format : new String[] {"markdown", "json", "html"}) {
      run("rca --format " + format, "rca", log, "--driver-log", driverLog.toString(), "--executor-log",
          executorLogs.toString(), "--code", script.toString(), "--format", format);
      run("summarize --format " + format, "summarize", log, "--format", format);
    }
    for (String format : new String[] {"markdown", "json", "text", "html"}) {
      run("compare --format " + format, "compare", log, baseline.toString(), "--format", format);
    }
    assertNoLeak();
  }

  @Test
  void noPlantedSecretLeaksThroughApiRedact() {
    String log = eventLog.toString();
    for (String path : new String[] {"applications", "applications/" + APP, "applications/" + APP + "/jobs",
        "applications/" + APP + "/stages", "applications/" + APP + "/stages/0/0/taskList",
        "applications/" + APP + "/sql?details=true&planDescription=true", "applications/" + APP + "/environment",
        "applications/" + APP + "/executors", "applications/" + APP + "/allexecutors"}) {
      run("api --redact " + path, "api", "--redact", log, path);
    }
    assertNoLeak();
  }

  @Test
  void noPlantedSecretLeaksThroughLogsCommands() {
    String d = driverLog.toString();
    String e = executorLogs.toString();
    run("logs search", "logs", "search", "--regex", "INFO|WARN|ERROR|^[A-Za-z0-9+/=-]+$", "-C", "3", "--max-matches", "5000", d, e);
    run("logs search --format json", "logs", "search", "--literal", "INFO", "-C", "2", "--max-matches", "5000", "--format", "json", d, e);
    run("logs tail", "logs", "tail", "-n", "2000", d);
    run("logs head", "logs", "head", "-n", "2000", d);
    run("logs events", "logs", "events", eventLog.toString());
    run("logs events --format json", "logs", "events", eventLog.toString(), "--format", "json");
    run("logs tail executor", "logs", "tail", "-n", "2000", executorLogs.resolve("0.stderr").toString());
    assertNoLeak();
  }

  @Test
  void noPlantedSecretLeaksThroughServeRedact() throws Exception {
    try (io.sparkrca.historyserver.serve.HistoryApiServer server = io.sparkrca.historyserver.serve.HistoryApiServer
        .builder(eventLog.getParent().toString()).port(0).redact(true).build().start()) {
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      for (String path : new String[] {"applications", "applications/" + APP + "/jobs", "applications/" + APP + "/stages",
          "applications/" + APP + "/sql?details=true&planDescription=true", "applications/" + APP + "/environment",
          "applications/" + APP + "/stages/0/0/taskList"}) {
        java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(server.url() + "/api/v1/" + path)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        outputs.put("serve --redact " + path + " (exit " + (r.statusCode() == 200 ? 0 : r.statusCode()) + ")", r.body());
      }
    }
    assertNoLeak();
  }

  @Test
  void noPlantedSecretLeaksThroughScanOrRules() {
    for (String format : new String[] {"jsonl", "csv", "markdown"}) {
      run("scan --format " + format, "scan", eventLog.getParent().toString(), "--format", format, "--no-progress");
    }
    run("rules --recommended", "rules", "--recommended", eventLog.toString());
    run("rules --recommended --format json", "rules", "--recommended", eventLog.toString(), "--format", "json");
    assertNoLeak();
  }

  @Test
  void noPlantedSecretLeaksThroughMcpToolResults() {
    io.modelcontextprotocol.client.McpSyncClient client = McpSession.start();
    try {
      Map<String, Map<String, Object>> calls = new LinkedHashMap<>();
      calls.put("rca", Map.of("eventLog", eventLog.toString(), "driverLogs", List.of(driverLog.toString()),
          "executorLogs", List.of(executorLogs.toString()), "code", List.of(script.toString())));
      calls.put("summarize", Map.of("eventLog", eventLog.toString()));
      calls.put("compare", Map.of("candidate", eventLog.toString(), "baseline", baseline.toString()));
      calls.put("rules", Map.of("eventLog", eventLog.toString(), "recommended", true));
      calls.put("logs_tail", Map.of("uri", driverLog.toString(), "lines", 2000));
      calls.put("logs_search", Map.of("uris", List.of(driverLog.toString(), executorLogs.toString()), "literal", "INFO",
          "maxMatches", 5000));
      calls.put("inspect", Map.of("uri", script.toString()));
      calls.put("inspect class", Map.of("uri", jar + "!/" + ClassConstants.class.getName().replace('.', '/') + ".class"));
      calls.forEach((name, args) -> {
        io.modelcontextprotocol.spec.McpSchema.CallToolResult r = McpSession.call(client, name.split(" ")[0], args);
        outputs.put("mcp " + name + " (exit " + (Boolean.TRUE.equals(r.isError()) ? 2 : 0) + ")", McpSession.text(r));
      });
    } finally {
      client.closeGracefully();
    }
    assertNoLeak();
  }

  @Test
  void noPlantedSecretLeaksThroughInspect() {
    run("inspect script", "inspect", script.toString());
    run("inspect script --findings", "inspect", script.toString(), "--findings");
    String cls = jar + "!/" + ClassConstants.class.getName().replace('.', '/') + ".class";
    run("inspect class", "inspect", cls);
    run("inspect jar", "inspect", jar.toString());
    assertNoLeak();
  }
}
