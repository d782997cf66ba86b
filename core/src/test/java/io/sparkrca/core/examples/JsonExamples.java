package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.json.JsonText;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.StageData;

/** The Javadoc examples of {@code io.sparkrca.core.json}, compiled (see {@link JavadocExamplesTest}). */
class JsonExamples {
  /** The example of {@code JsonText}. */
  void jsonText() throws Exception {
    ObjectNode tree = JsonNodeFactory.instance.objectNode().put("verdict", "PROBLEM");
    String json = JsonText.indented(tree, "the report");
  }

  /** The example of {@code SparkJson}. */
  void sparkJson(SparkApplication app) throws Exception {
    String json = SparkJson.write(app.stages(StageQuery.all()));
    StageData[] back = SparkJson.mapper().readValue(json, StageData[].class);
  }
}
