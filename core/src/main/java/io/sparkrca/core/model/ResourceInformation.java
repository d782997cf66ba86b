package io.sparkrca.core.model;

import java.util.List;

/** A custom resource (GPU, FPGA) assigned to an executor, with its addresses. */
public record ResourceInformation(String name, List<String> addresses) {
  public ResourceInformation {
    addresses = List.copyOf(addresses);
  }
}
