#!/bin/sh
# End-to-end: a cross-contract call profiled from the command line.
# examples/caller.c calls examples/counter.c (deployed with --contract):
# the callee's frames hang under host:call as contract:counter.wasm, the
# folded stacks add up to the Budget CPU, and the report lists the
# contract ids, the storage traffic and who authorized what.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 14
CALLER=$B/examples/caller.wasm
COUNTER=$B/examples/counter.wasm
# The counter's id: deployer = zero account, salt = 1 (include/scprof.h).
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ


"$BIN" profile "$CALLER" run "str:$ID" u32:3 --contract "$COUNTER" -o "$T/a" -q -f report,folded,svg
rc=$?
NAME="caller runs with --contract (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="report lists the callee's id"; ok grep -q "contract id 1 *counter.wasm = $ID" "$T/a/report.txt"
NAME="result is the third increment"; ok grep -q "result *u32:3" "$T/a/report.txt"
NAME="callee nested under host:call"
ok grep -q "bump (examples/caller.c:[0-9]*);host:call;contract:counter.wasm;increment (examples/counter.c:[0-9]*);host:put_contract_data" "$T/a/profile.folded"
NAME="callee VM instantiation is its own frame"
ok grep -q "host:call;contract:counter.wasm;vm:instantiate " "$T/a/profile.folded"
NAME="try_call nests the failing callee"
ok grep -q "host:try_call;contract:counter.wasm;fail (examples/counter.c:[0-9]*);host:fail_with_error" "$T/a/profile.folded"
NAME="folded sums to Budget CPU"; ok folded_is_cpu "$T/a"
NAME="storage metrics in the report"; ok grep -q "^  Reads  *8 " "$T/a/report.txt"
NAME="auth records listed"; ok grep -q "auth 3 .* authorized increment(all args) of $ID" "$T/a/report.txt"
NAME="flamegraph tooltips carry the storage metrics"; ok grep -q "Stored bytes" "$T/a/flamegraph.svg"
"$BIN" profile "$CALLER" run "str:$ID" u32:3 --contract "$COUNTER" -o "$T/b" -q -f report,folded
NAME="deterministic"; ok cmp -s "$T/a/profile.folded" "$T/b/profile.folded"
"$BIN" profile "$CALLER" run "str:$ID" u32:1 -o "$T/c" -q -f report 2>"$T/err"
rc=$?
NAME="without the callee deployed the call fails (exit $rc)"; ok [ "$rc" -ne 0 ]
"$BIN" profile "$CALLER" run "str:$ID" u32:1 --contract "$T/missing.wasm" -o "$T/d" -q 2>"$T/err"
rc=$?
NAME="--contract with a missing file: one-line error (exit $rc)"
[ "$rc" -ne 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; passed $?
# Out of memory budget after the callee's frame gave its linear memory back:
# the message quotes the memory the Budget table shows (the peak of the
# Budget's count, the figure the limit is checked against), then what was
# charged in all (tests/e2e/mem_enforced.sh checks the figures).
"$BIN" profile "$CALLER" run "str:$ID" u32:3 --contract "$COUNTER" -o "$T/e" -q -f report --mem-limit 400000 2>"$T/err"
rc=$?
mem=$(awk '$1 == "Memory" {gsub(",", "", $2); print $2; exit}' "$T/e/report.txt")
NAME="memory budget exceeded: message quotes the Budget table's $mem"
ok one_line_error 11 "memory $mem of 400000 ("
