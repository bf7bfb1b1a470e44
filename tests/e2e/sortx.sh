#!/bin/sh
# End-to-end: a Soroban transaction envelope run on a snapshot
# (scprof profile --snapshot S --tx ENVELOPE [--meta META]).
# Independent evidence: the envelope of counter's increment, its source
# account authorizing it (SourceAccount credentials), costs what the
# --auth enforce --source run of the same call costs plus what the
# network's invocation adds (e2e_invoke: its set-up, enforcing storage and
# teardown; listed in src/soroban/core/host_enforce.c and
# host_teardown.c): every other folded stack is equal, and
# the frames that differ differ by amounts worked out by hand from the
# cost parameters ([derived], below); the non-refundable charge is worked
# out by hand from the declared resources, the envelope's size and
# mainnet's rates ([derived]).
# The signed flow (signatures, nonces, expiration) is test_sortx.c's.
# Every refusal is one line with the documented exit status.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
BIN=${SCPROF:-build/bin/scprof}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S=tests/data/snapshots/scprof_counter.json
C=CC6CLEDX3HP6XYUT4GODR4OW6JELD4XAACWMSUDA4D7E2Z5GMO2FMOR4
A=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ
H=976b0908dddf6d4d4cdd38db89921b193c120785e75d10defae16709d19e6ab4

. "$(dirname "$0")/lib/check.sh"
cpu() { awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$1/report.txt"; }
line() { sed -n "s/^  $2  *//p" "$1/report.txt"; }

# envelope NAME INSTRUCTIONS WRITE_BYTES RW: increment(A, 2) from A, the
# footprint read-only [instance, code] and read-write RW
envelope() {
  inv="{\"function\": {\"contract_fn\": {\"contract_address\": \"$C\", \"function_name\": \"increment\", \"args\": [{\"address\": \"$A\"}, {\"u32\": 2}]}}, \"sub_invocations\": []}"
  cat >"$T/$1" <<JSON
{"tx": {"tx": {"source_account": "$A", "fee": 200000, "seq_num": "4294967297", "cond": "none", "memo": "none",
 "operations": [{"source_account": null, "body": {"invoke_host_function": {
   "host_function": {"invoke_contract": {"contract_address": "$C", "function_name": "increment", "args": [{"address": "$A"}, {"u32": 2}]}},
   "auth": [{"credentials": "source_account", "root_invocation": $inv}]}}}],
 "ext": {"v1": {"ext": "v0", "resources": {"footprint": {
    "read_only": [{"contract_data": {"contract": "$C", "key": "ledger_key_contract_instance", "durability": "persistent"}}, {"contract_code": {"hash": "$H"}}],
    "read_write": [$4]},
   "instructions": $2, "disk_read_bytes": 0, "write_bytes": $3}, "resource_fee": "6444"}}},
 "signatures": []}}
JSON
}
COUNT="{\"contract_data\": {\"contract\": \"$C\", \"key\": {\"symbol\": \"count\"}, \"durability\": \"persistent\"}}"

# ---- the envelope costs what the --auth enforce run costs, plus the network's invocation
"$BIN" profile -q -o "$T/want" -f report,folded --snapshot $S --auth enforce --source $A $C increment "addr:$A" u32:2 2>"$T/err"
envelope env.json 246008 100 "$COUNT"
"$BIN" profile -q -o "$T/tx" -f report,folded,json --snapshot $S --tx "$T/env.json" 2>"$T/err"; rc=$?
NAME="tx: the envelope runs (exit $rc)"; ok [ "$rc" -eq 0 ]
# the stacks the network's invocation changes: the root (the contract's
# instance and code reads, the frame pushes' storage-map clones), the four
# storage calls, and its own set-up and teardown frames tx:decode, tx:encode
changed='^contract:[A-Z0-9]* [0-9]*$|;tx:(de|en)code |;host:(has|get|put)_contract_data |;host:extend_contract_data_ttl '
same_rest() {
  grep -Ev "$changed" "$T/want/profile.folded" >"$T/w.rest" && grep -Ev "$changed" "$T/tx/profile.folded" >"$T/t.rest" &&
    [ "$(wc -l <"$T/w.rest")" -eq 9 ] && cmp -s "$T/w.rest" "$T/t.rest"
}
NAME="tx: every other folded stack (9) is the --auth enforce --source run's"; ok same_rest
stack() { awk -v s="$2" '{n = $NF; $NF = ""; sub(/ $/, ""); if ($0 ~ s) {print n; exit}}' "$1/profile.folded"; }
# delta STACK-REGEX DIFFERENCE: the tx run's stack is the enforce run's + DIFFERENCE
delta() { w=$(stack "$T/want" "$1"); g=$(stack "$T/tx" "$1"); [ -n "$w" ] && [ -n "$g" ] && [ $((g - w)) -eq "$2" ]; }
# [derived] enforcing minus recording storage charges, the footprint
# [count | instance, code] (n = 3 in both maps from the start) against
# recording mode's maps [instance, code] growing to [count, instance,
# code] at the first access; MemCpy 42 + 16x/128, MemCmp 44 + 16x/128,
# MemAlloc 434 + 16x/128, ValDeser 331 + 4369x/128 (CPU, rounded down):
#  has: recording's footprint get, insert, map find, read-through insert,
#    footprint get, two map gets (2,753) against enforce_access's
#    footprint get and one map get (589): -2,164
#  get: as has (1,433 after the read-through) against enforce_access and
#    the map get (589), then in both modes the entry decoded (recording
#    mode's read-through stores it encoded too): ValDeser(80) 3,061,
#    MemAlloc(288) 470, the key made (MemCpy(48) 48, MemCpy(96) 54, the
#    symbol's MemAlloc(5) 434, MemCpy(5) 42) and compared (MemCmp 50, 44,
#    44): 4,247 each, 5,680 against 4,836: -844
#  put (has, get, then the write): 5,810 against 2,893: -2,917
#  extend (a map get more in recording mode, the TTL insert in both):
#    2,731 against 1,582: -1,149
#  root: the instance read as get (2,037 against 589, the decoding of its
#    104 bytes in both: ValDeser(104) 3,880, MemAlloc(288) 470, MemCpy(48)
#    48, MemCpy(96) 54, MemCmp(48) 50, MemCmp(4) 44), the code found in
#    the module cache (MemCpy(32), MemAlloc(152), has(); recording mode
#    reads it in the shadow budget), the HostFunction and contract frames'
#    rollback clones of a 3-entry map (+50, +16): -762
storage_deltas() {
  delta ';host:has_contract_data$' -2164 && delta ';host:get_contract_data$' -844 &&
    delta ';host:put_contract_data$' -2917 && delta ';host:extend_contract_data_ttl$' -1149
}
NAME="[derived] tx: has_contract_data -2,164, get -844, put -2,917, extend -1,149 (enforcing storage)"
ok storage_deltas
NAME="[derived] tx: the root -762 (code from the module cache, larger rollback clones)"
ok delta '^contract:[A-Z0-9]*$' -762
# [derived] tx:decode, e2e_invoke's set-up: ValDeser(164) the resources;
# the footprint map [count | instance, code]: 3 x (MemCpy(152),
# MemAlloc(152)), the symbol's MemAlloc(5), MemCpy(5), three inserts
# (entry 25); the storage map: 3 x (MemCpy(152), MemAlloc(152)), the
# symbol's again, the entries' MemAlloc + MemCpy of 104, 3,380 and 80
# bytes and MemAlloc(32) each, three inserts (entry 68); its clone
# MemCpy(24), MemAlloc(204), MemCpy(204); the auth entries' collect
# MemCpy(40), MemAlloc(400), MemCpy(400); ValDeser(120) the entry,
# ValDeser(112) the host function, ValDeser(36) the source account
NAME="[derived] tx: tx:decode 29,365 CPU"; ok [ "$(stack "$T/tx" ';tx:decode$')" = 29365 ]
# its memory: MemAlloc 16 + x each, ValDeser 3x: 7,392 bytes
NAME="[derived] tx: tx:decode 7,392 bytes"
ok [ "$(awk '$NF == "tx:decode" {print $1 " " $3; exit}' "$T/tx/report.txt")" = "29,365 7,392" ]
# [derived] tx:encode, e2e_invoke's teardown (src/soroban/core/host_teardown.c);
# ValSer 221 + 26x/128 CPU, 242 + 3x bytes per write: 4 bytes 221 / 254,
# 32 bytes 227 / 338, 5 bytes 222 / 257, 3 bytes 221 / 251; the 3-entry
# StorageMap [count, instance, code]: its search MemCpy(204) 67, the
# compares MemCmp(48) 50, a symbol's 44, a durability's 44, a code key's
# MemCmp(36) 48, a get's MemCpy(68) 50: get(instance) 211, get(code) 165,
# get(count) 305.
#  T0 the u32 result: nothing.  T1 the event externalized: VisitObject 60,
#    collect MemCpy(40) 47, MemAlloc(112) 448, MemCpy(112) 56, the id's
#    VisitObject 60 and MemCpy(32) 46, Vec<HostEvent> MemCpy(24) 45,
#    MemAlloc(168) 455, MemCpy(168) 63: 1,280
#  T2 the result u32:7, 2 writes of 4: 442
#  T3 instance: get 211, key writes 4,4,32,4,4 1,111, the hash's Vec
#    MemCpy(24) 45 + MemAlloc(32) 438 + MemCpy(32) 46, Sha256(48) 6,265,
#    the initial map's get 211: 8,327; code: 165 + writes 4,32 448 + 529 +
#    Sha256(36) 5,608 + 165: 6,915; count (read-write, put by the call: no
#    decoding): 305 + writes 4,4,32,4,4,5,3,4 1,775 + 529 + Sha256(60)
#    6,923 + 305 + the entry's writes (ten of 4, 32, 5, 3) 2,880: 12,717
#  T4 the event's writes (nine of 4, 32, 5, 3) 2,659, Vec<Vec<u8>>
#    MemCpy(24) 45, MemAlloc(24) 437, MemCpy(24) 45: 3,186
NAME="[derived] tx: tx:encode 32,867 CPU = 1,280 + 442 + 8,327 + 6,915 + 12,717 + 3,186"
ok [ "$(stack "$T/tx" ';tx:encode$')" = 32867 ]
# its memory: T1 MemAlloc 128 + 184; T2 508; T3 instance 1,354 + 48, code
# 592 + 48, count 2,116 + 48 + 3,386; T4 3,132 + 40
NAME="[derived] tx: tx:encode 11,584 bytes"
ok [ "$(awk '$NF == "tx:encode" {print $1 " " $3; exit}' "$T/tx/report.txt")" = "32,867 11,584" ]
NAME="[derived] tx: CPU 246,008 = 191,612 + 29,365 + 32,867 - 2,164 - 844 - 2,917 - 1,149 - 762"
ok sh -c "[ '$(cpu "$T/want")' = 191612 ] && [ '$(cpu "$T/tx")' = 246008 ]"
NAME="tx: the report says the teardown is charged"
ok grep -q "^  tx invocation  *the network's set-up charged (tx:decode), its storage enforcing, and its teardown (tx:encode: " "$T/tx/report.txt"
NAME="tx: the context says a transaction"; ok grep -q "^  context  *transaction (its authorization entries and footprint enforced)$" "$T/tx/report.txt"
NAME="tx: the declared instructions are the CPU limit"; ok grep -q "^  CPU  *246,008  *246,008  *100.00%" "$T/tx/report.txt"
NAME="tx: declared and used side by side, the difference marked"
ok sh -c "[ \"\$(sed -n 's/^  tx write bytes  *//p' '$T/tx/report.txt')\" = 'declared 100 | scprof - | network -' ] &&
          [ \"\$(sed -n 's/^  tx instructions  *//p' '$T/tx/report.txt')\" = 'declared 246,008 | scprof 246,008 | network -' ]"
NAME="tx: the rows are in the JSON report too"; ok grep -q '"tx instructions"' "$T/tx/report.json"

# ---- with a network: what the network charges, next to the meta
envelope env80.json 246008 80 "$COUNT"
"$BIN" profile -q -o "$T/n" -f report --snapshot $S --tx "$T/env80.json" --network mainnet 2>"$T/err"; rc=$?
NAME="tx --network mainnet runs (exit $rc)"; ok [ "$rc" -eq 0 ]
# mainnet 2026-07 rates on the declared resources and the 492-byte envelope:
# ceil(246008*7/10000) 173 + one write entry 2500 + ceil(80*875/1024) 69
# + history ceil((492+300)*4059/1024) 3140 + bandwidth ceil(492*406/1024) 196
NAME="[derived] tx: the non-refundable charge 6,078 from the declared resources"
ok [ "$(line "$T/n" "tx non-refundable fee")" = "declared - | scprof 6,078 | network -" ]
NAME="tx: the envelope's size"; ok grep -q "^  tx envelope  *v1, fee 200000, 1 auth entry, 492 bytes$" "$T/n/report.txt"
# the events and return value, 84 bytes: ceil(84*5000/1024) = 411
NAME="[derived] tx: the refundable charge 411 (events), no rent"
ok sh -c "[ \"\$(sed -n 's/^  tx refundable fee  *//p' '$T/n/report.txt')\" = 'declared - | scprof 411 | network -' ] &&
          [ \"\$(sed -n 's/^  tx rent fee  *//p' '$T/n/report.txt')\" = 'declared - | scprof 0 | network -' ]"
NAME="tx: declared and used agree: no difference"; ok [ "$(line "$T/n" "tx differences")" = "none" ]

# meta NAME NONREFUNDABLE: a TransactionMeta v4 with the charges given
meta() {
  cat >"$T/$1" <<JSON
{"v4": {"ext": "v0", "tx_changes_before": [], "operations": [], "tx_changes_after": [],
 "soroban_meta": {"ext": {"v1": {"ext": "v0", "total_non_refundable_resource_fee_charged": "$2",
   "total_refundable_resource_fee_charged": "411", "rent_fee_charged": "0"}}, "return_value": {"u32": 7}},
 "events": [], "diagnostic_events": []}}
JSON
}
meta meta.json 6078
"$BIN" profile -q -o "$T/m" -f report --snapshot $S --tx "$T/env80.json" --meta "$T/meta.json" --network mainnet 2>"$T/err"; rc=$?
NAME="tx --meta runs (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="tx --meta: the meta the run's figures make shows no difference"; ok [ "$(line "$T/m" "tx differences")" = "none" ]
NAME="tx --meta: the recorded charge next to the computed one"
ok [ "$(line "$T/m" "tx resource fee charged")" = "declared - | scprof 6,489 | network 6,489" ]
meta meta_other.json 7000
"$BIN" profile -q -o "$T/mo" -f report --snapshot $S --tx "$T/env80.json" --meta "$T/meta_other.json" --network mainnet 2>"$T/err"; rc=$?
NAME="tx --meta: a different fee is marked"
ok sh -c "[ $rc -eq 0 ] && [ \"\$(sed -n 's/^  tx non-refundable fee  *//p' '$T/mo/report.txt')\" = 'declared - | scprof 6,078 | network 7,000  DIFFERS' ]"
NAME="tx --meta: the differences named"; ok [ "$(line "$T/mo" "tx differences")" = "2: resource fee charged, non-refundable fee" ]

# ---- the host's errors: one line, a failed call's exit status
envelope env_nofoot.json 246008 80 ""
"$BIN" profile -q -o "$T/f" -f report --snapshot $S --tx "$T/env_nofoot.json" 2>"$T/err"; rc=$?
NAME="tx: a key outside the footprint is the host's error (exit $rc)"
ok one_line_error 10 "trying to access contract data key outside of the footprint"
# a failed call: T1 alone, and it emitted no event: no teardown charged
# (the ledger changes' key writes and hashes would be)
NAME="tx: a failed call without events has no tx:encode frame"; ok sh -c "! grep -q ' tx:encode$' '$T/f/report.txt'"
envelope env_short.json 246007 80 "$COUNT"
"$BIN" profile -q -o "$T/s" -f report --snapshot $S --tx "$T/env_short.json" 2>"$T/err"; rc=$?
NAME="tx: one instruction under the run's CPU is over the budget (exit $rc)"; ok one_line_error 11 "ExceededLimit"
sed -e 's/"instructions": 246008/"instructions": 2000000/' -e 's/"credentials": "source_account"/"credentials": {"address": {"address": "'$A'", "nonce": "7", "signature_expiration_ledger": 200, "signature": {"vec": [{"map": [{"key": {"symbol": "public_key"}, "val": {"bytes": "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"}}, {"key": {"symbol": "signature"}, "val": {"bytes": "'"$(printf 'aa%.0s' $(seq 64))"'"}}]}]}}}/' "$T/env.json" >"$T/env_sig.json"
"$BIN" profile -q -o "$T/b" -f report --snapshot $S --tx "$T/env_sig.json" 2>"$T/err"; rc=$?
NAME="tx: an address entry's account outside the footprint is the host's error (exit $rc)"
ok one_line_error 10 "require_auth: trying to access account outside of the footprint"

# the count entry archived (live until 50 < ledger 100), not restored by the envelope
awk '/"live_until": 4195/ {n++; if (n == 5) sub(/4195/, "50")} {print}' $S >"$T/archived.json"
"$BIN" profile -q -o "$T/a" -f report --snapshot "$T/archived.json" --tx "$T/env80.json" 2>"$T/err"; rc=$?
NAME="tx: an archived entry the envelope does not restore: refused as stellar-core does (exit $rc)"
ok one_line_error 12 "footprint.read_write[0]: the entry is archived (live until ledger 50, the ledger is 100) and the transaction does not restore it (stellar-core: INVOKE_HOST_FUNCTION_ENTRY_ARCHIVED)"

# ---- the project's vectors (tests/data/xdr): they decode, their resources print
"$BIN" profile -q -o "$T/x" -f report --snapshot $S --tx tests/data/xdr/envelope_fee_bump.json 2>"$T/err"; rc=$?
# the vector marks read-write entry 2 of 2 for restore: stellar-core refuses that envelope
NAME="tx: the fee-bump vector's restore index past its read-write footprint is refused (exit $rc)"
ok one_line_error 65 "envelope_fee_bump.json: soroban_data.ext.v1.archived_soroban_entries[1]: not an index of the read-write footprint"
sed 's/"archived_soroban_entries": \[0, 2\]/"archived_soroban_entries": [0]/' tests/data/xdr/envelope_fee_bump.json >"$T/fee_bump.json"
"$BIN" profile -q -o "$T/v" -f report --snapshot $S --tx "$T/fee_bump.json" 2>"$T/err"; rc=$?
# its first entry (source account credentials) authorizes the call: the
# other three, unsigned, are never used, as in the host
NAME="tx: the fee-bump vector runs its inner transaction (exit $rc)"
ok sh -c "[ $rc -eq 0 ] && grep -q '^  result  *u32:7$' '$T/v/report.txt'"
NAME="tx: the fee-bump vector's declared resources print"
ok sh -c "grep -q '^  tx envelope  *fee bump of a v1 transaction, fee 300000, 4 auth entries, [0-9]* bytes, 1 archived entry to restore$' '$T/v/report.txt' &&
          [ \"\$(sed -n 's/^  tx instructions  *//p' '$T/v/report.txt' | cut -d'|' -f1)\" = 'declared 1,000,000 ' ] &&
          [ \"\$(sed -n 's/^  tx disk read bytes  *//p' '$T/v/report.txt')\" = 'declared 3,300 | scprof - | network -' ]"

# ---- refusals
"$BIN" profile -q -o "$T/x" --tx "$T/env.json" 2>"$T/err"; rc=$?
NAME="tx: without --snapshot it is a Solana wire transaction (a usage error here, exit $rc)"; ok [ "$rc" -ne 0 ]
"$BIN" profile -q -o "$T/x" --snapshot $S --tx "$T/env.json" $C increment 2>"$T/err"; rc=$?
NAME="tx: a contract on the command line too is a usage error (exit $rc)"; ok one_line_error 2 "the transaction names its contract"
"$BIN" profile -q -o "$T/x" --snapshot $S --meta "$T/meta.json" $C increment "addr:$A" u32:2 2>"$T/err"; rc=$?
NAME="tx: --meta alone is a usage error (exit $rc)"; ok one_line_error 2 "--meta goes with --tx"
printf '{"tx": {"tx": {"source_acount": 1}}}' >"$T/typo.json"
"$BIN" profile -q -o "$T/x" --snapshot $S --tx "$T/typo.json" 2>"$T/err"; rc=$?
NAME="tx: an unknown key names the file, the path and the nearest key (exit $rc)"
ok one_line_error 65 "typo.json: tx.tx: unknown key \"source_acount\"; did you mean \"source_account\"?"
"$BIN" profile -q -o "$T/x" --snapshot $S --tx tests/data/xdr/meta_v3.json 2>"$T/err"; rc=$?
NAME="tx: a meta given as the envelope is refused (exit $rc)"; ok one_line_error 65 "meta_v3.json: "
"$BIN" profile -q -o "$T/x" --snapshot $S --tx "$T/env.json" --meta "$T/env.json" 2>"$T/err"; rc=$?
NAME="tx: an envelope given as the meta is refused (exit $rc)"; ok one_line_error 65 "env.json: "

# ---- a public envelope, base64 (tests/data/xdr/README): read, its contract looked up in the ledger
"$BIN" profile -q -o "$T/x" --snapshot $S --tx tests/data/xdr/lab_soroban_unsigned.b64 2>"$T/err"; rc=$?
NAME="tx: a public base64 envelope is read: its contract is not in this snapshot (exit $rc)"
ok one_line_error 4 "no contract CCKL4XMTHTUMRMY3TGASZLO4W72HPJDWRDLC5YVSQO4UFU3IYKKEVXWW in the snapshot"
