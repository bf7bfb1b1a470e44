#!/bin/sh
# End-to-end: enforcing-mode authorization in scenario files (a call's
# "auth": "enforce" with "signers"; --auth enforce with --scenario).  Each
# enforcing call is simulated unprofiled (the ledger left as it was),
# signed and profiled; its nonces stay in the ledger, so the next signed
# call is simulated with a fresh one.  Checks: the first signed call costs
# what the command line's does, later ones run, names resolve in
# "signers", one-line errors.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 11
cp "$B/examples/counter.wasm" "$B/examples/guard.wasm" "$B/examples/wallet.wasm" "$T/"
S1=SAIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRDBNT
PK1=d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737
G1=GDIEVMRSOQV3JKZ2CNUL2RQV4TTNAISKW4NAC25PQUQKGMWJO6DTOAE7
W=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ

cpu_of() { sed -n 's/^  CPU  *\([0-9,]*\) .*/\1/p' "$1/report.txt" | tr -d ,; }
line() { sed -n "${2}p" "$1/scenario.txt"; }

INC="{\"function\": \"increment\", \"args\": [\"addr:$G1\", \"u32:1\"]"
cat >"$T/c.json" <<JSON
{"contracts": [{"name": "counter", "wasm": "counter.wasm"}],
 "calls": [$INC, "auth": "enforce", "signers": ["$S1"]},
           $INC, "auth": "enforce", "signers": ["$S1"]},
           $INC}]}
JSON
NAME="auth scenario: two signed calls, then a recording one (exit 0)"
"$BIN" profile --scenario "$T/c.json" -o "$T/c" -q 2>"$T/err"; rc=$?
ok [ "$rc" -eq 0 ]
NAME="[pin] auth scenario: the first signed call costs what --auth enforce does (649,774 CPU)"
ok [ "$(cpu_of "$T/c/01-increment")" -eq 649774 ]
NAME="[pin] auth scenario: the second is signed with a fresh nonce, on the first's ledger (644,927, u32:2)"
ok sh -c "[ $(cpu_of "$T/c/02-increment") -eq 657755 ] && grep -q '^  result  *u32:2' '$T/c/02-increment/report.txt'"
NAME="auth scenario: the signed calls have auth:entries, the recording one auth:emulate"
ok sh -c "grep -q ';auth:entries ' '$T/c/02-increment/profile.folded' && ! grep -q 'auth:emulate' '$T/c/02-increment/profile.folded' && grep -q ';auth:emulate ' '$T/c/03-increment/profile.folded'"
NAME="[pin] auth scenario: the recording call after them (639,803, u32:3)"
ok sh -c "[ $(cpu_of "$T/c/03-increment") -eq 652631 ] && grep -q '^  result  *u32:3' '$T/c/03-increment/report.txt'"

BUMP="{\"contract\": \"guard\", \"function\": \"bump\", \"args\": [\"addr:wallet\", \"bytes:$PK1\", \"u32:5\"]"
cat >"$T/w.json" <<JSON
{"contracts": [{"name": "guard", "wasm": "guard.wasm"}, {"name": "wallet", "wasm": "wallet.wasm"}],
 "calls": [$BUMP, "auth": "enforce", "signers": ["wallet=$S1"]}, $BUMP}]}
JSON
NAME="[pin] auth scenario: a contract's name in \"signers\" (wallet=S...): 965,611 CPU as on the command line"
"$BIN" profile --scenario "$T/w.json" -o "$T/w" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && [ $(cpu_of "$T/w/01-bump") -eq 965611 ] && grep -q 'check_auth' '$T/w/01-bump/profile.folded'"
NAME="auth scenario: --auth enforce with --scenario signs every profiled call (--signer C...=S...)"
"$BIN" profile --scenario "$T/w.json" --auth enforce --signer "$W=$S1" -o "$T/w2" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && [ $(cpu_of "$T/w2/01-bump") -eq 965611 ] && [ $(cpu_of "$T/w2/02-bump") -eq 976382 ] && grep -q 'check_auth' '$T/w2/02-bump/profile.folded'"

err_case() {
  printf '{"contracts": [{"name": "counter", "wasm": "counter.wasm"}], "ledger": {"sequence": 100}, "calls": [%s, %s}]}' "$INC" "$1" >"$T/e.json"
  "$BIN" profile --scenario "$T/e.json" -o "$T/e" -q 2>"$T/err"
}
NAME="auth scenario: an unknown \"auth\" mode is a one-line error (65)"
err_case '"auth": "maybe"'; rc=$?
ok one_line_error 65 'calls[0]: "auth" is "record", "enforce", "mock" or "mock-non-root"'
NAME="auth scenario: \"signers\" without \"auth\": \"enforce\" (65)"
err_case "\"signers\": [\"$S1\"]"; rc=$?
ok one_line_error 65 'go with "auth": "enforce"'
NAME="auth scenario: an account without a signer (3)"
err_case '"auth": "enforce"'; rc=$?
ok one_line_error 3 "calls[0]: --auth enforce: $G1 must authorize the call"
NAME="auth scenario: an expired signature (\"auth_expiration\" 50 on ledger 100) fails the call (10)"
err_case "\"auth\": \"enforce\", \"signers\": [\"$S1\"], \"auth_expiration\": 50"; rc=$?
ok sh -c "[ $rc -eq 10 ] && grep -q 'signature has expired' '$T/err'"
