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
    return compare(router, restPath, expected, null);
  }

  /** As {@link #compare(RestRouter, String, JsonNode)}, after removing what {@code tolerance} allows. */
  static List<String> compare(RestRouter router, String restPath, JsonNode expected, Spark35Tolerance tolerance)
      throws IOException {
    ApiResponse response = router.get(restPath);
    List<String> out = new ArrayList<>();
    if (response.status() != 200) {
      out.add(restPath + ": HTTP " + response.status() + ": " + response.body());
      return out;
    }
    JsonNode actual = JSON.readTree(response.body());
    JsonNode exp = expected.deepCopy();
    if (tolerance != null) {
      tolerance.strip(exp);
      tolerance.strip(actual);
    }
    out.addAll(JsonDiff.diff(normalize(exp), normalize(actual), 60));
    return out;
  }

  /**
   * The REST path of an answer file as the dumps name them: {@code sql.json} is {@code
   * /sql?length=100000}, {@code sql-nodetails.json} is {@code
   * /sql?details=false&planDescription=false&offset=1&length=2}, {@code sql-<id>.json} is {@code
   * /sql/<id>}.
   */
  static String restPath(String appId, String fileName) {
    if (fileName.equals("sql.json")) {
      return "/applications/" + appId + "/sql?length=100000";
    }
    if (fileName.equals("sql-nodetails.json")) {
      return "/applications/" + appId + "/sql?details=false&planDescription=false&offset=1&length=2";
    }
    return "/applications/" + appId + "/sql/" + fileName.substring(4, fileName.length() - 5);
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
