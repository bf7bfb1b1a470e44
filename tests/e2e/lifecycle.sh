#!/bin/sh
# End-to-end: a contract's lifecycle in profiles and scenarios.  A call
# of a contract that is not deployed names the contract and how to
# deploy it; a scenario uploads code, deploys it through a factory,
# upgrades it and calls the new version (see below).
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 15

# caller.wasm calls counter.increment on the contract it is given
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
NAME="lifecycle: a callee that is not deployed: the run traps (exit 10), a partial profile"
"$BIN" profile "$B/examples/caller.wasm" run "string:$ID" u32:1 -o "$T/m" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 10 ] && [ -f '$T/m/report.txt' ]"
NAME="lifecycle: the error names the contract id and --contract"
ok grep -qF "contract $ID is not deployed (give its Wasm with --contract FILE.wasm" "$T/err"
NAME="lifecycle: the report's status says it too"
# (the header's keys are padded to its longest: squeeze the spaces)
ok sh -c "sed 's/  */ /g' '$T/m/report.txt' | grep -qF 'status contract trapped: call: trying to get non-existing value for contract storage key: contract $ID is not deployed'"
NAME="lifecycle: with --contract the same call runs"
"$BIN" profile --contract "$B/examples/counter.wasm" "$B/examples/caller.wasm" run "string:$ID" u32:1 \
  -o "$T/ok" -q 2>"$T/err"; rc=$?
ok [ "$rc" -eq 0 ]

# A scenario that uploads two versions of a pool (upload_only: code, no
# instance), deploys the first through a factory ("bytes:@pool": its code
# hash), calls it with a struct and an enum in the array form, upgrades
# it to the second ({"new_wasm_hash": "@pool_v2"}) and calls the function
# only the second has, typed by the second's spec.
F=$B/tests/fixtures/wasm
cp "$B/examples/factory.wasm" "$F/pool_v1.wasm" "$F/pool_v2.wasm" "$T/"
G1=GDIEVMRSOQV3JKZ2CNUL2RQV4TTNAISKW4NAC25PQUQKGMWJO6DTOAE7
SALT=0101010101010101010101010101010101010101010101010101010101010101
cat >"$T/life.json" <<JSON
{"contracts": [{"name": "factory", "wasm": "factory.wasm"},
               {"name": "pool", "wasm": "pool_v1.wasm", "upload_only": true,
                "deployer": "$G1", "salt": "$SALT"},
               {"name": "pool_v2", "wasm": "pool_v2.wasm", "upload_only": true}],
 "calls": [{"contract": "factory", "function": "deploy", "args": ["addr:$G1", "bytes:@pool", "bytes:$SALT"]},
           {"contract": "pool", "function": "set", "args": [{"a": 1, "b": 2}, {"Sell": 5}]},
           {"contract": "pool", "function": "upgrade", "args": {"new_wasm_hash": "@pool_v2"}},
           {"contract": "pool", "function": "migrate", "args": {"to": 41}}]}
JSON
NAME="lifecycle: upload, deploy through a factory, upgrade, call the new function (exit 0)"
"$BIN" profile --scenario "$T/life.json" -o "$T/l" -q 2>"$T/err"; rc=$?
ok [ "$rc" -eq 0 ]
POOL=$(grep -o 'pool_v1.wasm = C[A-Z0-9]*' "$T/l/01-deploy/report.txt" | head -1 | sed 's/.* = //')
NAME="lifecycle: the factory deployed the pool at the id its deployer and salt give"
ok grep -q "^  result  *addr:$POOL" "$T/l/01-deploy/report.txt"
NAME="lifecycle: the factory's create_contract was given the pool's code hash"
H=$(sha256sum "$T/pool_v1.wasm" | cut -c1-64)
ok grep -q "bytes:$H" "$T/l/01-deploy/report.txt"
NAME="lifecycle: set took a struct and an enum from the array form (result u32:1)"
ok grep -q "^  result  *u32:1$" "$T/l/02-set/report.txt"
NAME="lifecycle: the arguments as typed (map and vec ScVals)"
ok sh -c "sed 's/  */ /g' '$T/l/02-set/report.txt' | grep -qF 'arguments Map{sym:a: u32:1, sym:b: u32:2}, Vec[sym:Sell, u32:5]'"
NAME="lifecycle: upgrade ran (result u32:1)"
ok grep -q "^  result  *u32:1$" "$T/l/03-upgrade/report.txt"
NAME="lifecycle: migrate, only in pool_v2's spec, ran as pool_v2 (result u32:42)"
ok grep -q "^  result  *u32:42$" "$T/l/04-migrate/report.txt"
NAME="lifecycle: after the upgrade the pool runs pool_v2.wasm's code"
H2=$(sha256sum "$T/pool_v2.wasm" | cut -c1-64)
ok sh -c "grep -q '^  wasm sha256  *$H2$' '$T/l/04-migrate/report.txt' && grep -q '^contract:pool_v2.wasm;migrate ' '$T/l/04-migrate/profile.folded'"
NAME="lifecycle: every profile's folded stacks add up to its CPU"
ok sh -c "for d in '$T'/l/0*; do . '$(dirname "$0")/lib/check.sh'; folded_is_cpu \"\$d\" || exit 1; done"

NAME="lifecycle: an upload_only contract takes no constructor_args (exit 65)"
cat >"$T/bad.json" <<JSON
{"contracts": [{"name": "p", "wasm": "pool_v1.wasm", "upload_only": true, "constructor_args": []}],
 "calls": [{"contract": "p", "function": "set", "args": [{"a": 1, "b": 2}, "Buy"]}]}
JSON
"$BIN" profile --scenario "$T/bad.json" -o "$T/x" -q 2>"$T/err"; rc=$?
ok one_line_error 65 "contracts[0]: an \"upload_only\" contract is not deployed: no \"constructor_args\""
NAME="lifecycle: a JSON value in the array form of a contract without a spec is refused (exit 65)"
cat >"$T/bad2.json" <<JSON
{"contracts": [{"name": "factory", "wasm": "factory.wasm"}],
 "calls": [{"contract": "factory", "function": "deploy", "args": [{"a": 1}]}]}
JSON
"$BIN" profile --scenario "$T/bad2.json" -o "$T/x" -q 2>"$T/err"; rc=$?
ok one_line_error 65 "calls[0]: \"args\" as an array holds \"type:value\" strings, or JSON values typed"
