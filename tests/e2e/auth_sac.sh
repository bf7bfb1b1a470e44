#!/bin/sh
# End-to-end: a custom account (examples/wallet.c) paying through a
# Stellar Asset Contract in enforcing mode.  The asset contract's
# transfer requires the wallet's auth natively; the wallet's __check_auth
# runs in a VM whose frames must hang under the asset contract's frame
# that required it -- with the asset contract called directly (no VM below
# it) and through payer.wasm -- and the folded stacks must add up.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 8
cp "$B/examples/wallet.wasm" "$B/examples/payer.wasm" "$T/"
S1=SAIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRDBNT
S2=SARCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEVGI
PK1=d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737
ISS=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
TO=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ

cpu_of() { sed -n 's/^  CPU  *\([0-9,]*\) .*/\1/p' "$1/report.txt" | tr -d ,; }

scenario() {   # $1: the profiled call, $2: the signer
  cat <<JSON
{"contracts": [{"name": "payer", "wasm": "payer.wasm"}, {"name": "wallet", "wasm": "wallet.wasm"}],
 "assets": [{"name": "usdc", "asset": "USDC:$ISS"}],
 "accounts": [{"id": "$ISS"}, {"id": "$TO"}],
 "trustlines": [{"account": "$TO", "asset": "usdc"}],
 "calls": [
  {"contract": "wallet", "function": "init", "args": ["bytes:$PK1"], "profile": false},
  {"contract": "usdc", "function": "mint", "args": ["addr:wallet", "i128:1000"], "profile": false},
  $1, "auth": "enforce", "signers": ["wallet=$2"]}]}
JSON
}
SAC='contract:SAC(USDC:GBBD4…)'
CHECK="auth:verify(__check_auth);contract:wallet.wasm;check_auth (examples/wallet.c:[0-9]*);host:verify_sig_ed25519 419526"

scenario '{"contract": "usdc", "function": "transfer", "args": ["addr:wallet", "addr:'$TO'", "i128:100"]' "$S1" >"$T/d.json"
NAME="[pin] auth sac: the wallet pays through the asset contract called directly (808,163 CPU)"
"$BIN" profile --scenario "$T/d.json" -o "$T/d" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && [ $(cpu_of "$T/d/03-transfer") -eq 808163 ]"
NAME="auth sac: its __check_auth is nested under the asset contract's frame, in auth:verify(__check_auth)"
ok grep -q "^contract:SAC(USDC:$ISS);$SAC;$CHECK$" "$T/d/03-transfer/profile.folded"
NAME="auth sac: and its VM too (vm:instantiate under contract:wallet.wasm)"
ok grep -q "^contract:SAC(USDC:$ISS);$SAC;auth:verify(__check_auth);contract:wallet.wasm;vm:instantiate [0-9]*$" "$T/d/03-transfer/profile.folded"
NAME="auth sac: directly, the folded stacks add up to the report's CPU"
ok folded_is_cpu "$T/d/03-transfer"

scenario '{"contract": "payer", "function": "pay", "args": ["addr:usdc", "addr:wallet", "addr:'$TO'", "i128:100"]' "$S1" >"$T/p.json"
NAME="[pin] auth sac: the wallet pays through payer.wasm and the asset contract (926,861 CPU)"
"$BIN" profile --scenario "$T/p.json" -o "$T/p" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && [ $(cpu_of "$T/p/03-pay") -eq 926861 ]"
NAME="auth sac: its __check_auth is under payer's host:call and the asset contract's frame"
ok grep -q "^contract:payer.wasm;pay ([^)]*);host:call;$SAC;$CHECK$" "$T/p/03-pay/profile.folded"
NAME="auth sac: through payer, the folded stacks add up"
ok folded_is_cpu "$T/p/03-pay"

scenario '{"contract": "usdc", "function": "transfer", "args": ["addr:wallet", "addr:'$TO'", "i128:100"]' "$S2" >"$T/b.json"
NAME="auth sac: a key the wallet does not hold: the transfer fails (a host error, exit 12), stacks still add up"
"$BIN" profile --scenario "$T/b.json" -o "$T/b" -q 2>"$T/err"; rc=$?
[ "$rc" -eq 12 ] && grep -q 'failed account authentication' "$T/err" && folded_is_cpu "$T/b/03-transfer"; passed $?
