#!/bin/sh
# Runs the benchmarks (not part of the tests).  usage: bench/run.sh BUILD
set -eu
B=${1:-build}
echo "== engine: our interpreter (plain, profiled) vs wasm-interp $(wasm-interp --version)"
"$B/bench/bench_engine" "$B"/bench/wasm/*.wasm
if [ -x "$B/bench/bench_sym" ]; then
  echo "== source mapper"
  "$B/bench/bench_sym"
fi
