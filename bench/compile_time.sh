#!/usr/bin/env bash
# What tickfsm costs to compile, in user seconds and peak memory of one
#   ${CXX:-g++} -std=c++20 -O2 -c FILE -I include
# each (CPU time, so a busy machine disturbs it less than wall-clock time):
#   COMPILE file=include-alone seconds=X peak_mb=M      (#include <tickfsm/tickfsm.hpp> alone)
#   COMPILE file=two-states seconds=X peak_mb=M         (bench/compile_time/two_states.cpp: the smallest
#                                     machine a file configures and ticks)
#   COMPILE states=S transitions=T seconds=X peak_mb=M  (the generated machine of
#                                     test/compile_time/generate.cmake, 10x40 and 50x200)
#   COMPILE configure=1 states=S transitions=T seconds=X peak_mb=M (the same transitions as a
#                                     Transitions constant, a StateManager that calls Configure on it)
#   COMPILE static=1 states=S transitions=T seconds=X peak_mb=M (the same as a compile-time machine,
#                                     in a file that includes <tickfsm/static_machine.hpp> alone)
#   COMPILE file=user extern=0|1 seconds=X peak_mb=M    (bench/compile_time/user.cpp, a file that
#                                     only uses a machine, without and with TICKFSM_EXTERN_MACHINE)
#
#   bench/compile_time.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cxx="${CXX:-g++}"
generator="$root/test/compile_time/generate.cmake"

case "${1:-}" in
  -h|--help)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  "") ;;
  *) echo "compile_time.sh: takes no arguments (got '$1')" >&2; exit 2 ;;
esac

command -v cmake >/dev/null 2>&1 || { echo "compile_time.sh: cmake not found" >&2; exit 1; }
command -v "$cxx" >/dev/null 2>&1 || { echo "compile_time.sh: compiler '$cxx' not found" >&2; exit 1; }
[ -f "$generator" ] || { echo "compile_time.sh: missing $generator" >&2; exit 1; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tickfsm-compile-time.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# time_compile <source> <object> [flags...]: prints "seconds=X peak_mb=M" of one compile.
time_compile() {
  local src="$1" obj="$2" log="$tmp/compile.log"
  shift 2
  local cmd=("$cxx" -std=c++20 -O2 -c "$src" -I "$root/include" -o "$obj" "$@")
  if ! /usr/bin/time -f '%U %M' -o "$tmp/usage" "${cmd[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    echo "compile_time.sh: compile failed: ${cmd[*]}" >&2
    return 1
  fi
  local seconds kb
  read -r seconds kb < <(tail -n 1 "$tmp/usage")
  echo "seconds=$seconds peak_mb=$((kb / 1024))"
}

[ -x /usr/bin/time ] || { echo "compile_time.sh: needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }

src="$tmp/include_alone.cpp"
printf '#include <tickfsm/tickfsm.hpp>\nint main() { return 0; }\n' > "$src"
echo "compile_time.sh: $cxx -std=c++20 -O2 -c include_alone.cpp" >&2
echo "COMPILE file=include-alone $(time_compile "$src" "$tmp/include_alone.o")"

echo "compile_time.sh: $cxx -std=c++20 -O2 -c bench/compile_time/two_states.cpp" >&2
echo "COMPILE file=two-states $(time_compile "$root/bench/compile_time/two_states.cpp" "$tmp/two_states.o")"

# compile_generated NAME ROW NOTE [generator flags...]: the generated 10x40 and
# 50x200 machines of one form, one COMPILE line each (ROW prefixes its fields).
compile_generated() {
  local name="$1" row="$2" note="$3" size states transitions src
  shift 3
  for size in "10 40" "50 200"; do
    read -r states transitions <<<"$size"
    src="$tmp/${name}_${states}x${transitions}.cpp"
    cmake "-DOUT=$src" "-DSTATES=$states" "-DTRANSITIONS=$transitions" "$@" -P "$generator"
    echo "compile_time.sh: $cxx -std=c++20 -O2 -c ${name}_${states}x${transitions}.cpp ($note)" >&2
    echo "COMPILE ${row}states=$states transitions=$transitions $(time_compile "$src" "$tmp/${name}_${states}x${transitions}.o")"
  done
}
compile_generated machine "" "a StateManager written with the builder"
# The same transitions as one Transitions constant: a StateManager configured
# from it (Configure: one chain type per state), and the compile-time machine.
compile_generated configure "configure=1 " "the same, Configure(kTransitions)" -DSTATIC=1 -DCONFIGURE=1
compile_generated static_machine "static=1 " "the same, compile-time" -DSTATIC=1

# A file that only uses a machine (bench/compile_time/user.cpp), without and
# with TICKFSM_EXTERN_MACHINE: what each of a game's files saves when one file
# says TICKFSM_INSTANTIATE_MACHINE.
user="$root/bench/compile_time/user.cpp"
for extern in 0 1; do
  flags=()
  [ "$extern" -eq 1 ] && flags=(-DTICKFSM_BENCH_EXTERN)
  echo "compile_time.sh: $cxx -std=c++20 -O2 -c bench/compile_time/user.cpp ${flags[*]:-}" >&2
  echo "COMPILE file=user extern=$extern $(time_compile "$user" "$tmp/user_$extern.o" "${flags[@]}")"
done
