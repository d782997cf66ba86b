#!/usr/bin/env bash
# Dry run of a release: stage every published artifact into a file repository, check that each one
# has what Maven Central requires, then build the same commit again and check the jars are
# byte-identical (reproducible builds). Run from the repository root; needs no credentials.
#   bash .ci/check-publishable.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# The published artifacts (the rest set maven.deploy.skip). Parents and the BOM are POM-only.
jar_modules=(core analysis rules fleet history-server gcp kubernetes inspector mcp cli testing spark)
pom_artifacts=(sparkrca-parent sparkrca-library-parent sparkrca-bom)
modules=$(IFS=,; echo "bom,libraries,${jar_modules[*]}")

# Outside target/: the reproducibility check below cleans every module, the root's target too.
staging=$(mktemp -d "${TMPDIR:-/tmp}/sparkrca-staging.XXXXXX")
trap 'rm -rf "$staging"' EXIT

echo "== Staging the published artifacts (sources and javadoc jars included) into $staging"
mvn -B -q -Partifacts -DskipTests clean deploy \
  -DaltDeploymentRepository="staging::file://$staging" -pl "$modules" -am

failures=0
fail() { echo "publishable: $*" >&2; failures=$((failures + 1)); }

# The module's own artifactId: the first one outside <parent>. One awk, no pipe: under pipefail a
# reader that stops early (head, grep -m1) would fail the script with SIGPIPE.
artifact_of() {
  awk '/<parent>/{p=1} /<\/parent>/{p=0; next} !p && /<artifactId>/ {gsub(/.*<artifactId>|<\/artifactId>.*/, ""); print; exit}' "$1/pom.xml"
}

# The effective metadata Central asks of every POM: name, description, url, licenses,
# developers, scm (inherited from the root POM where a module does not repeat it).
check_pom_metadata() { # $1 artifact, $2 module dir ('.' for the root)
  local effective="$staging/$1.effective-pom.xml"
  mvn -B -q -N -f "$2/pom.xml" org.apache.maven.plugins:maven-help-plugin:3.5.1:effective-pom -Doutput="$effective" >/dev/null
  for tag in name description url licenses developers scm; do
    grep -qE "<$tag[ >]" "$effective" || fail "$1: the POM has no <$tag> (Central requires it)"
  done
  # The staged POM is the one consumers get: it must name its license too (inherited is fine).
  local staged
  staged=$(find "$staging/io/sparkrca/$1" -name "$1-*.pom" -print -quit)
  [ -n "$staged" ] || fail "$1: no POM was staged"
}

check_checksums() { # every staged file has its .sha1 and .md5
  local f
  for f in "$@"; do
    [ -f "$f.sha1" ] || fail "$(basename "$f"): no .sha1 checksum"
    [ -f "$f.md5" ] || fail "$(basename "$f"): no .md5 checksum"
  done
}

echo "== Checking the staged artifacts"
for a in "${pom_artifacts[@]}"; do
  case "$a" in
    sparkrca-parent) dir=. ;;
    sparkrca-library-parent) dir=libraries ;;
    sparkrca-bom) dir=bom ;;
  esac
  check_pom_metadata "$a" "$dir"
  check_checksums $(find "$staging/io/sparkrca/$a" -name "*.pom")
done
for m in "${jar_modules[@]}"; do
  a=$(artifact_of "$m")
  check_pom_metadata "$a" "$m"
  dir="$staging/io/sparkrca/$a"
  main=$(find "$dir" -name "$a-*.jar" ! -name "*-sources.jar" ! -name "*-javadoc.jar" ! -name "*-tests.jar" -print -quit)
  sources=$(find "$dir" -name "$a-*-sources.jar" -print -quit)
  javadoc=$(find "$dir" -name "$a-*-javadoc.jar" -print -quit)
  [ -n "$main" ] || { fail "$a: no jar was staged"; continue; }
  [ -n "$sources" ] || fail "$a: no sources jar (Central requires one)"
  [ -n "$javadoc" ] || fail "$a: no javadoc jar (Central requires one)"
  check_checksums $(find "$dir" -name "*.jar" -o -name "*.pom")
  name=$(unzip -p "$main" META-INF/MANIFEST.MF | tr -d '\r' | sed -n 's/^Automatic-Module-Name: //p' || true)
  case "$name" in
    io.sparkrca.*) [ "$name" != io.sparkrca.unpublished ] || fail "$a: the jar has no module name of its own" ;;
    *) fail "$a: the jar's manifest has no Automatic-Module-Name" ;;
  esac
done

echo "== Reproducible builds: the same commit built again gives the same jars"
declare -A first
for m in "${jar_modules[@]}"; do
  for j in "$m"/target/*.jar; do
    [ -f "$j" ] && first["$j"]=$(sha256sum "$j" | cut -d' ' -f1)
  done
done
mvn -B -q -Partifacts -DskipTests clean package -pl "$modules" -am
for j in "${!first[@]}"; do
  if [ ! -f "$j" ]; then
    fail "$j: not rebuilt"
  elif [ "$(sha256sum "$j" | cut -d' ' -f1)" != "${first[$j]}" ]; then
    fail "$j: differs between two builds of the same commit (not reproducible)"
  fi
done
echo "compared ${#first[@]} jars"

if [ "$failures" -ne 0 ]; then
  echo "publishable: $failures problem(s); see above" >&2
  exit 1
fi
echo "publishable: every published artifact has its POM metadata, sources, javadoc, checksums and module name, and builds reproducibly"
