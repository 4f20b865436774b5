#!/usr/bin/env bash
# Full verification: ci (build + header verification + ctest), asan (ctest
# under ASan/UBSan), tsan (the thread tests under ThreadSanitizer), noexcept
# (library + samples built with -fno-exceptions).
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-2}"

banner() {
  echo
  echo "=================================================================="
  echo "== $*  (at ${SECONDS} s)"
  echo "=================================================================="
}

trap 'rc=$?; if [ "$rc" -ne 0 ]; then echo; echo "scripts/test.sh: FAILED (exit $rc) during: ${stage:-setup}" >&2; fi' EXIT

stage="dependencies"
banner "$stage"
# --inspector: Dear ImGui, SDL2 and Xvfb, so that tickfsm::imgui, samples/inspector/
# and its screenshot test (sample.inspector_screenshot) are built and run too.
bash scripts/deps.sh --inspector

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

# (c) tsan ------------------------------------------------------------------
# ThreadSanitizer needs a memory layout some kernels' address randomization
# breaks ("unexpected memory mapping"); a probe tells that apart from a race,
# and then the tests run with randomization off for their process (setarch -R).
stage="tsan: probe"
banner "$stage"
probe_dir="$(mktemp -d)"
printf '#include <thread>\nint main() { int x = 0; std::thread t([&] { x = 1; }); t.join(); return x - 1; }\n' \
  > "$probe_dir/probe.cpp"
g++ -std=c++20 -fsanitize=thread "$probe_dir/probe.cpp" -o "$probe_dir/probe"
tsan_run=()
if ! "$probe_dir/probe"; then
  echo "ThreadSanitizer cannot map its memory here; running its tests with address randomization off"
  tsan_run=(setarch "$(uname -m)" -R)
  "${tsan_run[@]}" "$probe_dir/probe"
fi
rm -rf "$probe_dir"

stage="tsan: configure + build (tickfsm_thread_tests)"
banner "$stage"
cmake --preset tsan
cmake --build --preset tsan -j"$JOBS"

stage="tsan: ctest"
banner "$stage"
"${tsan_run[@]}" ctest --preset tsan -j"$JOBS"

# (d) noexcept --------------------------------------------------------------
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
  if [ "$(basename "$exe")" = tickfsm_sample_inspector ]; then
    # A window that stays open until closed: a few frames under Xvfb instead.
    xvfb-run -a -s "-screen 0 1280x800x24" env SDL_VIDEODRIVER=x11 "$exe" --frames 30 \
      --screenshot "build/noexcept/inspector_noexcept.png"
  else
    "$exe"
  fi
done

stage="done"
banner "all stages passed"
