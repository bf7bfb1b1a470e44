#!/bin/sh
# End-to-end: the resource fee (--network).  The token example's flow on
# mainnet's protocol-23 settings (the dated profile mainnet@2026-01-12): each call's fee in scenario.txt and the
# total; the transfer's report breaks the fee down by component (numbers
# worked out from the rates in src/soroban/fee/net.c, see below), its fee
# flamegraph adds up to the total, the write fee sits on the storage
# writes (annotate --calls), check --max-fee gates it, diff --metric fee
# compares the recording-mode transfer with the signed one.  A call over a
# network limit fails naming the limit and the excess; bad network input
# is a one-line error.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 32
cp "$B/examples/token.wasm" "$T/"
. "$(dirname "$0")/lib/token_flow.sh"

token_flow "$T/token.json"
"$BIN" profile -q -o "$T/a" --network mainnet@2026-01-12 --scenario "$T/token.json" 2>"$T/err"; rc=$?
NAME="token flow with --network mainnet runs (exit $rc)"; ok [ "$rc" -eq 0 ]
cat >"$T/want" <<EOF2
1 mint ok fee 410741
2 mint ok fee 410741
3 transfer ok fee 168735
4 transfer ok fee 77276
total fee 1067493
EOF2
NAME="scenario.txt: each call's fee and the total"
ok sh -c "awk -F'\t' '\$1 == \"total\" {print \$1, \$2; next} {print \$1, \$3, \$6, \$7}' '$T/a/scenario.txt' | cmp -s - '$T/want'"

# The transfer (recording mode, as simulated).  Rates: 25 per 10,000
# instructions, 6,250 per disk-read entry, 1,786 per KB read, 10,000 per
# written entry, 3,500 per KB written, 10,000 per KB of events, 16,235 per
# KB of history (transaction + 300), 1,624 per KB of transaction; rent
# 1,000 per KB (553,688,657 bytes of state: the floor), temporary rent
# denominator 2,430.  Each part is rounded up on its own:
#   800,052 instructions      ceil(800052 * 25 / 10000)        =  2,001
#   1 disk read (Alice's account, auth emulation)  1 * 6,250    =  6,250
#   92 bytes read             ceil(92 * 1786 / 1024)          =    161
#   3 writes (2 balances, the nonce)  3 * 10,000               = 30,000
#   372 bytes written (148 + 148 + 76)  ceil(372 * 3500 / 1024) = 1,272
#   180 bytes of event + result  ceil(180 * 10000 / 1024)      =  1,758
#   history  ceil((996 + 300) * 16235 / 1024)                  = 20,548
#   bandwidth  ceil(996 * 1624 / 1024)                          =  1,580
# (a balance entry: 20 + contract 36 + key Vec[Balance, addr] 72 + i128
# 20 = 148; the nonce: 20 + account 40 + LedgerKeyNonce 12 + Void 4 = 76;
# the event: 52 + topics 104 + i128 20, the Void result 4; the
# transaction: envelope 184 + footprint keys 416 + InvokeContract 164 +
# one auth entry 4 + 228)
#   the nonce (76 bytes, temporary, live 3,110,400 ledgers from 100):
#     ceil(76 * 1000 * 3110400 / (1024 * 2430))                 = 95,000
#   its TTL entry: 10,000 + ceil(48 * 3500 / 1024)              = 10,165
D="$T/a/03-transfer"
cat >"$T/want" <<'EOF2'
Fees (mainnet)
  component                                                 resource  stroops
  instructions                                  800,052 instructions    2,001
  disk read entries                                        1 entries    6,250
  disk read bytes                                           92 bytes      161
  write entries                                            3 entries   30,000
  write bytes                                              372 bytes    1,272
  events and return value                     180 bytes (refundable)    1,758
  history (transaction size)               996 + 300 bytes of result   20,548
  bandwidth (transaction size)                             996 bytes    1,580
  rent                          1 entry at 1,000 per KB (refundable)   95,000
  TTL writes                              1 TTL entries (refundable)   10,165
  total                                                               168,735
EOF2
NAME="transfer report: the Fees section, each component and the total"
ok sh -c "sed -n '/^Fees (mainnet)/,/^  total/p' '$D/report.txt' | cmp -s - '$T/want'"
NAME="transfer report: fee line (non-refundable / refundable) and footprint"
ok sh -c "grep -q '^  fee  *168,735 stroops: 61,812 non-refundable, 106,923 refundable\$' '$D/report.txt' &&
          grep -q '^  footprint  *3 read-only, 3 read-write (0 restored)\$' '$D/report.txt'"

# the fee flamegraph: its root is the total, and the nodes' own fees (the
# JSON report; Fee is the third metric, after CPU and memory) add up to it
NAME="flamegraph-fee.svg: subtitle and root frame are the total"
ok sh -c "grep -q '<text id=\"subtitle\"[^>]*>Fee: 168,735 stroops' '$D/flamegraph-fee.svg' &&
          grep -q '<g scp:x=\"0\" scp:w=\"168735\" scp:d=\"0\">' '$D/flamegraph-fee.svg'"
self_fee_sum() {
  sed -n 's/.*"self":\[\([0-9,]*\)\].*/\1/p' "$1" | awk -F, '{s += $3} END {print s}'
}
NAME="every stroop sits on one node: the nodes' self fees sum to 168,735"
ok [ "$(self_fee_sum "$D/report.json")" = 168735 ]
NAME="the write fee sits on the storage writes: host:put_contract_data 21,065"
ok sh -c "grep -q '^ *21,351  *2.67%  *[0-9]*  *2,819  *21,065 .* 2  host:put_contract_data\$' '$D/report.txt'"
NAME="the account read sits on auth:emulate: 1,162 (its CPU) + 6,250 + 161 = 7,573"
ok sh -c "grep -q '^ *464,803  *58.10%  *[0-9]*  *9,910  *7,573 .* 1  auth:emulate\$' '$D/report.txt'"
NAME="the transaction's size sits on the root: 22,128 + 107 (its CPU) + 39 (the result's 4 bytes) = 22,274"
ok sh -c "grep -q '^ *42,884  *5.36%  *[0-9]*  *4,561  *22,274 .* 1  contract:token.wasm\$' '$D/report.txt'"
"$BIN" annotate "$D/report.json" token.c --metric fee --calls -S . >"$T/ann" 2>"$T/err"; rc=$?
NAME="annotate --metric fee --calls: write_balance's put line 21,066, require_auth 115,445"
ok sh -c "[ $rc -eq 0 ] && grep -q '^ *21,066 .* 180 *put_contract_data' '$T/ann' &&
          grep -q '^ *115,445 .* 264 *require_auth(from);' '$T/ann'"
"$BIN" check "$D/report.json" --max-fee 168735 -q; rc=$?
NAME="check --max-fee 168735 passes"; ok [ "$rc" -eq 0 ]
"$BIN" check "$D/report.json" --max-fee 168734 >"$T/out" 2>"$T/err"; rc=$?
NAME="check --max-fee 168734 fails (11)"
ok sh -c "[ $rc -eq 11 ] && grep -q '^OVER  Fee 168,735 > 168,734' '$T/out'"
"$BIN" diff "$D" "$T/a/04-transfer" --metric fee -o "$T/d" >"$T/out" 2>"$T/err"; rc=$?
NAME="diff --metric fee: signed transfer 77,276 vs simulated 168,735 (the nonce's rent)"
ok sh -c "[ $rc -eq 0 ] && grep -q '^  Fee  *168,735  *77,276  *-91,459' '$T/out' &&
          grep -q '115,444  *27,486  *-87,958 .* host:require_auth\$' '$T/out'"

"$BIN" profile -q -o "$T/b" --network mainnet@2026-01-12 --scenario "$T/token.json" 2>/dev/null
NAME="two runs write the same bytes"
ok cmp -s "$D/report.json" "$T/b/03-transfer/report.json"

# ---- today's settings: the same transfer on mainnet as of 2026-07-29 -----
# The resources are the ones above; the rates are laboratory f0103e70's
# (7 per 10,000 instructions, 1,563 per disk-read entry, 447 per KB read,
# 2,500 per written entry, 875 per KB written, 5,000 per KB of events,
# 4,059 per KB of history, 406 per KB of transaction; rent still at the
# 1,000 floor for 1,388,000,392 bytes of state):
#   ceil(800052 * 7 / 10000) = 561; 1,563; ceil(92 * 447 / 1024) = 41;
#   3 * 2,500 = 7,500; ceil(372 * 875 / 1024) = 318;
#   ceil(180 * 5000 / 1024) = 879; ceil(1296 * 4059 / 1024) = 5,138;
#   ceil(996 * 406 / 1024) = 395; rent 95,000 (the nonce, as above);
#   TTL entry 2,500 + ceil(48 * 875 / 1024) = 2,542.  Total 113,937:
#   15,516 non-refundable, 98,421 refundable.
"$BIN" profile -q -o "$T/now" --network mainnet --scenario "$T/token.json" 2>"$T/err"; rc=$?
cat >"$T/want" <<'EOF2'
Fees (mainnet)
  component                                                 resource  stroops
  instructions                                  800,052 instructions      561
  disk read entries                                        1 entries    1,563
  disk read bytes                                           92 bytes       41
  write entries                                            3 entries    7,500
  write bytes                                              372 bytes      318
  events and return value                     180 bytes (refundable)      879
  history (transaction size)               996 + 300 bytes of result    5,138
  bandwidth (transaction size)                             996 bytes      395
  rent                          1 entry at 1,000 per KB (refundable)   95,000
  TTL writes                              1 TTL entries (refundable)    2,542
  total                                                               113,937
EOF2
R="$T/now/03-transfer/report.txt"
NAME="mainnet today: the transfer's Fees section worked out from the 2026-07-29 rates"
ok sh -c "[ $rc -eq 0 ] && sed -n '/^Fees (mainnet)/,/^  total/p' '$R' | cmp -s - '$T/want' &&
          grep -q '^  fee  *113,937 stroops: 15,516 non-refundable, 98,421 refundable\$' '$R'"
cat >"$T/want" <<EOF2
1 mint ok fee 359317
2 mint ok fee 359317
3 transfer ok fee 113937
4 transfer ok fee 20218
total fee 852789
EOF2
NAME="mainnet today: each call's fee (docs/fees.md's figures; the mints and the signed transfer are pins of scprof's output)"
ok sh -c "awk -F'\t' '\$1 == \"total\" {print \$1, \$2; next} {print \$1, \$3, \$6, \$7}' '$T/now/scenario.txt' | cmp -s - '$T/want'"
NAME="the report states the profile's date and source"
ok sh -c "grep -q '^  network  *mainnet, settings of 2026-07-29\$' '$R' &&
          grep -q '^  network source  *stellar/laboratory src/constants/networkLimits.ts, commit f0103e70 (2026-07-29)' '$R' &&
          grep -q '^  network  *mainnet, settings of 2026-01-12\$' '$D/report.txt'"
NAME="the CPU limit follows the network: 400,000,000 on mainnet today, 100,000,000 on 2026-01-12"
ok sh -c "grep -q '^  CPU  *800,052  *400,000,000 ' '$R' && grep -q '^  CPU  *800,052  *100,000,000 ' '$D/report.txt'"
"$BIN" profile -q -o "$T/lim1" --network mainnet --cpu-limit 700000 "$B/examples/demo.wasm" run u32:200 2>"$T/err"; rc=$?
NAME="--cpu-limit wins over the network's: the limit shown is 700,000"
ok sh -c "[ $rc -eq 0 ] && grep -q '^  CPU  *413,850  *700,000 ' '$T/lim1/report.txt'"
# demo run(200) on testnet today: ceil(413850 * 7 / 10000) = 290, events
# ceil(116 * 5000 / 1024) = 567, history ceil(632 * 4059 / 1024) = 2,506,
# bandwidth ceil(332 * 406 / 1024) = 132; total 3,495
"$BIN" profile -q -o "$T/demo2" --network testnet "$B/examples/demo.wasm" run u32:200 2>"$T/err"; rc=$?
NAME="demo run on testnet today: fee 3,495 (compute 290, events 567, history 2,506, bandwidth 132)"
ok sh -c "[ $rc -eq 0 ] && grep -q '^  instructions  *413,850 instructions  *290\$' '$T/demo2/report.txt' &&
          grep -q '^  events and return value  *116 bytes (refundable)  *567\$' '$T/demo2/report.txt' &&
          grep -q '^  history (transaction size)  *332 + 300 bytes of result  *2,506\$' '$T/demo2/report.txt' &&
          grep -q '^  bandwidth (transaction size)  *332 bytes  *132\$' '$T/demo2/report.txt' &&
          grep -q '^  total  *3,495\$' '$T/demo2/report.txt' &&
          grep -q '^  network  *testnet, settings of 2026-07-29\$' '$T/demo2/report.txt'"
"$BIN" profile -q -o "$T/x" --network mainnet@2026-01-11 "$B/examples/demo.wasm" run u32:1 2>"$T/err"; rc=$?
NAME="--network before the oldest profile: one-line error (3)"
ok one_line_error 3 "network 'mainnet@2026-01-11': the oldest mainnet profile is of 2026-01-12"

# ---- a single call: demo.wasm run(200), worked out by hand --------------
# 413,850 instructions -> 1,035; 116 bytes of event and result -> 1,133;
# transaction 332 bytes: history ceil(632 * 16235 / 1024) = 10,021,
# bandwidth ceil(332 * 1624 / 1024) = 527; no storage.  Total 12,716.
"$BIN" profile -q -o "$T/demo" --network testnet@2025-08-14 "$B/examples/demo.wasm" run u32:200 2>"$T/err"; rc=$?
NAME="demo run on testnet: fee 12,716 (compute 1,035, events 1,133, history 10,021, bandwidth 527)"
ok sh -c "[ $rc -eq 0 ] && grep -q '^  instructions  *413,850 instructions  *1,035\$' '$T/demo/report.txt' &&
          grep -q '^  events and return value  *116 bytes (refundable)  *1,133\$' '$T/demo/report.txt' &&
          grep -q '^  history (transaction size)  *332 + 300 bytes of result  *10,021\$' '$T/demo/report.txt' &&
          grep -q '^  bandwidth (transaction size)  *332 bytes  *527\$' '$T/demo/report.txt' &&
          grep -q '^  total  *12,716\$' '$T/demo/report.txt'"
NAME="without storage the fee is the third metric: flamegraph-fee.svg, no storage SVGs"
ok sh -c "[ -f '$T/demo/flamegraph-fee.svg' ] && [ ! -f '$T/demo/flamegraph-wri.svg' ]"
"$BIN" profile -q -o "$T/nofee" "$B/examples/demo.wasm" run u32:200 2>"$T/err"
NAME="without --network there is no fee metric"
ok sh -c "! grep -q Fee '$T/nofee/report.txt' && [ ! -f '$T/nofee/flamegraph-fee.svg' ]"

# ---- an archived contract, restored by the call ------------------------------
# counter.wasm's instance and code lived until ledger 50; at ledger 100 the
# call restores both: two disk reads (their 3,480 bytes: 2 * 6,250 and
# ceil(3480 * 1786 / 1024) = 6,070), both written back with the new
# counter entry, rent as new entries for 2,073,600 ledgers (denominator
# 1,215): the code's 3,376 XDR bytes + 31,616 bytes of parsed module
# (ParseWasm* memory of its 50 instructions, 2 functions, 1 global, 1
# table entry, 5 types, 9 imports, 3 exports) = 34,992 -> 58,320,000, at a
# third 19,440,000; the instance's 104 bytes 173,334; the counter's 80
# bytes 133,334; three TTL entries 30,000 + ceil(144 * 3500 / 1024) = 493.
cp "$B/examples/counter.wasm" "$T/"
cat >"$T/arch.json" <<JSON
{"ledger": {"sequence": 100},
 "contracts": [{"name": "counter", "wasm": "counter.wasm", "live_until": 50}],
 "calls": [{"function": "increment", "args": ["addr:$ALICE", "u32:3"]}]}
JSON
"$BIN" profile -q -o "$T/arch" --network mainnet@2026-01-12 --source "$ALICE" --scenario "$T/arch.json" 2>"$T/err"; rc=$?
R="$T/arch/01-increment/report.txt"
NAME="a restored contract: 2 disk reads (12,500), 3,480 bytes read (6,070), 3 writes, 2 restored"
ok sh -c "[ $rc -eq 0 ] && grep -q '^  disk read entries  *2 entries  *12,500\$' '$R' &&
          grep -q '^  disk read bytes  *3,480 bytes  *6,070\$' '$R' &&
          grep -q '^  write entries  *3 entries  *30,000\$' '$R' &&
          grep -q '^  footprint  *0 read-only, 3 read-write (2 restored)\$' '$R'"
NAME="a restored contract: rent 19,440,000 + 173,334 + 133,334 = 19,746,668, TTL writes 30,493"
ok sh -c "grep -q '^  rent  *3 entries at 1,000 per KB (refundable)  *19,746,668\$' '$R' &&
          grep -q '^  TTL writes  *3 TTL entries (refundable)  *30,493\$' '$R'"

# ---- limits ---------------------------------------------------------------
cat >"$T/tight.json" <<'JSON'
{"updated_entry": [{"contract_ledger_cost_v0": {"tx_max_write_ledger_entries": 2}}]}
JSON
sed 's/"auth": "enforce", "signers": \["[A-Z0-9]*"\]}\]}/"auth": "record"},\
           {"function": "balance", "args": {"id": "'"$BOB"'"}}]}/' "$T/token.json" >"$T/lim.json"
"$BIN" profile -q -o "$T/lim" --network-config "$T/tight.json" --scenario "$T/lim.json" 2>"$T/err"; rc=$?
NAME="a transfer over tx_max_write_ledger_entries fails (13) naming the limit and the excess"
ok sh -c "[ $rc -eq 13 ] && grep -q 'calls\[2\]: .*the network would refuse this call: tx_max_write_ledger_entries 3 over the limit 2 by 1' '$T/err' &&
          grep -q 'over network limits  *tx_max_write_ledger_entries 3 over the limit 2 by 1' '$T/lim/03-transfer/report.txt'"
NAME="a refused call changes nothing: Bob still holds 500"
ok grep -q '^  result  *i128:500$' "$T/lim/05-balance/report.txt"

# ---- bad input: one line, the right status ---------------------------------
"$BIN" profile -q -o "$T/x" --network nosuch "$B/examples/demo.wasm" run u32:1 2>"$T/err"; rc=$?
NAME="--network nosuch: one-line error (3)"; ok one_line_error 3 "network 'nosuch'"
"$BIN" profile -q -o "$T/x" --network-config "$T/none.json" "$B/examples/demo.wasm" run u32:1 2>"$T/err"; rc=$?
NAME="--network-config missing file: one-line error (74)"; ok one_line_error 74 "none.json"
printf '{"updated_entry": [{"contract_compute_v0": {"fee_rate_per_instructions_increment": "x"}}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --network-config "$T/bad.json" "$B/examples/demo.wasm" run u32:1 2>"$T/err"; rc=$?
NAME="--network-config bad value: one-line error naming the setting (65)"
ok one_line_error 65 "contract_compute_v0.fee_rate_per_instructions_increment is not an integer"
"$BIN" profile -q -o "$T/x" --soroban-state-size abc "$B/examples/demo.wasm" run u32:1 2>"$T/err"; rc=$?
NAME="--soroban-state-size abc: one-line error (2)"; ok one_line_error 2 "soroban-state-size"
