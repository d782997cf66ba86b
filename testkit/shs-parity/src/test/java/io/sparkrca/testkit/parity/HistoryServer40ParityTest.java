package io.sparkrca.testkit.parity;

/** {@link HistoryServerParityTest} against the real History Server of Spark 4.0.4. */
class HistoryServer40ParityTest extends HistoryServerParityTest {
  @Override
  String sparkVersion() {
    return "4.0.4";
  }
}
