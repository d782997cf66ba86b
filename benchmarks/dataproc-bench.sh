#!/usr/bin/env bash
# Issue 13 §6: `logs tail` of a 5 GiB gs:// object, and the sparkApplications profile of a
# 2,000-stage application concurrent vs sequential against a loopback fake adding 20 ms per
# request. Results go to stdout; copy them into benchmarks/RESULTS.md (section "Dataproc").
# Not part of `mvn verify`.
#
#   bash benchmarks/dataproc-bench.sh              # from the repository root
#   bash benchmarks/dataproc-bench.sh 2000 20      # stages, ms added per request
#   bash benchmarks/dataproc-bench.sh 2000 20 rca  # only the whole RCA, sequential vs concurrent
#
# The benchmark lives in gcp's test tree (io.sparkrca.gcp.bench.DataprocBenchmark) beside the
# loopback fakes it drives: the Google client libraries need the BOMs of libraries/pom.xml, which
# this module (parent: the root, Spark on its class paths) must not import (DESIGN.md).
set -euo pipefail
cd "$(dirname "$0")/.."

# One reactor build of gcp and what it needs (never `mvn install`), then gcp's test class path.
mvn -B -q -o -pl gcp -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/gcp/target/test-classpath.txt" -Dmdep.includeScope=test
CP="gcp/target/test-classes:gcp/target/classes:core/target/test-classes:core/target/classes:$(cat gcp/target/test-classpath.txt)"

# BENCH_JAVA_OPTS: extra JVM options, e.g. -Dbench.parallelism=16 for the concurrent run of `rca`,
# -Dbench.warmups=2 and -Dbench.rounds=3 (the defaults) for the sequential/concurrent comparisons.
# shellcheck disable=SC2086
exec java -Xmx1g ${BENCH_JAVA_OPTS:-} -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
  io.sparkrca.gcp.bench.DataprocBenchmark "${1:-2000}" "${2:-20}" "${3:-all}"
