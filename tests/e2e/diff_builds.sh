#!/bin/sh
# End-to-end: `scprof diff` between two builds of one contract.
# tests/fixtures/wasm/diff_v2.c is diff_v1.c with one function more
# (extra) and run's call of it; the new function takes the index after
# run's, so sum_to and fold move from func[1], func[2] to func[2], func[3]
# with their bodies unchanged.  The *_stripped builds have no DWARF and no
# name section (func[N]; run keeps its export name).  Checks: the only
# functions the diff reports are extra (new) and run (its call), with
# DWARF and stripped; the stripped pair is matched by body hash; nothing is
# reported gone; the warning that the Wasm files differ, its absence for
# one file against itself; the body hashes in report.json.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 15
F=$B/tests/fixtures/wasm

for v in v1 v2 v1_stripped v2_stripped; do
  "$BIN" profile "$F/diff_$v.wasm" run u32:20 -o "$T/$v" -q 2>"$T/err" || echo "FAIL diff builds: profile diff_$v.wasm: $(cat "$T/err")"
done

# The functions of the self CPU table of diff folder $1, sorted, joined
# by |: the rows between its heading line and the next blank line, the
# header row skipped, the function column only (after "%  " or "new  ").
fn_rows() {
  awk 'index($0, "Largest changes by function, self CPU") == 1 {on = 1; getline; next}
       on && /^$/ {on = 0} on' "$1/diff.txt" | sed 's/.*%  //;s/.*new  //' | sort | tr '\n' '|'
}

NAME="diff builds: DWARF builds diff (exit 0)"
"$BIN" diff "$T/v1/report.json" "$T/v2/report.json" -o "$T/d" -q 2>"$T/err"; rc=$?
ok [ "$rc" -eq 0 ]
NAME="diff builds: DWARF: self CPU rows are extra (new), run and vm:instantiate only"
ok [ "$(fn_rows "$T/d")" = 'extra (tests/fixtures/wasm/diff_v1.c:12)|run (tests/fixtures/wasm/diff_v1.c:34)|vm:instantiate|' ]
NAME="diff builds: DWARF: extra is new with its whole cost"
ok grep -q "^       0     644    +644      new  extra (tests/fixtures/wasm/diff_v1.c:12)$" "$T/d/diff.txt"
NAME="diff builds: DWARF: sum_to and fold are unchanged (no row), nothing gone"
ok sh -c "! grep -q 'sum_to\|fold\|gone\|-100' '$T/d/diff.txt'"
NAME="diff builds: DWARF: the functions line counts the pairing"
ok grep -q "^  functions  5 matched, 0 only before, 1 only now$" "$T/d/diff.txt"
NAME="diff builds: the two Wasm files differ: a warning names both hashes"
h1=$(grep -o '"wasm sha256","value":"[0-9a-f]*' "$T/v1/report.json" | sed 's/.*"//' | cut -c1-12)
h2=$(grep -o '"wasm sha256","value":"[0-9a-f]*' "$T/v2/report.json" | sed 's/.*"//' | cut -c1-12)
ok sh -c "[ -n '$h1' ] && [ '$h1' != '$h2' ] && grep -q '^  warning  different Wasm files (sha256 $h1... before, $h2... now)' '$T/d/diff.txt'"
NAME="diff builds: report.json's wasm sha256 is the file's"
ok [ "$h1" = "$(sha256sum "$F/diff_v1.wasm" | cut -c1-12)" ]

NAME="diff builds: stripped builds diff (exit 0)"
"$BIN" diff "$T/v1_stripped/report.json" "$T/v2_stripped/report.json" -o "$T/s" -q 2>"$T/err"; rc=$?
ok [ "$rc" -eq 0 ]
NAME="diff builds: stripped: sum_to and fold paired by body hash, extra only now"
ok grep -q "^  functions  3 matched (2 by body hash), 0 only before, 1 only now$" "$T/s/diff.txt"
NAME="diff builds: stripped: self CPU rows are extra as func[1] (new), run, vm:instantiate only"
ok [ "$(fn_rows "$T/s")" = 'func[1] [no symbols]|run [export]|vm:instantiate|' ]
NAME="diff builds: stripped: extra is new with its whole cost"
ok grep -q '^       0     644    +644      new  func\[1\] \[no symbols\]$' "$T/s/diff.txt"
NAME="diff builds: stripped: nothing gone"
ok sh -c "! grep -q 'gone\|-100' '$T/s/diff.txt'"
NAME="diff builds: the body hashes are in report.json (sum_to's the same in both builds)"
b1=$(grep -o '"func\[1\] \[no symbols\]"[^}]*"body":"[0-9a-f]*' "$T/v1_stripped/report.json" | sed 's/.*"//')
b2=$(grep -o '"func\[2\] \[no symbols\]"[^}]*"body":"[0-9a-f]*' "$T/v2_stripped/report.json" | sed 's/.*"//')
ok test "${#b1}" -eq 64 -a "$b1" = "$b2"

# (the inlined val_to_u32 / val_from_u32 exist only where DWARF does: gone)
NAME="diff builds: DWARF before, stripped now: named functions pair with func[N] by body"
"$BIN" diff "$T/v1/report.json" "$T/v2_stripped/report.json" -o "$T/m" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && grep -q '^  functions  3 matched (2 by body hash), 2 only before, 1 only now$' '$T/m/diff.txt' && ! grep -q 'sum_to\|fold\|func\[2\]\|func\[3\]' '$T/m/diff.txt'"

NAME="diff builds: one file against itself: no warning, nothing changed"
"$BIN" diff "$T/v1/report.json" "$T/v1/report.json" -o "$T/same" -q 2>"$T/err"; rc=$?
ok sh -c "[ $rc -eq 0 ] && ! grep -q warning '$T/same/diff.txt' && grep -q '^  functions  5 matched, 0 only before, 0 only now$' '$T/same/diff.txt'"
