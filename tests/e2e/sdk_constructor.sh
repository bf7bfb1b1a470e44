#!/bin/sh
# End-to-end: --context sdk-test with contracts that have a constructor.
# A soroban-sdk test's e.register(WASM, args) runs __constructor(args) at
# registration (soroban-sdk 27.0.5 env.rs register_contract_with_source;
# rs-soroban-env v28 lifecycle.rs create_instance_and_call_constructor),
# outside every measured span: invocation metering resets the Budget and
# the events at each root invocation and keeps the storage map
# (invocation_metering.rs push_invocation).  A later call sees only what
# the constructor left in the map.
#
# Which checks are which:
#   - derived relation: tests/fixtures/wasm/ctor_nodebug.wasm (its
#     constructor stores "count" and "owner") and ctor_init_nodebug.wasm
#     are the same module but for the constructor's export name (13 bytes
#     each, checked here), so the same size and structure: the second
#     exports it as an ordinary init_contract, which a first call of the
#     test runs, writing the same entries at the same ledger (sequence 0,
#     live until 4,095) into the Env's map, which the SDK keeps from call
#     to call (that carrying-over path reproduced the SDK's own
#     cost_estimate figures: docs/fees.md).  So get and owner cost the
#     same in both, to the instruction, byte and stroop: every check of
#     the equality fails if the constructor's work leaked into the span or
#     its entries differed;
#   - hand-derived: get's instruction fee ceil(100,617 x 7 / 10,000) = 71;
#     its three memory reads (instance, code, "count") and no write; the
#     folded stacks add up to the report's CPU (Σ self == total);
#   - behaviour: the constructor's arguments reach the calls (41, the
#     owner); the token's constructor writes instance storage (decimals,
#     name) and a mocked mint follows it;
#   - byte-identical: files without a constructor give exactly the output
#     main's build gave before this support (tests/data/sdk_ctorless:
#     folded stacks, scenario summary, the result / id / sdk meta lines);
#   - pins of scprof's own output: the calls' CPU and memory;
#   - refusals, one line each: a constructor that requires authorization
#     or draws from the PRNG (effects past the map, not modelled), one that
#     traps, a CLI register of a constructor that takes arguments (one
#     without runs, as e.register(WASM, ()) runs it).
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
. "$(dirname "$0")/lib/kv_scenario.sh"
e2e_setup 22
G=$(cd "$(dirname "$0")/../data/sdk_ctorless" && pwd)

W=$B/tests/fixtures/wasm
cp "$W/ctor_nodebug.wasm" "$W/ctor_init_nodebug.wasm" "$W/ctor_effects.wasm" "$W/ctor_noargs.wasm" \
   "$B/examples/token.wasm" "$B/examples/counter.wasm" "$B/examples/caller.wasm" "$T/"
cp "$W/kv_store.wasm" "$T/kv.wasm"
OWNER=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
HOLDER=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ

# ---- the constructor against its twin

NAME="sdk_constructor: the twins differ in the constructor's name alone (26 bytes: export and spec)"
ok python3 - "$T/ctor_nodebug.wasm" "$T/ctor_init_nodebug.wasm" <<'PY'
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
d = [i for i in range(len(a)) if a[i] != b[i]] if len(a) == len(b) else None
ok = d is not None and len(d) == 26
for i in (a.find(b"__constructor"), a.find(b"__constructor", a.find(b"__constructor") + 1)):
    ok = ok and i >= 0 and b[i:i + 13] == b"init_contract"
sys.exit(0 if ok else 1)
PY

cat >"$T/ctor.json" <<J
{"context": "sdk-test",
 "contracts": [{"name": "c", "wasm": "ctor_nodebug.wasm",
                "constructor_args": {"owner": "$OWNER", "start": 41}}],
 "calls": [{"function": "get"}, {"function": "owner"}]}
J
cat >"$T/twin.json" <<J
{"context": "sdk-test",
 "contracts": [{"name": "c", "wasm": "ctor_init_nodebug.wasm"}],
 "calls": [{"function": "init_contract", "args": {"owner": "$OWNER", "start": 41}, "profile": false},
           {"function": "get"}, {"function": "owner"}]}
J
"$BIN" profile -q -o "$T/a" --scenario "$T/ctor.json" 2>"$T/err"
ra=$?
"$BIN" profile -q -o "$T/b" --scenario "$T/twin.json" 2>"$T/err"
rb=$?
A1=$T/a/01-get/report.json A2=$T/a/02-owner/report.json
B1=$T/b/02-get/report.json B2=$T/b/03-owner/report.json

NAME="sdk_constructor: both files run; the constructor's arguments reach the calls (41, the owner)"
ok [ "$ra/$rb/$(report_meta "$A1" result)/$(report_meta "$A2" result)" = "0/0/u32:41/addr:$OWNER" ]

NAME="[derived] sdk_constructor: get and owner after the constructor cost what they cost after the twin's init_contract call"
ok [ "$(report_totals "$A1")/$(report_totals "$A2")" = "$(report_totals "$B1")/$(report_totals "$B2")" ]

NAME="[derived] sdk_constructor: the same sdk resources and fee estimate lines"
same_sdk() { [ "$(report_meta "$1" "sdk resources")|$(report_meta "$1" "sdk fee estimate")" = \
               "$(report_meta "$2" "sdk resources")|$(report_meta "$2" "sdk fee estimate")" ]; }
ok eval 'same_sdk "$A1" "$B1" && same_sdk "$A2" "$B2"'

NAME="[derived] sdk_constructor: the same folded stacks, node for node"
same_folded() { sed s/ctor_nodebug/X/ "$1" >"$T/fa" && sed s/ctor_init_nodebug/X/ "$2" >"$T/fb" &&
                 [ -s "$T/fa" ] && cmp -s "$T/fa" "$T/fb"; }
ok eval 'same_folded "$T/a/01-get/profile.folded" "$T/b/02-get/profile.folded" &&
         same_folded "$T/a/02-owner/profile.folded" "$T/b/03-owner/profile.folded"'

NAME="[pin] sdk_constructor: get and owner after the constructor"
ok [ "$(cut -f3-5 "$T/a/scenario.txt")" = "get	CPU 100617	memory 207139
owner	CPU 101170	memory 207243" ]

NAME="[derived] sdk_constructor: get reads the instance, the code and \"count\" from memory, writes nothing"
ok [ "$(report_meta "$A1" "sdk resources")" = "instructions 100617, mem_bytes 207139, disk_read_entries 0, memory_read_entries 3, write_entries 0, disk_read_bytes 0, write_bytes 0, contract_events_size_bytes 0, persistent_rent_ledger_bytes 0, persistent_entry_rent_bumps 0, temporary_rent_ledger_bytes 0, temporary_entry_rent_bumps 0" ]

NAME="[derived] sdk_constructor: get's fee is its instructions' alone, ceil(100,617 x 7 / 10,000) = 71"
ok [ "$(report_meta "$A1" "sdk fee estimate")" = "total 71 = instructions 71 + disk_read_entries 0 + write_entries 0 + disk_read_bytes 0 + write_bytes 0 + contract_events 0 + persistent_entry_rent 0 + temporary_entry_rent 0" ]

NAME="[derived] sdk_constructor: Σ self == total (folded stacks add up to the report's CPU)"
ok eval 'folded_is_cpu "$T/a/01-get" && folded_is_cpu "$T/a/02-owner"'

NAME="sdk_constructor: the contract has the test's first id"
ok [ "$(report_meta "$A1" "contract id 0")" = "ctor_nodebug.wasm = CBKMUZNFQIAL775XBB2W2GP5CNHBM5YGH6C3XB7AY6SUVO2IBU3VYK2V" ]

# ---- instance storage: the token's constructor

cat >"$T/tok.json" <<J
{"context": "sdk-test",
 "contracts": [{"name": "token", "wasm": "token.wasm",
                "constructor_args": {"admin": "$OWNER", "decimal": 7, "name": "Example Token", "symbol": "EXT"}}],
 "calls": [{"function": "decimals"},
           {"function": "mint", "auth": "mock", "args": {"to": "$HOLDER", "amount": 1000}},
           {"function": "balance", "args": {"id": "$HOLDER"}},
           {"function": "name"}]}
J
"$BIN" profile -q -o "$T/tok" --scenario "$T/tok.json" 2>"$T/err"
rc=$?

NAME="sdk_constructor: the token's constructor wrote its instance storage; a mocked mint follows"
ok [ "$rc/$(report_meta "$T/tok/01-decimals/report.json" result)/$(report_meta "$T/tok/03-balance/report.json" result)/$(report_meta "$T/tok/04-name/report.json" result)" = \
     "0/u32:7/i128:1000/str:\"Example Token\"" ]

NAME="[pin] sdk_constructor: the token's calls after its constructor"
ok [ "$(cut -f3-5 "$T/tok/scenario.txt")" = "decimals	CPU 201135	memory 219822
mint	CPU 292076	memory 235728
balance	CPU 221294	memory 222403
name	CPU 201335	memory 220026" ]

NAME="[derived] sdk_constructor: the token's folded stacks add up to each report's CPU"
ok eval 'folded_is_cpu "$T/tok/01-decimals" && folded_is_cpu "$T/tok/02-mint"'

# ---- files without a constructor: the bytes main's build wrote

kv_scenario "$T/kv.json"
cat >"$T/two.json" <<'J'
{"context": "sdk-test",
 "contracts": [{"name": "counter", "wasm": "counter.wasm"}, {"name": "caller", "wasm": "caller.wasm"}],
 "calls": [
  {"contract": "caller", "function": "run", "args": ["str:CBKMUZNFQIAL775XBB2W2GP5CNHBM5YGH6C3XB7AY6SUVO2IBU3VYK2V", "u32:2"]}
 ]}
J
"$BIN" profile -q -o "$T/kv" --scenario "$T/kv.json" 2>"$T/err" &&
"$BIN" profile -q -o "$T/two" --scenario "$T/two.json" 2>>"$T/err" &&
"$BIN" profile -q -o "$T/cli" --context sdk-test "$T/kv.wasm" put sym:k1 sym:v1 2>>"$T/err"
rc=$?
meta_lines() { python3 - "$@" <<'PY'
import json, sys
for p in sys.argv[1:]:
    for m in json.load(open(p))["meta"]:
        if m["key"] in ("result", "sdk resources", "sdk fee estimate") or m["key"].startswith("contract id "):
            print("%s\t%s" % (m["key"], m["value"]))
PY
}
meta_lines "$T"/kv/0*/report.json "$T/two/01-run/report.json" "$T/cli/report.json" >"$T/meta.txt"
if [ "${SCP_WRITE_GOLDEN:-}" = 1 ]; then
  for c in 01-put 02-get 03-del 04-get; do cp "$T/kv/$c/profile.folded" "$G/kv-$c.folded"; done
  cp "$T/kv/scenario.txt" "$G/kv-scenario.txt"
  cp "$T/two/01-run/profile.folded" "$G/two-01-run.folded"
  cp "$T/cli/profile.folded" "$G/cli-put.folded"
  cp "$T/meta.txt" "$G/meta.txt"
fi

NAME="sdk_constructor: constructor-less files: the same folded stacks and scenario summary as before"
ok eval '[ "$rc" -eq 0 ] && cmp -s "$T/kv/scenario.txt" "$G/kv-scenario.txt" &&
         cmp -s "$T/kv/01-put/profile.folded" "$G/kv-01-put.folded" &&
         cmp -s "$T/kv/02-get/profile.folded" "$G/kv-02-get.folded" &&
         cmp -s "$T/kv/03-del/profile.folded" "$G/kv-03-del.folded" &&
         cmp -s "$T/kv/04-get/profile.folded" "$G/kv-04-get.folded" &&
         cmp -s "$T/two/01-run/profile.folded" "$G/two-01-run.folded" &&
         cmp -s "$T/cli/profile.folded" "$G/cli-put.folded"'

NAME="sdk_constructor: constructor-less files: the same results, ids, sdk resources and fee estimates as before"
ok cmp -s "$T/meta.txt" "$G/meta.txt"

# ---- what stays refused

for w in 0 1 2; do
  cat >"$T/e$w.json" <<J
{"context": "sdk-test",
 "contracts": [{"name": "c", "wasm": "ctor_effects.wasm", "constructor_args": ["addr:$OWNER", "u32:$w"]}],
 "calls": [{"function": "get"}]}
J
done

NAME="sdk_constructor: a constructor that requires authorization is refused"
"$BIN" profile -q -o "$T/x" --scenario "$T/e0.json" 2>"$T/err"
rc=$?
ok one_line_error 66 "ctor_effects.wasm: context sdk-test: the constructor requires authorization"

NAME="sdk_constructor: a constructor that draws from the PRNG is refused"
"$BIN" profile -q -o "$T/x" --scenario "$T/e1.json" 2>"$T/err"
rc=$?
ok one_line_error 66 "ctor_effects.wasm: context sdk-test: the constructor draws from the PRNG"

NAME="sdk_constructor: a constructor that traps fails the register, naming it"
"$BIN" profile -q -o "$T/x" --scenario "$T/e2.json" 2>"$T/err"
rc=$?
ok one_line_error 67 "ctor_effects.wasm: context sdk-test: e.register's constructor failed: trap: unreachable"

NAME="sdk_constructor: any other argument, the constructor does nothing, and the call runs"
sed 's/u32:2/u32:3/' "$T/e2.json" >"$T/e3.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/e3.json" 2>"$T/err"
ok [ "$?/$(report_meta "$T/x/01-get/report.json" result)" = "0/void" ]

NAME="sdk_constructor: on the command line, e.register(WASM, ()) runs a constructor without parameters"
"$BIN" profile -q -o "$T/na" --context sdk-test "$T/ctor_noargs.wasm" get 2>"$T/err"
ok [ "$?/$(report_meta "$T/na/report.json" result)" = "0/u32:7" ]

NAME="sdk_constructor: on the command line, e.register(WASM, ()) of a constructor with parameters is refused"
"$BIN" profile -q -o "$T/x" --context sdk-test "$T/ctor_nodebug.wasm" get 2>"$T/err"
rc=$?
ok one_line_error 3 "ctor_nodebug.wasm: context sdk-test: __constructor takes 2 arguments, 0 given"

NAME="sdk_constructor: a deployer or salt is still refused with a constructor"
sed 's/"start": 41}/"start": 41}, "salt": "'"$(printf '%064d' 1)"'"/' "$T/ctor.json" >"$T/salt.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/salt.json" 2>"$T/err"
rc=$?
ok one_line_error 66 "context sdk-test: a scenario of contracts with no deployer, salt, live_until or upload_only"
