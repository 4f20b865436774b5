#!/usr/bin/env bash
# Full verification: ci (build + header verification + ctest), asan (ctest
# under ASan/UBSan), noexcept (library + samples built with -fno-exceptions).
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-2}"

banner() {
  echo
  echo "=================================================================="
  echo "== $*"
  echo "=================================================================="
}

trap 'rc=$?; if [ "$rc" -ne 0 ]; then echo; echo "scripts/test.sh: FAILED (exit $rc) during: ${stage:-setup}" >&2; fi' EXIT

stage="dependencies"
banner "$stage"
bash scripts/deps.sh

# (a) ci --------------------------------------------------------------------
stage="ci: configure + build (all, all_verify_interface_header_sets)"
banner "$stage"
cmake --preset ci
cmake --build --preset ci -j"$JOBS" --target all all_verify_interface_header_sets

stage="ci: ctest"
banner "$stage"
ctest --preset ci -j"$JOBS"

# (b) asan ------------------------------------------------------------------
stage="asan: configure + build"
banner "$stage"
cmake --preset asan
cmake --build --preset asan -j"$JOBS"

stage="asan: ctest"
banner "$stage"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --preset asan -j"$JOBS"

# (c) noexcept --------------------------------------------------------------
stage="noexcept: configure + build (header verification + samples)"
banner "$stage"
cmake --preset noexcept
cmake --build --preset noexcept -j"$JOBS" --target all all_verify_interface_header_sets

stage="noexcept: run samples"
banner "$stage"
mapfile -t samples < <(find build/noexcept -path '*/CMakeFiles' -prune -o -type f -name 'tickfsm_sample_*' -perm -u+x -print | sort)
if [ "${#samples[@]}" -eq 0 ]; then
  echo "no sample executables found under build/noexcept" >&2
  exit 1
fi
for exe in "${samples[@]}"; do
  echo "--- $exe"
  "$exe"
done

stage="done"
banner "all stages passed"
