#!/usr/bin/env bash
# Instructions per agent-tick of each brawler implementation, counted by callgrind.
#
#   bench/callgrind.sh [BIN] [N] [T]
#
#   BIN  the built tickfsm_bench_brawler (default build/bench/bench/tickfsm_bench_brawler,
#        i.e. `cmake --preset bench && cmake --build --preset bench`), or
#        tickfsm_bench_brawler_hsm (the hierarchical brawler: its five
#        implementations, ratios to switch-hsm)
#   N    agents (default 1000)
#   T    ticks (default 1000)
#
# For each implementation, runs `BIN --ticks T --n N --impl NAME` under callgrind,
# collecting only inside brawler::ImplBase<...>::Run (and what it calls), so that
# construction, Sum() and process start-up are not counted. Prints a table and,
# per implementation, one line
#   CALLGRIND n=N ticks=T impl=NAME ir_per_agent_tick=X ratio=R
# where ratio is relative to `switch` (`switch-hsm`). Set CALLGRIND_OUT_DIR to keep the
# callgrind.out files there (they go to a temporary directory otherwise).
# Set CALLGRIND_BRANCHES=1 to also run callgrind's branch simulator (a simple
# model of a predictor, not this CPU's) and print, per implementation,
#   BRANCHES n=N ticks=T impl=NAME cond=A cond_missed=B indirect=C indirect_missed=D
# per agent-tick: conditional branches and indirect jumps or calls, and how
# many of each the model mispredicts.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"

case "${1:-}" in
  -h|--help)
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

bin="${1:-$root/build/bench/bench/tickfsm_bench_brawler}"
n="${2:-1000}"
ticks="${3:-1000}"
impls=(switch naive tickfsm tickfsm-by-state tickfsm-crowd tickfsm-crowd-perform tickfsm-crowd-by-state tickfsm-static tickfsm-static-crowd tickfsm-static-crowd-by-state)
[ "$(basename "$bin")" = tickfsm_bench_brawler_hsm ] && impls=(switch-hsm tickfsm-hsm tickfsm-hsm-crowd tickfsm-hsm-table tickfsm-hsm-table-crowd tickfsm-hsm-static tickfsm-hsm-static-crowd)
baseline="${impls[0]}"
# Matched against callgrind's demangled names, e.g.
#   brawler::ImplBase<brawler::(anonymous namespace)::TickfsmImpl>::Run(unsigned long)
# Collection is *toggled* on entry to and exit from a matching function, so the
# pattern must not match anything Run() itself calls, nor the `Run(unsigned
# long) [clone .cold]` part g++ may split off (callgrind sees a jump there as a
# call, and its inclusive cost as a cycle: the check below skips that line).
toggle='*ImplBase*::Run(unsigned long)'

die() { echo "callgrind.sh: $*" >&2; exit 1; }

[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer, got '$n'"
[[ "$ticks" =~ ^[1-9][0-9]*$ ]] || die "T must be a positive integer, got '$ticks'"
[ -x "$bin" ] || die "benchmark binary not found or not executable: $bin (build it: cmake --preset bench && cmake --build --preset bench --target tickfsm_bench_brawler)"
command -v valgrind >/dev/null 2>&1 || die "valgrind not found (bash scripts/deps.sh --callgrind)"
have_annotate=0
command -v callgrind_annotate >/dev/null 2>&1 && have_annotate=1

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tickfsm-callgrind.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
out_dir="${CALLGRIND_OUT_DIR:-$tmp}"
mkdir -p "$out_dir"

declare -A ir_of per_tick_of checksum_of branches_of
branch_sim=()
[ "${CALLGRIND_BRANCHES:-0}" = 1 ] && branch_sim=(--branch-sim=yes)
for impl in "${impls[@]}"; do
  out="$out_dir/callgrind.$impl.n$n.t$ticks.out"
  log="$tmp/valgrind.$impl.log"
  echo "callgrind.sh: $impl: valgrind --tool=callgrind --toggle-collect='$toggle' $bin --ticks $ticks --n $n --impl $impl" >&2
  if ! stdout="$(valgrind --tool=callgrind "${branch_sim[@]}" --callgrind-out-file="$out" --toggle-collect="$toggle" \
                   --log-file="$log" "$bin" --ticks "$ticks" --n "$n" --impl "$impl")"; then
    cat "$log" >&2 || true
    die "$impl: the benchmark failed under valgrind"
  fi

  line="$(grep -E "^TICKS impl=$impl n=$n ticks=$ticks " <<<"$stdout" || true)"
  [ -n "$line" ] || die "$impl: no TICKS line in the output (is the binary too old for --ticks?): $stdout"
  checksum_of[$impl]="sum=${line#* sum=}"

  # One event (Ir): "totals: <Ir>" per profile part; "summary:" if there is no totals line.
  ir="$(awk '/^totals:/ { t += $2; seen = 1 } /^summary:/ { s += $2 } END { printf "%.0f", seen ? t : s }' "$out")"
  [[ "$ir" =~ ^[0-9]+$ ]] && [ "$ir" -gt 0 ] ||
    die "$impl: callgrind collected no instructions: '$toggle' matched no function (look for ImplBase<...>::Run in: nm -C $bin)"
  grep -qE '^c?fn=\([0-9]+\) .*ImplBase<.*>::Run\(' "$out" ||
    die "$impl: ImplBase<...>::Run does not appear in $out; '$toggle' matched something else"

  # Everything collected must be inside Run(): its inclusive cost is the total.
  if [ "$have_annotate" -eq 1 ]; then
    run_ir="$(callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null |
              awk '!found && /ImplBase<.*>::Run\(/ && !/\[clone / { gsub(",", "", $1); print $1; found = 1 }')"
    # (awk reads to the end: exiting early would SIGPIPE callgrind_annotate under pipefail)
    [ "$run_ir" = "$ir" ] ||
      die "$impl: total Ir $ir != inclusive Ir of ImplBase<...>::Run '${run_ir}': '$toggle' collects more than Run()"
  fi

  ir_of[$impl]="$ir"
  if [ "${#branch_sim[@]}" -gt 0 ]; then
    # Events Ir Bc Bcm Bi Bim, summed over the profile's parts.
    branches_of[$impl]="$(awk -v n="$n" -v t="$ticks" '
      /^totals:/ { for (k = 3; k <= 6; ++k) tot[k] += $k; seen = 1 }
      /^summary:/ { for (k = 3; k <= 6; ++k) sum[k] += $k }
      END { for (k = 3; k <= 6; ++k) v[k] = (seen ? tot[k] : sum[k]) / (n * t)
            printf "cond=%.2f cond_missed=%.3f indirect=%.2f indirect_missed=%.3f", v[3], v[4], v[5], v[6] }' "$out")"
  fi
  per_tick_of[$impl]="$(awk -v ir="$ir" -v n="$n" -v t="$ticks" 'BEGIN { printf "%.1f", ir / (n * t) }')"
done

for impl in "${impls[@]}"; do
  [ "${checksum_of[$impl]}" = "${checksum_of[$baseline]}" ] ||
    die "checksum mismatch after $ticks ticks at n=$n: $impl has ${checksum_of[$impl]}, $baseline has ${checksum_of[$baseline]}"
done

base="${ir_of[$baseline]}"
echo
echo "callgrind: $(basename "$bin"), n=$n, ticks=$ticks, collecting '$toggle' (checksums agree: ${checksum_of[$baseline]})"
printf '%-22s %16s %16s %7s\n' impl "Ir in Run()" "Ir/agent-tick" ratio
for impl in "${impls[@]}"; do
  ratio="$(awk -v a="${ir_of[$impl]}" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
  printf '%-22s %16s %16s %7s\n' "$impl" "${ir_of[$impl]}" "${per_tick_of[$impl]}" "$ratio"
done
echo
for impl in "${impls[@]}"; do
  ratio="$(awk -v a="${ir_of[$impl]}" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
  echo "CALLGRIND n=$n ticks=$ticks impl=$impl ir_per_agent_tick=${per_tick_of[$impl]} ratio=$ratio"
done
if [ "${#branch_sim[@]}" -gt 0 ]; then
  echo
  for impl in "${impls[@]}"; do
    echo "BRANCHES n=$n ticks=$ticks impl=$impl ${branches_of[$impl]}"
  done
fi
if [ -n "${CALLGRIND_OUT_DIR:-}" ]; then
  echo "callgrind.sh: profiles kept in $out_dir (callgrind_annotate --inclusive=yes FILE)" >&2
fi
