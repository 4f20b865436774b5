#!/usr/bin/env bash
# Builds and runs the platformer sample (preset "dev").
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh
cmake --preset dev
cmake --build --preset dev -j2 --target tickfsm_sample_platformer
./build/dev/samples/tickfsm_sample_platformer "$@"
