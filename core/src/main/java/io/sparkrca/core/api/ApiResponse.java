package io.sparkrca.core.api;

import io.sparkrca.core.json.SparkJson;

/**
 * An answer of the {@link RestRouter}: an HTTP status and a body, JSON for 200 and a one-line
 * message otherwise (as the History Server answers errors).
 *
 * <pre>{@code
 * ApiResponse r = router.get("applications/app-1/jobs/7");
 * if (!r.ok()) System.err.println(r.status() + " " + r.body()); // 404 unknown job: 7
 * }</pre>
 */
public record ApiResponse(int status, String body) {

  static ApiResponse json(Object value) {
    return new ApiResponse(200, SparkJson.write(value));
  }

  static ApiResponse error(int status, String message) {
    return new ApiResponse(status, message);
  }

  public boolean ok() {
    return status == 200;
  }
}
