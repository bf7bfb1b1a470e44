#!/bin/sh
# End-to-end: the call tree's shape options.  A random walk through 200
# functions (tests/fixtures/wasm/walk.c, 500 walks 500 deep: ~250,000
# distinct call paths) profiles within 512 MB with every format, its
# costs exactly those of an unbounded tree; --max-nodes merges new paths
# into [truncated] frames with a warning and the report's "call tree"
# line, per-function costs unchanged; --fold-recursion folds direct and
# indirect recursion; bad values are one-line usage errors.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 27
WALK=$B/tests/fixtures/wasm/walk.wasm
REC=$B/tests/fixtures/wasm/recurse.wasm

# peak_rss_mb CMD...: runs CMD (output to $T/out, $T/err), prints its peak
# resident set in MiB and leaves its status in $T/rc.
peak_rss_mb() {
  python3 - "$T" "$@" <<'PY'
import resource, subprocess, sys
t = sys.argv[1]
with open(t + "/out", "wb") as o, open(t + "/err", "wb") as e:
    rc = subprocess.call(sys.argv[2:], stdout=o, stderr=e)
open(t + "/rc", "w").write(str(rc))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
}
cpu_of() { awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$1/report.txt"; }
self_table() { sed -n '/^Top 20 functions by self/,/^$/p' "$1/report.txt"; }

# Under AddressSanitizer (make check) memory is shadowed and freed blocks
# are quarantined: the bound is the release build's (make test).
if nm "$BIN" 2>/dev/null | grep -q __asan_init; then LIMIT=1536; export ASAN_OPTIONS=quarantine_size_mb=16; else LIMIT=512; fi

mb=$(peak_rss_mb "$BIN" profile -q -o "$T/walk" "$WALK" walk u32:500 u32:500); rc=$(cat "$T/rc")
NAME="walk 500 x 500, every format: exit 0 (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="walk 500 x 500: peak RSS ${mb} MiB <= $LIMIT MiB"; ok [ "$mb" -le "$LIMIT" ]
# 97,474,007: the CPU of this call measured before the tree had a budget
NAME="walk: CPU 97469461, as with an unbounded tree"; ok [ "$(cpu_of "$T/walk")" = 97474007 ]
NAME="walk: folded stacks add up to the CPU"; ok folded_is_cpu "$T/walk"
NAME="walk: report says the budget merged paths"
ok grep -q "^  call tree  *node budget of 100,000 reached: [0-9,]* calls on paths past it merged into [0-9]* \[truncated\] frames" "$T/walk/report.txt"
NAME="walk: one warning line on stderr"
ok [ "$(grep -c "warning: .*walk.wasm: node budget of 100,000 reached" "$T/err")" -eq 1 ]
NAME="walk: every format written"
ok [ -s "$T/walk/profile.folded" -a -s "$T/walk/flamegraph.svg" -a -s "$T/walk/profile.speedscope.json" -a -s "$T/walk/callgrind.out.scprof" -a -s "$T/walk/profile.pb.gz" -a -s "$T/walk/report.json" ]
NAME="walk: [truncated] frames in report.json"; ok grep -q '"name": *"\[truncated\]"' "$T/walk/report.json"

# A tiny budget: the same costs per function and per line.
"$BIN" profile -q --max-nodes 100 -f report,json,folded -o "$T/w100" "$WALK" walk u32:500 u32:500 2>"$T/err"; rc=$?
NAME="--max-nodes 100: exit 0 (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="--max-nodes 100: CPU unchanged"; ok [ "$(cpu_of "$T/w100")" = 97474007 ]
NAME="--max-nodes 100: functions' self costs unchanged"
self_table "$T/walk" >"$T/a"; self_table "$T/w100" >"$T/b"; ok same_bytes "$T/a" "$T/b"
NAME="--max-nodes 100: folded stacks add up"; ok folded_is_cpu "$T/w100"
# kept and marker nodes up to 1.5 x 100, the root's marker, and below it
# at most one frame per function (f0..f199, fill, walk)
NAME="--max-nodes 100: at most 150 + 1 + 202 stacks"
ok [ "$(wc -l <"$T/w100/profile.folded")" -le 353 ]

# Same inputs, same bytes, with truncation.
"$BIN" profile -q --max-nodes 500 -o "$T/d1" "$WALK" walk u32:40 u32:60 2>/dev/null
"$BIN" profile -q --max-nodes 500 -o "$T/d2" "$WALK" walk u32:40 u32:60 2>/dev/null
NAME="truncated profiles byte-identical across runs"
ok diff -r "$T/d1" "$T/d2"

# Recursion: fib (direct) and is_even / is_odd (indirect) fold into one
# frame each; costs unchanged.
"$BIN" profile -q -f report,folded -o "$T/r0" "$REC" run u32:12 2>/dev/null
"$BIN" profile -q --fold-recursion -f report,folded -o "$T/r1" "$REC" run u32:12 2>"$T/err"; rc=$?
NAME="--fold-recursion: exit 0, nothing on stderr (exit $rc)"; ok [ "$rc" -eq 0 -a ! -s "$T/err" ]
NAME="--fold-recursion: CPU unchanged"; ok [ "$(cpu_of "$T/r0")" = "$(cpu_of "$T/r1")" ]
NAME="--fold-recursion: folded stacks add up"; ok folded_is_cpu "$T/r1"
NAME="without it: fib below fib"; ok grep -q "fib ([^)]*);fib " "$T/r0/profile.folded"
NAME="--fold-recursion: no fib below fib"; ok sh -c '! grep -q "fib ([^)]*);fib " "$1"' - "$T/r1/profile.folded"
NAME="--fold-recursion: is_odd below is_even, never is_even below is_odd"
ok sh -c 'grep -q "is_even ([^)]*);is_odd " "$1" && ! grep -q "is_odd ([^)]*);is_even " "$1"' - "$T/r1/profile.folded"
NAME="--fold-recursion: the host call stays under is_even"
ok grep -q "is_even ([^)]*);host:vec_push_back [0-9]*$" "$T/r1/profile.folded"
NAME="--fold-recursion: said in the report"; ok grep -q "^  recursion  *folded" "$T/r1/report.txt"

# Solana: the same options, the same compute units.
CTR=$B/tests/fixtures/sbpf/counter.so
"$BIN" profile -q -o "$T/s0" "$CTR" --ix 32 2>/dev/null
"$BIN" profile -q --max-nodes 2 -o "$T/s1" "$CTR" --ix 32 2>"$T/err"; rc=$?
cu_of() { awk '$1 == "CU" {gsub(",", "", $2); print $2; exit}' "$1/report.txt"; }
NAME="sBPF --max-nodes 2: exit 0 (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="sBPF --max-nodes 2: same CU ($(cu_of "$T/s0"))"; ok [ -n "$(cu_of "$T/s0")" -a "$(cu_of "$T/s0")" = "$(cu_of "$T/s1")" ]
NAME="sBPF --max-nodes 2: warned"; ok grep -q "warning: .*counter.so: node budget of 2 reached" "$T/err"

# Bad values.
"$BIN" profile --max-nodes 0 -o "$T/x" "$WALK" walk u32:1 u32:1 2>"$T/err"; rc=$?
NAME="--max-nodes 0: usage error"; ok one_line_error 2 "--max-nodes: 0 is not a budget"
"$BIN" profile --max-nodes 12q -o "$T/x" "$WALK" walk u32:1 u32:1 2>"$T/err"; rc=$?
NAME="--max-nodes 12q: usage error"; ok one_line_error 2 "--max-nodes: '12q' is not a number of nodes"
