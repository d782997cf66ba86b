#!/usr/bin/env bash
# LogStream vs GNU grep, side by side, in one run. Results go to stdout; copy them into
# benchmarks/RESULTS.md (section "LogStream"). Not part of `mvn verify`.
#
#   bash benchmarks/logstream-bench.sh            # from the repository root
#   BENCH_RUNS=5 bash benchmarks/logstream-bench.sh
#
# Data (about 1 GiB plain, its zstd copy, a 5 GiB sparse file) is generated once into
# benchmarks/data/ (git-ignored). Our side runs in a JVM limited to -Xmx64m.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v zstd >/dev/null 2>&1 || ! command -v zstdcat >/dev/null 2>&1; then
  echo "zstd CLI not found; installing it (apt-get install -y zstd)" >&2
  { apt-get install -y zstd || { apt-get update && apt-get install -y zstd; }; } >/dev/null 2>&1 \
    || echo "could not install zstd: the zstd comparison will be skipped" >&2
fi

# Build core and the benchmarks in one reactor (never `mvn install`), then get the classpath.
mvn -B -q -pl benchmarks -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile="$PWD/benchmarks/target/classpath.txt" -Dmdep.includeScope=runtime
CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"

exec java -Xmx64m -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dbench.runs="${BENCH_RUNS:-3}" -cp "$CP" \
  io.sparkrca.benchmarks.LogStreamBenchmark benchmarks/data
