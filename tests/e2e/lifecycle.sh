#!/bin/sh
# End-to-end: a contract's lifecycle in profiles and scenarios.  A call
# of a contract that is not deployed names the contract and how to
# deploy it.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
BIN=${SCPROF:-build/bin/scprof}
B=${SCP_BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib/check.sh"

# caller.wasm calls counter.increment on the contract it is given
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
NAME="lifecycle: a callee that is not deployed: the run traps (exit 10), a partial profile"
"$BIN" profile "$B/examples/caller.wasm" run "string:$ID" u32:1 -o "$T/m" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 10 ] && [ -f '$T/m/report.txt' ]"
NAME="lifecycle: the error names the contract id and --contract"
ok grep -qF "contract $ID is not deployed (give its Wasm with --contract FILE.wasm" "$T/err"
NAME="lifecycle: the report's status says it too"
ok grep -qF "status           contract trapped: call: trying to get non-existing value for contract storage key: contract $ID is not deployed" "$T/m/report.txt"
NAME="lifecycle: with --contract the same call runs"
"$BIN" profile --contract "$B/examples/counter.wasm" "$B/examples/caller.wasm" run "string:$ID" u32:1 \
  -o "$T/ok" -q 2>"$T/err"; rc=$?
ok [ "$rc" -eq 0 ]
