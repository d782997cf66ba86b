package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.testing.JsonDiff;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares our {@code /sql} answers with the real History Server's, under the rules that hold
 * between any two History Servers: the {@code duration} of a RUNNING execution is the server's
 * clock minus the submission time, so it is not compared.
 */
final class SqlShsComparison {
  static final ObjectMapper JSON = new ObjectMapper();

  private SqlShsComparison() {}

  /** The differences between the History Server's body and ours for {@code restPath}. */
  static List<String> compare(RestRouter router, String restPath, JsonNode expected) throws IOException {
    ApiResponse response = router.get(restPath);
    List<String> out = new ArrayList<>();
    if (response.status() != 200) {
      out.add(restPath + ": HTTP " + response.status() + ": " + response.body());
      return out;
    }
    JsonNode actual = JSON.readTree(response.body());
    out.addAll(JsonDiff.diff(normalize(expected.deepCopy()), normalize(actual), 60));
    return out;
  }

  static JsonNode normalize(JsonNode n) {
    if (n instanceof ArrayNode a) {
      a.forEach(SqlShsComparison::normalize);
    } else if (n instanceof ObjectNode o && o.has("status") && o.has("duration")
        && "RUNNING".equals(o.get("status").asText())) {
      o.put("duration", 0);
    }
    return n;
  }
}
