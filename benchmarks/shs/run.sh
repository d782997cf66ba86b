#!/usr/bin/env bash
# History Server benchmarks (issue 12 §6); results go to the "History Server client and serve"
# section of benchmarks/RESULTS.md (by hand, from the RESULT lines this prints).
#
#   benchmarks/shs/run.sh          both measurements
#   benchmarks/shs/run.sh client   failure, slow and rca through the client, 2,000-stage app, real
#                                  Spark 4.0.4 History Server behind a proxy adding 20 ms a request,
#                                  sequential vs 8 in flight
#   benchmarks/shs/run.sh serve    time to the first answer for the 1M-task log: serve vs the real
#                                  History Server, each a fresh JVM, in the same run
#
# Knobs (environment): ROUNDS=2 CONCURRENCY=8 (the client's in-flight limit; a list like 8,16 measures each) DATA=benchmarks/data/shs BIG_LOG=<the 1M-task zstd log made by
# benchmarks/replay/run.sh> SEED=<event log to amplify to 2,000 stages>. Not part of `mvn verify`.
# Needs the Spark layouts of the testkit (built by the reactor) and ~15 minutes on 2 cores.
set -euo pipefail

cd "$(dirname "$0")/../.."
WHAT=${1:-all}
ROUNDS=${ROUNDS:-2}
DATA=${DATA:-benchmarks/data/shs}
BIG_LOG=${BIG_LOG:-benchmarks/data/replay/zstd/app-20200706201101-0003.zstd}
SEED=${SEED:-../shared/conformance/spark-shs/spark-events/app-20200706201101-0003}
[[ -e "$SEED" ]] || SEED=/work/shared/conformance/spark-shs/spark-events/app-20200706201101-0003
mkdir -p "$DATA"
DATA=$(realpath "$DATA")

if [[ "$WHAT" == all || "$WHAT" == client ]]; then
  echo "== the 2,000-stage log (Amplifier, 667 copies of the seed's 3 stages, one task per seed task)"
  mvn -B -q -o -pl benchmarks -am package -DskipTests
  CP="benchmarks/target/classes:$(cat benchmarks/target/replay-classpath.txt)"
  java -Xmx1g -cp "$CP" io.sparkrca.benchmarks.replay.Amplifier --seed "$SEED" --out "$DATA/stages2000" \
    --min-tasks 32016 --min-bytes 1 --fan 1..1
fi
if [[ "$WHAT" == all || "$WHAT" == serve ]]; then
  mkdir -p "$DATA/tasks1m"
  if [[ ! -e "$DATA/tasks1m/$(basename "$BIG_LOG")" ]]; then
    [[ -e "$BIG_LOG" ]] || { echo "the 1M-task log is missing: run benchmarks/replay/run.sh once, or set BIG_LOG" >&2; exit 2; }
    ln -s "$(realpath "$BIG_LOG")" "$DATA/tasks1m/$(basename "$BIG_LOG")"
  fi
fi

case "$WHAT" in
  client) TESTS='HistoryServerBenchmark#clientConcurrentVsSequential' ;;
  serve) TESTS='HistoryServerBenchmark#serveFirstAnswerVsTheRealHistoryServer' ;;
  *) TESTS='HistoryServerBenchmark' ;;
esac
echo "== measuring ($TESTS, $ROUNDS rounds)"
mvn -B -o -pl testkit/shs-parity -am test -Dtest="$TESTS" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench.stagesLogDir="$DATA/stages2000/zstd" -Dbench.bigLogDir="$DATA/tasks1m" -Dbench.rounds="$ROUNDS" \
  -Dbench.concurrency="${CONCURRENCY:-8}" \
  | tee "$DATA/last-run.log" | grep -E 'RESULT|Tests run|ERROR' || true
grep RESULT "$DATA/last-run.log" || { echo "no results: see $DATA/last-run.log" >&2; exit 1; }
