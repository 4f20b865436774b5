#!/usr/bin/env bash
# Runs the random differential test (test/diff) for a while: random machines
# driven through tickfsm and through its reference model, compared after every call.
#
#   scripts/fuzz.sh SECONDS [ARGS...]              tickfsm_fuzz (Release, build/fuzz)
#   scripts/fuzz.sh --libfuzzer SECONDS [ARGS...]  libFuzzer over the same driver
#                                                  (clang++-14, ASan+UBSan, build/libfuzzer)
#   scripts/fuzz.sh --trees SECONDS                the nested-state differential tests
#                                                  (test/diff/tree_diff.cpp) on fresh seeds
#
# tickfsm_fuzz prints machines, ticks, seconds and divergences; the libFuzzer run
# prints its number of executions. Either exits non-zero on a divergence, after
# printing its report (seed, configuration, calls; reproduce a seed with
# build/fuzz/test/tickfsm_fuzz --seed N --verbose). ARGS go to the program, e.g.
# --off would_next (tickfsm_fuzz) or -jobs=2 (libFuzzer). JOBS sets build parallelism.
# --trees runs tickfsm_diff_tests' tree tests (Release, build/fuzz) on batches of
# fresh seeds, each test on a random tree configuration per seed, and prints the
# seeds it covered; on a divergence it prints the test's report, whose seed
# TICKFSM_TREE_SEEDS=SEED:1 build/fuzz/test/tickfsm_diff_tests "[nested]" replays.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${JOBS:-2}"
usage() { sed -n '5,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

mode=plain
if [ "${1:-}" = "--libfuzzer" ]; then
  mode=libfuzzer
  shift
elif [ "${1:-}" = "--trees" ]; then
  mode=trees
  shift
fi
[ $# -ge 1 ] || usage
seconds="$1"
shift
case "$seconds" in ''|*[!0-9]*) usage ;; esac

common=(-DTICKFSM_BUILD_SAMPLES=OFF -DTICKFSM_INSTALL=OFF)

# Builds TARGET in the Release tree build/fuzz (the plain and the tree runs share it).
build_release() {
  bash "$root/scripts/deps.sh"
  build="$root/build/fuzz"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${common[@]}" >/dev/null
  cmake --build "$build" --target "$1" -j "$jobs"
}

if [ "$mode" = plain ]; then
  build_release tickfsm_fuzz
  exec "$build/test/tickfsm_fuzz" --seconds "$seconds" "$@"
fi

if [ "$mode" = trees ]; then
  build_release tickfsm_diff_tests
  batch=200
  first=$(( (RANDOM * 32768 + RANDOM) * 2 + 1 )) # a fresh range each run, below 2^31 (seeds are 32-bit)
  start=$first
  log="$build/trees.log"
  end=$((SECONDS + seconds))
  while [ "$SECONDS" -lt "$end" ]; do
    if ! TICKFSM_TREE_SEEDS="$first:$batch" "$build/test/tickfsm_diff_tests" "[nested]~[crowd]" >"$log" 2>&1; then
      cat "$log"
      echo "trees: DIVERGENCE in seeds $first to $((first + batch - 1)) (the report above names the seed)"
      exit 1
    fi
    first=$((first + batch))
  done
  echo "trees: seeds $start to $((first - 1)), $(( (first - start) * 2 )) random configurations (two trees), $seconds seconds, no divergence"
  exit 0
fi

bash "$root/scripts/deps.sh" --fuzz
build="$root/build/libfuzzer"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DTICKFSM_LIBFUZZER=ON "${common[@]}" >/dev/null
cmake --build "$build" --target tickfsm_libfuzzer -j "$jobs"
corpus="$build/corpus"
mkdir -p "$corpus"
log="$build/libfuzzer.log"
set +e
"$build/test/tickfsm_libfuzzer" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$build/" "$@" "$corpus" >"$log" 2>&1
status=$?
set -e
grep -E "DIVERGENCE|ERROR|SUMMARY|DONE" "$log" || true
if [ "$status" -ne 0 ]; then sed -n '/DIVERGENCE/,$p' "$log" | head -80; fi
executions="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || true)"
echo "libfuzzer: executions ${executions:-unknown}, seconds $seconds, exit status $status (log: $log)"
exit "$status"
