package io.sparkrca.testkit.parity;

/** {@link HistoryServerParityTest} against the real History Server of Spark 3.5.9. */
class HistoryServer35ParityTest extends HistoryServerParityTest {
  @Override
  String sparkVersion() {
    return "3.5.9";
  }
}
