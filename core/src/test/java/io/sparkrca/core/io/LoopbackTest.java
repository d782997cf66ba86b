package io.sparkrca.core.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The loopback test parses the host: addresses in 127.0.0.0/8, ::1 and the name localhost, nothing that merely starts like them. */
class LoopbackTest {

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "127.1.2.3", "127.255.255.255", "localhost", "LocalHost", "::1", "[::1]",
      "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]", "0000:0000:0000:0000:0000:0000:0000:0001", "::0:1"})
  void theseHostsAreLoopback(String host) {
    assertThat(Loopback.isLoopbackHost(host)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.attacker.example", "127.0.0.1.attacker.example", "localhost.evil.com", "localhost.",
      "0x7f.0.0.1", "0177.0.0.1", "127.1", "127.0.0.01", "127.0.0.256", "127.0.0.1:80", "128.0.0.1", "10.0.0.1",
      "::2", "::1:1", "1::1", "[::1", "::1]", "[]", "", " 127.0.0.1", "evil-localhost", "::ffff:127.0.0.1",
      "::１", "127.０.0.1", "0:0:0:0:0:0:0:0:1", ":::1"})
  void theseHostsAreNot(String host) {
    assertThat(Loopback.isLoopbackHost(host)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1:4040", "localhost:7077", "[::1]:8080", "127.0.0.1", "localhost", "::1"})
  void theseHostPortsAreLoopback(String hostPort) {
    assertThat(Loopback.isLoopbackHostPort(hostPort)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.attacker.example:4040", "localhost.evil.com:80", "[::1]x:80", "[::1]:http",
      "127.0.0.1:", "localhost:abc", "10.1.2.3:4040", "0x7f.0.0.1:80"})
  void theseHostPortsAreNot(String hostPort) {
    assertThat(Loopback.isLoopbackHostPort(hostPort)).isFalse();
  }

  @org.junit.jupiter.api.Test
  void nullIsNotLoopback() {
    assertThat(Loopback.isLoopbackHost(null)).isFalse();
    assertThat(Loopback.isLoopbackHostPort(null)).isFalse();
  }
}
