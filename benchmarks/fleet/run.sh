#!/usr/bin/env bash
# Fleet benchmark (issue 18 §4); results go to the "Fleet analysis" section of benchmarks/RESULTS.md.
#
#   benchmarks/fleet/run.sh     build, make the fleets once (LOGS small logs copied from the testkit
#                               fixtures with new ids; LARGE links to one member of the replay
#                               benchmark's amplified log family), then ROUNDS rounds of:
#                               `scan` with 1 and 2 threads on each fleet (fresh JVM, -Xmx$XMX), and
#                               the Spark job (FleetJob, local[2], Spark 4.0.4) on the small fleet;
#                               then the warm scaling (ScanScaling: one JVM, scans until the JIT is
#                               done, then rounds of 1 thread, 2 threads, and two 1-thread scans at
#                               once, the machine's ceiling for 1->2 threads) on each fleet
#
# Knobs (environment): ROUNDS=2 LOGS=2000 LARGE=20 XMX=1g LARGE_TASKS=100000 LARGE_BYTES=300000000
# WARM=1 (0 skips the warm scaling) DATA=benchmarks/data/fleet MVN_FLAGS= PREPARE_ONLY=1 (build and make the fleets, measure nothing: run
# it while the machine is busy, then SKIP_BUILD=1 benchmarks/fleet/run.sh when it is quiet)
# SCAN_OPTS= (extra JVM options of the `scan` runs, after the launcher's own for `scan`, which the
# runs read from dist/src/dist/bin/sparkrca so that they measure what `sparkrca scan` runs with;
# SCAN_JVM= replaces those, e.g. SCAN_JVM=' ' for the JVM's defaults; JOB_JVM= the Spark job's JVM
# options, by default the same, as docs/fleet.md recommends for the executors)
# Not part of `mvn verify`. About 1 GB of disk under $DATA; 15 to 30 minutes on 2 busy cores.
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
COMMAND="benchmarks/fleet/run.sh"
for knob in ROUNDS LOGS LARGE XMX LARGE_TASKS LARGE_BYTES; do
  if [[ -n "${!knob:-}" ]]; then COMMAND="$knob=${!knob} $COMMAND"; fi
done
ROUNDS=${ROUNDS:-2}
LOGS=${LOGS:-2000}
LARGE=${LARGE:-20}
XMX=${XMX:-1g}
LARGE_TASKS=${LARGE_TASKS:-100000}
LARGE_BYTES=${LARGE_BYTES:-300000000}
DATA=${DATA:-benchmarks/data/fleet}
MVN_FLAGS=${MVN_FLAGS:-}

if [[ "${SKIP_BUILD:-}" != "1" ]]; then
  echo "== building benchmarks and the spark module's shaded jar (never installed)"
  # shellcheck disable=SC2086
  mvn -B -q $MVN_FLAGS -pl benchmarks,spark -am package -DskipTests
fi
# The measured JVMs run from a copy of the class path and of the shaded jar: other builds in the
# same checkout may rewrite target/ while the benchmark runs.
mkdir -p "$DATA"
LIB="$(realpath "$DATA")/classpath"
rm -rf "$LIB"
mkdir -p "$LIB"
(cd benchmarks/target/classes && jar cf "$LIB/00-sparkrca-benchmarks.jar" .)
tr ':' '\n' < benchmarks/target/replay-classpath.txt | while read -r jar; do
  if [[ -n "$jar" ]]; then cp "$jar" "$LIB/"; fi
done
cp spark/target/sparkrca-spark.jar "$LIB/../sparkrca-spark.jar"
CP="$LIB/*"
SHADED="$(realpath "$DATA")/sparkrca-spark.jar"
SPARK_JARS="$ROOT/testkit/target/spark-4.0.4/jars"
# What `sparkrca scan` gives the JVM (the launcher's scan_jvm line), unless SCAN_JVM says otherwise.
SCAN_JVM=${SCAN_JVM:-$(sed -n 's/^scan_jvm="\(.*\)"$/\1/p' dist/src/dist/bin/sparkrca)}
[[ -n "$SCAN_JVM" ]] || { echo "no scan_jvm= line in dist/src/dist/bin/sparkrca: set SCAN_JVM" >&2; exit 2; }
JOB_JVM=${JOB_JVM:-$SCAN_JVM} # local[2]: the driver's JVM is the executor's
SPARK_OPENS=$(sed -n 's:.*<spark.java17.opens>\(.*\)</spark.java17.opens>.*:\1:p' pom.xml)
mkdir -p "$DATA/runs"

SEED=$(ls -d testkit/fixtures/spark-3.5.9/healthy/eventlog/* | head -1)
echo "== the large log: the replay benchmark's amplifier, $LARGE_TASKS tasks from $SEED (skipped when up to date)"
java -Xmx2g -cp "$CP" io.sparkrca.benchmarks.replay.Amplifier --seed "$SEED" --out "$DATA/large-seed" \
  --min-tasks "$LARGE_TASKS" --min-bytes "$LARGE_BYTES"
LARGE_SEED=$(sed -n 's/^zstd=//p' "$DATA/large-seed/SUMMARY.properties")
[[ "$LARGE_SEED" = /* ]] || LARGE_SEED="$ROOT/$LARGE_SEED"
echo "== the fleets"
java -Xmx1g -cp "$CP" io.sparkrca.benchmarks.fleet.MakeFleet --fixtures testkit/fixtures --out "$DATA" \
  --logs "$LOGS" --large "$LARGE" --large-seed "$LARGE_SEED"
cat "$DATA/large-seed/SUMMARY.properties"
if [[ "${PREPARE_ONLY:-}" == "1" ]]; then
  echo "== fleets ready under $DATA (PREPARE_ONLY=1: nothing measured)"
  exit 0
fi

now() { date +%s.%N; }
scan() { # fleet threads round
  local out="$DATA/runs/scan-$1-t$2-r$3.txt" t0 t1
  t0=$(now)
  # shellcheck disable=SC2086 # SCAN_JVM, SCAN_OPTS: JVM options of the scans, split on spaces
  java -Xmx"$XMX" $SCAN_JVM ${SCAN_OPTS:-} -Dfleet.threads="$2" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
    io.sparkrca.benchmarks.replay.Measure io.sparkrca.benchmarks.fleet.ScanWorkload "$DATA/$1" > "$out"
  t1=$(now)
  echo "scan fleet=$1 threads=$2 round=$3 processWallSeconds=$(awk "BEGIN{print $t1 - $t0}") $(grep '^RESULT' "$out")"
}
job() { # round
  local out="$DATA/runs/job-r$1" t0 t1
  rm -rf "$out"
  t0=$(now)
  # shellcheck disable=SC2086
  SPARK_LOCAL_IP=127.0.0.1 SPARK_LOCAL_HOSTNAME=localhost java -Xmx"$XMX" $JOB_JVM $SPARK_OPENS -Dspark.master='local[2]' \
    -Dspark.ui.enabled=false -cp "$SPARK_JARS/*:$SHADED" io.sparkrca.spark.FleetJob \
    "$ROOT/$DATA/small" "$out" > "$out.stdout" 2> "$out.stderr"
  t1=$(now)
  echo "job fleet=small round=$1 processWallSeconds=$(awk "BEGIN{print $t1 - $t0}") $(grep '^sparkrca:' "$out.stdout")"
}

echo "== measuring ($COMMAND), scan JVM options: $SCAN_JVM ${SCAN_OPTS:-}; the job's: $JOB_JVM"
echo "== load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
  scan small 1 "$r"
  scan small 2 "$r"
  job "$r"
  scan large 1 "$r"
  scan large 2 "$r"
  echo "load after round $r: $(cut -d' ' -f1-3 /proc/loadavg)"
done

if [[ "${WARM:-1}" != "0" ]]; then
  warm() { # fleet warmup rounds
    local out="$DATA/runs/warm-$1.txt"
    # shellcheck disable=SC2086
    java -Xmx"$XMX" $SCAN_JVM ${SCAN_OPTS:-} -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
      io.sparkrca.benchmarks.fleet.ScanScaling --warmup "$2" --rounds "$3" "$DATA/$1" > "$out"
    echo "warm fleet=$1 $(grep '^RESULT' "$out")"
  }
  echo "== warm scaling (WARM=0 skips it)"
  warm small 4 5
  warm large 2 3
  echo "load after the warm scaling: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
