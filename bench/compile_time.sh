#!/usr/bin/env bash
# What a large tickfsm machine costs to compile: generates the test machine of
# test/compile_time/generate.cmake (50 states, 200 transitions; and 10 states,
# 40 transitions for comparison) into a temporary directory and times one
#   ${CXX:-g++} -std=c++20 -O2 -c machine.cpp -I include
# of each, printing
#   COMPILE states=S transitions=T seconds=X
# then the same 50x200 machine as a compile-time machine (STATIC=1), printing
#   COMPILE static=1 states=50 transitions=200 seconds=X
# and then times bench/compile_time/user.cpp, a file that only uses a machine,
# without and with TICKFSM_EXTERN_MACHINE, printing
#   COMPILE file=user extern=0|1 seconds=X
# (wall-clock seconds; on a busy machine run it again before drawing conclusions).
#
#   bench/compile_time.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cxx="${CXX:-g++}"
generator="$root/test/compile_time/generate.cmake"

case "${1:-}" in
  -h|--help)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  "") ;;
  *) echo "compile_time.sh: takes no arguments (got '$1')" >&2; exit 2 ;;
esac

command -v cmake >/dev/null 2>&1 || { echo "compile_time.sh: cmake not found" >&2; exit 1; }
command -v "$cxx" >/dev/null 2>&1 || { echo "compile_time.sh: compiler '$cxx' not found" >&2; exit 1; }
[ -f "$generator" ] || { echo "compile_time.sh: missing $generator" >&2; exit 1; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tickfsm-compile-time.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# time_compile <source> <object>: prints the wall-clock seconds of one compile.
time_compile() {
  local src="$1" obj="$2" log="$tmp/compile.log"
  shift 2
  local cmd=("$cxx" -std=c++20 -O2 -c "$src" -I "$root/include" -o "$obj" "$@")
  local seconds
  if [ -x /usr/bin/time ]; then
    if ! /usr/bin/time -f %e -o "$tmp/seconds" "${cmd[@]}" >"$log" 2>&1; then
      cat "$log" >&2
      echo "compile_time.sh: compile failed: ${cmd[*]}" >&2
      return 1
    fi
    seconds="$(tail -n 1 "$tmp/seconds")"
  else
    local TIMEFORMAT=%R
    if ! { time "${cmd[@]}" >"$log" 2>&1; } 2>"$tmp/seconds"; then
      cat "$log" >&2
      echo "compile_time.sh: compile failed: ${cmd[*]}" >&2
      return 1
    fi
    seconds="$(tail -n 1 "$tmp/seconds")"
  fi
  echo "$seconds"
}

for size in "50 200" "10 40"; do
  read -r states transitions <<<"$size"
  src="$tmp/machine_${states}x${transitions}.cpp"
  cmake "-DOUT=$src" "-DSTATES=$states" "-DTRANSITIONS=$transitions" -P "$generator"
  echo "compile_time.sh: $cxx -std=c++20 -O2 -c machine_${states}x${transitions}.cpp ($states states, $transitions transitions)" >&2
  seconds="$(time_compile "$src" "$tmp/machine_${states}x${transitions}.o")"
  echo "COMPILE states=$states transitions=$transitions seconds=$seconds"
done

src="$tmp/static_machine_50x200.cpp"
cmake "-DOUT=$src" -DSTATES=50 -DTRANSITIONS=200 -DSTATIC=1 -P "$generator"
echo "compile_time.sh: $cxx -std=c++20 -O2 -c static_machine_50x200.cpp (the same machine, compile-time)" >&2
seconds="$(time_compile "$src" "$tmp/static_machine_50x200.o")"
echo "COMPILE static=1 states=50 transitions=200 seconds=$seconds"

# A file that only uses a machine (bench/compile_time/user.cpp), without and
# with TICKFSM_EXTERN_MACHINE: what each of a game's files saves when one file
# says TICKFSM_INSTANTIATE_MACHINE.
user="$root/bench/compile_time/user.cpp"
for extern in 0 1; do
  flags=()
  [ "$extern" -eq 1 ] && flags=(-DTICKFSM_BENCH_EXTERN)
  echo "compile_time.sh: $cxx -std=c++20 -O2 -c bench/compile_time/user.cpp ${flags[*]:-}" >&2
  seconds="$(time_compile "$user" "$tmp/user_$extern.o" "${flags[@]}")"
  echo "COMPILE file=user extern=$extern seconds=$seconds"
done
