#!/usr/bin/env bash
# Installs Debian's chromium for the HTML report's browser tests (cli: HtmlReportBrowserTest), once.
# Called by .ci/run before the build; a developer runs it the same way. Idempotent: does nothing
# when a chromium is already on the PATH. Needs root (CI and the build machines run as root).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "chromium: $(chromium --version 2>/dev/null || echo present)"
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "chromium is missing and installing it needs root: sudo $0" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# fonts-dejavu-core: the screenshots need a font with the glyphs the reports use.
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "chromium: $(chromium --version)"
