#!/bin/sh
# End-to-end: a token flow as a soroban-sdk user runs it, from a scenario
# file.  examples/token.c (the soroban-examples token in C) is deployed by
# its admin with constructor arguments, mints to two holders, transfers,
# and is read back, call after call on one ledger; then the same kind of
# flow on a Stellar Asset Contract named in "assets" (mint, transfer,
# balance, name, and a Wasm contract's payment through it).  Every call's
# CPU and memory are fixed, each profile's folded stacks add up to its
# report's CPU, two runs write the same bytes.  The carrying property:
# a balance read alone, with the entries it reads given up front
# ("live_until", "storage" as ScVal XDR), is the flow's call byte for
# byte (every call of the flow: test_token_flow in
# tests/soroban/test_scenario.c); an overdrawn transfer traps and
# changes nothing.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 22
cp "$B/examples/token.wasm" "$B/examples/payer.wasm" "$T/"
ADMIN=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
ALICE=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ
BOB=GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6

# every profile folder of a scenario's output: folded stacks = report CPU
all_folded_are_cpu() {
  n=0
  for d in "$1"/[0-9][0-9]-*; do folded_is_cpu "$d" || return 1; n=$((n + 1)); done
  [ "$n" -eq "$2" ]
}
summary() { cut -f1,3-6 "$1/scenario.txt" | tr '\t' ' '; }

# ---- the token: deploy with constructor, mint, mint, transfer, read back
cat >"$T/token.json" <<JSON
{"ledger": {"sequence": 100, "network_passphrase": "Test SDF Network ; September 2015"},
 "accounts": [{"id": "$ADMIN"}, {"id": "$ALICE"}, {"id": "$BOB"}],
 "contracts": [{"name": "token", "wasm": "token.wasm", "deployer": "$ADMIN",
                "constructor_args": {"admin": "$ADMIN", "decimal": 7,
                                     "name": "Example Token", "symbol": "EXT"}}],
 "calls": [{"function": "mint", "args": {"to": "$ALICE", "amount": 1000}},
           {"function": "mint", "args": {"to": "$BOB", "amount": 500}},
           {"function": "transfer", "args": {"from": "$ALICE", "to": "$BOB", "amount": 300}},
           {"function": "balance", "args": {"id": "$ALICE"}},
           {"function": "balance", "args": {"id": "$BOB"}},
           {"function": "approve", "args": {"from": "$ALICE", "spender": "$BOB", "amount": 100,
                                            "expiration_ledger": 1000}},
           {"function": "allowance", "args": {"from": "$ALICE", "spender": "$BOB"}},
           {"function": "name"}]}
JSON
"$BIN" profile -q -o "$T/a" -f report,folded,json --scenario "$T/token.json" 2>"$T/err"; rc=$?
NAME="token flow runs (exit $rc)"; ok [ "$rc" -eq 0 ]
# [pin]: scprof's own totals, recorded; no reference trace runs this contract
cat >"$T/want" <<EOF2
1 mint CPU 741648 memory 236838 ok
2 mint CPU 739896 memory 236398 ok
3 transfer CPU 800052 memory 243649 ok
4 balance CPU 253415 memory 224968 ok
5 balance CPU 253415 memory 224968 ok
6 approve CPU 748696 memory 239950 ok
7 allowance CPU 266192 memory 226838 ok
8 name CPU 226196 memory 221312 ok
EOF2
summary "$T/a" >"$T/got"
NAME="[pin] token flow: every call's CPU and memory"; ok cmp -s "$T/want" "$T/got"
NAME="balances after the transfer: 700 and 800"
ok sh -c "grep -q 'result *i128:700' '$T/a/04-balance/report.txt' && grep -q 'result *i128:800' '$T/a/05-balance/report.txt'"
NAME="the allowance and the constructor's metadata"
ok sh -c "grep -q 'result *i128:100' '$T/a/07-allowance/report.txt' && grep -q 'result *str:\"Example Token\"' '$T/a/08-name/report.txt'"
NAME="the signer's emulated signature check dominates a mint (460,628 of 741,648 CPU)"
ok grep -q "460,628 .* auth:emulate" "$T/a/01-mint/report.txt"
NAME="a balance read is mostly the VM's instantiation (175,345 of 253,415 CPU)"
ok grep -q "175,345 .* vm:instantiate" "$T/a/04-balance/report.txt"
NAME="token flow: each profile's folded stacks sum to its report's CPU"; ok all_folded_are_cpu "$T/a" 8
"$BIN" profile -q -o "$T/b" -f report,folded,json --scenario "$T/token.json" 2>"$T/err"
NAME="token flow: two runs write the same bytes"; ok diff -r "$T/a" "$T/b"

# ---- "live_until": the instance already extended, as a token in use is;
# the first mint then costs what the second does (no extension to write)
sed 's/"symbol": "EXT"}}/"symbol": "EXT"}, "live_until": 121060}/' "$T/token.json" >"$T/live.json"
"$BIN" profile -q -o "$T/c" -f report --scenario "$T/live.json" 2>"$T/err"; rc=$?
NAME="[pin] live_until 121060: the first mint costs the second's (739,896 CPU)"
ok grep -q "^1	token	mint	CPU 739896	memory 236398	ok$" "$T/c/scenario.txt"
sed 's/"symbol": "EXT"}}/"symbol": "EXT"}, "live_until": "soon"}/' "$T/token.json" >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="a bad live_until: exit 65 (exit $rc)"; ok one_line_error 65 "bad.json: contracts[0]: \"live_until\" must be a ledger number"

# ---- the carrying property on the command line: call 4 (Alice's balance)
# alone, on a fresh deploy given up front what it reads: the instance
# extended as call 1 left it ("live_until"), Alice's balance entry as
# call 3 left it (the key DataKey::Balance(Alice), a vec, and the i128 as
# ScVal XDR, base64, as `stellar xdr encode --type ScVal` writes them;
# its TTL the 30 days the transfer's extend_ttl gave it)
KEY_ALICE=AAAAEAAAAAEAAAACAAAADwAAAAdCYWxhbmNlAAAAABIAAAAAAAAAAImbKEDtVjbFbdxfFLI5dfefG6I4jSaU5MVuzd3JYOXv
I128_700=AAAACgAAAAAAAAAAAAAAAAAAArw=
sed -e 's/"symbol": "EXT"}}/"symbol": "EXT"}, "live_until": 121060}/' \
    -e "s|^ \"calls\": \[.*| \"storage\": [{\"key\": {\"xdr\": \"$KEY_ALICE\"}, \"value\": {\"xdr\": \"$I128_700\"}, \"live_until\": 518500}],\n \"calls\": [{\"function\": \"balance\", \"args\": {\"id\": \"$ALICE\"}}]}|" \
    -e '/^           {"function"/d' -e '/^                                            "expiration_ledger"/d' \
    "$T/token.json" >"$T/alone.json"
"$BIN" profile -q -o "$T/d" -f report,folded,json --scenario "$T/alone.json" 2>"$T/err"; rc=$?
NAME="Alice's balance alone, its entries seeded (exit $rc)"; ok grep -q "result *i128:700" "$T/d/01-balance/report.txt"
NAME="Alice's balance alone costs what it costs as call 4, byte for byte"
ok sh -c "cmp -s '$T/a/04-balance/profile.folded' '$T/d/01-balance/profile.folded' && cmp -s '$T/a/04-balance/report.txt' '$T/d/01-balance/report.txt'"
sed "s|\"xdr\": \"$I128_700\"|\"xdr\": \"AAAACg==\"|" "$T/alone.json" >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="a storage value that is not an ScVal's XDR: exit 3 (exit $rc)"; ok one_line_error 3 "bad.json: storage[0]: argument: malformed XDR"
sed "s|\"xdr\": \"$I128_700\"|\"xdr\": \"AA*A\"|" "$T/alone.json" >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="a storage value that is not base64: exit 65 (exit $rc)"; ok one_line_error 65 "bad.json: storage[0]: value: \"xdr\" is not base64"

# ---- a transfer beyond the balance traps ("insufficient balance") and
# changes nothing: the next call sees the minted 1000, at the same cost
sed -e '/^           {"function"/d' -e '/^                                            "expiration_ledger"/d' \
    -e "s|^ \"calls\": \[.*| \"calls\": [{\"function\": \"mint\", \"args\": {\"to\": \"$ALICE\", \"amount\": 1000}}, {\"function\": \"transfer\", \"args\": {\"from\": \"$ALICE\", \"to\": \"$BOB\", \"amount\": 5000}}, {\"function\": \"balance\", \"args\": {\"id\": \"$ALICE\"}}]}|" \
    "$T/token.json" >"$T/short.json"
"$BIN" profile -q -o "$T/f" -f report --scenario "$T/short.json" 2>"$T/err"; rc=$?
NAME="an overdrawn transfer traps: exit 10, the later calls still run (exit $rc)"
ok sh -c "[ $rc -eq 10 ] && grep -q '^2	token	transfer	CPU [0-9]*	memory [0-9]*	.*token.wasm: trap: unreachable in transfer (examples/token.c)\$' '$T/f/scenario.txt'"
NAME="the trapped transfer changed nothing: balance 1000 at 253,415 CPU"
ok sh -c "grep -q '^3	token	balance	CPU 253415	memory 224968	ok\$' '$T/f/scenario.txt' && grep -q 'result *i128:1000' '$T/f/03-balance/report.txt'"

# ---- a Stellar Asset Contract called several times in a row, then through
# a Wasm contract: its metadata lives in its instance storage, its
# balances in the trustlines, all carried from call to call
cat >"$T/sac.json" <<JSON
{"ledger": {"sequence": 100, "network_passphrase": "Test SDF Network ; September 2015"},
 "assets": [{"name": "usdc", "asset": "USDC:$ADMIN"}],
 "contracts": [{"name": "payer", "wasm": "payer.wasm"}],
 "accounts": [{"id": "$ADMIN"}, {"id": "$ALICE", "balance": "100000000"}, {"id": "$BOB", "balance": "50000000"}],
 "trustlines": [{"account": "$ALICE", "asset": "usdc"}, {"account": "$BOB", "asset": "usdc"}],
 "calls": [{"contract": "usdc", "function": "mint", "args": ["addr:$ALICE", "i128:1000"]},
           {"contract": "usdc", "function": "transfer", "args": ["addr:$ALICE", "addr:$BOB", "i128:300"]},
           {"contract": "usdc", "function": "balance", "args": ["addr:$ALICE"]},
           {"contract": "usdc", "function": "balance", "args": ["addr:$BOB"]},
           {"contract": "usdc", "function": "name", "args": []},
           {"contract": "payer", "function": "pay",
            "args": ["addr:usdc", "addr:$ALICE", "addr:$BOB", "i128:200"]},
           {"contract": "usdc", "function": "balance", "args": ["addr:$BOB"]}]}
JSON
"$BIN" profile -q -o "$T/s" -f report,folded --scenario "$T/sac.json" 2>"$T/err"; rc=$?
NAME="asset contract: seven calls in a row run (exit $rc)"; ok [ "$rc" -eq 0 ]
cat >"$T/want" <<EOF2
1 mint CPU 570019 memory 22337 ok
2 transfer CPU 595047 memory 26058 ok
3 balance CPU 84959 memory 11060 ok
4 balance CPU 84959 memory 11060 ok
5 name CPU 62137 memory 7265 ok
6 pay CPU 707344 memory 234827 ok
7 balance CPU 84959 memory 11060 ok
EOF2
summary "$T/s" >"$T/got"
NAME="[pin] asset contract calls: every call's CPU and memory"; ok cmp -s "$T/want" "$T/got"
NAME="asset contract balances carried: 700, 300, then 500 after the payment"
ok sh -c "grep -q 'result *i128:700' '$T/s/03-balance/report.txt' && grep -q 'result *i128:300' '$T/s/04-balance/report.txt' && grep -q 'result *i128:500' '$T/s/07-balance/report.txt'"
NAME="the asset contract's name, from its instance storage"
ok grep -q "result *str:\"USDC:$ADMIN\"" "$T/s/05-name/report.txt"
NAME="asset contract calls: each profile's folded stacks sum to its report's CPU"; ok all_folded_are_cpu "$T/s" 7
"$BIN" profile -q -o "$T/s2" -f report,folded --scenario "$T/sac.json" 2>"$T/err"
NAME="asset contract calls: two runs write the same bytes"; ok diff -r "$T/s" "$T/s2"
