package io.sparkrca.testkit.parity;

/** {@link LiveDriverUiParityTest} against a running application of Spark 3.5.9. */
class LiveDriverUi35ParityTest extends LiveDriverUiParityTest {
  @Override
  String sparkVersion() {
    return "3.5.9";
  }
}
