#!/bin/sh
# End-to-end: scenario files that set up a real ledger.  payer.wasm
# (examples/payer.c) pays 250 USDC between two accounts that hold
# trustlines, with the asset contract, the accounts and the trustlines
# declared in the file (and, the same, on the command line with --account
# / --trustline).  The costs are fixed (the emulated signature check of
# the payer's account included: its entry is in the ledger), the folded
# stacks add up to the report's CPU, the report lists the asset contract's
# id, two runs write the same bytes.  A contract with a constructor is
# deployed with its arguments, deployer and salt; every mistake is one
# line naming the file and the JSON path.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 35
cp "$B/examples/payer.wasm" "$B/examples/counter.wasm" "$B/tests/fixtures/wasm/ctor.wasm" "$T/"
ISS=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
FROM=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ
TO=GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6
# SAC(USDC:ISS) on the testnet, and on the all-zero network id
TESTNET_ID=CBIELTK6YBZJU5UP2WWQEUCYKLPU6AUNZ2BQ4WWFEIE3USCIHMXQDAMA
ZERO_NET_ID=CC4CYWAN7VB5GRATMIDALG5FWMCOFPFAIGRCIXA4IC6ON2BBIB3JAPUY

cpu_mem() {
  awk '$1 == "CPU" || $1 == "Memory" {gsub(",", "", $2); printf "%s ", $2} END {print ""}' \
    "$1/report.txt" | awk '{print $1, $2}'
}

# ---- the demonstration: pay between two trustlines
cat >"$T/pay.json" <<JSON
{"ledger": {"sequence": 100, "network_passphrase": "Test SDF Network ; September 2015"},
 "contracts": [{"name": "payer", "wasm": "payer.wasm"}],
 "assets": [{"name": "usdc", "asset": "USDC:$ISS"}],
 "accounts": [{"id": "$ISS"},
              {"id": "$FROM", "balance": "100000000"},
              {"id": "$TO", "balance": "50000000"}],
 "trustlines": [{"account": "$FROM", "asset": "usdc", "balance": "1000"},
                {"account": "$TO", "asset": "usdc", "balance": "0"}],
 "calls": [{"contract": "payer", "function": "pay",
            "args": ["addr:usdc", "addr:$FROM", "addr:$TO", "i128:250"]}]}
JSON
"$BIN" profile -q -o "$T/a" --scenario "$T/pay.json" 2>"$T/err"; rc=$?
NAME="pay between two trustlines runs (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="[pin] pay costs 708,379 CPU / 225,112 bytes (the memory's peak)"; ok [ "$(cpu_mem "$T/a/01-pay")" = "708379 225112" ]
NAME="the payer's emulated signature check verifies (464,522 CPU)"
ok grep -q "464,522 .* auth:emulate" "$T/a/01-pay/report.txt"
NAME="pay: folded stacks sum to the report's CPU"; ok folded_is_cpu "$T/a/01-pay"
NAME="the report lists the asset contract's id"
ok grep -q "asset contract 0 *SAC(USDC:$ISS) = $TESTNET_ID" "$T/a/01-pay/report.txt"
NAME="the transfer runs in the asset contract's frame"; ok grep -q "contract:SAC(USDC:GBBD4" "$T/a/01-pay/profile.folded"
NAME="[pin] the summary line"; ok grep -q "^1	payer	pay	CPU 708379	memory 235115	ok$" "$T/a/scenario.txt"
"$BIN" profile -q -o "$T/b" --scenario "$T/pay.json" 2>"$T/err"
NAME="the same scenario writes the same bytes"; ok diff -r "$T/a" "$T/b"

# ---- an asset contract called by name reads an account's entry
cat >"$T/xlm.json" <<JSON
{"assets": [{"name": "xlm", "asset": "native"}], "accounts": [{"id": "$FROM", "balance": "123456789"}],
 "calls": [{"contract": "xlm", "function": "balance", "args": ["addr:$FROM"]}]}
JSON
"$BIN" profile -q -o "$T/h" -f report,folded --scenario "$T/xlm.json" 2>"$T/err"; rc=$?
NAME="the native balance is the AccountEntry's (exit $rc)"; ok grep -q "result *i128:123456789" "$T/h/01-balance/report.txt"
NAME="a call to an asset contract: folded stacks sum to the report's CPU"; ok folded_is_cpu "$T/h/01-balance"
NAME="the summary names the asset contract"; ok grep -q "^1	xlm	balance	CPU 62632	" "$T/h/scenario.txt"

# ---- the same on the command line
"$BIN" profile -q -o "$T/c" -f report,folded "$T/payer.wasm" pay "address:$ZERO_NET_ID" \
  "address:$FROM" "address:$TO" i128:250 --asset "USDC:$ISS" --account "$ISS" \
  --account "$FROM:100000000" --account "$TO:50000000" \
  --trustline "$FROM:USDC:$ISS:1000" --trustline "$TO:USDC:$ISS" 2>"$T/err"; rc=$?
NAME="--account / --trustline: the scenario's costs (exit $rc)"; ok [ "$(cpu_mem "$T/c")" = "708379 225112" ]
NAME="--account / --trustline: folded stacks sum to the report's CPU"; ok folded_is_cpu "$T/c"
"$BIN" profile -q -o "$T/d" -f report "$T/payer.wasm" pay "address:$ZERO_NET_ID" \
  "address:$FROM" "address:$TO" i128:250 --asset "USDC:$ISS" \
  --trustline "$FROM:USDC:$ISS:1000" --trustline "$TO:USDC:$ISS" 2>"$T/err"; rc=$?
NAME="without the payer's account entry the signature check stops early (283,282 CPU)"
ok [ "$(cpu_mem "$T/d")" = "283282 225112" ]
"$BIN" profile -q -o "$T/x" "$T/payer.wasm" pay --account "$FROM:many" 2>"$T/err"; rc=$?
NAME="--account with a bad balance: exit 3 (exit $rc)"; ok one_line_error 3 "--account $FROM:many: expected G...[:BALANCE]"
"$BIN" profile -q -o "$T/x" "$T/payer.wasm" pay --trustline "$FROM:native" 2>"$T/err"; rc=$?
NAME="--trustline without an issuer: exit 3 (exit $rc)"; ok one_line_error 3 "--trustline $FROM:native: expected ACCOUNT:CODE:ISSUER[:BALANCE]"
"$BIN" profile -q -o "$T/x" "$T/payer.wasm" pay --trustline "$ISS:USDC:$ISS" 2>"$T/err"; rc=$?
NAME="--trustline of the issuer: exit 3 (exit $rc)"; ok one_line_error 3 "an issuer holds no trustline to its own asset"
"$BIN" profile -q -o "$T/x" --scenario "$T/pay.json" --account "$FROM" 2>"$T/err"; rc=$?
NAME="--account with --scenario: exit 2 (exit $rc)"; ok one_line_error 2 "give accounts and trustlines in the scenario file"

# ---- --asset with --scenario: one more asset contract
"$BIN" profile -q -o "$T/e" -f report --scenario "$T/pay.json" --asset native 2>"$T/err"; rc=$?
NAME="--asset with --scenario adds an asset contract (exit $rc)"
ok grep -q "asset contract 1 *SAC(native) = C" "$T/e/01-pay/report.txt"

# ---- a constructor, a deployer and a salt
cat >"$T/ctor.json" <<JSON
{"contracts": [{"name": "c", "wasm": "ctor.wasm", "deployer": "$ISS",
                "salt": "0000000000000000000000000000000000000000000000000000000000000007",
                "constructor_args": {"owner": "$FROM", "start": 41}},
               {"name": "k", "wasm": "counter.wasm", "deployer": "c"}],
 "calls": [{"contract": "c", "function": "get"},
           {"contract": "k", "function": "increment", "args": ["addr:c", "u32:2"], "source": "$TO"}]}
JSON
"$BIN" profile -q -o "$T/f" -f report,folded --scenario "$T/ctor.json" 2>"$T/err"; rc=$?
NAME="constructor arguments reach the first call (exit $rc)"; ok grep -q "result *u32:41" "$T/f/01-get/report.txt"
NAME="the ids of deployer + salt and of a contract deployer"
ok grep -q "contract id 0 *ctor.wasm = CDUIHVLAEKTNIIPBASRVFX2BH7BCJTKCBCCYDKFF7N4M5H3H54ZHTUKR" "$T/f/01-get/report.txt"
NAME="a contract deployed by a contract"
ok grep -q "contract id 1 *counter.wasm = CB4UEHEE66NTR7SV5D2ZJZOZBKAJBFOJ52SJJ3PAY3TSERKOCFNWGGXX" "$T/f/01-get/report.txt"
NAME="addr:NAME is the named contract's address"
ok grep -q "auth 1 *CDUIHVLAEKTNIIPBASRVFX2BH7BCJTKCBCCYDKFF7N4M5H3H54ZHTUKR authorized increment" "$T/f/02-increment/report.txt"
NAME="constructor scenario: folded stacks sum to the report's CPU"; ok folded_is_cpu "$T/f/02-increment"

# ---- a call's own source account: its require_auth needs no nonce and no
# signature check, as --source (docs/auth.md: 177,071 CPU instead of 219,053)
Z=GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF
cat >"$T/src.json" <<JSON
{"contracts": [{"name": "k", "wasm": "counter.wasm"}],
 "calls": [{"function": "increment", "args": ["addr:$Z", "u32:1"], "source": "$Z"},
           {"function": "increment", "args": ["addr:$Z", "u32:1"], "source": "$TO"}]}
JSON
"$BIN" profile -q -o "$T/g" -f report --scenario "$T/src.json" 2>"$T/err"; rc=$?
NAME="a call's source account authorizes without a nonce (exit $rc)"
ok grep -q "^1	k	increment	CPU 177071	" "$T/g/scenario.txt"
NAME="another call's source is another account: nonce and signature check again (228,312 CPU)"; ok grep -q "^2	k	increment	CPU 228312	" "$T/g/scenario.txt"

bad() {   # bad NAME JSON STATUS MESSAGE
  printf '%s\n' "$2" >"$T/bad.json"
  "$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
  NAME="$1: exit $3 (exit $rc)"; ok one_line_error "$3" "$4"
}
bad "a constructor argument missing" '{"contracts": [{"name": "c", "wasm": "ctor.wasm", "constructor_args": {"start": 1}}], "calls": [{"function": "get"}]}' \
  3 "bad.json: contracts[0]: constructor_args: __constructor: missing argument owner"
bad "constructor_args without a constructor" '{"contracts": [{"name": "k", "wasm": "counter.wasm", "constructor_args": []}], "calls": [{"function": "fail"}]}' \
  3 "bad.json: contracts[0]: \"constructor_args\" given, but"
bad "a constructor that fails" '{"contracts": [{"name": "c", "wasm": "ctor.wasm", "constructor_args": ["u32:1"]}], "calls": [{"function": "get"}]}' \
  3 "bad.json: contracts[0]: deploying"
bad "a contract id" '{"contracts": [{"name": "k", "wasm": "counter.wasm", "id": "C"}], "calls": [{"function": "fail"}]}' \
  66 "bad.json: contracts[0]: \"id\" is not supported"
bad "an unknown deployer" '{"contracts": [{"name": "k", "wasm": "counter.wasm", "deployer": "me"}], "calls": [{"function": "fail"}]}' \
  65 "bad.json: contracts[0]: \"deployer\" must be an account strkey (G...) or the name of an earlier contract"
bad "a bad account" '{"accounts": [{"id": "G"}], "contracts": [{"name": "k", "wasm": "counter.wasm"}], "calls": [{"function": "fail"}]}' \
  65 "bad.json: accounts[0]: \"id\" must be an account strkey (G...)"
bad "a native trustline" "{\"trustlines\": [{\"account\": \"$FROM\", \"asset\": \"native\"}], \"contracts\": [{\"name\": \"k\", \"wasm\": \"counter.wasm\"}], \"calls\": [{\"function\": \"fail\"}]}" \
  3 "bad.json: trustlines[0]: asset native: the native asset has no trustlines"
bad "a malformed asset" '{"assets": [{"name": "u", "asset": "USDC"}], "contracts": [{"name": "k", "wasm": "counter.wasm"}], "calls": [{"function": "fail"}]}' \
  3 "bad.json: assets[0]: asset USDC: expected native or CODE:ISSUER"
bad "a call's bad source" '{"contracts": [{"name": "k", "wasm": "counter.wasm"}], "calls": [{"function": "fail", "source": "C"}]}' \
  65 "bad.json: calls[0]: \"source\" must be an account strkey"
