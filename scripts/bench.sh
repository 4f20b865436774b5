#!/usr/bin/env bash
# The brawler benchmark, end to end:
#   1. dependencies (scripts/deps.sh --bench --callgrind: + libbenchmark-dev, valgrind)
#   2. configure the `bench` preset (Release, into build/bench) and build tickfsm_bench_brawler
#   3. run it, passing every argument through, e.g.
#        scripts/bench.sh --n 1000 --min-time 0.05 --reps 2
#      (no arguments: the full run, N = 1 1000 100000 1000000; it takes minutes)
#   4. bench/compile_time.sh: seconds to compile a 50-state/200-transition machine
#   5. bench/callgrind.sh: instructions per agent-tick under callgrind
#      (N and ticks from CALLGRIND_N and CALLGRIND_TICKS, default 1000 and 1000)
# Stops at the first step that fails, with a non-zero exit status.
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-2}"

banner() {
  echo
  echo "=================================================================="
  echo "== $*"
  echo "=================================================================="
}

trap 'rc=$?; if [ "$rc" -ne 0 ]; then echo; echo "scripts/bench.sh: FAILED (exit $rc) during: ${stage:-setup}" >&2; fi' EXIT

stage="dependencies"
banner "$stage"
bash scripts/deps.sh --bench --callgrind

stage="bench: configure + build tickfsm_bench_brawler"
banner "$stage"
cmake --preset bench
cmake --build --preset bench -j"$JOBS" --target tickfsm_bench_brawler

bin="build/bench/bench/tickfsm_bench_brawler"
if [ ! -x "$bin" ]; then
  # A multi-config generator puts it in a per-configuration subdirectory.
  bin="$(find build/bench -path '*/CMakeFiles' -prune -o -type f -name tickfsm_bench_brawler -perm -u+x -print -quit)"
  [ -n "$bin" ] || { echo "scripts/bench.sh: tickfsm_bench_brawler not found under build/bench" >&2; exit 1; }
fi

stage="bench: $bin $*"
banner "$stage"
"$bin" "$@"

stage="compile time (bench/compile_time.sh)"
banner "$stage"
bash bench/compile_time.sh

stage="instruction counts (bench/callgrind.sh)"
banner "$stage"
bash bench/callgrind.sh "$bin" "${CALLGRIND_N:-1000}" "${CALLGRIND_TICKS:-1000}"

stage="done"
banner "all stages passed"
