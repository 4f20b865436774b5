#!/usr/bin/env bash
# Transition coverage of the samples' runs: builds the seven samples (preset
# "ci") and runs each with --coverage, which checks the run as the sample.*
# tests do and prints, for each machine, every transition with the times it
# fired; then lists the transitions that no run fired.
#
#   scripts/coverage.sh            JOBS=1 by default (JOBS=4 scripts/coverage.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-1}"
samples=(creature guard platformer robot rollback runner weapon)

bash scripts/deps.sh
cmake --preset ci >/dev/null
cmake --build --preset ci -j"$JOBS" --target "${samples[@]/#/tickfsm_sample_}"

never=()
status=0
for name in "${samples[@]}"; do
  echo
  if ! output="$(./build/ci/samples/tickfsm_sample_"$name" --coverage)"; then
    echo "coverage.sh: the $name sample's run failed its self-check" >&2
    status=1
  fi
  # The sample's own output comes first; its coverage table last.
  table="$(printf '%s\n' "$output" | sed -n '/^transition coverage of /,$p')"
  printf '%s\n' "$table"
  while IFS= read -r line; do never+=("$line"); done < <(printf '%s\n' "$table" | sed -n '/^never fired:$/,/^[^ ]/p' | grep '^  ' || true)
done

echo
if [ "${#never[@]}" -eq 0 ]; then
  echo "coverage.sh: every transition of the samples fired"
else
  echo "coverage.sh: ${#never[@]} transition(s) no sample run fires:"
  printf '%s\n' "${never[@]}"
fi
exit "$status"
