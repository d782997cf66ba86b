#!/usr/bin/env bash
# Start-up benchmark (issue 17 §3): the installed launcher (dist archive: bin/sparkrca with its
# class-data sharing archive) against 'java -jar' of a baseline jar, and 'logs count --regex' over a
# 300 MB log against 'grep -E -c', end to end (JVM start included). Runs are interleaved (A B A B
# ...) so that the ratios hold when the machine's speed drifts; prints min/median/max wall time and
# the median of the per-pair ratios, with the load average. Not part of 'mvn verify'.
#
#   benchmarks/startup/run.sh                     # build this tree and a baseline, measure
#   BASELINE_JAR=/tmp/old/sparkrca.jar benchmarks/startup/run.sh   # reuse a baseline jar
#   BASELINE_REF=1bc87b3 RUNS=11 benchmarks/startup/run.sh
#   SKIP_BUILD=1 ...                              # use dist/target as it is
#
# Knobs: RUNS (per command, default 9), BASELINE_REF (default: the commit before start-up work),
# BASELINE_JAR, ARCHIVE (a dist .tar.gz; default dist/target's), DATA (default benchmarks/data/startup,
# which git ignores), LOG_MB (default 300).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
RUNS=${RUNS:-9}
BASELINE_REF=${BASELINE_REF:-1bc87b3}
DATA=${DATA:-$root/benchmarks/data/startup}
LOG_MB=${LOG_MB:-300}
REGEX='OutOfMemoryError|Container killed'
mkdir -p "$DATA"

if [ -z "${SKIP_BUILD:-}" ]; then
  echo "== build this tree's distribution" >&2
  mvn -B -o -q -pl dist -am package -DskipTests
fi
archive=${ARCHIVE:-$(ls dist/target/sparkrca-*.tar.gz | head -n 1)}
rm -rf "$DATA/dist" && mkdir -p "$DATA/dist"
tar -xzf "$archive" -C "$DATA/dist"
launcher=$(ls -d "$DATA"/dist/sparkrca-*/bin/sparkrca)
# The first run of an installation makes its class-data sharing archive in the background: wait for it.
"$launcher" --version > /dev/null
for _ in $(seq 1 600); do
  if ls "${launcher%/bin/sparkrca}"/lib/cds/*.jsa > /dev/null 2>&1 \
    && ! ls "${launcher%/bin/sparkrca}"/lib/cds/*.jsa.* > /dev/null 2>&1; then break; fi
  sleep 1
done
ls "${launcher%/bin/sparkrca}"/lib/cds/*.jsa > /dev/null || { echo "no CDS archive was made" >&2; exit 1; }

if [ -z "${BASELINE_JAR:-}" ]; then
  BASELINE_JAR=$DATA/baseline-$BASELINE_REF.jar
  if [ ! -f "$BASELINE_JAR" ]; then
    echo "== build the baseline jar of $BASELINE_REF" >&2
    src=$(mktemp -d)
    git archive "$BASELINE_REF" | tar -x -C "$src"
    (cd "$src" && mvn -B -o -q -pl cli -am package -DskipTests)
    cp "$src/cli/target/sparkrca.jar" "$BASELINE_JAR"
    rm -rf "$src"
  fi
fi

# The log: the testkit's real driver and executor logs, repeated to LOG_MB.
log=$DATA/logs-${LOG_MB}mb.log
if [ ! -f "$log" ]; then
  echo "== write $log" >&2
  seed=$DATA/seed.log
  find testkit/fixtures \( -name '*.log' -o -name '*.stderr' \) -type f | sort | xargs cat > "$seed"
  : > "$log"
  while [ "$(stat -c %s "$log")" -lt $((LOG_MB * 1024 * 1024)) ]; do cat "$seed" >> "$log"; done
  rm -f "$seed"
fi
cat "$log" > /dev/null # in the page cache for both tools

fixture=$(ls testkit/fixtures/spark-3.5.9/bad-record/eventlog/* | head -n 1)

now_ms() { date +%s%N | cut -c1-13; }

# bench NAME 'COMMAND A' 'COMMAND B': RUNS interleaved pairs after one warm-up of each.
bench() {
  local name=$1 a=$2 b=$3 i t0 t1 ta tb
  local fa fb fr out
  fa=$(mktemp) fb=$(mktemp) fr=$(mktemp) out=$(mktemp)
  # Output goes to a file, never to /dev/null: GNU grep (2.27 and later) given /dev/null as its
  # output acts as -q and stops at the first match, which made 'grep -c' look 20x faster.
  bash -c "$a" > "$out" 2>&1 || true
  bash -c "$b" > "$out" 2>&1 || true
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now_ms); bash -c "$a" > "$out" 2>&1 || true; t1=$(now_ms); ta=$((t1 - t0))
    t0=$(now_ms); bash -c "$b" > "$out" 2>&1 || true; t1=$(now_ms); tb=$((t1 - t0))
    echo "$ta" >> "$fa"; echo "$tb" >> "$fb"
    awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.3f\n", a / b }' >> "$fr"
  done
  stats() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%s | %s | %s", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
  printf '| %s | A: `%s` | %s |\n' "$name" "$a" "$(stats "$fa")"
  printf '| | B: `%s` | %s |\n' "$b" "$(stats "$fb")"
  printf '| | **A/B** (median of pairs; min, max) | %s |\n' "$(stats "$fr")"
  rm -f "$fa" "$fb" "$fr" "$out"
}

echo "Machine: $(nproc) cores, $(java -version 2>&1 | head -n 1); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Baseline: java -jar $BASELINE_JAR; launcher: $launcher; log: $log ($(stat -c %s "$log") bytes); $RUNS interleaved runs each, wall ms"
echo
echo '| case | command | min | median | max |'
echo '|---|---|---:|---:|---:|'
bench "--version" "java -jar $BASELINE_JAR --version" "$launcher --version"
bench "summarize (128 KB event log)" "java -jar $BASELINE_JAR summarize $fixture" "$launcher summarize $fixture"
bench "logs count --regex, ${LOG_MB} MB" "$launcher logs count --regex '$REGEX' $log" "grep -E -c '$REGEX' $log"
bench "logs count --regex, ${LOG_MB} MB (before)" "java -jar $BASELINE_JAR logs count --regex '$REGEX' $log" "$launcher logs count --regex '$REGEX' $log"
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
