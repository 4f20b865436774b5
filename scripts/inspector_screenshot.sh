#!/usr/bin/env bash
# Regenerates docs/inspector.png: builds samples/inspector/ (ci preset), runs it
# under Xvfb for 72 frames (tick 18: the guard in combat, about to strike),
# checks the picture as the screenshot test does and stores it recompressed
# (the sample's own PNG writer does not compress).
#
#   scripts/inspector_screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh --inspector
cmake --preset ci
cmake --build --preset ci -j"${JOBS:-2}" --target tickfsm_sample_inspector
out="build/ci/inspector_docs.png"
python3 test/inspector/check_screenshot.py --xvfb-run "$(command -v xvfb-run)" \
  --program build/ci/samples/tickfsm_sample_inspector --frames 72 --out "$out"
python3 test/inspector/check_screenshot.py --recompress "$out" docs/inspector.png
echo "wrote docs/inspector.png"
