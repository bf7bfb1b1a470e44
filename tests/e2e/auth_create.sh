#!/bin/sh
# End-to-end: create-contract functions in authorization trees
# (examples/factory.c deploys counter.wasm for a deployer that must
# authorize it).  Recording mode emulates the deployer's signature check
# over the create-contract function; --auth enforce signs a
# CreateContractV2HostFn entry; a custom account (examples/wallet.c) as
# deployer gets the create-contract context in its __check_auth.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 10
F=$B/examples/factory.wasm
C=$B/examples/counter.wasm
cp "$F" "$C" "$B/examples/wallet.wasm" "$T/"
H=$(sha256sum "$C" | cut -c1-64)
SALT=0101010101010101010101010101010101010101010101010101010101010101
S1=SAIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRDBNT
S2=SARCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEVGI
PK1=d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737
G1=GDIEVMRSOQV3JKZ2CNUL2RQV4TTNAISKW4NAC25PQUQKGMWJO6DTOAE7

cpu_of() { sed -n 's/^  CPU  *\([0-9,]*\) .*/\1/p' "$1/report.txt" | tr -d ,; }
deploy() { "$BIN" profile "$@" --contract "$C" "$F" deploy "addr:$G1" "bytes:$H" "bytes:$SALT"; }

NAME="[pin] auth create: recording mode emulates the deployer's check over a create-contract tree (450,759)"
deploy -o "$T/r" >/dev/null 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && grep -q ';auth:emulate ' '$T/r/profile.folded' && [ $(cpu_of "$T/r") -eq 450759 ]"
NAME="auth create: the report shows the Address argument and result as strkeys"
ok sh -c "grep -q '^  arguments  *addr:$G1, bytes:$H, bytes:$SALT\$' '$T/r/report.txt' && grep -q '^  result  *addr:C[A-Z2-7]\\{55\\}\$' '$T/r/report.txt'"
NAME="auth create: recording, folded stacks add up"
ok folded_is_cpu "$T/r"
NAME="[pin] auth create: recording with the deployer's account entry: its signature check emulated too (875,856; auth:emulate 464,024)"
deploy --account "$G1" -o "$T/ra" >/dev/null 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && [ $(cpu_of "$T/ra") -eq 875856 ] && grep -q '^contract:factory.wasm;auth:emulate 464024$' '$T/ra/profile.folded'"
NAME="[pin] auth create: --auth enforce signs a CreateContractV2HostFn entry (882,758 CPU)"
deploy --auth enforce --signer "$S1" -o "$T/e" >/dev/null 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && [ $(cpu_of "$T/e") -eq 882758 ] && grep -q ';auth:entries ' '$T/e/profile.folded'"
NAME="auth create: enforcing, folded stacks add up"
ok folded_is_cpu "$T/e"
NAME="auth create: a key that is not the deployer's signer fails (Error(Auth, InvalidAction), exit 10)"
deploy --auth enforce --signer "$G1=$S2" -o "$T/x" >/dev/null 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 10 ] && grep -q 'failed account authentication' '$T/x/report.txt'"

cat >"$T/w.json" <<JSON
{"contracts": [{"name": "factory", "wasm": "factory.wasm"}, {"name": "wallet", "wasm": "wallet.wasm"},
               {"name": "counter", "wasm": "counter.wasm"}],
 "calls": [{"contract": "wallet", "function": "init", "args": ["bytes:$PK1"], "profile": false},
           {"contract": "factory", "function": "deploy", "args": ["addr:wallet", "bytes:$H", "bytes:$SALT"],
            "auth": "enforce", "signers": ["wallet=$S1"]}]}
JSON
NAME="[pin] auth create: a custom account deployer's __check_auth gets the create-contract context (1,055,981 CPU)"
"$BIN" profile --scenario "$T/w.json" -o "$T/w" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && [ $(cpu_of "$T/w/02-deploy") -eq 1055981 ]"
NAME="auth create: the wallet's __check_auth is nested under host:create_contract"
ok grep -q "^contract:factory.wasm;deploy ([^)]*);host:create_contract;auth:verify(__check_auth);contract:wallet.wasm;check_auth (examples/wallet.c:[0-9]*);host:verify_sig_ed25519 419526$" "$T/w/02-deploy/profile.folded"
NAME="auth create: custom account, folded stacks add up"
ok folded_is_cpu "$T/w/02-deploy"
