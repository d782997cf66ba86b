#!/usr/bin/env bash
# Comparison and HTML benchmark (issue 15 §3); results go to the "Comparison and HTML reports"
# section of benchmarks/RESULTS.md (by hand: the script prints the rows).
#
#   benchmarks/compare/run.sh     build; then ROUNDS rounds of (the replay alone, `sparkrca compare`
#                                 of two 1M-task logs), each in a fresh JVM with -Xmx$XMX; the HTML
#                                 reports (rca, summarize, compare) of the 1M-task log written once,
#                                 their sizes, and their load + full-page paint in headless Chromium
#
#   RENDER_ONLY=1 benchmarks/compare/run.sh
#                                 only the HTML part: the three pages written once (one comparison run
#                                 for its page, untimed) and their load + paint timed; no replay rounds
#   RENDER_AGAINST=<dir> ...      also time the rca.html, summary.html and compare.html of <dir> (e.g.
#                                 made by another commit), in the same browser, rounds interleaved
#
# Knobs (environment): ROUNDS=3 XMX=1g CODEC=zstd|plain RENDER_ROUNDS=5 RENDER_ONLY= RENDER_AGAINST=
# DATA=benchmarks/data/replay (the replay benchmark's amplified log, made once by
# benchmarks/replay/run.sh; this script only reads it) OUT=benchmarks/data/compare
# BASELINE=<second event log> (default: the same log again, replayed a second time)
# Not part of `mvn verify`. About 15 minutes on 2 cores; needs chromium (.ci/install-chromium.sh).
set -euo pipefail

cd "$(dirname "$0")/../.."
COMMAND="benchmarks/compare/run.sh"
for knob in ROUNDS XMX CODEC RENDER_ROUNDS RENDER_ONLY RENDER_AGAINST BASELINE; do
  if [[ -n "${!knob:-}" ]]; then COMMAND="$knob=${!knob} $COMMAND"; fi
done
ROUNDS=${ROUNDS:-3}
XMX=${XMX:-1g}
CODEC=${CODEC:-zstd}
RENDER_ROUNDS=${RENDER_ROUNDS:-5}
RENDER_ONLY=${RENDER_ONLY:-}
RENDER_AGAINST=${RENDER_AGAINST:-}
DATA=${DATA:-benchmarks/data/replay}
OUT=${OUT:-benchmarks/data/compare}
MVN_FLAGS=${MVN_FLAGS:-}

[[ -e "$DATA/SUMMARY.properties" ]] || {
  echo "no amplified log under $DATA: run benchmarks/replay/run.sh once (or set DATA=...)" >&2; exit 2; }
rel=$(sed -n "s/^$CODEC=//p" "$DATA/SUMMARY.properties")
# SUMMARY.properties names the log relative to the checkout that made it.
LOG="$(realpath "$DATA")/${rel#benchmarks/data/replay/}"
[[ -e "$LOG" ]] || { echo "the $CODEC log is missing: $LOG" >&2; exit 2; }
BASELINE=${BASELINE:-$LOG}

echo "== building the benchmarks and cli modules (never installed)"
# shellcheck disable=SC2086
mvn -B -q $MVN_FLAGS -pl benchmarks,cli -am package -DskipTests

# The measured JVMs run from a copy of the class path: other builds in the same checkout may
# rewrite target/ while the run is under way.
mkdir -p "$OUT/runs"
LIB="$(realpath "$OUT")/classpath"
rm -rf "$LIB"
mkdir -p "$LIB"
(cd benchmarks/target/classes && jar cf "$LIB/00-sparkrca-benchmarks.jar" .)
(cd cli/target/test-classes && jar cf "$LIB/01-sparkrca-cli-tests.jar" io/sparkrca/cli/browser)
tr ':' '\n' < benchmarks/target/replay-classpath.txt | while read -r jar; do
  if [[ -n "$jar" ]]; then cp "$jar" "$LIB/"; fi
done
CP="$LIB/*"
STAMP=$(date -u +%Y%m%d-%H%M%S)
RUN="$OUT/runs/$STAMP.log"

measure() { # workload, extra JVM flags...
  local workload=$1; shift
  java -Xmx"$XMX" "$@" -cp "$CP" io.sparkrca.benchmarks.replay.Measure "$workload" "$LOG" | grep '^RESULT ' | tee -a "$RUN"
}

if [[ -n "$RENDER_ONLY" ]]; then
  echo "== RENDER_ONLY: one comparison run (untimed here) for its HTML page" | tee -a "$RUN"
  measure io.sparkrca.benchmarks.rca.CompareWorkload -Dsparkrca.bench.baseline="$BASELINE" \
    -Dsparkrca.bench.html="$(realpath "$OUT")/compare.html"
else
  echo "== $ROUNDS rounds x (replay alone, compare of two replays) on $LOG, cold, -Xmx$XMX" | tee -a "$RUN"
  for ((r = 1; r <= ROUNDS; r++)); do
    measure io.sparkrca.benchmarks.replay.OursWorkload
    extra=()
    if [[ $r -eq $ROUNDS ]]; then extra=(-Dsparkrca.bench.html="$(realpath "$OUT")/compare.html"); fi
    measure io.sparkrca.benchmarks.rca.CompareWorkload -Dsparkrca.bench.baseline="$BASELINE" "${extra[@]}"
  done

fi

echo "== the HTML reports of the 1M-task log" | tee -a "$RUN"
measure io.sparkrca.benchmarks.rca.HtmlWorkload -Dsparkrca.bench.rcaHtml="$(realpath "$OUT")/rca.html" \
  -Dsparkrca.bench.summaryHtml="$(realpath "$OUT")/summary.html"

PAGES=("$OUT/rca.html" "$OUT/summary.html" "$OUT/compare.html")
if [[ -n "$RENDER_AGAINST" ]]; then
  for page in rca summary compare; do
    [[ -e "$RENDER_AGAINST/$page.html" ]] || { echo "no $page.html under RENDER_AGAINST=$RENDER_AGAINST" >&2; exit 2; }
    # A copy under another name, so that the two pages of a pair are told apart in the output.
    cp "$RENDER_AGAINST/$page.html" "$OUT/against-$page.html"
    PAGES+=("$OUT/against-$page.html")
  done
fi
echo "== headless Chromium: load and full-page paint, median of $RENDER_ROUNDS rounds, pages interleaved" | tee -a "$RUN"
java -Xmx256m -cp "$CP" io.sparkrca.cli.browser.RenderTiming "$RENDER_ROUNDS" "${PAGES[@]}" | tee -a "$RUN"

echo "== summary (median wall seconds; commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- core rules cli benchmarks || echo ', with uncommitted changes'))"
python3 - "$RUN" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if line.startswith("RESULT "):
        d = json.loads(line[7:])
        rows.setdefault(d["mode"], []).append(d)
def med(mode, key):
    return statistics.median(float(d[key]) for d in rows[mode])
def rounds(mode):
    return " ".join("%.1f" % d["wallSeconds"] for d in rows[mode])
if "ours" in rows:
    replay, compare = med("ours", "wallSeconds"), med("compare", "wallSeconds")
    print(f"replay alone: {replay:.1f} s (rounds: {rounds('ours')})")
    print(f"compare: {compare:.1f} s (rounds: {rounds('compare')}); "
          f"ratio {compare / replay:.2f}x (target <= 2.2x)")
c = rows["compare"][-1]
print(f"compare phases (last round): replay {c['replayWallSeconds']:.1f} s, compare {c['compareWallSeconds']:.2f} s, "
      f"render {c['renderWallSeconds']:.2f} s; peak heap after GC {c['peakHeapAfterGcMiB']:.0f} MiB; "
      f"{c['stagePairs']} stage pairs; compare HTML {c['htmlBytes']} bytes")
h = rows["html"][0]
print(f"rca HTML {h['rcaHtmlBytes']} bytes, summary HTML {h['summaryHtmlBytes']} bytes (target < 5 MB)")
PY
echo "(the raw lines: $RUN)"
