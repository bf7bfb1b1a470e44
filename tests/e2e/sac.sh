#!/bin/sh
# End-to-end: a contract paying through a Stellar Asset Contract created
# with --asset (examples/payer.c).  The issuer pays itself (no trustline
# needed), and a contract pays XLM to a contract (a new balance entry);
# the profile's CPU is fixed, the folded stacks add up to it, the
# asset contract's frame is contract:SAC(CODE:GABCD…) under host:call, the
# report lists the asset contract's id, and a malformed --asset is a
# one-line argument error (exit 3).
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 21
P=$B/examples/payer.wasm
ISS=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
# SAC(USDC:ISS)'s id on the all-zero network id
ID=CC4CYWAN7VB5GRATMIDALG5FWMCOFPFAIGRCIXA4IC6ON2BBIB3JAPUY
NATIVE=CB56OQJZFJXSSKFK3MXJZ4TLJAJFWH6KXN6BAWHQSJDZPHZFVBJ353HU


run_pay() {
  "$BIN" profile "$P" pay "address:$ID" "address:$ISS" "address:$ISS" i128:100 \
    --asset "USDC:$ISS" -o "$1" >/dev/null 2>"$T/err"
}

NAME="sac: payer pays through --asset USDC"
run_pay "$T/a"; rc=$?
ok [ "$rc" -eq 0 ]
NAME="sac: status OK, result void"
ok grep -q "^  result  *void" "$T/a/report.txt"
NAME="[pin] sac: exact total CPU 250,927 / memory 219,890 at its peak, 229,095 charged"
ok sh -c "grep -q '^  CPU  *250,927 ' '$T/a/report.txt' && grep -q '^  Memory  *219,890 ' '$T/a/report.txt' &&
  grep -q 'the call tree books 229,095 bytes' '$T/a/report.txt'"
NAME="sac: stable across runs"
run_pay "$T/b"
ok cmp -s "$T/a/profile.folded" "$T/b/profile.folded"
NAME="sac: folded stacks add up to the CPU"
ok [ "$(awk '{s += $NF} END {print s}' "$T/a/profile.folded")" -eq 250927 ]
NAME="sac: contract:SAC(USDC:GBBD4…) under host:call"
ok grep -q "^contract:payer.wasm;pay ([^)]*);host:call;contract:SAC(USDC:GBBD4…) 54799$" "$T/a/profile.folded"
NAME="sac: report lists the asset contract's id"
ok grep -qF "asset contract 0  SAC(USDC:$ISS) = $ID" "$T/a/report.txt"

NAME="sac: --asset native lists the native asset contract"
"$BIN" profile "$P" pay "address:$NATIVE" "address:$ISS" "address:$ISS" i128:1 --asset native \
  -o "$T/n" >/dev/null 2>&1
ok grep -qF "asset contract 0  SAC(native) = $NATIVE" "$T/n/report.txt"

# Paying to a contract address: the native asset needs no account entry
# for a contract (no issuer flags), and 0 from a contract without a
# balance is a no-op spend; the recipient's Balance entry is created
# {0, authorized, no clawback} and written with its TTL.
run_pay_contract() {
  "$BIN" profile "$P" pay "address:$NATIVE" "address:$ID" "address:$NATIVE" i128:0 --asset native \
    -o "$1" >/dev/null 2>"$T/err"
}
NAME="sac: payer pays a contract (native, 0 from a contract)"
run_pay_contract "$T/c"; rc=$?
ok [ "$rc" -eq 0 ]
NAME="sac: to a contract: result void, the transfer event, one write"
ok sh -c "grep -q '^  result  *void' '$T/c/report.txt' && grep -q '^  events  *1$' '$T/c/report.txt' &&
  grep -q '^  storage .* 1 writes' '$T/c/report.txt'"
NAME="[pin] sac: to a contract: exact total CPU 239,275 / memory 223,042 at its peak, 223,893 charged"
ok sh -c "grep -q '^  CPU  *239,275 ' '$T/c/report.txt' && grep -q '^  Memory  *223,042 ' '$T/c/report.txt' &&
  grep -q 'the call tree books 223,893 bytes' '$T/c/report.txt'"
NAME="sac: to a contract: folded stacks add up to the CPU"
ok [ "$(awk '{s += $NF} END {print s}' "$T/c/profile.folded")" -eq 239275 ]
NAME="sac: to a contract: contract:SAC(native) under host:call"
ok grep -q "^contract:payer.wasm;pay ([^)]*);host:call;contract:SAC(native) 89349$" "$T/c/profile.folded"
NAME="sac: to a contract: stable across runs"
run_pay_contract "$T/d"
ok cmp -s "$T/c/profile.folded" "$T/d/profile.folded"
NAME="sac: USDC to a contract reads the issuer's flags: its account is missing"
"$BIN" profile "$P" pay "address:$ID" "address:$ISS" "address:$NATIVE" i128:100 --asset "USDC:$ISS" \
  -o "$T/e" >/dev/null 2>"$T/err"; rc=$?
ok sh -c "[ $rc -ne 0 ] && grep -q 'non-existing value' '$T/err' && [ -f '$T/e/report.txt' ]"

for bad in "USD" "X:GABC" "TOOLONGCODE13:$ISS" "U-D:$ISS" ":$ISS"; do
  NAME="sac: --asset '$bad' is a one-line error"
  "$BIN" profile "$P" pay "address:$ID" "address:$ISS" "address:$ISS" i128:1 --asset "$bad" \
    -o "$T/x" >/dev/null 2>"$T/err"; rc=$?
  ok one_line_error 3 "--asset $bad: "
done
NAME="sac: --asset without a value"
"$BIN" profile "$P" pay --asset >/dev/null 2>"$T/err"; rc=$?
ok one_line_error 2 "--asset needs"
