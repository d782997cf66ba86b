package io.sparkrca.core.model;

import java.util.Optional;

/**
 * A user accumulator's value on a stage or task (internal and SQL metrics are not listed, as in
 * the History Server).
 *
 * <pre>{@code
 * stage.accumulatorUpdates().forEach(a -> System.out.println(a.name() + " = " + a.value()));
 * }</pre>
 *
 * @param name may be empty for accumulators registered without a name (omitted from JSON then)
 */
public record AccumulableInfo(
    long id, Optional<String> name, Optional<String> update, Optional<String> value) {}
