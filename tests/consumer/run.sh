#!/usr/bin/env bash
# Builds and runs the consumer project (tests/consumer) against TS one way:
#   run.sh add_subdirectory <TS source dir> <work dir>
#   run.sh find_package     <TS build dir>  <work dir>   (installs the build into <work dir>/prefix first)
# Optional environment: CMAKE (cmake to use), TS_CONSUMER_GENERATOR, CXX.
set -euo pipefail
mode=$1 ts=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
cmake=${CMAKE:-cmake}
gen=(); [ -n "${TS_CONSUMER_GENERATOR:-}" ] && gen=(-G "$TS_CONSUMER_GENERATOR")
rm -rf "$work" && mkdir -p "$work"
case $mode in
  add_subdirectory)
    "$cmake" -S "$here" -B "$work/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTS_SOURCE_DIR="$ts" ;;
  find_package)
    "$cmake" --install "$ts" --prefix "$work/prefix"
    "$cmake" -S "$here" -B "$work/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" ;;
  *) echo "usage: run.sh add_subdirectory|find_package <dir> <work dir>" >&2; exit 2 ;;
esac
"$cmake" --build "$work/build" -j 2
"$work/build/consumer"
