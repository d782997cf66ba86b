package io.sparkrca.testkit.parity;

/** {@link LiveDriverUiParityTest} against a running application of Spark 4.0.4. */
class LiveDriverUi40ParityTest extends LiveDriverUiParityTest {
  @Override
  String sparkVersion() {
    return "4.0.4";
  }
}
