package io.sparkrca.core.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS: a private CA is added to the system trust; verification (host names too) stays on. */
class HttpsTrustTest {
  @TempDir static Path dir;
  static Path localhostKeys;
  static Path localhostPem;
  static Path otherHostKeys;
  static Path otherHostPem;

  @BeforeAll
  static void makeCertificates() throws Exception {
    localhostKeys = dir.resolve("localhost.p12");
    localhostPem = dir.resolve("localhost.pem");
    keytool("-genkeypair", "-alias", "k", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
        "-keystore", localhostKeys.toString(), "-storetype", "PKCS12", "-storepass", "changeit");
    keytool("-exportcert", "-rfc", "-alias", "k", "-keystore", localhostKeys.toString(),
        "-storepass", "changeit", "-file", localhostPem.toString());
    otherHostKeys = dir.resolve("other.p12");
    otherHostPem = dir.resolve("other.pem");
    keytool("-genkeypair", "-alias", "k", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=other.example", "-ext", "san=dns:other.example", "-validity", "2",
        "-keystore", otherHostKeys.toString(), "-storetype", "PKCS12", "-storepass", "changeit");
    keytool("-exportcert", "-rfc", "-alias", "k", "-keystore", otherHostKeys.toString(),
        "-storepass", "changeit", "-file", otherHostPem.toString());
  }

  private static void keytool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
  }

  private static SSLContext serverContext(Path keys) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keys)) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    return ctx;
  }

  @Test
  void privateCaIsRejectedWithoutTheCaFileAndNotRetried() throws Exception {
    List<Duration> sleeps = new ArrayList<>();
    try (TestHttpServer server = TestHttpServer.startHttps(serverContext(localhostKeys))) {
      server.serve("/log", TestHttpServer.Content.of("secure\n"));
      ByteSource s = HttpByteSourceProvider.of(HttpSettings.builder().sleeper(sleeps::add).build()).open(server.url("/log"));

      assertThatThrownBy(() -> s.read(0, 7))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("TLS certificate verification failed")
          .hasMessageContaining("trusted CA files")
          .hasMessageContaining("never disabled");
      assertThat(sleeps).isEmpty();
    }
  }

  @Test
  void caFileMakesThePrivateCaTrusted() throws Exception {
    try (TestHttpServer server = TestHttpServer.startHttps(serverContext(localhostKeys))) {
      server.serve("/log", TestHttpServer.Content.of("secure\n"));
      ByteSource s = HttpByteSourceProvider.of(HttpSettings.builder().caCertificates(localhostPem).build()).open(server.url("/log"));
      assertThat(s.read(0, 7)).isEqualTo("secure\n".getBytes(UTF_8));
    }
  }

  @Test
  void hostNamesAreStillVerifiedForCertificatesFromTheCaFile() throws Exception {
    // Trusted through the CA file, but issued for other.example, not 127.0.0.1.
    try (TestHttpServer server = TestHttpServer.startHttps(serverContext(otherHostKeys))) {
      server.serve("/log", TestHttpServer.Content.of("secure\n"));
      ByteSource s = HttpByteSourceProvider.of(HttpSettings.builder().caCertificates(otherHostPem).build()).open(server.url("/log"));
      assertThatThrownBy(() -> s.read(0, 7)).hasMessageContaining("TLS certificate verification failed");
    }
  }

  @Test
  void extraCasAreAddedToTheSystemTrustNotSubstitutedForIt() throws Exception {
    X509Certificate[] withExtra = TlsTrust.trustManager(List.of(localhostPem)).getAcceptedIssuers();
    X509Certificate[] systemOnly = TlsTrust.trustManager(List.of()).getAcceptedIssuers();

    assertThat(systemOnly).isNotEmpty();
    assertThat(withExtra).hasSize(systemOnly.length + 1);
    assertThat(withExtra).anySatisfy(c -> assertThat(c.getSubjectX500Principal().getName()).isEqualTo("CN=localhost"));
  }

  @Test
  void httpsToHttpRedirectIsRefused() throws Exception {
    try (TestHttpServer plain = TestHttpServer.start();
        TestHttpServer secure = TestHttpServer.startHttps(serverContext(localhostKeys))) {
      plain.serve("/log", TestHttpServer.Content.of("clear\n"));
      secure.redirect("/log", plain.url("/log"));
      ByteSource s = HttpByteSourceProvider.of(HttpSettings.builder().caCertificates(localhostPem).build()).open(secure.url("/log"));
      assertThatThrownBy(() -> s.read(0, 6))
          .hasMessageContaining("redirects from https to plain http")
          .hasMessageContaining("refused");
      assertThat(plain.requests()).isEmpty();
    }
  }

  @Test
  void aCaFileWithoutCertificatesIsAClearError() throws IOException {
    Path bogus = dir.resolve("bogus.pem");
    Files.writeString(bogus, "not a certificate\n");
    assertThatThrownBy(() -> TlsTrust.withExtraCas(List.of(bogus)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("bogus.pem");
  }
}
