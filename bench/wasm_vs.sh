#!/bin/sh
# Our WASM engine against wasm3 (the fastest portable interpreter) and
# node's V8 (a JIT, the upper bound), whole process for every engine:
# start, load, compile, run() once, exit.  usage:
#   WASM3_SRC=DIR bench/wasm_vs.sh BUILD [ROUNDS]
# WASM3_SRC is a checkout of wasm3's public source; it is built here into
# BUILD/bench/wasm3 (never committed; WASM3_CC picks the compiler, gcc by
# default, WASM3_COMMIT names the commit when DIR is not a git checkout).
# Without it, or without node, that column is skipped with the reason.
# Each round runs every engine once on a workload, the starting engine
# rotating from round to round; a figure is the median over the rounds,
# and a ratio the median of the ratios of the same round.
set -eu
B=${1:-build}
R=${2:-5}
W=$(command -v wasm-interp || true)
WALL="$B/bench/bench_wall"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

W3=
if [ -n "${WASM3_SRC:-}" ]; then
  cc3=${WASM3_CC:-gcc}
  commit=${WASM3_COMMIT:-$(git -C "$WASM3_SRC" rev-parse HEAD 2>/dev/null || echo "unknown (not a git checkout)")}
  stamp="$commit $cc3 -O3 -DNDEBUG -Dd_m3HasWASI"
  mkdir -p "$B/bench/wasm3"
  if [ ! -x "$B/bench/wasm3/wasm3" ] || [ "$(cat "$B/bench/wasm3/STAMP" 2>/dev/null)" != "$stamp" ]; then
    echo "building wasm3 from $WASM3_SRC with $cc3 -O3"
    $cc3 -O3 -DNDEBUG -Dd_m3HasWASI -I"$WASM3_SRC/source" "$WASM3_SRC"/source/*.c \
      "$WASM3_SRC/platforms/app/main.c" -lm -o "$B/bench/wasm3/wasm3"
    echo "$stamp" > "$B/bench/wasm3/STAMP"
  fi
  W3="$B/bench/wasm3/wasm3"
  echo "wasm3: commit $commit, $("$cc3" --version | head -1), -O3 -DNDEBUG"
else
  echo "wasm3: skipped (WASM3_SRC is not set: point it at a checkout of wasm3's source)"
fi
if command -v node >/dev/null 2>&1; then
  echo "V8: node $(node --version)"
  V8=1
else
  echo "V8: skipped (no node on PATH)"
  V8=
fi

# engine name and command; a missing engine is not listed
engines() {
  echo "plain"; echo "profiled"
  [ -n "$W3" ] && echo "wasm3"
  [ -n "$V8" ] && echo "v8"
  [ -n "$W" ] && echo "interp"
  return 0
}
run_engine() { # ENGINE FILE OUT -> prints seconds
  case $1 in
    plain) "$WALL" "$3" "$B/bench/bench_overhead" "$2" plain ;;
    profiled) "$WALL" "$3" "$B/bench/bench_overhead" "$2" profiled ;;
    wasm3) "$WALL" "$3" "$W3" --func run "$2" ;;
    v8) "$WALL" "$3" node "$(dirname "$0")/wasm/run_v8.js" "$2" ;;
    interp) "$WALL" "$3" "$W" "$2" --run-all-exports ;;
  esac
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

E=$(engines | tr '\n' ' ')
n=$(engines | wc -l)
echo "whole process, median of $R rounds (s); ratios: profiled / engine, median of the same round's ratios"
printf '%-10s' workload
for e in $E; do printf ' %9s' "$e"; done
for e in $E; do case $e in plain|profiled) ;; *) printf ' %11s' "prof/$e" ;; esac; done
printf ' %8s\n' result
for w in "$B"/bench/wasm/*.wasm; do
  name=$(basename "$w" .wasm)
  r=0
  while [ "$r" -lt "$R" ]; do
    i=0
    for e in $(engines | awk -v s="$r" -v n="$n" '{ a[NR - 1] = $0 } END { for (k = 0; k < n; k++) print a[(k + s) % n] }'); do
      run_engine "$e" "$w" "$T/out.$e" >> "$T/t.$e"
      i=$((i + 1))
    done
    r=$((r + 1))
  done
  # every engine must print the same result: the last number of its
  # output, as an unsigned 64-bit word (wasm3 prints an i64 signed)
  res=same ref=
  for e in $E; do
    v=$(tr -c -- '-0-9\n' ' ' < "$T/out.$e" | awk '{ for (k = 1; k <= NF; k++) x = $k } END { print x }')
    v=$(printf '%u' "$v")
    if [ -z "$ref" ]; then ref=$v; elif [ "$v" != "$ref" ]; then res="DIFFERS($e:$v,$ref)"; fi
  done
  printf '%-10s' "$name"
  for e in $E; do printf ' %9.3f' "$(median < "$T/t.$e")"; done
  for e in $E; do
    case $e in plain|profiled) continue ;; esac
    q=$(paste "$T/t.profiled" "$T/t.$e" | awk '{ print $1 / $2 }' | median)
    printf ' %10.2fx' "$q"
  done
  printf ' %8s\n' "$res"
  rm -f "$T"/t.* "$T"/out.*
done
