#!/usr/bin/env bash
# RCA benchmark (issue 11 §7); results go to the "RCA" section of benchmarks/RESULTS.md.
#
#   benchmarks/rca/run.sh                 build, amplify the replay benchmark's log (once, shared with
#                                         benchmarks/replay/run.sh), then the replay alone, `sparkrca rca`
#                                         and `sparkrca rules --recommended`, ROUNDS rounds, plain and zstd,
#                                         cold and warm, each in a fresh JVM with -Xmx$XMX
#   benchmarks/rca/run.sh profile [rca|rules]   one JFR-profiled cold run on the plain log, hottest methods
#
# Knobs (environment): ROUNDS=3 WARMUP=3 XMX=512m MIN_TASKS=1000000 MIN_BYTES=1000000000
# SEED=<event log> DATA=benchmarks/data/replay MVN_FLAGS=
# Not part of `mvn verify`. Needs the replay benchmark's ~4 GB under $DATA (made once) and about
# 30 minutes on 2 cores.
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
COMMAND="benchmarks/rca/run.sh"
for knob in SEED ROUNDS WARMUP MIN_TASKS MIN_BYTES XMX; do
  if [[ -n "${!knob:-}" ]]; then COMMAND="$knob=${!knob} $COMMAND"; fi
done
ROUNDS=${ROUNDS:-3}
WARMUP=${WARMUP:-3}
XMX=${XMX:-512m}
MIN_TASKS=${MIN_TASKS:-1000000}
MIN_BYTES=${MIN_BYTES:-1000000000}
DATA=${DATA:-benchmarks/data/replay}
MVN_FLAGS=${MVN_FLAGS:-}

# What is measured: the commit, and whether the modules built differ from it (a shared checkout).
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if ! git diff --quiet HEAD -- core rules inspector benchmarks/src 2>/dev/null; then
  COMMIT="$COMMIT with uncommitted changes in core, rules, inspector or benchmarks"
fi

echo "== building the benchmarks module (never installed)"
# shellcheck disable=SC2086
mvn -B -q $MVN_FLAGS -pl benchmarks -am package -DskipTests

# The measured JVMs run from a copy of the class path: other builds in the same checkout may
# rewrite target/ while a 30-minute run is under way.
mkdir -p "$DATA"
LIB="$(realpath "$DATA")/rca-classpath"
rm -rf "$LIB"
mkdir -p "$LIB"
(cd benchmarks/target/classes && jar cf "$LIB/00-sparkrca-benchmarks.jar" .)
tr ':' '\n' < benchmarks/target/replay-classpath.txt | while read -r jar; do
  if [[ -n "$jar" ]]; then cp "$jar" "$LIB/"; fi
done
CP="$LIB/*"

# The seed, chosen as benchmarks/replay/run.sh chooses it, so that both use the same amplified log.
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
java -Xmx2g -cp "$CP" io.sparkrca.benchmarks.replay.Amplifier --seed "$SEED" --out "$DATA" \
  --min-tasks "$MIN_TASKS" --min-bytes "$MIN_BYTES"

if [[ "${1:-}" == "profile" ]]; then
  what=${2:-rca}
  case "$what" in
    rca) workload=io.sparkrca.benchmarks.rca.RcaWorkload ;;
    rules) workload=io.sparkrca.benchmarks.rca.RulesWorkload ;;
    replay) workload=io.sparkrca.benchmarks.replay.OursWorkload ;;
    *) echo "profile what? rca, rules or replay" >&2; exit 2 ;;
  esac
  plain=$(sed -n 's/^plain=//p' "$DATA/SUMMARY.properties")
  mkdir -p "$DATA/runs"
  jfr="$DATA/runs/$what-$(date -u +%Y%m%d-%H%M%S).jfr"
  echo "== profiling $what on $plain into $jfr"
  java -Xmx"$XMX" -XX:StartFlightRecording=filename="$jfr",settings=profile \
    -cp "$CP" io.sparkrca.benchmarks.replay.Measure "$workload" "$plain"
  java -cp "$CP" io.sparkrca.benchmarks.replay.JfrTop "$jfr" 40
  exit 0
fi

echo "== measuring: $ROUNDS rounds x (replay, rca, rules) x (plain, zstd) x (cold, warm after $WARMUP runs)"
java -Xmx256m -cp "$CP" io.sparkrca.benchmarks.rca.RcaHarness \
  --summary "$DATA/SUMMARY.properties" --log-dir "$DATA/runs" --results benchmarks/RESULTS.md \
  --rounds "$ROUNDS" --warmup "$WARMUP" --xmx "$XMX" --cp "$CP" --command "$COMMAND" --commit "$COMMIT"
