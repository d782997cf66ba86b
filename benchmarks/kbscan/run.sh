#!/usr/bin/env bash
# The whole failure knowledge base over a 1 GB driver log against `sparkrca logs search` with one
# regex on the same file, interleaved in one run (issue #40 §2; goal: the scan within 1.5x of the
# one-regex search). Prints min/median/max wall and CPU seconds per command and the median of the
# per-pair ratios, with the load average. Results go to stdout; copy them into benchmarks/RESULTS.md
# (section "Knowledge-base scan"). Not part of `mvn verify`.
#
#   benchmarks/kbscan/run.sh                 # from anywhere; builds cli (and core) first
#   RUNS=9 SKIP_BUILD=1 benchmarks/kbscan/run.sh
#
# Knobs: RUNS (pairs per comparison, default 5), LOG_BYTES (default 1 GiB), DATA (default
# benchmarks/data/kbscan, which git ignores), SKIP_BUILD=1 (use cli/target/sparkrca.jar as it is).
# Both sides run in the same JVM with the launcher's flags (bin/sparkrca: -XX:+UseSerialGC
# -XX:TieredStopAtLevel=1), from the same jar, so only the work differs.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
RUNS=${RUNS:-5}
LOG_BYTES=${LOG_BYTES:-1073741824}
DATA=${DATA:-$root/benchmarks/data/kbscan}
mkdir -p "$DATA"

if [ -z "${SKIP_BUILD:-}" ]; then
  echo "== build cli and what it needs (never mvn install)" >&2
  mvn -B -o -q -pl cli -am package -DskipTests
fi
jar=$root/cli/target/sparkrca.jar
classes=$root/benchmarks/target/kbscan-classes
# One class that needs only core (in the cli jar): compiled on its own, so that the run does not
# depend on the benchmarks module's other dependencies (Spark-facing ones among them).
mkdir -p "$classes"
javac -d "$classes" -cp "$jar" benchmarks/src/main/java/io/sparkrca/benchmarks/KnowledgeScanBenchmark.java
java_cmd="java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp $jar:$classes"

log=$DATA/driver-1g.log
if [ ! -f "$log" ] || [ "$(stat -c %s "$log")" -lt "$LOG_BYTES" ]; then
  echo "== write $log" >&2
  $java_cmd io.sparkrca.benchmarks.KnowledgeScanBenchmark generate testkit/fixtures "$log" "$LOG_BYTES" >&2
fi
cat "$log" > /dev/null # in the page cache for every command

scan="$java_cmd io.sparkrca.benchmarks.KnowledgeScanBenchmark scan $log"
# --max-matches 10000: the default 20 would stop the search near the start of the file; both
# regexes match fewer than 10,000 lines of this log, so the search reads all of it.
search() { echo "$java_cmd io.sparkrca.cli.SparkRcaCommand logs search --max-matches 10000 --regex $1 $log"; }

# run CMD OUT: runs CMD once (its output to OUT, never /dev/null), prints "wall_s cpu_s".
run() {
  local t
  t=$(mktemp)
  /usr/bin/time -f '%e %U %S' -o "$t" bash -c "$1" > "$2" 2>&1 || true
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$t"
  rm -f "$t"
}

# bench NAME 'COMMAND A' 'COMMAND B': RUNS interleaved pairs after one warm-up of each.
bench() {
  local name=$1 a=$2 b=$3 i ra rb out fa fb fr fc
  out=$(mktemp) fa=$(mktemp) fb=$(mktemp) fr=$(mktemp) fc=$(mktemp)
  run "$a" "$out" > /dev/null
  run "$b" "$out" > /dev/null
  for ((i = 0; i < RUNS; i++)); do
    ra=$(run "$a" "$out")
    rb=$(run "$b" "$out")
    echo "$ra" >> "$fa"
    echo "$rb" >> "$fb"
    awk -v a="$ra" -v b="$rb" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.2f\n", x[1] / y[1] }' >> "$fr"
    awk -v a="$ra" -v b="$rb" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.2f\n", x[2] / y[2] }' >> "$fc"
  done
  col() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { printf "%s / %s / %s", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
  printf '| %s | A: `%s` | %s | %s |\n' "$name" "${a//$root\//}" "$(col "$fa" 1)" "$(col "$fa" 2)"
  printf '| | B: `%s` | %s | %s |\n' "${b//$root\//}" "$(col "$fb" 1)" "$(col "$fb" 2)"
  printf '| | **A/B** (per pair) | %s | %s |\n' "$(col "$fr" 1)" "$(col "$fc" 1)"
  rm -f "$out" "$fa" "$fb" "$fr" "$fc"
}

echo "Machine: $(nproc) cores, $(java -version 2>&1 | head -n 1); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Log: $log ($(stat -c %s "$log") bytes, $(wc -l < "$log") lines); $RUNS interleaved pairs after one warm-up each"
$scan > "$DATA/scan.txt"
echo "One scan's findings (signature: occurrences):"
sed 's/^/    /' "$DATA/scan.txt"
echo
echo '| comparison | command | wall s (min / median / max) | CPU s, user + sys (min / median / max) |'
echo '|---|---|---:|---:|'
bench "whole knowledge base vs one regex" "$scan" "$(search OutOfMemoryError)"
bench "whole knowledge base vs a common regex" "$scan" "$(search Exception)"
echo
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
