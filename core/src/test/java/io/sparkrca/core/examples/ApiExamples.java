package io.sparkrca.core.examples;

import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;

/** The Javadoc examples of {@code io.sparkrca.core.api}, compiled (see {@link JavadocExamplesTest}). */
class ApiExamples {
  /** The example of {@code ApiResponse}. */
  void apiResponse(RestRouter router) throws Exception {
    ApiResponse r = router.get("applications/app-1/jobs/7");
    if (!r.ok()) System.err.println(r.status() + " " + r.body()); // 404 unknown job: 7
  }

  /** The example of {@code RestRouter}. */
  void restRouter() throws Exception {
    RestRouter router = RestRouter.over(EventLogs.reader().build().history("/tmp/spark-events"));
    ApiResponse r = router.get("applications/app-1/stages/2/0/taskSummary?quantiles=0.5,0.99");
    if (r.ok()) System.out.println(r.body());
  }
}
