package io.sparkrca.testkit;

/** Test program: exits with the code given as its argument. */
public final class ExitWith {
  private ExitWith() {}

  public static void main(String[] args) {
    System.exit(Integer.parseInt(args[0]));
  }
}
