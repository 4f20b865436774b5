#!/usr/bin/env bash
# Runs the random differential test (test/diff) for a while: random machines
# driven through tickfsm and through its reference model, compared after every call.
#
#   scripts/fuzz.sh SECONDS [ARGS...]              tickfsm_fuzz (Release, build/fuzz)
#   scripts/fuzz.sh --libfuzzer SECONDS [ARGS...]  libFuzzer over the same driver
#                                                  (clang++-14, ASan+UBSan, build/libfuzzer)
#
# tickfsm_fuzz prints machines, ticks, seconds and divergences; the libFuzzer run
# prints its number of executions. Either exits non-zero on a divergence, after
# printing its report (seed, configuration, calls; reproduce a seed with
# build/fuzz/test/tickfsm_fuzz --seed N --verbose). ARGS go to the program, e.g.
# --off would_next (tickfsm_fuzz) or -jobs=2 (libFuzzer). JOBS sets build parallelism.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${JOBS:-2}"
usage() { sed -n '5,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

mode=plain
if [ "${1:-}" = "--libfuzzer" ]; then
  mode=libfuzzer
  shift
fi
[ $# -ge 1 ] || usage
seconds="$1"
shift
case "$seconds" in ''|*[!0-9]*) usage ;; esac

common=(-DTICKFSM_BUILD_SAMPLES=OFF -DTICKFSM_INSTALL=OFF)

if [ "$mode" = plain ]; then
  bash "$root/scripts/deps.sh"
  build="$root/build/fuzz"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${common[@]}" >/dev/null
  cmake --build "$build" --target tickfsm_fuzz -j "$jobs"
  exec "$build/test/tickfsm_fuzz" --seconds "$seconds" "$@"
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
