package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.redaction.Redactor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Secrets in a class file's string literals are redacted by the same rules as script text, even
 * when nothing like {@code key=} or {@code token} stands beside them.
 */
class LiteralRedactionTest {
  private static final String AWS_KEY = "AKIAIOSFODNN7EXAMPLE";
  private static final String GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzcGFya3JjYSJ9."
      + "c2lnbmF0dXJlLWJ5dGVz";
  private static final List<String> SECRETS = List.of(AWS_KEY, GITHUB_TOKEN, JWT);

  private static final String SOURCE = """
      package com.example;
      public class K {
        static final String AWS = "%s";
        public static void main(String[] args) {
          String github = "%s";
          String jwt = "%s";
          System.out.println(github);
          System.out.println(jwt);
          System.out.println("%s" + args.length);
        }
      }
      """.formatted(AWS_KEY, GITHUB_TOKEN, JWT, GITHUB_TOKEN);

  private static byte[] compiledClass() {
    return Fixtures.compile("com.example.K", SOURCE).get("com/example/K.class");
  }

  @Test
  void theRedactorRecognisesTheTokensOnTheirOwn() {
    // The premise: these are secrets the redactor knows without any key beside them.
    for (String s : SECRETS) {
      assertThat(Redactor.standard().redactText(s)).doesNotContain(s);
    }
  }

  @Test
  void wellKnownTokensInAClassFilesLiteralsAreRedactedInTextAndJson() throws Exception {
    byte[] cls = compiledClass();
    assertThat(new String(cls, StandardCharsets.ISO_8859_1)).contains(AWS_KEY, GITHUB_TOKEN, JWT);

    Inspection i = ClassInspector.create().inspect(ByteSource.of("K.class", cls), Optional.empty());

    assertThat(i.toText()).contains("public class com.example.K").contains(Redactor.REDACTED);
    for (String s : SECRETS) {
      assertThat(i.toText()).doesNotContain(s);
      assertThat(i.toJson()).doesNotContain(s);
      assertThat(i.toMarkdown()).doesNotContain(s);
    }
  }

  @Test
  void aValueSetUnderASecretKeyOrHeldInASecretNamedConstantIsRedacted() {
    String source = """
        package com.example;
        public class Conf {
          static final String DB_PASSWORD = "hunter2-constant";
          static final String APP_NAME = "nightly-etl";
          static java.util.Map<String, String> conf() {
            java.util.Map<String, String> m = new java.util.HashMap<>();
            m.put("spark.hadoop.fs.s3a.secret.key", "wJalrXUtnFEMI-in-code");
            m.put("spark.app.name", "visible-name");
            return m;
          }
        }
        """;
    byte[] cls = Fixtures.compile("com.example.Conf", source).get("com/example/Conf.class");

    Inspection i = ClassInspector.create().inspect(ByteSource.of("Conf.class", cls), Optional.empty());

    for (String out : List.of(i.toText(), i.toJson(), i.toMarkdown())) {
      assertThat(out).doesNotContain("hunter2-constant").doesNotContain("wJalrXUtnFEMI-in-code")
          .contains("nightly-etl").contains("visible-name").contains("spark.hadoop.fs.s3a.secret.key");
    }
  }

  @Test
  void wellKnownTokensInAJarredClassAreRedactedToo() throws Exception {
    byte[] jar = TestJars.jar(Optional.empty(), TestJars.entries("com/example/K.class",
        compiledClass()));

    Inspection i = ClassInspector.create().inspect(ByteSource.of("app.jar", jar),
        Optional.of("com/example/K.class"));

    for (String s : SECRETS) {
      assertThat(i.toText()).doesNotContain(s);
      assertThat(i.toJson()).doesNotContain(s);
    }
  }
}
