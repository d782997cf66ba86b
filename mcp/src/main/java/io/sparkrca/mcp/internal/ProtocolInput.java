package io.sparkrca.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * The client's input as the SDK's stdio transport reads it, one message a line, with two guards.
 * The SDK ends the session on the first line it cannot read as a JSON-RPC message; here such a line
 * (not JSON, not an object, neither a method nor a result) is answered with the JSON-RPC error
 * (-32700 parse error, -32600 invalid request) and dropped, so that the server keeps serving; blank
 * lines are dropped. And the end of the input (or a read that fails: the client went away) is
 * signalled, so that the server can stop. Lines over {@value #MAX_LINE} bytes are passed on as
 * they are, for the transport to refuse.
 *
 * <pre>{@code
 * InputStream in = new ProtocolInput(System.in, stdout, ended);
 * }</pre>
 */
public final class ProtocolInput extends InputStream {
  /** The SDK's own limit for one message. */
  static final int MAX_LINE = 16 * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final InputStream in;
  private final OutputStream out;
  private final CountDownLatch ended;
  private byte[] line = new byte[0];
  private int pos;

  /**
   * @param out where error answers go: the protocol output, written under its own lock as the SDK
   *     writes its messages, so that lines never interleave
   */
  public ProtocolInput(InputStream in, OutputStream out, CountDownLatch ended) {
    this.in = in;
    this.out = out;
    this.ended = ended;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (pos >= line.length && !nextLine()) {
      ended.countDown();
      return -1;
    }
    int n = Math.min(len, line.length - pos);
    System.arraycopy(line, pos, b, off, n);
    pos += n;
    return n;
  }

  /** Reads up to the next acceptable line; false at the end of the input. */
  private boolean nextLine() throws IOException {
    while (true) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      int c;
      try {
        while ((c = in.read()) != -1 && c != '\n') {
          buf.write(c);
          if (buf.size() > MAX_LINE) {
            break;
          }
        }
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
      if (c == -1 && buf.size() == 0) {
        return false;
      }
      byte[] bytes = buf.toByteArray();
      if (buf.size() > MAX_LINE) {
        accept(bytes, false); // the transport refuses it with its own message
        return true;
      }
      String text = new String(bytes, StandardCharsets.UTF_8).strip();
      if (text.isEmpty()) {
        continue;
      }
      String problem = problem(text);
      if (problem == null) {
        accept(bytes, true);
        return true;
      }
      answer(text, problem);
      if (c == -1) {
        return false;
      }
    }
  }

  private void accept(byte[] bytes, boolean newline) {
    line = newline ? Arrays.copyOf(bytes, bytes.length + 1) : bytes;
    if (newline) {
      line[bytes.length] = '\n';
    }
    pos = 0;
  }

  /** Why the transport would refuse this line, or null when it reads it. */
  private static String problem(String text) {
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (IOException e) {
      return "-32700";
    }
    if (node == null || !node.isObject()) {
      return "-32600";
    }
    return node.has("method") || node.has("result") || node.has("error") ? null : "-32600";
  }

  private void answer(String text, String code) throws IOException {
    ObjectNode error = JSON.createObjectNode();
    error.put("jsonrpc", "2.0");
    JsonNode id = null;
    if (!code.equals("-32700")) {
      JsonNode node = JSON.readTree(text);
      id = node.isObject() ? node.get("id") : null;
    }
    if (id == null || !(id.isTextual() || id.isIntegralNumber())) {
      error.putNull("id");
    } else {
      error.set("id", id);
    }
    ObjectNode e = error.putObject("error");
    e.put("code", Integer.parseInt(code));
    e.put("message", code.equals("-32700")
        ? "Parse error: a line of the input is not JSON; send one JSON-RPC message per line"
        : "Invalid Request: a line of the input is not a JSON-RPC request, notification or response");
    byte[] bytes = (JSON.writeValueAsString(error) + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (out) {
      out.write(bytes);
      out.flush();
    }
  }

  @Override
  public void close() throws IOException {
    ended.countDown();
    in.close();
  }
}
