package io.sparkrca.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SecretPatternsTest {
  private final Redactor r = Redactor.standard();

  /**
   * One sample per kind of the catalogue, each in a sentence where its name does not look secret,
   * with the part that must never be printed. The samples are assembled from pieces so that the
   * source holds no literal token a scanner would flag.
   */
  static Map<String, String[]> samples() {
    Map<String, String[]> m = new LinkedHashMap<>();
    String b64 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
    m.put("PEM private key block", new String[] {
        "key: -----BEGIN " + "PRIVATE KEY-----\n" + b64 + "\nQm9yZWRXaXRoU2VjcmV0cw==\n-----END PRIVATE KEY----- done", "gkqhkiG9w0BAQEF"});
    m.put("Password in a URL's user info", new String[] {"jar https://deploy:Tr0ub4dor3x@repo.example.com/a.jar", "Tr0ub4dor3x"});
    m.put("Password in an Oracle JDBC URL", new String[] {"url jdbc:oracle:thin:scott/T1gerPw9z@db.example.com:1521/orcl", "T1gerPw9z"});
    m.put("AWS access key id", new String[] {"id AKIA" + "QWERTYUIOP123456 used", "QWERTYUIOP123456"});
    m.put("AWS secret access key", new String[] {"aws_secret = wJalrXUtnFEMIK7MDENGbPxRfiCYzz9a8b7c6d5e", "K7MDENGbPxRfiCYzz9"});
    m.put("Google API key", new String[] {"maps AIza" + "SyB1c2D3e4F5g6H7i8J9k0LmNoPqRsTuVwX ok", "B1c2D3e4F5g6H7i8J9k0"});
    m.put("Google OAuth access token", new String[] {"got ya29" + ".a0AfB_byCzQx9LmNopQrs", "a0AfB_byCzQx9LmNopQrs"});
    m.put("Google OAuth client secret", new String[] {"client GOCSPX" + "-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9S", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7"});
    m.put("GCP service-account key (JSON)", new String[] {
        "{\"type\":\"service_account\",\"private_key_id\":\"4f2b9c7d1e0a3b5c\",\"client_email\":\"x@p.iam\"}", "4f2b9c7d1e0a3b5c"});
    m.put("Azure storage account key", new String[] {
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg==;EndpointSuffix=core.windows.net",
        "Zm9vYmFyYmF6cXV4MTIzNDU2"});
    m.put("Azure SAS signature", new String[] {
        "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&se=2030-01-01&sr=b&sp=r&sig=k3yS1gNatureXyZ%2Bab%3D", "k3yS1gNatureXyZ"});
    m.put("Azure AD client secret", new String[] {"client abc8Q" + "~Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDc end", "Zx9Yw8Vu7Ts6Rq5Po4"});
    m.put("GitHub token", new String[] {"push ghp" + "_Z1y2X3w4V5u6T7s8R9q0P1o2N3m4L5k6J7i8 done", "Z1y2X3w4V5u6T7s8R9q0"});
    m.put("GitHub fine-grained token", new String[] {"clone github" + "_pat_11ABCDEFG0abcdefghij_KLMNOPQRSTuvwxyz0123456789", "11ABCDEFG0abcdefghij"});
    m.put("GitLab token", new String[] {"glpat" + "-xY7zW6vU5tS4rQ3pO2nM end", "xY7zW6vU5tS4rQ3pO2nM"});
    m.put("Slack token", new String[] {"bot xoxb" + "-123456789012-987654321098-AbCdEfGhIjKlMnOp", "987654321098-AbCdEfGh"});
    m.put("Slack webhook URL", new String[] {
        "notify https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/q1w2e3r4t5y6u7i8o9p0AbCd", "q1w2e3r4t5y6u7i8o9p0"});
    m.put("Discord webhook URL", new String[] {
        "https://discord.com/api/webhooks/123456789012345678/Zx-Yw_Vu9Ts8Rq7Po6Nm5Lk4", "Zx-Yw_Vu9Ts8Rq7Po6Nm5"});
    m.put("Stripe key", new String[] {"charge sk" + "_live_51HqZx9Ab8Cd7Ef6Gh5Ij4Kl3", "51HqZx9Ab8Cd7Ef6Gh5"});
    m.put("Databricks token", new String[] {"host dapi" + "0123456789abcdef0123456789abcdef-2 ok", "0123456789abcdef0123456789abcdef"});
    m.put("JSON Web Token", new String[] {
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzcGFya3JjYSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ", "eyJzdWIiOiJzcGFya3JjYSJ9"});
    m.put("npm token", new String[] {"npm" + "_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 end", "a1B2c3D4e5F6g7H8i9J0"});
    m.put("PyPI token", new String[] {
        "pypi" + "-AgEIcHlwaS5vcmcCJGYxMjM0NTY3LWFiY2QtZWZnaC1pamtsLW1ub3BxcnN0dXZ3eAACKlszLCJ", "CJGYxMjM0NTY3LWFiY2Qt"});
    m.put("SendGrid API key", new String[] {
        "mail SG" + ".aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012", "wXyZ0123456789aBcDeFg"});
    m.put("Twilio API key", new String[] {"sms SK" + "0123456789abcdef0123456789ABCDEF ok", "0123456789abcdef0123456789ABCDEF"});
    m.put("OpenAI or Anthropic API key", new String[] {"llm sk" + "-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78", "Ab12Cd34Ef56Gh78Ij90"});
    m.put("Hugging Face token", new String[] {"hub hf" + "_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "AbCdEfGhIjKlMnOpQrSt"});
    m.put("HashiCorp Vault token", new String[] {"vault hvs" + ".CAESIJx1y2z3A4B5C6D7E8F9G0H1 end", "CAESIJx1y2z3A4B5C6D7"});
    m.put("DigitalOcean token", new String[] {
        "do dop" + "_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef0123456789abcdef"});
    m.put("Shopify token", new String[] {"shop shpat" + "_0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"});
    m.put("Mailgun API key", new String[] {"mg key" + "-0123456789abcdef0123456789abcdef ok", "0123456789abcdef0123456789abcdef"});
    m.put("Telegram bot token", new String[] {"bot 123456789:AA" + "Hx1y2z3A4B5C6D7E8F9G0H1I2J3K4L5M6 end", "Hx1y2z3A4B5C6D7E8F9G0"});
    m.put("Alibaba Cloud access key id", new String[] {"ali LTAI" + "5tAbCdEfGhIjKlMn ok", "5tAbCdEfGhIjKlMn"});
    m.put("Docker Hub token", new String[] {"docker dckr" + "_pat_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8 ok", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7"});
    m.put("Grafana token", new String[] {"graf glsa" + "_AbCdEfGhIjKlMnOpQrStUvWxYz012345_0a1b2c3d", "AbCdEfGhIjKlMnOpQrSt"});
    m.put("New Relic user key", new String[] {"nr NRAK" + "-ABCDEFGHIJ0123456789KLMNOPQ ok", "ABCDEFGHIJ0123456789KLM"});
    m.put("Postman API key", new String[] {
        "pm PMAK" + "-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01", "0123456789abcdef01234567-"});
    m.put("Atlassian API token", new String[] {"jira ATATT3" + "x".repeat(4) + "FfGF0Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4Cd5Ef6Gh7Ij8Kl9Mn0Op1Qr2St3Uv4Wx5Yz6Ab7Cd8Ef9Gh0Ij1Kl2Mn3=0A1B2C3D",
        "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8"});
    m.put("Sentry token", new String[] {"sentry sntrys" + "_eyJpYXQiOjE2ODAwMDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8ifQ", "OjE2ODAwMDAwMDAuMCwidXJs"});
    m.put("Square token", new String[] {"pay sq0atp" + "-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8 ok", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7"});
    m.put("Linear API key", new String[] {"lin" + "_api_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3A", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7"});
    m.put("Terraform Cloud token", new String[] {
        "tf abcdefgh012345" + ".atlasv1." + "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnopqrstuvwxyz0123456789"});
    m.put("age secret key", new String[] {"AGE-SECRET" + "-KEY-1QQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE", "ZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"});
    return m;
  }

  @Test
  void everyKindOfTheCatalogueHasASampleThatItRedacts() {
    Set<String> kinds = new TreeSet<>();
    SecretPatterns.catalogue().forEach(k -> kinds.add(k.name()));
    assertThat(new TreeSet<>(samples().keySet())).isEqualTo(kinds);
    samples().forEach((kind, s) -> {
      assertThat(s[0]).as("%s: the sample holds its secret", kind).contains(s[1]);
      assertThat(SecretPatterns.redact(s[0])).as("%s in %s", kind, s[0]).doesNotContain(s[1]).contains("***");
      assertThat(r.redactText(s[0])).as("redactText, %s", kind).doesNotContain(s[1]);
    });
  }

  @Test
  void theDocumentedCatalogueListsEveryKind() throws Exception {
    String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "redaction.md"));
    for (SecretPatterns.Kind k : SecretPatterns.catalogue()) {
      assertThat(doc).as("docs/redaction.md lists %s", k.name()).contains("| " + k.name() + " | " + k.format().replace("|", "\\|") + " |");
    }
  }

  @Test
  void textAroundASecretIsKept() {
    assertThat(SecretPatterns.redact("maps AIza" + "SyB1c2D3e4F5g6H7i8J9k0LmNoPqRsTuVwX ok")).isEqualTo("maps " + Redactor.REDACTED + " ok");
    assertThat(SecretPatterns.redact("DefaultEndpointsProtocol=https;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg==;x=1"))
        .isEqualTo("DefaultEndpointsProtocol=https;AccountKey=" + Redactor.REDACTED + ";x=1");
    assertThat(SecretPatterns.redact("https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/q1w2e3r4t5y6u7i8o9p0AbCd"))
        .isEqualTo("https://hooks.slack.com/" + Redactor.REDACTED);
  }

  @Test
  void sparkIdsHashesAndOrdinaryLinesAreLeftAsTheyAre() {
    for (String plain : new String[] {
        "app-20240101123456-0001", "application_1700000000000_0042", "container_e01_1700000000000_0042_01_000003",
        "local-1700000000000", "spark-9f8e7d6c-5b4a-3210-fedc-ba9876543210", "executor 12 on host-10-0-0-7.internal",
        "rdd_42_7 stored as values in memory", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "Lost task 3.0 in stage 7.0 (TID 42) (10.0.0.7 executor 3): java.lang.OutOfMemoryError: Java heap space",
        "24/01/01 12:00:00 INFO SparkContext: Running Spark version 3.5.1",
        "\tat org.apache.spark.sql.execution.WholeStageCodegenExec.doExecute(WholeStageCodegenExec.scala:751)",
        "org/apache/spark/sql/execution/WholeStageCodegenExec1", "task-skew dapi risk", "ask-the-user sk-short",
        "hdfs:///user/spark/eventlog/app-1", "s3a://bucket/path/part-00000-3f2a.snappy.parquet", "SELECT * FROM t WHERE key = 1"}) {
      assertThat(SecretPatterns.redact(plain)).as(plain).isSameAs(plain);
      assertThat(r.redactText(plain)).as(plain).isSameAs(plain);
    }
  }

  @Test
  void everyLineOfAPemBlockPrintedLineByLineIsRedactedEvenWithoutItsBeginLine() {
    String body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
    assertThat(r.redactText(body)).isEqualTo(Redactor.REDACTED);
    assertThat(r.redactText("  " + body + " ")).isEqualTo("  " + Redactor.REDACTED + " ");
    assertThat(r.redactText("Qm9yZWRXaXRoU2VjcmV0cw==")).isEqualTo(Redactor.REDACTED);
    assertThat(r.redactText("-----END RSA PRIVATE KEY-----")).isEqualTo("-----END RSA PRIVATE KEY-----");
    assertThat(r.redactText("INFO x: " + body)).isEqualTo("INFO x: " + body); // not alone on its line: no rule, no guess
  }

  @Test
  void secretsNamedInTextAreRedactedWhateverTheirNamesSuffix() {
    String k = Redactor.REDACTED;
    assertThat(r.redactText("DB_PASSWORD_PROD = \"Sup3rS3cret!\"")).isEqualTo("DB_PASSWORD_PROD = \"" + k + "\"");
    assertThat(r.redactText("val dbPassword: String = \"Sup3rS3cret\"")).isEqualTo("val dbPassword: String = \"" + k + "\"");
    assertThat(r.redactText("export API_TOKEN_PROD=abc123xyz")).isEqualTo("export API_TOKEN_PROD=" + k);
    assertThat(r.redactText("spark-submit --class a.B --password hunter2pw --db-token 'tok en' app.jar"))
        .isEqualTo("spark-submit --class a.B --password " + k + " --db-token " + k + " app.jar");
    assertThat(r.redactText("-Dspark.ssl.keyStorePassword=ks3cret -Xmx1g")).isEqualTo("-Dspark.ssl.keyStorePassword=" + k + " -Xmx1g");
    assertThat(r.redactText("spark.executor.memory=4g, spark.sql.shuffle.partitions=200"))
        .isEqualTo("spark.executor.memory=4g, spark.sql.shuffle.partitions=200");
  }

  @Test
  void propertyNamesThatHoldCredentialsAreSecret() {
    for (String key : new String[] {"hadoop.security.credential.provider.path", "spark.hadoop.hadoop.security.credential.provider.path",
        "spark.hadoop.fs.gs.auth", "my.service.auth", "spark.hadoop.fs.azure.sas.sig", "x.sig", "spark.ssl.keyStorePassphrase",
        "db.pwd"}) {
      assertThat(r.isSecretKey(key)).as(key).isTrue();
    }
    for (String key : new String[] {"spark.authenticate", "spark.executor.memory", "spark.sql.sigmoid.enabled", "spark.app.name"}) {
      assertThat(r.isSecretKey(key)).as(key).isFalse();
    }
  }

  @Test
  void historyServerAnswersKeepTheirOwnRuleByDefault() {
    // Spark's own rule and the credentials sparkrca always scrubbed: still redacted.
    assertThat(r.redactLikeHistoryServer("spark.jars", "https://u:p@h/a.jar")).isEqualTo("https://***@h/a.jar");
    // A value known only by its format is left as the History Server shows it; --redact removes it.
    String google = "AIza" + "SyB1c2D3e4F5g6H7i8J9k0LmNoPqRsTuVwX";
    assertThat(r.redactLikeHistoryServer("spark.app.name", google)).isEqualTo(google);
    assertThat(r.redactProperty("spark.app.name", google)).isEqualTo(Redactor.REDACTED);
  }
}
