#!/bin/sh
# Regenerates the screenshots under docs/screenshots with the app's own --screenshot
# (offscreen platform, no display needed). Usage: scripts/screenshots.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
app=${1:-build}/app/scalescope
out=docs/screenshots
mkdir -p "$out"
settings=$(mktemp /tmp/scalescope-shots.XXXXXX.ini)
trap 'rm -f "$settings"' EXIT
shot() { QT_QPA_PLATFORM=offscreen "$app" --settings "$settings" --size 1600x1000 "$@"; }
for lang in en zh_CN; do
  # The first gallery scenario (claim 1: speed-up is not linear).
  shot --lang "$lang" --tab timeline --screenshot "$out/timeline-$lang.png"
  shot --lang "$lang" --tab scaling --screenshot "$out/scaling-$lang.png"
done
shot resources/scenarios/claim16-economics-4x4090.json --tab cost --screenshot "$out/cost-en.png"
shot resources/scenarios/claim09-b-few-micro-batches.json --tab breakdown --screenshot "$out/pipeline-bubble-en.png"
shot --present --size 1600x900 --screenshot "$out/presentation-en.png"
echo "screenshots written to $out"
