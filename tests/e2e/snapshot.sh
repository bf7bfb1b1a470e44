#!/bin/sh
# End-to-end: ledger snapshots (scprof profile --snapshot, scprof snapshot
# ls).  Independent evidence: a call on a snapshot costs what the same
# call costs on the scenario whose ledger the snapshot was written from
# (tests/data/snapshots/scprof_counter.json, test_snapshot.c's writer), and
# the public soroban-sdk snapshots read as their writer meant (their
# contracts, a native stub, an asset contract).  Every refusal is one line
# naming the file, with the documented exit status.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 43
D=tests/data/snapshots
S=$D/scprof_counter.json
COUNTER=CC6CLEDX3HP6XYUT4GODR4OW6JELD4XAACWMSUDA4D7E2Z5GMO2FMOR4
VAULT=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
STUB=CAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD2KM
ALICE=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ
cp "$B/examples/counter.wasm" "$B/examples/vault.wasm" "$T/"

totals() { awk '$1 == "CPU" || $1 == "Memory" {print $1, $2}' "$1/report.txt" | head -2; }
cpu_of() { awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$1/report.txt"; }

# ---- the same state as a scenario and as a snapshot
cat >"$T/small.json" <<JSON
{"ledger": {"sequence": 100, "timestamp": 1700000000},
 "accounts": [{"id": "$ALICE", "balance": "5000"}],
 "contracts": [{"name": "counter", "wasm": "counter.wasm"}, {"name": "vault", "wasm": "vault.wasm"}],
 "storage": [{"contract": "counter", "key": "sym:count", "value": "u32:5"},
             {"contract": "vault", "key": "sym:total", "value": "u32:40", "durability": "instance"}],
 "calls": [{"contract": "counter", "function": "increment", "args": ["addr:$ALICE", "u32:2"]},
           {"contract": "vault", "function": "total", "args": []}]}
JSON
"$BIN" profile -q -o "$T/sc" -f report --scenario "$T/small.json" 2>"$T/err"; rc=$?
NAME="the scenario runs (exit $rc)"; ok [ "$rc" -eq 0 ]
"$BIN" profile -q -o "$T/c" -f report,folded --snapshot $S $COUNTER increment "addr:$ALICE" u32:2 2>"$T/err"; rc=$?
NAME="counter on the snapshot runs (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="counter: the scenario's CPU and memory"; ok [ "$(totals "$T/c")" = "$(totals "$T/sc/01-increment")" ]
NAME="counter: 652,631 CPU, 216,141 bytes at the memory's peak (224,714 charged)"
ok sh -c "[ \"\$(awk '\$1 == \"CPU\" || \$1 == \"Memory\" {print \$1, \$2}' '$T/c/report.txt' | head -2 | tr '\n' ' ')\" = 'CPU 652,631 Memory 216,141 ' ] &&
  grep -q 'the call tree books 224,714 bytes' '$T/c/report.txt'"
NAME="counter: the stored count read (5 + 2)"; ok grep -q "result *u32:7" "$T/c/report.txt"
NAME="counter: folded sums to the report's CPU"; ok folded_is_cpu "$T/c"
"$BIN" profile -q -o "$T/v" -f report --snapshot $S $VAULT total 2>"$T/err"; rc=$?
NAME="vault total by its spec (exit $rc)"; ok grep -q "result *u32:40" "$T/v/report.txt"
NAME="vault: the scenario's CPU and memory"; ok [ "$(totals "$T/v")" = "$(totals "$T/sc/02-total")" ]

# ---- snapshot ls
"$BIN" snapshot ls $S >"$T/ls" 2>"$T/err"; rc=$?
NAME="ls runs (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="ls: the ledger's settings"; ok grep -q "^ledger: protocol 28, sequence 100, timestamp 1700000000$" "$T/ls"
NAME="ls: the vault's functions and instance storage"
ok sh -c "grep -A2 '^  $VAULT  wasm ' '$T/ls' | grep -q 'functions: deposit total' && grep -A1 '^  $VAULT' '$T/ls' | grep -q 'instance storage 1 entries'"
NAME="ls: the account"; ok grep -q "^  account $ALICE  balance 5000$" "$T/ls"
"$BIN" snapshot ls $D/sdk21_pairs.json >"$T/ls21" 2>"$T/err"; rc=$?
NAME="ls: an SDK 21 snapshot ([key, [entry, live_until]] pairs, numbers) (exit $rc)"
ok grep -q "^  CAJXGFIU32R2SF4BVXV2EB2XSSUPUBQMNXWJWB5GYS7WE76TFPPR7Q7P  wasm 52509b80.*, 414 bytes$" "$T/ls21"
NAME="ls: its empty-code native stubs"; ok [ "$(grep -c '  native stub (wasm e3b0c442' "$T/ls21")" -eq 2 ]
"$BIN" snapshot ls $D/sdk_asset.json >"$T/lsa" 2>"$T/err"; rc=$?
NAME="ls: an asset contract with its instance storage (exit $rc)"
ok sh -c "grep -q 'CBEPDNVYXQGWB5YUBXKJWYJA7OXTZW5LFLNO5JRRGE6Z6C5OSUZPCCEL  asset contract' '$T/lsa' && grep -q 'instance storage 3 entries' '$T/lsa'"

# ---- native stubs: refused with the way out, then a Wasm stands in
"$BIN" profile -q -o "$T/x" --snapshot $D/sdk_native_stub.json $STUB add 2>"$T/err"; rc=$?
NAME="calling a native stub: exit 4 (exit $rc)"; ok one_line_error 4 "$D/sdk_native_stub.json: contract $STUB is a natively registered test contract (its code entry is a stub, no Wasm): give its Wasm with --wasm $STUB=FILE.wasm"
"$BIN" profile -q -o "$T/w" -f report --snapshot $D/sdk_native_stub.json --wasm "$STUB=$T/counter.wasm" \
  $STUB increment "addr:$ALICE" u32:2 2>"$T/err"; rc=$?
NAME="--wasm stands in for the stub (exit $rc)"; ok grep -q "result *u32:2" "$T/w/report.txt"
NAME="--wasm: 219,053 CPU (regression pin: no account entry for the caller here)"; ok grep -q "^  CPU  *219,053 " "$T/w/report.txt"

# ---- refusals
run_bad() { "$BIN" profile -q -o "$T/x" --snapshot "$@" 2>"$T/err"; rc=$?; }
sed 's/"protocol_version": 28/"protocol_version": 29/' $S >"$T/p29.json"
run_bad "$T/p29.json" $VAULT total
NAME="protocol 29: exit 66 (exit $rc)"; ok one_line_error 66 "$T/p29.json: ledger.protocol_version: 29: this host runs protocols 20 to 28"
python3 - "$S" "$T/v0.json" "$(sed -n 's/.*"hash": "\([0-9a-f]*\)".*/\1/p' $S | sed -n 2p)" "$T/v0len" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for e in j["ledger"]["ledger_entries"]:
    d = e["entry"]["data"]
    if "contract_code" in d:
        d["contract_code"]["ext"] = "v0"
        if d["contract_code"]["hash"] == sys.argv[3]: open(sys.argv[4], "w").write(str(len(d["contract_code"]["code"]) // 2))
json.dump(j, open(sys.argv[2], "w"))
PY
# code without cost inputs (ContractCodeEntry ext v0) is charged as the
# reference charges it (vm/parsed_module.rs VersionedContractCodeCostInputs::V0):
# live code is not parsed in the call, its instantiation is
# VmCachedInstantiation(wasm bytes) in place of the InstantiateWasm* types
"$BIN" profile -q -o "$T/v0" -f report --snapshot "$T/v0.json" $VAULT total 2>"$T/err"; rc=$?
NAME="code without cost inputs (ext v0) runs (exit $rc)"; ok sh -c "[ $rc -eq 0 ] && grep -q 'result *u32:40' '$T/v0/report.txt'"
LEN=$(cat "$T/v0len")
row() { awk -v t="$2" '$1 == t {gsub(",", ""); print $2, $3, $4, $5}' "$1/report.txt"; }
NAME="[derived] ext v0: VmCachedInstantiation($LEN bytes): CPU 41142 + 634*$LEN>>7, memory 69472 + 1217*$LEN>>7"
ok [ "$(row "$T/v0" VmCachedInstantiation)" = "1 $LEN $((41142 + (634 * LEN >> 7))) $((69472 + (1217 * LEN >> 7)))" ]
NAME="ext v0: no InstantiateWasm* charge"; ok sh -c "! grep -q '^  InstantiateWasm' '$T/v0/report.txt'"
inst_cpu() { awk '$1 ~ /^InstantiateWasm/ {gsub(",", ""); s += $4} END {print s + 0}' "$1/report.txt"; }
NAME="[derived] ext v0: the CPU is ext v1's less its InstantiateWasm* CPU plus VmCachedInstantiation's"
ok [ "$(cpu_of "$T/v0")" -eq $(( $(cpu_of "$T/v") - $(inst_cpu "$T/v") + 41142 + (634 * LEN >> 7) )) ]
"$BIN" profile -q -o "$T/v0c" -f report --snapshot "$T/v0.json" $COUNTER increment "addr:$ALICE" u32:2 2>"$T/err"; rc=$?
NAME="ext v0: counter's increment (an entry written, rent) runs (exit $rc)"; ok [ "$rc" -eq 0 ]
sed 's/"n_exports": [0-9]*/"n_exports": 99/' $S >"$T/ci.json"
run_bad "$T/ci.json" $VAULT total
NAME="cost inputs not the module's: exit 66 (exit $rc)"; ok one_line_error 66 "the stored cost inputs are not the module's"
sed '0,/"live_until": [0-9][0-9]*/s//"live_until": null/' $S >"$T/lu.json"
run_bad "$T/lu.json" $VAULT total
NAME="a contract entry without live_until: exit 65 (exit $rc)"; ok one_line_error 65 "$T/lu.json: ledger.ledger_entries[1]: live_until: a contract entry needs its TTL"
sed '0,/"durability": "persistent"/s//"durability": "temporary"/' $D/sdk21_pairs.json >"$T/key.json"
run_bad "$T/key.json" CAJXGFIU32R2SF4BVXV2EB2XSSUPUBQMNXWJWB5GYS7WE76TFPPR7Q7P __check_auth
NAME="a key that is not its entry's: exit 65 (exit $rc)"; ok one_line_error 65 "$T/key.json: ledger.ledger_entries[0]: the key is not the entry's"
sed 's/"generators"/"generator"/' $S >"$T/top.json"
run_bad "$T/top.json" $VAULT total
NAME="an unknown key: exit 65 with a suggestion (exit $rc)"; ok one_line_error 65 "unknown key \"generator\"; did you mean \"generators\"?"
sed '0,/"u32": 5/s//"u32": -5/' $S >"$T/neg.json"
run_bad "$T/neg.json" $VAULT total
NAME="a bad value names its JSON path: exit 65 (exit $rc)"; ok one_line_error 65 "entry.data.contract_data.val.u32: expected an integer in the type's range"
python3 - "$S" "$T/offer.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["ledger"]["ledger_entries"].append({"entry": {"last_modified_ledger_seq": 0, "data": {"ttl": {"key_hash": "00" * 32, "live_until_ledger_seq": 5}}, "ext": "v0"}, "live_until": None})
json.dump(j, open(sys.argv[2], "w"))
PY
run_bad "$T/offer.json" $VAULT total
NAME="an entry kind the host does not read: exit 66 (exit $rc)"; ok one_line_error 66 "ledger.ledger_entries[6]: a TTL entry: the host reads no such entry"
run_bad $D/sdk_asset.json CBEPDNVYXQGWB5YUBXKJWYJA7OXTZW5LFLNO5JRRGE6Z6C5OSUZPCCEL balance
NAME="an asset contract as the contract: exit 4 (exit $rc)"; ok one_line_error 4 "is an asset contract (no Wasm)"
run_bad $S CAJXGFIU32R2SF4BVXV2EB2XSSUPUBQMNXWJWB5GYS7WE76TFPPR7Q7P f
NAME="a contract not in the snapshot: exit 4 (exit $rc)"; ok one_line_error 4 "$S: no contract CAJXGFIU"
run_bad $S "$T/vault.wasm" total
NAME="a file as the contract: exit 2 (exit $rc)"; ok one_line_error 2 "with --snapshot the contract is its id"
run_bad $S --protocol 27 $VAULT total
NAME="--protocol with --snapshot: exit 2 (exit $rc)"; ok one_line_error 2 "--snapshot is the ledger"
"$BIN" profile -q -o "$T/x" --wasm "$STUB=$T/counter.wasm" "$T/vault.wasm" total 2>"$T/err"; rc=$?
NAME="--wasm without --snapshot: exit 2 (exit $rc)"; ok one_line_error 2 "--wasm C...=FILE.wasm goes with --snapshot"
"$BIN" snapshot ls "$T/nope.json" 2>"$T/err"; rc=$?
NAME="ls of a missing file: exit 74 (exit $rc)"; ok one_line_error 74 "$T/nope.json"

# ---- a scenario starting from a snapshot: calls name contracts by id
cp $S $D/sdk_native_stub.json "$T/"
cat >"$T/from.json" <<JSON
{"snapshot": "scprof_counter.json",
 "calls": [{"contract": "$COUNTER", "function": "increment", "args": ["addr:$ALICE", "u32:2"]},
           {"contract": "$COUNTER", "function": "increment", "args": ["addr:$ALICE", "u32:2"]},
           {"contract": "$VAULT", "function": "total", "args": {}}]}
JSON
"$BIN" profile -q -o "$T/fs" -f report --scenario "$T/from.json" 2>"$T/err"; rc=$?
NAME="scenario from a snapshot runs (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="its first call is the --snapshot call's"; ok [ "$(totals "$T/fs/01-increment")" = "$(totals "$T/c")" ]
NAME="the second sees the first's write (7 + 2)"; ok grep -q "result *u32:9" "$T/fs/02-increment/report.txt"
NAME="the vault by its spec"; ok grep -q "result *u32:40" "$T/fs/03-total/report.txt"
cat >"$T/stub.json" <<JSON
{"snapshot": "sdk_native_stub.json", "wasm": {"$STUB": "counter.wasm"},
 "calls": [{"contract": "$STUB", "function": "increment", "args": ["addr:$ALICE", "u32:2"]}]}
JSON
"$BIN" profile -q -o "$T/st" -f report --scenario "$T/stub.json" 2>"$T/err"; rc=$?
NAME="a scenario's \"wasm\" stands in for a stub (exit $rc)"; ok [ "$(totals "$T/st/01-increment")" = "$(totals "$T/w")" ]
sed 's/"snapshot": "scprof_counter.json",/"snapshot": "scprof_counter.json", "accounts": [],/' "$T/from.json" >"$T/both.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/both.json" 2>"$T/err"; rc=$?
NAME="a snapshot and accounts: exit 66 (exit $rc)"; ok one_line_error 66 "$T/both.json: \"accounts\" with \"snapshot\": the snapshot is the ledger"
sed 's/"wasm": {[^}]*},//' "$T/stub.json" >"$T/nostub.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/nostub.json" 2>"$T/err"; rc=$?
NAME="a scenario calling a stub without a stand-in: exit 65 (exit $rc)"; ok one_line_error 65 "$T/nostub.json: calls[0]: contract $STUB is a natively registered test contract (its code entry is a stub, no Wasm): give its Wasm in \"wasm\": {\"$STUB\": \"FILE.wasm\"}"
