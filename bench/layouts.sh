#!/usr/bin/env bash
# The brawler's ratios to the switch over several code layouts, and a way to
# compare two versions of the code without trusting one layout.
#
#   bench/layouts.sh [--rev REV]... [--rounds R] [-- BENCH_ARGS...]
#
# The same source, built with different function and loop alignments, moves
# the brawler's ratios by 10% and more (see docs/performance.md): a change
# judged on one build may only have moved the code. This script builds the
# benchmark once per layout below (and per --rev), runs the builds in turn for
# R rounds, and prints, for each version, implementation and N, the median
# ratio of each layout and their range:
#   LAYOUTS rev=REV n=N impl=NAME min=A median=B max=C per_layout=x,y,...
#
#   --rev REV   a git revision to build (repeatable); `.` is the working tree,
#               others are checked out in a temporary worktree. Default: `.`
#   --rounds R  runs of every build, interleaved (default 2)
#   BENCH_ARGS  passed to tickfsm_bench_brawler (default:
#               --n 1 --n 1000 --n 100000 --impl switch --impl tickfsm
#               --impl tickfsm-crowd --min-time 0.2 --reps 5)
#
# Layouts: g++'s default for -O2, then CMAKE_CXX_FLAGS of
#   -falign-functions=32
#   -falign-functions=64 -falign-loops=32
#   -falign-functions=128
#   -falign-functions=16:8 -falign-jumps=1 -falign-loops=1
# Builds go to build/layouts/ (kept: a second run only rebuilds what changed).
# Takes about a minute per build, then R x (builds) benchmark runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

die() { echo "layouts.sh: $*" >&2; exit 1; }

revs=()
rounds=2
bench_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --rev) [ $# -ge 2 ] || die "--rev needs a revision"; revs+=("$2"); shift 2 ;;
    --rounds) [ $# -ge 2 ] || die "--rounds needs a number"; rounds="$2"; shift 2 ;;
    --) shift; bench_args=("$@"); break ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ ${#revs[@]} -gt 0 ] || revs=(.)
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer, got '$rounds'"
[ ${#bench_args[@]} -gt 0 ] ||
  bench_args=(--n 1 --n 1000 --n 100000 --impl switch --impl tickfsm --impl tickfsm-crowd --min-time 0.2 --reps 5)

layouts=(
  ""
  "-falign-functions=32"
  "-falign-functions=64 -falign-loops=32"
  "-falign-functions=128"
  "-falign-functions=16:8 -falign-jumps=1 -falign-loops=1"
)

out="$root/build/layouts"
mkdir -p "$out"
worktrees=()
cleanup() {
  for w in "${worktrees[@]+"${worktrees[@]}"}"; do git -C "$root" worktree remove --force "$w" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

# Build every (rev, layout); bins[k] is the binary, names[k] its label.
bins=()
names=()
for rev in "${revs[@]}"; do
  if [ "$rev" = "." ]; then
    src="$root"
    tag="tree"
  else
    sha="$(git rev-parse --short=10 "$rev^{commit}")" || die "not a revision: $rev"
    src="$out/src-$sha"
    tag="$sha"
    rm -rf "$src"
    git worktree prune
    git worktree add --detach "$src" "$sha" >/dev/null
    worktrees+=("$src")
  fi
  for k in "${!layouts[@]}"; do
    dir="$out/$tag-$k"
    log="$dir.log"
    echo "layouts.sh: building $rev, layout $k (${layouts[$k]:-default}) in $dir" >&2
    if ! (cmake -S "$src" -B "$dir" --preset bench -DCMAKE_CXX_FLAGS="${layouts[$k]}" &&
          cmake --build "$dir" -j"${JOBS:-2}" --target tickfsm_bench_brawler) >"$log" 2>&1; then
      tail -30 "$log" >&2
      die "build failed: $rev, layout $k (log: $log)"
    fi
    bins+=("$dir/bench/tickfsm_bench_brawler")
    names+=("$rev|$k")
  done
done

results="$out/results.txt"
: >"$results"
for ((r = 1; r <= rounds; ++r)); do
  for i in "${!bins[@]}"; do
    echo "layouts.sh: round $r/$rounds: ${names[$i]}" >&2
    "${bins[$i]}" "${bench_args[@]}" | grep '^RESULT ' | sed "s/^/${names[$i]//\//_} /" >>"$results" ||
      die "run failed: ${names[$i]}"
  done
done

# Median over rounds per (rev, layout, n, impl), then min / median / max over layouts.
awk -v nlayouts="${#layouts[@]}" '
  function median(s,   a, n, i, j, t) {
    n = split(s, a, ",")
    for (i = 2; i <= n; ++i) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; --j) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  {
    split($1, rk, "|"); rev = rk[1]; layout = rk[2]
    n = ""; impl = ""; ratio = ""
    for (f = 2; f <= NF; ++f) {
      if ($f ~ /^n=/) n = substr($f, 3)
      if ($f ~ /^impl=/) impl = substr($f, 6)
      if ($f ~ /^ratio=/) ratio = substr($f, 7)
    }
    key = rev SUBSEP n SUBSEP impl
    lk = key SUBSEP layout
    runs[lk] = (lk in runs) ? runs[lk] "," ratio : ratio
    if (!(key in seen)) { seen[key] = 1; order[++count] = key }
  }
  END {
    for (c = 1; c <= count; ++c) {
      key = order[c]; split(key, p, SUBSEP)
      list = ""; lo = ""; hi = ""
      for (l = 0; l < nlayouts; ++l) {
        lk = key SUBSEP l
        if (!(lk in runs)) continue
        m = sprintf("%.2f", median(runs[lk]))
        list = list == "" ? m : list "," m
        if (lo == "" || m + 0 < lo + 0) lo = m
        if (hi == "" || m + 0 > hi + 0) hi = m
      }
      printf "LAYOUTS rev=%s n=%s impl=%s min=%s median=%.2f max=%s per_layout=%s\n", p[1], p[2], p[3], lo, median(list), hi, list
    }
  }' "$results"
