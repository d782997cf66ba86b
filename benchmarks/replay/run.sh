#!/usr/bin/env bash
# Event-log replay benchmark (issue 2 §6); results go to benchmarks/RESULTS.md.
#
#   benchmarks/replay/run.sh           build, amplify a real Spark log (once), then our replay,
#                                      Spark's replay and the floor, ROUNDS rounds, plain and zstd
#   benchmarks/replay/run.sh profile   one JFR-profiled run of our replay on the plain log
#
# Knobs (environment): ROUNDS=3 WARMUP=3 OURS_XMX=512m SPARK_XMX=4g MIN_TASKS=1000000
# MIN_BYTES=1000000000 SEED=<event log> DATA=benchmarks/data/replay MVN_FLAGS=
# Not part of `mvn verify`. Needs ~4 GB of disk under $DATA and 40 to 60 minutes on 2 cores
# (Spark's warm measurement replays each file WARMUP+1 times in one JVM, about 45 s each).
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
# The command as given, for RESULTS.md: the knobs that change what is measured are part of it.
COMMAND="benchmarks/replay/run.sh"
for knob in SEED ROUNDS WARMUP MIN_TASKS MIN_BYTES OURS_XMX SPARK_XMX; do
  if [[ -n "${!knob:-}" ]]; then COMMAND="$knob=${!knob} $COMMAND"; fi
done
ROUNDS=${ROUNDS:-3}
# Replays of the same file a warm JVM makes before the timed one (0: cold runs only).
WARMUP=${WARMUP:-3}
OURS_XMX=${OURS_XMX:-512m}
SPARK_XMX=${SPARK_XMX:-4g}
MIN_TASKS=${MIN_TASKS:-1000000}
MIN_BYTES=${MIN_BYTES:-1000000000}
DATA=${DATA:-benchmarks/data/replay}
MVN_FLAGS=${MVN_FLAGS:-}

echo "== building the benchmarks module and Spark's replay (never installed)"
# shellcheck disable=SC2086
mvn -B -q $MVN_FLAGS -pl benchmarks -am package -DskipTests
# shellcheck disable=SC2086
mvn -B -q $MVN_FLAGS -f benchmarks/spark-replay/pom.xml package -DskipTests

OURS_CP="$ROOT/benchmarks/target/classes:$(cat benchmarks/target/replay-classpath.txt)"
SPARK_CP="$ROOT/benchmarks/target/classes:$ROOT/benchmarks/spark-replay/target/classes:$ROOT/benchmarks/spark-replay/target/spark-4.0.4/*"
SPARK_OPENS=$(sed -n 's:.*<spark.java17.opens>\(.*\)</spark.java17.opens>.*:\1:p' pom.xml)

# The seed: a real Spark log, read where it lies and never committed. Prefer a testkit fixture
# (a healthy run if one is named so), else Spark's own History Server test log with SQL.
if [[ -z "${SEED:-}" ]]; then
  shopt -s nullglob
  fixtures=(testkit/fixtures/spark-*/*/eventlog/*)
  shopt -u nullglob
  for f in "${fixtures[@]}"; do
    if [[ "$f" =~ (healthy|baseline|success|ok) ]]; then SEED=$f; break; fi
  done
  if [[ -z "${SEED:-}" && ${#fixtures[@]} -gt 0 ]]; then SEED=${fixtures[0]}; fi
  if [[ -z "${SEED:-}" ]]; then
    SEED=$ROOT/../../shared/conformance/spark-shs/spark-events/app-20200706201101-0003
    [[ -e "$SEED" ]] || SEED=/work/shared/conformance/spark-shs/spark-events/app-20200706201101-0003
  fi
fi
[[ -e "$SEED" ]] || { echo "seed event log not found: $SEED (set SEED=...)" >&2; exit 2; }
SEED=$(realpath "$SEED")

echo "== amplifying $SEED into $DATA (skipped when up to date)"
java -Xmx2g -cp "$OURS_CP" io.sparkrca.benchmarks.replay.Amplifier --seed "$SEED" --out "$DATA" \
  --min-tasks "$MIN_TASKS" --min-bytes "$MIN_BYTES"

if [[ "${1:-}" == "profile" ]]; then
  plain=$(sed -n 's/^plain=//p' "$DATA/SUMMARY.properties")
  jfr="$DATA/runs/ours-$(date -u +%Y%m%d-%H%M%S).jfr"
  mkdir -p "$DATA/runs"
  echo "== profiling our replay of $plain into $jfr"
  java -Xmx"$OURS_XMX" -XX:StartFlightRecording=filename="$jfr",settings=profile \
    -cp "$OURS_CP" io.sparkrca.benchmarks.replay.Measure io.sparkrca.benchmarks.replay.OursWorkload "$plain"
  java -cp "$OURS_CP" io.sparkrca.benchmarks.replay.JfrTop "$jfr" 30
  exit 0
fi

echo "== measuring: $ROUNDS rounds x (ours, Spark, floor) x (plain, zstd) x (cold, warm after $WARMUP replays)"
java -Xmx256m -cp "$OURS_CP" io.sparkrca.benchmarks.replay.Harness \
  --summary "$DATA/SUMMARY.properties" --log-dir "$DATA/runs" --results benchmarks/RESULTS.md \
  --rounds "$ROUNDS" --warmup "$WARMUP" --ours-xmx "$OURS_XMX" --spark-xmx "$SPARK_XMX" --spark-version 4.0.4 \
  --ours-cp "$OURS_CP" --spark-cp "$SPARK_CP" --spark-opens "$SPARK_OPENS" \
  --command "$COMMAND"
