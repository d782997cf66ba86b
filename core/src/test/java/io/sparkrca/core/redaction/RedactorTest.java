package io.sparkrca.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactorTest {
  private final Redactor r = Redactor.standard();

  @Test
  void redactsCredentialsInsideFreeText() {
    assertThat(r.redactText("jdbc:postgresql://h/db?user=a&password=hunter2"))
        .isEqualTo("jdbc:postgresql://h/db?user=a&password=" + Redactor.REDACTED);
    assertThat(r.redactText("PASSWORD: 'hunter 2' then")).isEqualTo("PASSWORD: " + Redactor.REDACTED + " then");
    assertThat(r.redactText("fetch https://alice:s3cr3t@repo.example.com/x.jar failed"))
        .isEqualTo("fetch https://***@repo.example.com/x.jar failed");
    assertThat(r.redactText("Authorization: Bearer abcdefgh12345")).doesNotContain("abcdefgh12345");
    assertThat(r.redactText("token ya29.a0AfH6SMBxyz_-1")).doesNotContain("ya29.a0AfH6SMBxyz");
    assertThat(r.redactText("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijk"))
        .doesNotContain("eyJhbGciOiJIUzI1NiJ9");
    assertThat(r.redactText("aws AKIAABCDEFGHIJKLMNOP used")).doesNotContain("AKIAABCDEFGHIJKLMNOP");
    assertThat(r.redactText("gh ghp_abcdefghijklmnopqrstuvwxyz0123 pushed")).doesNotContain("ghp_abcdefghij");
    assertThat(r.redactText("slack xoxb-1234567890-abc")).doesNotContain("xoxb-1234567890");
    assertThat(r.redactText("Set-Cookie: SESSION=abc123; Path=/")).doesNotContain("abc123");
    assertThat(r.redactText("k -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- k"))
        .isEqualTo("k " + Redactor.REDACTED + " k");
    assertThat(r.redactText("x-goog-signature=0a1b2c&y=1")).isEqualTo("x-goog-signature=" + Redactor.REDACTED + "&y=1");
  }

  @Test
  void redactsTheValueOfASecretKeySetInCode() {
    String k = Redactor.REDACTED;
    assertThat(r.redactText(".config(\"spark.hadoop.fs.s3a.secret.key\", \"wJalrXUtnFEMI\")"))
        .isEqualTo(".config(\"spark.hadoop.fs.s3a.secret.key\", \"" + k + "\")");
    assertThat(r.redactText("spark.conf.set('spark.ssl.keyStorePassword', 'kspass12345')"))
        .isEqualTo("spark.conf.set('spark.ssl.keyStorePassword', '" + k + "')");
    assertThat(r.redactText(".option(\"user\", \"etl\").option(\"password\", \"hunter2secret\")"))
        .isEqualTo(".option(\"user\", \"etl\").option(\"password\", \"" + k + "\")");
    assertThat(r.redactText("Map(\"password\" -> \"hunter2secret\", \"user\" -> \"etl\")"))
        .isEqualTo("Map(\"password\" -> \"" + k + "\", \"user\" -> \"etl\")");
    assertThat(r.redactText("{\"authorization\": \"Basic-xyz\"}")).isEqualTo("{\"authorization\": \"" + k + "\"}");
    assertThat(r.redactText("f(\"a\", \"password\", \"v3ry\")")).doesNotContain("v3ry");
    assertThat(r.redactText(".config(\"spark.app.name\", \"nightly\")")).isEqualTo(".config(\"spark.app.name\", \"nightly\")");
    assertThat(r.withExtraKeyPattern("(?i)warehouse").redactText("conf.set(\"my.warehouse.pin\", \"1234\")"))
        .doesNotContain("1234");
  }

  @Test
  void leavesTextWithoutSecretsAsItIs() {
    for (String plain : new String[] {
        "In stage 3 (count at Job.scala:42), the slowest task took 12 s = 6.0x the median 2 s",
        "duration min/median/max 1 s / 2 s / 12 s; shuffle records median/max 10 / 90",
        "Executor 7 lost: Container killed by YARN for exceeding memory limits. 9.1 GB of 9 GB used",
        "", "ünïcödé text: ok", "spark.sql.shuffle.partitions=200"}) {
      assertThat(r.redactText(plain)).isSameAs(plain);
    }
  }

  @Test
  void propertiesAreJudgedByTheirKeyAndValue() {
    assertThat(r.redactProperty("spark.hadoop.fs.s3a.secret.key", "abc")).isEqualTo(Redactor.REDACTED);
    assertThat(r.redactProperty("spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", "abc"))
        .isEqualTo(Redactor.REDACTED);
    assertThat(r.redactProperty("spark.executor.memory", "4g")).isEqualTo("4g");
    assertThat(r.redactLikeHistoryServer("spark.my.token.file", "/x")).isEqualTo(Redactor.REDACTED);
    assertThat(r.redactLikeHistoryServer("spark.jars", "https://u:p@h/a.jar")).isEqualTo("https://***@h/a.jar");
    assertThat(Redactor.redactUri("https://user:pw@host/x")).isEqualTo("https://***@host/x");
  }

  @Test
  void theHistoryServerRuleMatchesExactlyWhereSparksExpressionFinds() {
    java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of(
        "spark.my.token.file", "SPARK.TOKEN", "x.Password", "pAsSwOrD", "spark.access.key", "ACCESS.KEY",
        "access-key", "accesskey", "spark.sql.shuffle.partitions", "secre", "tok", "passwor", "access.ke",
        "", "s", "tokenizer", "my_SECRET_", "\u212Aey", "tO\u212Aen", "to\u212Aen", "ÄCCESS.KEY",
        "/opt/spark/jars/a.jar:/opt/spark/jars/b.jar", "a.Access.Key.b", "sssecret", "ppassword", "aaccess.key"));
    java.util.Random random = new java.util.Random(7);
    String alphabet = "sSecrtTokenpPaAwWdDK.-_x\u212A";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int n = random.nextInt(14); n > 0; n--) {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      texts.add(b.toString());
    }
    for (String t : texts) {
      boolean spark = Redactor.SPARK_DEFAULT_REDACTION.matcher(t).find();
      assertThat(Redactor.mayHoldSparkRuleWord(t) || !spark).as("%s: the pre-check must not rule out a match", t).isTrue();
      assertThat(r.redactLikeHistoryServer(t, "v").equals(Redactor.REDACTED)).as("key %s", t).isEqualTo(spark);
      assertThat(r.redactLikeHistoryServer("k", t).equals(Redactor.REDACTED)).as("value %s", t).isEqualTo(spark);
    }
  }
}
