#!/usr/bin/env bash
# Regenerates the pictures in docs/pictures/: for each sample below, its
# `--dot` output (NAME.dot, which the test docs.pictures.NAME compares with
# the sample's) and that drawn by Graphviz (NAME.svg).
#
#   scripts/pictures.sh            (builds the samples with the ci preset)
#   JOBS=2 scripts/pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-1}"
samples=(guard robot)

bash scripts/deps.sh
cmake --preset ci >/dev/null
targets=()
for name in "${samples[@]}"; do targets+=(--target "tickfsm_sample_$name"); done
cmake --build --preset ci -j"$JOBS" "${targets[@]}"

mkdir -p docs/pictures
for name in "${samples[@]}"; do
  "build/ci/samples/tickfsm_sample_$name" --dot > "docs/pictures/$name.dot"
  dot -Tsvg "docs/pictures/$name.dot" > "docs/pictures/$name.svg"
  echo "docs/pictures/$name.svg"
done
