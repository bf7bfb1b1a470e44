#!/bin/sh
# End-to-end: `scprof profile X.wasm FUNCTION` in the network context
# deploys X as the network does from protocol 22 on: a contract creation
# runs __constructor when the Wasm exports it (rs-soroban-env v28
# lifecycle.rs call_constructor; a missing one is a no-op without
# arguments).  The command line's contracts with a constructor are
# deployed by the set-up transaction a scenario's contract with one and no
# "constructor_args" gets (sor_ledger.c), outside the profiled call.
#
# Which checks are which:
#   - behaviour: get returns the 7 the constructor stored (before, the key
#     was missing and get trapped), also through a caller when the
#     constructor's contract is a --contract (tests/fixtures/wasm/
#     ctor_reader.c);
#   - derived relation: the command line and the equivalent scenario run
#     the same set-up and the same call, so the same CPU and memory totals
#     and the same folded stacks, node for node (also with the
#     constructor's contract as a --contract callee).  These alone would
#     not see a constructor left out: get of the missing key traps at the
#     same CPU and memory; the results and the storage line's read bytes
#     (24 with the value, 16 without) do;
#   - derived: the folded stacks add up to the report's CPU (Σ self == total);
#   - byte-identical: contracts without a constructor give exactly what
#     the build before this support wrote (tests/data/cli_ctorless: folded
#     stacks and every report.json meta line);
#   - --constructor-args (the called contract's, as a scenario's
#     "constructor_args": by name typed by the spec, or type:value
#     strings): the results they give, and the same totals and folded
#     stacks as the scenario with the same constructor_args;
#   - refusals, one line each: a constructor with parameters and no
#     arguments (the called contract or a --contract); --constructor-args
#     with an unknown or missing parameter, a value of the wrong type, the
#     wrong count, for a contract without a constructor, before protocol
#     22, with a scenario;
#   - protocol: --protocol 22 runs the constructor, 21 runs none
#     (CreateContract had no constructor before 22), so get traps there as
#     it did before this support;
#   - pin of scprof's own output: get's CPU and memory after the
#     constructor.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 28
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
B=$(cd "${SCP_BUILD:-build}" && pwd)
G=$(cd "$(dirname "$0")/../data/cli_ctorless" && pwd)

W=$B/tests/fixtures/wasm
cp "$W/ctor_noargs.wasm" "$W/ctor_nodebug.wasm" "$W/ctor_reader.wasm" "$B/examples/counter.wasm" "$B/examples/caller.wasm" \
   "$B/examples/token.wasm" "$T/"
cp "$W/kv_store.wasm" "$T/kv.wasm"
cd "$T" || exit 1

# same_run A B: profile folders A and B have the same CPU and memory totals
# and the same (non-empty) folded stacks
same_run() { [ "$(report_totals "$1/report.json")" = "$(report_totals "$2/report.json")" ] &&
             [ -s "$1/profile.folded" ] && cmp -s "$1/profile.folded" "$2/profile.folded"; }

# ---- a constructor without parameters runs at the deploy

"$BIN" profile -q -o cli ctor_noargs.wasm get 2>err
rc=$?
NAME="ctor_cli: get returns what the constructor stored (count = 7)"
ok [ "$rc/$(report_meta cli/report.json result)" = "0/u32:7" ]

cat >one.json <<'J'
{"contracts": [{"name": "c", "wasm": "ctor_noargs.wasm"}],
 "calls": [{"function": "get"}]}
J
"$BIN" profile -q -o sc --scenario one.json 2>err
rc=$?
NAME="[derived] ctor_cli: the same CPU and memory as the one-contract scenario"
ok [ "$rc/$(report_totals cli/report.json)" = "0/$(report_totals sc/01-get/report.json)" ]

NAME="[derived] ctor_cli: the same folded stacks as the one-contract scenario, node for node"
ok eval '[ -s cli/profile.folded ] && cmp -s cli/profile.folded sc/01-get/profile.folded'

NAME="[derived] ctor_cli: the same contract id and storage line as the scenario's"
same_meta() { [ "$(report_meta "$1" "contract id 0")|$(report_meta "$1" storage)" = \
                "$(report_meta "$2" "contract id 0")|$(report_meta "$2" storage)" ]; }
ok same_meta cli/report.json sc/01-get/report.json

NAME="[derived] ctor_cli: Σ self == total (folded stacks add up to the report's CPU)"
ok folded_is_cpu cli

NAME="[pin] ctor_cli: get after the constructor"
ok [ "$(report_totals cli/report.json)" = "118036 207380" ]

# ---- the ledger's protocol: from 22 on, as the network

"$BIN" profile -q -o p22 --protocol 22 ctor_noargs.wasm get 2>err
NAME="ctor_cli: --protocol 22 runs the constructor"
ok [ "$?/$(report_meta p22/report.json result)" = "0/u32:7" ]

NAME="ctor_cli: --protocol 21 runs none (CreateContract had no constructor then): get finds no count"
"$BIN" profile -q -o p21 --protocol 21 ctor_noargs.wasm get 2>err
rc=$?
ok one_line_error 10 "ctor_noargs.wasm: get_contract_data: trying to get non-existing value for contract storage key"

NAME="ctor_cli: --protocol 21 does not refuse a constructor with parameters (none runs); the contract's own protocol does"
"$BIN" profile -q -o x --protocol 21 ctor_nodebug.wasm get 2>err
rc=$?
ok one_line_error 66 "ctor_nodebug.wasm: built for protocol 23, newer than the ledger's protocol 21"

# ---- the constructor's contract as a --contract callee (salt 1: its id
# is the one counter.wasm has there, CCPLZZ...)

C1=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
"$BIN" profile -q -o cli2 --contract ctor_noargs.wasm ctor_reader.wasm read "str:$C1" 2>err
rc=$?
cat >two.json <<J
{"contracts": [{"name": "r", "wasm": "ctor_reader.wasm"}, {"name": "c", "wasm": "ctor_noargs.wasm"}],
 "calls": [{"contract": "r", "function": "read", "args": ["str:$C1"]}]}
J
"$BIN" profile -q -o sc2 --scenario two.json 2>>err
rc2=$?
NAME="ctor_cli: a --contract's constructor ran too: the caller reads its count = 7"
ok [ "$rc/$(report_meta cli2/report.json result)" = "0/u32:7" ]

NAME="[derived] ctor_cli: a --contract with a constructor: the same totals and folded stacks as the scenario"
ok eval '[ "$rc2" -eq 0 ] && same_run cli2 sc2/01-read'

NAME="[derived] ctor_cli: the --contract has the scenario's id"
ok [ "$(report_meta cli2/report.json "contract id 1")|$(report_meta sc2/01-read/report.json "contract id 1")" = \
     "ctor_noargs.wasm = $C1|ctor_noargs.wasm = $C1" ]

# ---- contracts without a constructor: the bytes the build before wrote

"$BIN" profile -q -o kv kv.wasm put sym:k1 sym:v1 2>err &&
"$BIN" profile -q -o two --contract counter.wasm caller.wasm run \
  str:CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ u32:2 2>>err
rc=$?
meta_lines() { python3 - "$@" <<'PY'
import json, sys
for p in sys.argv[1:]:
    for m in json.load(open(p))["meta"]:
        print("%s\t%s" % (m["key"], m["value"]))
PY
}
meta_lines kv/report.json two/report.json >meta.txt
if [ "${SCP_WRITE_GOLDEN:-}" = 1 ]; then
  cp kv/profile.folded "$G/kv-put.folded"
  cp two/profile.folded "$G/two-run.folded"
  cp meta.txt "$G/meta.txt"
fi

NAME="ctor_cli: constructor-less contracts: the same folded stacks as before"
ok eval '[ "$rc" -eq 0 ] && cmp -s kv/profile.folded "$G/kv-put.folded" &&
         cmp -s two/profile.folded "$G/two-run.folded"'

NAME="ctor_cli: constructor-less contracts: the same report meta lines as before"
ok cmp -s meta.txt "$G/meta.txt"

# ---- --constructor-args: the called contract's, as a scenario's

# with_args DIR WASM FUNCTION ARGS: the command line's call with
# --constructor-args ARGS into DIR, the one-contract scenario's with
# "constructor_args": ARGS into sDIR; $rc and $rc2 their statuses
with_args() {
  "$BIN" profile -q -o "$1" "$2" "$3" --constructor-args "$4" 2>err
  rc=$?
  printf '{"contracts": [{"name": "c", "wasm": "%s", "constructor_args": %s}], "calls": [{"function": "%s"}]}\n' \
    "$2" "$4" "$3" >"$1.json"
  "$BIN" profile -q -o "s$1" --scenario "$1.json" 2>>err
  rc2=$?
}
OWNER=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
with_args tok token.wasm decimals \
  "{\"admin\": \"$OWNER\", \"decimal\": 7, \"name\": \"Example Token\", \"symbol\": \"EXT\"}"
NAME="ctor_cli: --constructor-args by name, typed by the spec: the token's decimals are the 7 given"
ok [ "$rc/$rc2/$(report_meta tok/report.json result)" = "0/0/u32:7" ]

NAME="[derived] ctor_cli: --constructor-args: the same totals and folded stacks as the scenario's constructor_args"
ok same_run tok stok/01-decimals

with_args arr ctor_nodebug.wasm get "[\"addr:$OWNER\", \"u32:41\"]"
NAME="ctor_cli: --constructor-args as type:value strings: get returns the start given (41)"
ok [ "$rc/$rc2/$(report_meta arr/report.json result)" = "0/0/u32:41" ]

NAME="[derived] ctor_cli: --constructor-args as strings: the same totals and folded stacks as the scenario"
ok same_run arr sarr/01-get

# ---- what is refused

NAME="ctor_cli: a constructor with parameters and no arguments is refused, pointing to --constructor-args and constructor_args"
"$BIN" profile -q -o x ctor_nodebug.wasm get 2>err
rc=$?
ok one_line_error 3 "ctor_nodebug.wasm: __constructor takes 2 arguments: give them with --constructor-args (the called contract's) or a scenario's \"constructor_args\" (docs/scenarios.md)"

NAME="ctor_cli: a --contract whose constructor has parameters is refused"
"$BIN" profile -q -o x --contract ctor_nodebug.wasm kv.wasm put sym:k1 sym:v1 2>err
rc=$?
ok one_line_error 3 "ctor_nodebug.wasm: __constructor takes 2 arguments"

refuse() {   # refuse NAME STATUS TEXT ARGS...: one line, that status
  NAME="ctor_cli: --constructor-args: $1"; st=$2; text=$3; shift 3
  "$BIN" profile -q -o x "$@" 2>err
  rc=$?
  ok one_line_error "$st" "$text"
}
refuse "a parameter the spec does not have" 3 "token.wasm: __constructor has no parameter 'nope'" \
  token.wasm decimals --constructor-args '{"nope": 1}'
refuse "a missing parameter" 3 "token.wasm: __constructor: missing 'decimal'" \
  token.wasm decimals --constructor-args "{\"admin\": \"$OWNER\"}"
refuse "a value the spec's type refuses" 3 "--constructor-args: argument --admin: not an address strkey" \
  token.wasm decimals --constructor-args '{"admin": 1, "decimal": 7, "name": "n", "symbol": "s"}'
refuse "the wrong count" 3 "token.wasm: __constructor takes 4 arguments, 1 given" \
  token.wasm decimals --constructor-args '["u32:1"]'
refuse "not JSON" 3 "--constructor-args: not a JSON object or array" \
  token.wasm decimals --constructor-args 'xx'
refuse "a contract without a constructor" 3 "kv.wasm: --constructor-args given, but it exports no __constructor" \
  kv.wasm put sym:k1 sym:v1 --constructor-args '[]'
refuse "before protocol 22" 3 "--constructor-args: a constructor runs from protocol 22 on (the ledger's is 21)" \
  --protocol 21 ctor_noargs.wasm get --constructor-args '[]'
refuse "not with a scenario" 2 "--constructor-args goes with the network's deploy" \
  --scenario one.json --constructor-args '[]'
