package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.StageData;

/** The Javadoc examples of {@code io.sparkrca.core.json}, compiled (see {@link JavadocExamplesTest}). */
class JsonExamples {
  /** The example of {@code SparkJson}. */
  void sparkJson(SparkApplication app) throws Exception {
    String json = SparkJson.write(app.stages(StageQuery.all()));
    StageData[] back = SparkJson.mapper().readValue(json, StageData[].class);
  }
}
