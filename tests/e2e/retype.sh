#!/bin/sh
# End-to-end: a scenario's calls are typed by the spec of the code their
# contract runs when they run.  retype_v1's f takes a u32, retype_v2's f a
# struct Pair (a map ScVal); a scenario calls f with v1's arguments,
# upgrades the contract to v2 ("@v2") and calls f with v2's.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 12

F=$B/tests/fixtures/wasm
cp "$F/retype_v1.wasm" "$F/retype_v2.wasm" "$T/"
H2=$(sha256sum "$T/retype_v2.wasm" | cut -c1-64)
# CPU and memory of a report folder: "CPU MEM "; same_totals A B: A's
# are B's (and there are some)
totals() { awk '$1 == "CPU" || $1 == "Memory" {gsub(",", "", $2); printf "%s ", $2; if (++n == 2) exit}' "$1/report.txt"; }
same_totals() { [ -n "$(totals "$2")" ] && [ "$(totals "$1")" = "$(totals "$2")" ]; }

cat >"$T/s.json" <<JSON
{"contracts": [{"name": "c", "wasm": "retype_v1.wasm"},
               {"name": "v2", "wasm": "retype_v2.wasm", "upload_only": true}],
 "calls": [{"contract": "c", "function": "f", "args": {"x": 5}},
           {"contract": "c", "function": "upgrade", "args": {"new_wasm_hash": "@v2"}},
           {"contract": "c", "function": "f", "args": {"x": {"a": 1, "b": 2}}},
           {"contract": "c", "function": "f", "args": [{"a": 3, "b": 4}]}]}
JSON
NAME="retype: f(u32), upgrade, f(Pair) by name and in the array form (exit 0)"
"$BIN" profile --scenario "$T/s.json" -o "$T/o" -q 2>"$T/err"; rc=$?
ok [ "$rc" -eq 0 ]
NAME="retype: the first f took a u32 (result u32:6)"
ok sh -c "sed 's/  */ /g' '$T/o/01-f/report.txt' | grep -qxF ' arguments u32:5' &&
          grep -q '^  result  *u32:6$' '$T/o/01-f/report.txt'"
NAME="retype: after the upgrade f took a Pair, typed by v2's spec (a map; result u32:7)"
ok sh -c "sed 's/  */ /g' '$T/o/03-f/report.txt' | grep -qxF ' arguments Map{sym:a: u32:1, sym:b: u32:2}' &&
          grep -q '^  result  *u32:7$' '$T/o/03-f/report.txt' &&
          grep -q '^  wasm sha256  *$H2$' '$T/o/03-f/report.txt'"
NAME="retype: the array form is typed by v2's spec too"
ok sh -c "sed 's/  */ /g' '$T/o/04-f/report.txt' | grep -qxF ' arguments Map{sym:a: u32:3, sym:b: u32:4}'"

# Each f costs what a lone run of its version costs: the same code, the
# same arguments, an instance and code entry of the same sizes.
"$BIN" profile "$T/retype_v1.wasm" f u32:5 -o "$T/l1" -q
"$BIN" profile "$T/retype_v2.wasm" f --x '{"a": 1, "b": 2}' -o "$T/l2" -q
NAME="retype: the v1 call's CPU and memory equal a lone run of retype_v1 f u32:5"
ok same_totals "$T/o/01-f" "$T/l1"
NAME="retype: the v2 call's CPU and memory equal a lone run of retype_v2 f {a: 1, b: 2}"
ok same_totals "$T/o/03-f" "$T/l2"
NAME="[pin] retype: the two calls' CPU and memory (103,516 / 205,565 and 104,950 / 205,733)"
ok [ "$(totals "$T/o/01-f")$(totals "$T/o/03-f")" = "103516 205565 104950 205733 " ]
NAME="retype: every profile's folded stacks add up to its CPU"
ok sh -c "for d in '$T'/o/0*; do . '$(dirname "$0")/lib/check.sh'; folded_is_cpu \"\$d\" || exit 1; done"

# v1's arguments after the upgrade: v1's spec took them when the file was
# read, v2's refuses them when the call comes.  The calls before it ran:
# their profiles are written; the refused call runs nothing.
cat >"$T/r.json" <<JSON
{"contracts": [{"name": "c", "wasm": "retype_v1.wasm"},
               {"name": "v2", "wasm": "retype_v2.wasm", "upload_only": true}],
 "calls": [{"contract": "c", "function": "upgrade", "args": {"new_wasm_hash": "@v2"}},
           {"contract": "c", "function": "f", "args": {"x": 5}},
           {"contract": "c", "function": "f", "args": {"x": {"a": 1, "b": 2}}}]}
JSON
NAME="retype: v1's arguments after the upgrade are refused (exit 3), naming the call and v2's hash"
"$BIN" profile --scenario "$T/r.json" -o "$T/r" -q 2>"$T/err"; rc=$?
ok one_line_error 3 "calls[1]: f: c runs code $H2 ($T/retype_v2.wasm) now, whose contractspecv0 refuses the arguments: argument --x: Pair is a JSON object"
NAME="retype: the other calls ran and were written; the refused one has its line in scenario.txt"
ok sh -c "[ -f '$T/r/01-upgrade/report.txt' ] && [ -f '$T/r/03-f/report.txt' ] && [ ! -d '$T/r/02-f' ] &&
          grep -q '^2	c	f	refused: f: c runs code $H2 ' '$T/r/scenario.txt'"

# A contract no call gives code to is typed by its own spec alone, before
# anything runs (no output folder).
cat >"$T/u.json" <<JSON
{"contracts": [{"name": "c", "wasm": "retype_v1.wasm"}],
 "calls": [{"contract": "c", "function": "f", "args": {"x": 5}},
           {"contract": "c", "function": "f", "args": {"x": {"a": 1, "b": 2}}}]}
JSON
NAME="retype: v2's arguments without an upgrade are refused up front (exit 3, nothing written)"
"$BIN" profile --scenario "$T/u.json" -o "$T/u" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF 'calls[1]: argument --x' '$T/err' && [ ! -e '$T/u' ]"
# Arguments no code the contract can have by then types: refused up front.
cat >"$T/n.json" <<JSON
{"contracts": [{"name": "c", "wasm": "retype_v1.wasm"},
               {"name": "v2", "wasm": "retype_v2.wasm", "upload_only": true}],
 "calls": [{"contract": "c", "function": "upgrade", "args": {"new_wasm_hash": "@v2"}},
           {"contract": "c", "function": "f", "args": {"x": "zz"}}]}
JSON
NAME="retype: arguments neither version types are refused up front (exit 3, nothing written)"
"$BIN" profile --scenario "$T/n.json" -o "$T/n" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF 'calls[1]: argument --x' '$T/err' && [ ! -e '$T/n' ]"
