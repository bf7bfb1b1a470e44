#!/bin/sh
# End-to-end: JSON arguments typed by the spec (tests/fixtures/wasm/
# spec_nested.c) and scenario files (scprof profile --scenario).  Every
# call of a scenario must give the very profile the same call gives on the
# command line; folded stacks add up to the report's CPU; nested values
# arrive as the host values their types are encoded as; mistakes are one
# line naming the file, with the documented exit status.
# Scenario calls share one ledger: a later call sees what the earlier
# successful ones stored.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 58
cp "$B/examples/caller.wasm" "$B/examples/counter.wasm" "$B/tests/fixtures/wasm/spec_nested.wasm" \
  "$B/examples/demo.wasm" "$B/examples/vault.wasm" "$T/"
N=$T/spec_nested.wasm
# counter's id when deployed second (deployer = zero account, salt = 1)
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
C=CADQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQP5KR
M=MAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6AAAAAAAOW6NCXDEE


# ---- JSON arguments on the command line
"$BIN" profile -q -o "$T/s" -f report,folded "$N" sum --list '[1, 2, "3", 40]' 2>"$T/err"; rc=$?
NAME="vec<u32> from a JSON array (exit $rc)"; ok grep -q "result *u32:46" "$T/s/report.txt"
NAME="vec argument shown in the report"; ok grep -q "arguments *Vec\[u32:1, u32:2, u32:3, u32:40\]" "$T/s/report.txt"
NAME="folded sums to the report's CPU"; ok folded_is_cpu "$T/s"
"$BIN" profile -q -o "$T/p" -f report "$N" point --p '{"y": 2, "x": 1}' 2>"$T/err"; rc=$?
NAME="struct by field name, fields sorted (exit $rc)"; ok grep -q "result *u32:1002" "$T/p/report.txt"
"$BIN" profile -q -o "$T/h" -f report "$N" shape --p '{"x":1,"y":2}' --w '[5,"hi"]' \
  --c '{"Two":[3,true]}' --col Green --e 7 --t '[1,false]' \
  --m '{"b":"-5","a":"170141183460469231731687303715884105727"}' --who $M --o '["00ff","0102"]' \
  --a $C 2>"$T/err"; rc=$?
NAME="every nested kind arrives as its host value (exit $rc)"; ok grep -q "result *u32:1023" "$T/h/report.txt"
NAME="map keys sorted, union as a vec, error enum as an Error, the muxed address back as its strkey"
ok grep -qF "Vec[sym:Two, u32:3, bool:true], u32:2, Error(0, 7), Vec[u32:1, bool:false], Map{sym:a: i128:170141183460469231731687303715884105727, sym:b: i128:-5}, addr:$M" "$T/h/report.txt"
"$BIN" profile -q -o "$T/x" -f report "$N" point --p '{"x": 1}' 2>"$T/err"; rc=$?
NAME="missing struct field: exit 3 (exit $rc)"; ok one_line_error 3 "argument --p: Point: missing field y"
"$BIN" profile -q -o "$T/x" -f report "$N" sum --list '[1, -2]' 2>"$T/err"; rc=$?
NAME="bad element names its path: exit 3 (exit $rc)"; ok one_line_error 3 "argument --list[1]: not a u32"
"$BIN" profile -q -o "$T/x" -f report "$N" sum --list '[1, 2' 2>"$T/err"; rc=$?
NAME="malformed JSON: exit 3 (exit $rc)"; ok one_line_error 3 "argument --list: bad JSON at column"

# ---- scenarios
cat >"$T/run.json" <<JSON
{
  "contracts": [
    {"name": "caller", "wasm": "caller.wasm"},
    {"name": "counter", "wasm": "counter.wasm"},
    {"name": "nested", "wasm": "spec_nested.wasm"}
  ],
  "calls": [
    {"contract": "caller", "function": "run", "args": ["str:$ID", "u32:3"]},
    {"contract": "nested", "function": "point", "args": {"p": {"y": 2, "x": 1}}},
    {"contract": "nested", "function": "sum", "args": {"list": [1, 2, "3", 40]}}
  ]
}
JSON
"$BIN" profile -q -o "$T/sc" -f report,folded --scenario "$T/run.json" 2>"$T/err"; rc=$?
NAME="scenario runs (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="one folder per call"; ok test -f "$T/sc/01-run/report.txt" -a -f "$T/sc/02-point/report.txt" -a -f "$T/sc/03-sum/report.txt"
NAME="summary line per call"; ok [ "$(wc -l <"$T/sc/scenario.txt")" -eq 3 ]
NAME="summary lists call 3's CPU"
ok grep -q "^3	nested	sum	CPU $(awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$T/s/report.txt")	" "$T/sc/scenario.txt"
for d in 01-run 02-point 03-sum; do
  NAME="$d: folded sums to the report's CPU"; ok folded_is_cpu "$T/sc/$d"
done
"$BIN" profile -q -o "$T/d1" -f report,folded "$T/caller.wasm" run "str:$ID" u32:3 --contract "$T/counter.wasm" --contract "$N"
NAME="call 1 is the command line's profile, byte for byte"; ok cmp -s "$T/d1/profile.folded" "$T/sc/01-run/profile.folded"
NAME="call 1 result is the third increment"; ok grep -q "result *u32:3" "$T/sc/01-run/report.txt"
NAME="call 3 is the command line's profile"; ok cmp -s "$T/s/profile.folded" "$T/sc/03-sum/profile.folded"

# scenario mistakes: one line naming the file
printf '{"contracts": [' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="malformed scenario JSON: exit 65 (exit $rc)"; ok one_line_error 65 "$T/bad.json: line 1 column"
echo '{"contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum", "args": {"lst": []}}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="unknown parameter: exit 3 (exit $rc)"; ok one_line_error 3 "$T/bad.json: calls[0]: sum has no parameter lst"
echo '{"contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum", "args": {"list": [true]}}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="bad argument value: exit 3 (exit $rc)"; ok one_line_error 3 "$T/bad.json: calls[0]: argument --list[0]: not a u32"
echo '{"storage": [{"key": "sym:k", "value": "u33:1"}], "contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="bad storage value: exit 3 (exit $rc)"; ok one_line_error 3 "storage[0]: value: "
echo '{"storage": [{"key": "sym:k", "value": "u32:1", "durability": "forever"}], "contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="bad storage durability: exit 65 (exit $rc)"; ok one_line_error 65 "storage[0]: \"durability\" is \"persistent\", \"temporary\" or \"instance\""
echo '{"storage": [{"key": "sym:k", "value": "u32:1", "durability": "instance", "live_until": 9}], "contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="live_until of an instance seed: exit 65 (exit $rc)"; ok one_line_error 65 "storage[0]: \"live_until\" is not for instance storage"
echo '{"storage": [{"key": "sym:k", "value": "u32:1", "durability": "instance"}, {"key": "sym:k", "value": "u32:2", "durability": "instance"}], "contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum", "args": {"list": [1]}}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="an instance key given twice: exit 3 (exit $rc)"; ok one_line_error 3 "storage[1]: the instance storage key is given twice"
echo '{"contracts": [{"name": "n", "wasm": "spec_nested.wasm", "salt": 1}], "calls": [{"function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="a salt that is not 64 hex digits: exit 65 (exit $rc)"; ok one_line_error 65 "bad.json: contracts[0]: \"salt\" is 32 bytes as 64 hex digits"
echo '{"ledger": {"sequence": -1}, "contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="bad ledger sequence: exit 65 (exit $rc)"; ok one_line_error 65 "ledger: \"sequence\" must be an integer from 0 to 4294967295"
echo '{"ledger": {"network_id": "00ff"}, "contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="bad network id: exit 65 (exit $rc)"; ok one_line_error 65 "ledger: \"network_id\" is 64 hex digits"
echo '{"ledger": {"protocol": 30}, "contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"function": "sum", "args": {"list": [1]}}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="ledger protocol out of range: exit 3 (exit $rc)"; ok one_line_error 3 "protocol 30: this host runs protocols 20 to 28"
echo '{"contracts": [{"name": "n", "wasm": "nosuch.wasm"}], "calls": [{"function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="missing contract file: exit 74 (exit $rc)"; ok one_line_error 74 "nosuch.wasm"
echo '{"contracts": [{"name": "n", "wasm": "spec_nested.wasm"}], "calls": [{"contract": "m", "function": "sum"}]}' >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"; rc=$?
NAME="unknown contract name: exit 65 (exit $rc)"; ok one_line_error 65 "calls[0]: no contract named m"
"$BIN" profile -q -o "$T/x" --scenario "$T/run.json" "$N" sum 2>"$T/err"; rc=$?
NAME="--scenario with a CONTRACT: exit 2 (exit $rc)"; ok one_line_error 2 "--scenario names the contracts"

# ---- "source": the transaction's source account, as --source
Z=GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF
echo '{"source": "'$Z'", "contracts": [{"name": "c", "wasm": "counter.wasm"}], "calls": [{"function": "increment", "args": ["addr:'$Z'", "u32:1"]}]}' >"$T/src.json"
"$BIN" profile -q -o "$T/sr" -f report,folded --scenario "$T/src.json" 2>"$T/err"; rc=$?
NAME="a scenario with a source account (exit $rc)"; ok [ "$rc" -eq 0 ]
"$BIN" profile -q -o "$T/sc" -f report,folded "$T/counter.wasm" increment "addr:$Z" u32:1 --source "$Z"
NAME="\"source\" gives the --source profile"; ok cmp -s "$T/sc/profile.folded" "$T/sr/01-increment/profile.folded"
echo '{"source": "CADQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQP5KR", "contracts": [{"name": "c", "wasm": "counter.wasm"}], "calls": [{"function": "increment", "args": ["addr:'$Z'", "u32:1"]}]}' >"$T/src2.json"
"$BIN" profile -q -o "$T/sr2" --scenario "$T/src2.json" 2>"$T/err"; rc=$?
NAME="a contract as \"source\": exit 65 (exit $rc)"; ok one_line_error 65 '"source" must be an account strkey'

# ---- ledger state carried from call to call
G=GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF
cat >"$T/carry.json" <<JSON
{
  "contracts": [{"name": "counter", "wasm": "counter.wasm"}],
  "calls": [
    {"function": "increment", "args": ["addr:$G", "u32:1"]},
    {"function": "increment", "args": ["addr:$G", "u32:1"]},
    {"function": "fail"},
    {"function": "increment", "args": ["addr:$G", "u32:5"], "profile": false},
    {"function": "increment", "args": ["addr:$G", "u32:1"]}
  ]
}
JSON
"$BIN" profile -q -o "$T/cy" -f report,folded --scenario "$T/carry.json" 2>"$T/err"; rc=$?
NAME="a failing call sets the exit status (exit $rc)"; ok one_line_error 10 "fail_with_error: failing with contract error 7 (partial profile written to"
NAME="call 2 reads the count call 1 wrote"; ok grep -q "result *u32:2" "$T/cy/02-increment/report.txt"
NAME="the failed call and the set-up call left the right state"; ok grep -q "result *u32:8" "$T/cy/05-increment/report.txt"
NAME="a set-up call writes no profile"; ok test ! -e "$T/cy/04-increment"
NAME="the set-up call has its summary line"; ok grep -q "^4	counter	increment	.*ok	(set-up, not profiled)" "$T/cy/scenario.txt"
"$BIN" profile -q -o "$T/c1" -f report,folded "$T/counter.wasm" increment "addr:$G" u32:1
NAME="call 1 (empty ledger) is the command line's profile"; ok cmp -s "$T/c1/profile.folded" "$T/cy/01-increment/profile.folded"
# calls 2 and 5 start from the same kind of state (an existing count entry)
NAME="calls 2 and 5 cost the same"; ok cmp -s "$T/cy/02-increment/profile.folded" "$T/cy/05-increment/profile.folded"
NAME="reading an existing entry costs call 2 more than call 1"
[ "$(awk -F'\t' '$1 == 2 {print $4}' "$T/cy/scenario.txt")" = "CPU 227534" ] && [ "$(awk -F'\t' '$1 == 1 {print $4}' "$T/cy/scenario.txt")" = "CPU 219053" ]; passed $?

# an initial "storage" entry as call 1 leaves it (count 1, extended to
# ledger 10000) gives the very profile of call 2
cat >"$T/seed.json" <<JSON
{
  "contracts": [{"name": "counter", "wasm": "counter.wasm"}],
  "storage": [{"key": "sym:count", "value": "u32:1", "durability": "persistent", "live_until": 10000}],
  "calls": [{"function": "increment", "args": ["addr:$G", "u32:1"]}]
}
JSON
"$BIN" profile -q -o "$T/sd" -f report,folded --scenario "$T/seed.json" 2>"$T/err"; rc=$?
NAME="the seeded count is read (exit $rc)"; ok grep -q "result *u32:2" "$T/sd/01-increment/report.txt"
NAME="seeded state costs what carried state costs"; ok cmp -s "$T/sd/01-increment/profile.folded" "$T/cy/02-increment/profile.folded"

# instance storage travels in the contract's instance entry: the deposit's
# frame writes it back when it ends, the next call's frame loads it
cat >"$T/inst.json" <<JSON
{
  "contracts": [{"name": "vault", "wasm": "vault.wasm"}],
  "calls": [{"function": "deposit", "args": {"user": "$G", "amount": 5}}, {"function": "total"},
            {"function": "deposit", "args": {"user": "$G", "amount": 7}}, {"function": "total"}]
}
JSON
"$BIN" profile -q -o "$T/in" -f report,folded --scenario "$T/inst.json" 2>"$T/err"; rc=$?
NAME="calls after instance storage was written run (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="call 2 reads the total call 1 wrote"; ok grep -q "result *u32:5" "$T/in/02-total/report.txt"
NAME="call 4 reads the total calls 1 and 3 wrote"; ok grep -q "result *u32:12" "$T/in/04-total/report.txt"
NAME="the same instance map, the same cost"; ok cmp -s "$T/in/02-total/profile.folded" "$T/in/04-total/profile.folded"
# the state call 2 starts from given up front: the total in the instance
# storage ("durability": "instance"), the balance as a persistent entry
cat >"$T/inseed.json" <<JSON
{
  "contracts": [{"name": "vault", "wasm": "vault.wasm"}],
  "storage": [{"key": "sym:total", "value": "u32:5", "durability": "instance"},
              {"key": "addr:$G", "value": "u32:5"}],
  "calls": [{"function": "total"}, {"function": "deposit", "args": {"user": "$G", "amount": 7}}]
}
JSON
"$BIN" profile -q -o "$T/is" -f report,folded --scenario "$T/inseed.json" 2>"$T/err"; rc=$?
NAME="the seeded instance total is read (exit $rc)"; ok grep -q "result *u32:5" "$T/is/01-total/report.txt"
NAME="seeded instance storage costs what carried instance storage costs"
ok cmp -s "$T/is/01-total/profile.folded" "$T/in/02-total/profile.folded"
NAME="a deposit on seeded state costs what it costs on carried state"
ok cmp -s "$T/is/02-deposit/profile.folded" "$T/in/03-deposit/profile.folded"
NAME="[pin] call 2 after a deposit: 149,487 CPU"
ok [ "$(awk -F'\t' '$1 == 2 {print $4}' "$T/in/scenario.txt")" = "CPU 149487" ]

# ---- ledger info and protocol
"$BIN" profile -q -o "$T/l0" -f report "$T/demo.wasm" run u32:5
echo '{"ledger": {"sequence": 100, "timestamp": 1700000000, "network_passphrase": "Test SDF Network ; September 2015"}, "contracts": [{"name": "d", "wasm": "demo.wasm"}], "calls": [{"function": "run", "args": ["u32:5"]}]}' >"$T/led.json"
"$BIN" profile -q -o "$T/l1" -f report --scenario "$T/led.json" 2>"$T/err"; rc=$?
r0=$(awk '$1 == "result" {sub("u64:", "", $2); print $2}' "$T/l0/report.txt")
r1=$(awk '$1 == "result" {sub("u64:", "", $2); print $2}' "$T/l1/01-run/report.txt")
NAME="the ledger sequence reaches the contract (exit $rc)"; [ -n "$r0" ] && [ "$((r1 - r0))" -eq 100 ]; passed $?
"$BIN" profile -q -o "$T/x" -f report --protocol 22 "$T/vault.wasm" total 2>"$T/err"; rc=$?
NAME="a contract newer than the ledger's protocol: exit 66 (exit $rc)"; ok one_line_error 66 "vault.wasm: built for protocol 23, newer than the ledger's protocol 22"
"$BIN" profile -q -o "$T/x" -f report --protocol 29 "$T/vault.wasm" total 2>"$T/err"; rc=$?
NAME="--protocol out of range: exit 3 (exit $rc)"; ok one_line_error 3 "--protocol: '29': this host runs protocols 20 to 28"
"$BIN" profile -q -o "$T/p23" -f folded --protocol 23 "$T/vault.wasm" total 2>"$T/err"; rc=$?
"$BIN" profile -q -o "$T/p28" -f folded "$T/vault.wasm" total 2>"$T/err"
NAME="--protocol 23 runs a protocol-23 contract (exit $rc)"; ok cmp -s "$T/p23/profile.folded" "$T/p28/profile.folded"
