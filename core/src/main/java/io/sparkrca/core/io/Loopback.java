package io.sparkrca.core.io;

import java.util.Locale;

/**
 * Whether a host is this machine's loopback interface, decided by parsing the text, never by a
 * DNS lookup: an IPv4 literal in {@code 127.0.0.0/8} (four decimal parts), the IPv6 literal
 * {@code ::1} in any of its spellings (with or without brackets), or exactly the name {@code
 * localhost}. Anything else is not loopback: {@code 127.attacker.example}, {@code
 * localhost.evil.com} and {@code 0x7f.0.0.1} are names a resolver may send anywhere. The guards
 * that allow credentials over plain http or plaintext gRPC to this machine only use it.
 *
 * <pre>{@code
 * Loopback.isLoopbackHost("127.0.0.1");            // true
 * Loopback.isLoopbackHost("[::1]");                // true
 * Loopback.isLoopbackHost("127.attacker.example"); // false: a name, not an address
 * Loopback.isLoopbackHostPort("localhost:4040");   // true
 * }</pre>
 */
public final class Loopback {
  private Loopback() {}

  /**
   * Whether {@code host} (a name, an IPv4 literal, or an IPv6 literal with or without brackets; no
   * port) is the loopback interface. False for null or blank.
   */
  public static boolean isLoopbackHost(String host) {
    if (host == null || host.isEmpty()) {
      return false;
    }
    String h = host;
    if (h.startsWith("[") && h.endsWith("]") && h.length() > 2) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (h.indexOf(':') >= 0) {
      return isIpv6Loopback(h);
    }
    return isIpv4Loopback(h);
  }

  /**
   * Whether {@code hostPort} ({@code host}, {@code host:port} or {@code [v6]:port}) names the
   * loopback interface, as {@link #isLoopbackHost(String)} decides for its host. False for null.
   */
  public static boolean isLoopbackHostPort(String hostPort) {
    if (hostPort == null || hostPort.isEmpty()) {
      return false;
    }
    String h = hostPort;
    if (h.startsWith("[")) {
      int close = h.indexOf(']');
      if (close < 0 || (close != h.length() - 1 && !h.substring(close + 1).matches(":\\d{1,5}"))) {
        return false;
      }
      return isLoopbackHost(h.substring(0, close + 1));
    }
    int colon = h.indexOf(':');
    if (colon >= 0 && colon == h.lastIndexOf(':')) {
      if (!h.substring(colon + 1).matches("\\d{1,5}")) {
        return false;
      }
      h = h.substring(0, colon);
    }
    return isLoopbackHost(h);
  }

  /** Four decimal parts, each 0 to 255 without leading zeros (which some resolvers read as octal), the first 127. */
  private static boolean isIpv4Loopback(String h) {
    String[] parts = h.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0')) {
        return false;
      }
      for (int i = 0; i < p.length(); i++) {
        if (p.charAt(i) < '0' || p.charAt(i) > '9') {
          return false;
        }
      }
      if (Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return parts[0].equals("127");
  }

  /** Whether an IPv6 literal (hex groups, one {@code ::} at most, no zone) is {@code ::1}. */
  private static boolean isIpv6Loopback(String h) {
    String s = h.toLowerCase(Locale.ROOT);
    int gap = s.indexOf("::");
    if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
      return false;
    }
    String[] head = groups(gap >= 0 ? s.substring(0, gap) : s);
    String[] tail = gap >= 0 ? groups(s.substring(gap + 2)) : new String[0];
    if (head == null || tail == null) {
      return false;
    }
    int given = head.length + tail.length;
    if (gap < 0 ? given != 8 : given > 7) {
      return false;
    }
    int[] value = new int[8];
    for (int i = 0; i < head.length; i++) {
      value[i] = Integer.parseInt(head[i], 16);
    }
    for (int i = 0; i < tail.length; i++) {
      value[8 - tail.length + i] = Integer.parseInt(tail[i], 16);
    }
    for (int i = 0; i < 7; i++) {
      if (value[i] != 0) {
        return false;
      }
    }
    return value[7] == 1;
  }

  /** The colon-separated hex groups of {@code s} (none for ""), or null when one is not 1 to 4 hex digits. */
  private static String[] groups(String s) {
    if (s.isEmpty()) {
      return new String[0];
    }
    String[] g = s.split(":", -1);
    for (String x : g) {
      if (x.isEmpty() || x.length() > 4) {
        return null;
      }
      for (int i = 0; i < x.length(); i++) {
        char c = x.charAt(i);
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
          return null;
        }
      }
    }
    return g;
  }
}
