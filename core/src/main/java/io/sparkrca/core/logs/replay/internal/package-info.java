/**
 * Implementation of {@link io.sparkrca.core.logs.replay}: not an API, may change without notice.
 * {@code LogFileReader} normalises lines into records ({@code PlainHeader}, {@code JsonEntry},
 * {@code LinePrefix}, YARN sections); {@code Reconstructor} hands each record to the handler of
 * its emitter ({@code StageLines}, {@code TaskLines}, {@code ExecutorLines}, {@code AppLines}),
 * which fill a {@code ModelState}; {@code LogModel} answers from it.
 */
package io.sparkrca.core.logs.replay.internal;
