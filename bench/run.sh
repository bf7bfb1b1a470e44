#!/bin/sh
# Runs the benchmarks (not part of the tests).  usage: bench/run.sh BUILD
set -eu
B=${1:-build}
echo "== engine: our interpreter (plain, profiled) vs wasm-interp $(wasm-interp --version)"
"$B/bench/bench_engine" "$B"/bench/wasm/*.wasm
echo "== engine, whole process: our interpreter against wasm3 and V8 (paired rounds)"
sh "$(dirname "$0")/wasm_vs.sh" "$B"
if command -v valgrind >/dev/null 2>&1; then
  echo "== profiling overhead in instructions executed (callgrind; deterministic)"
  printf '%-10s %14s %14s %9s\n' workload plain profiled overhead
  for w in "$B"/bench/wasm/*.wasm; do
    n=$(basename "$w" .wasm)
    count() {
      valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/bench/bench_overhead" "$w" "$1" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    p=$(count plain) q=$(count profiled)
    awk -v n="$n" -v p="$p" -v q="$q" 'BEGIN { printf "%-10s %14d %14d %8.1f%%\n", n, p, q, (q / p - 1) * 100 }'
  done
fi
if command -v valgrind >/dev/null 2>&1 && [ -x "$B/bench/bench_hostcall" ]; then
  echo "== Soroban host-call path (callgrind; deterministic): instructions per host call"
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/bench/bench_hostcall" \
      "$B/bench/soroban/hostcalls.wasm" "$1" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  }
  a=$(count 1000) b=$(count 21000)
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%-10s %14d %14d %10.1f\n", "hostcalls", a, b, (b - a) / 20000 }'
fi
if [ -x "$B/bench/bench_sbpf" ] && [ -f "$B/bench/sbpf/work.so" ]; then
  echo "== sBPF interpreter: plain vs profiled CU/s, and peak memory against CU"
  "$B/bench/bench_sbpf" "$B/bench/sbpf/work.so"
  if command -v valgrind >/dev/null 2>&1; then
    echo "== sBPF interpreter: instructions per CU (callgrind; deterministic)"
    for mode in plain profiled; do
      count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/bench/bench_sbpf" \
          "$B/bench/sbpf/work.so" "$mode" "$1" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
      }
      a=$(count 20000) b=$(count 120000)
      ca=$("$B/bench/bench_sbpf" "$B/bench/sbpf/work.so" "$mode" 20000)
      cb=$("$B/bench/bench_sbpf" "$B/bench/sbpf/work.so" "$mode" 120000)
      awk -v m="$mode" -v a="$a" -v b="$b" -v ca="$ca" -v cb="$cb" \
        'BEGIN { printf "%-10s %8.2f instructions per CU\n", m, (b - a) / (cb - ca) }'
    done
  fi
fi
if [ -x "$B/bench/bench_sym" ]; then
  echo "== source mapper"
  "$B/bench/bench_sym"
fi
echo "== Solana: instructions executed per transaction (callgrind; deterministic)"
sh "$(dirname "$0")/sol_tx.sh" "$B"
if command -v node >/dev/null 2>&1 && [ -x "$B/bench/bench_soltx" ]; then
  echo "== Solana: scprof against litesvm per transaction (in-process and CLI; ratios of paired runs)"
  sh "$(dirname "$0")/sol_litesvm.sh" "$B"
fi
