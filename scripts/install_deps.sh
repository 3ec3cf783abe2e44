#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for the two README commands (and .ci/run):
# CMake, Ninja, g++, GoogleTest, RapidCheck (property tests) and Chromium (browser test of
# the HTML pictures). Does nothing, and never calls apt-get, when all of it is present.
# As root it runs apt-get directly, otherwise through sudo where sudo exists.
# nvcc (the optional sm_90a targets) is not installed here: see README.md.
set -euo pipefail
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
command -v g++ >/dev/null || need+=(g++)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
[ -f /usr/include/rapidcheck.h ] || need+=(librapidcheck-dev)   # property tests (tests/property)
command -v chromium >/dev/null || need+=(chromium)               # browser test of the HTML pictures
[ ${#need[@]} -eq 0 ] && exit 0
echo "install_deps: installing ${need[*]}"
if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "install_deps: missing ${need[*]}, and not root and no sudo: install them, then run again" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "install_deps: missing ${need[*]} and no apt-get here (Debian expected): install them, then run again" >&2
  exit 1
fi
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
