#!/bin/sh
# End-to-end: arguments by name from the contract's contractspecv0 section.
# tests/fixtures/wasm/spec_args.c carries a hand-encoded spec (with UDT and
# event entries the decoder skips).  Named arguments must give the same
# profile as the typed positional form; every kind of scalar parameter
# arrives with the Val tag its type gives; errors are one line with the
# documented exit status.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 41
W=$B/tests/fixtures/wasm/spec_args.wasm
G=GAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB7JZX
C=CADQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQP5KR
U256MAX=115792089237316195423570985008687907853269984665640564039457584007913129639935

# one_line_error STATUS [TEXT]: the last run failed with STATUS and one
# stderr line (holding TEXT)
# ran_and FILE TEXT: the last run succeeded and FILE holds TEXT
ran_and() { [ "$rc" -eq 0 ] && grep -q -- "$2" "$1"; }

# --list and FUNCTION omitted
"$BIN" profile "$W" --list >"$T/list" 2>"$T/err"
rc=$?
NAME="--list exits 0 (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="--list counts the functions (UDT and event entries skipped)"; ok grep -q "5 functions (contractspecv0)" "$T/list"
NAME="--list shows parameters and types"
ok grep -q "^  transfer --from <address> --to <address> --amount <i128> -> void$" "$T/list"
NAME="--list shows compound types"
ok grep -q "nested --pair <Pair> --list <vec<u32>> --m <map<symbol, i128>> --t <tuple<u32, bool>> --r <result<u32, error>> -> void" "$T/list"
NAME="--list shows the doc's first line"; ok grep -q "^      Adds two numbers.$" "$T/list"
"$BIN" profile "$W" >"$T/list2" 2>"$T/err"
rc=$?
NAME="FUNCTION omitted lists the functions (exit $rc)"; ok eval '[ "$rc" -eq 0 ] && cmp -s "$T/list" "$T/list2"'

# named == positional, byte for byte
"$BIN" profile -o "$T/n" -q -f report,folded,json "$W" add --a 2 --b 40
rc=$?
NAME="add by name (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="add by name computes 42"; ok grep -q "result *u32:42" "$T/n/report.txt"
"$BIN" profile "$W" add u32:2 u32:40 -o "$T/p" -q -f report,folded,json
NAME="named and positional give the same folded profile"; ok cmp -s "$T/n/profile.folded" "$T/p/profile.folded"
NAME="named and positional give the same report"; ok cmp -s "$T/n/report.txt" "$T/p/report.txt"
"$BIN" profile "$W" add --b=40 --a=2 -o "$T/e" -q -f folded
NAME="--NAME=VALUE in any order"; ok cmp -s "$T/n/profile.folded" "$T/e/profile.folded"

"$BIN" profile "$W" transfer --from $G --to $C --amount -100000000000000000000 -o "$T/t" -q -f report,folded
rc=$?
NAME="transfer with G/C addresses and a large negative i128 (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="the from address authorized the call"; ok grep -q "$G authorized transfer" "$T/t/report.txt"
"$BIN" profile "$W" transfer addr:$G addr:$C i128:-100000000000000000000 -o "$T/t2" -q -f report,folded
NAME="transfer: named == positional"; ok cmp -s "$T/t/profile.folded" "$T/t2/profile.folded"

"$BIN" profile "$W" kinds --flag true --when 1700000000 --wait 99999999999999999 \
  --big $U256MAX --neg -5 --data 00ff --key 0xdeadbeef --text hello \
  --sym a_long_symbol_name --maybe 3 -o "$T/k" -q -f report,folded
rc=$?
NAME="every scalar kind by name (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="every argument arrives with its type's Val tag"; ok grep -q "result *u32:1023" "$T/k/report.txt"
"$BIN" profile "$W" kinds bool:true timepoint:1700000000 duration:99999999999999999 \
  u256:$U256MAX i256:-5 bytes:00ff bytes:0xdeadbeef str:hello sym:a_long_symbol_name u32:3 \
  -o "$T/k2" -q -f folded
NAME="kinds: named == positional"; ok cmp -s "$T/k/profile.folded" "$T/k2/profile.folded"
"$BIN" profile "$W" kinds --flag false --when 1 --wait 2 --big 3 --neg 4 --data "" --key 01020304 \
  --text "" --sym s -o "$T/k3" -q -f report
rc=$?
NAME="an omitted option<u32> is void (exit $rc)"; ok ran_and "$T/k3/report.txt" "result *u32:1023"

# parameters named like scprof options: after FUNCTION they are the parameters
"$BIN" profile -q -f report -o "$T/f" "$W" fmt --format 3 --top 4
rc=$?
NAME="--format/--top after FUNCTION are the contract's parameters (exit $rc)"
ok ran_and "$T/f/report.txt" "result *u32:34"
NAME="the scprof options before it still apply"; ok [ ! -e "$T/f/profile.folded" ]

# errors: one line, exit status 3 (bad argument)
"$BIN" profile "$W" add --a 2 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="missing --b: one line, exit 3 (exit $rc)"; ok one_line_error 3
NAME="missing: lists the parameters"; ok grep -q "add: missing --b (usage: add --a <u32> --b <u32> -> u32)" "$T/err"
NAME="nothing written on a bad argument"; ok [ ! -e "$T/x" ]
"$BIN" profile "$W" add -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="no arguments at all: one line, exit 3 (exit $rc)"; ok one_line_error 3 "missing --a, --b"
"$BIN" profile "$W" add --a 1 --b 2 --c 3 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="unknown --c: one line, exit 3 (exit $rc)"; ok one_line_error 3
NAME="unknown: lists the parameters"; ok grep -q -- "--c is not a parameter of add (usage: add --a <u32> --b <u32> -> u32)" "$T/err"
"$BIN" profile "$W" add --a banana --b 2 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="bad value: one line, exit 3 (exit $rc)"; ok one_line_error 3 "argument --a: not a u32"
"$BIN" profile "$W" add --a 1 --a 2 --b 3 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="repeated name: exit 3 (exit $rc)"; ok one_line_error 3
"$BIN" profile "$W" add --a 1 u32:2 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="named and positional mixed: exit 3 (exit $rc)"; ok one_line_error 3
"$BIN" profile -o "$T/x" -q "$W" add --a 1 --b -q 2>"$T/err"; rc=$?
NAME="a value that looks like an option is the value: exit 3 (exit $rc)"; ok one_line_error 3 "argument --b: not a u32"
"$BIN" profile "$W" kinds --flag true --when 1 --wait 2 --big 3 --neg 4 --data 00 --key 0102 --text t --sym s -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="bytesn<4> with 2 bytes: exit 3 (exit $rc)"; ok one_line_error 3 "bytesn<4> takes exactly 4 bytes"
"$BIN" profile "$W" transfer --from GBAD --to $C --amount 1 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="bad strkey: exit 3 (exit $rc)"; ok one_line_error 3 "argument --from: not an address strkey"
"$BIN" profile "$W" nested --pair 1 --list 1 --m 1 --t 1 --r 1 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="a UDT parameter takes JSON: error naming its form, exit 3 (exit $rc)"
ok one_line_error 3 "argument --pair: Pair is a JSON object by field name"
"$BIN" profile "$W" nested --pair '{"a": 1, "b": [null, "5"]}' --list '[1]' --m '{}' --t '[1, true]' --r 1 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="a result parameter: unsupported-type error naming it, exit 3 (exit $rc)"
ok one_line_error 3 "argument --r: type result<u32, error> cannot be given as an argument yet"
"$BIN" profile "$W" nosuch --x 1 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="a function not in the spec: one line, exit 4 (exit $rc)"
ok one_line_error 4 "no function nosuch in its contractspecv0 (functions: add, transfer, kinds, nested, fmt)"

# contracts without a spec keep working as before
DEMO=$B/examples/demo.wasm
"$BIN" profile "$DEMO" run u32:5 -o "$T/d" -q -f report; rc=$?
NAME="no spec: type:value still works (exit $rc)"; ok [ "$rc" -eq 0 ]
"$BIN" profile "$DEMO" run --n 5 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="no spec: a named argument is a one-line error, exit 3 (exit $rc)"; ok one_line_error 3 "no contractspecv0 section"
"$BIN" profile "$DEMO" --list >"$T/out" 2>"$T/err"; rc=$?
NAME="no spec: --list lists the exported functions with their WASM signatures (exit $rc)"
ok sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && grep -q '^$DEMO: 1 exported function (no contractspecv0 section' '$T/out' &&
          grep -qx '  run(i64) -> i64' '$T/out'"
"$BIN" profile "$DEMO" nosuch u32:1 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="no spec: an unknown function lists the exported ones, exit 4 (exit $rc)"
ok one_line_error 4 "no exported function 'nosuch' (exported: run)"

# a malformed spec: one line naming the file and the byte offset, exit 65
# (the first entry's kind word, right after the section name, set to 9)
OFF=$(grep -boa contractspecv0 "$W" | head -n 1 | cut -d: -f1)
OFF=$((OFF + 14))
cp "$W" "$T/bad.wasm"
printf '\000\000\000\011' | dd of="$T/bad.wasm" bs=1 seek="$OFF" conv=notrunc 2>/dev/null
"$BIN" profile "$T/bad.wasm" add --a 1 --b 2 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="malformed spec: one line, exit 65 (exit $rc)"; ok one_line_error 65
NAME="malformed spec: names the file and the offset"
ok grep -q "$T/bad.wasm: contractspecv0: malformed XDR at byte $OFF (unknown entry kind)" "$T/err"
