#!/usr/bin/env bash
# Ensures the Debian packages tickfsm's build needs are installed.
#
#   scripts/deps.sh [--bench] [--callgrind] [--fuzz] [--inspector]
#
# Always: libfmt-dev, catch2, python3 (the timeline tests check JSON with it),
# graphviz (the tests draw the samples' pictures with it), and make if absent.
# --bench: + libbenchmark-dev. --callgrind: + valgrind.
# --fuzz: + clang-14, libfuzzer-14-dev (scripts/fuzz.sh --libfuzzer).
# --inspector: + libimgui-dev, libsdl2-dev, pkgconf (tickfsm::imgui, samples/inspector/),
#   xvfb, xauth, python3 (its screenshot test runs under xvfb-run).
# As root, missing packages are installed with apt-get; otherwise the command
# to run is printed and the script exits 1.
set -euo pipefail

export DEBIAN_FRONTEND="${DEBIAN_FRONTEND:-noninteractive}"

packages=(libfmt-dev catch2 python3 graphviz)
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(libbenchmark-dev) ;;
    --callgrind) packages+=(valgrind) ;;
    --fuzz) packages+=(clang-14 libfuzzer-14-dev) ;;
    --inspector) packages+=(libimgui-dev libsdl2-dev pkgconf xvfb xauth python3) ;;
    -h|--help)
      sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
      exit 0 ;;
    *) echo "deps.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

if ! command -v dpkg >/dev/null 2>&1; then
  echo "deps.sh: dpkg not found; this script supports Debian/Ubuntu only." >&2
  echo "deps.sh: install these yourself: ${packages[*]}" >&2
  exit 1
fi

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg -s "$pkg" >/dev/null 2>&1; then
    missing+=("$pkg")
  fi
done
# The CMake presets use CMake's default generator (Unix Makefiles); cmake only
# *recommends* make, so a minimal machine may not have it.
if ! command -v make >/dev/null 2>&1; then
  packages+=(make)
  missing+=(make)
fi

if [ "${#missing[@]}" -eq 0 ]; then
  echo "deps.sh: all dependencies present (${packages[*]})"
  exit 0
fi

echo "deps.sh: missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
  echo "deps.sh: installed ${missing[*]}"
else
  echo "deps.sh: not running as root, so not installing anything. Run:" >&2
  echo "" >&2
  echo "    sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  echo "" >&2
  echo "deps.sh: then re-run this script." >&2
  exit 1
fi
