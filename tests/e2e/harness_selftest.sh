#!/bin/sh
# The test harness against sabotaged copies of what it checks: each
# sabotage must turn the harness red (FAIL lines, a failed count, a
# non-zero exit), never make checks vanish.
#   - scprof with another help text still has every oracle case compared;
#     scprof that runs no sBPF program fails the oracle cases;
#   - an empty oracle folder fails the oracle cases; with SCP_NO_ORACLE=1
#     each case not compared is one SKIP line;
#   - a checking helper that exits non-zero, or prints no check, is a FAIL;
#   - tests/run.sh on a copy whose e2e script exits non-zero or whose
#     cmocka binary crashes reports failures and exits 1, as it does for a
#     script that prints no PASS line or fewer than its PLAN and a binary
#     that passes no test; its last line is
#     the summary, after the evidence lines; it refuses SCP_RECORD_GOLDEN
#     and the other variables that record goldens or thin the run;
#   - a WebAssembly spec file that runs no command fails test_spec.
# A few oracle cases only (SCP_ORACLE_ONLY), to stay quick.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
REPO=$(pwd)
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
CASES='token_mint_to|v3_r0_custom|fixture_token_mint_to'
NCASES=3

# oracle.sh with scprof $1 and the oracle in $2: its lines in $T/o.txt
oracle_run() {
  SCPROF=$1 SCP_ORACLE_DIR=$2 SCP_ORACLE_ONLY=$CASES sh tests/e2e/oracle.sh >"$T/o.txt" 2>&1
}
count() { grep -c "$1" "$T/o.txt"; }

# scprof with its help text replaced: the cases are still all compared
cat >"$T/scprof-help" <<EOS
#!/bin/sh
case "\$1" in -h|--help|help) echo "usage: something else entirely"; exit 0 ;; esac
exec "$BIN" "\$@"
EOS
chmod +x "$T/scprof-help"
NAME="a changed help text: all $NCASES oracle cases still compared with litesvm"
oracle_run "$T/scprof-help" "$ORACLE"
ok [ "$(count '^PASS \[litesvm\]')" -eq $NCASES ]

# scprof that runs no sBPF program: every case fails
cat >"$T/scprof-nosbpf" <<EOS
#!/bin/sh
for a; do case "\$a" in *.so) echo "scprof: not a WebAssembly module" >&2; exit 3 ;; esac; done
exec "$BIN" "\$@"
EOS
chmod +x "$T/scprof-nosbpf"
oracle_run "$T/scprof-nosbpf" "$ORACLE"
NAME="scprof without sBPF support: each oracle case FAILs, none passes or skips"
[ "$(count '^FAIL \[litesvm\]')" -eq $NCASES ] && [ "$(count '^PASS \[litesvm\]')" -eq 0 ] &&
   [ "$(count '^SKIP')" -eq 0 ]; passed $?

# an empty oracle folder
mkdir -p "$T/empty"
oracle_run "$BIN" "$T/empty"
NAME="an empty oracle folder: each oracle case FAILs"
[ "$(count '^FAIL \[litesvm\]')" -eq $NCASES ] && [ "$(count '^SKIP')" -eq 0 ]; passed $?
SCP_NO_ORACLE=1 oracle_run "$BIN" "$T/empty"
NAME="an empty oracle folder under SCP_NO_ORACLE=1: one SKIP per case, $NCASES"
[ "$(count '^SKIP \[litesvm\]')" -eq $NCASES ] && [ "$(count '^FAIL \[litesvm\]')" -eq 0 ]; passed $?
NAME="SCP_ORACLE_ONLY cannot thin a real run: the case count check fails"
ok grep -q '^FAIL every case of cases.sh' "$T/o.txt"

# helpers
helper viewer x sh -c 'echo "PASS fine"; exit 1' >"$T/h1.txt"
helper viewer x sh -c 'exit 0' >"$T/h2.txt"
helper viewer x sh -c 'echo "PASS fine"' >"$T/h3.txt"
NAME="a helper that exits 1 after a PASS is one FAIL"
ok grep -q '^FAIL \[viewer\] x: the helper exited 1' "$T/h1.txt"
NAME="a helper that prints no check is one FAIL"
ok grep -q '^FAIL \[viewer\] x: the helper printed no check' "$T/h2.txt"
NAME="a helper that passes: its line tagged, no FAIL"
ok sh -c "grep -qx 'PASS \[viewer\] fine' '$T/h3.txt' && ! grep -q '^FAIL' '$T/h3.txt'"

# tests/run.sh on a sabotaged copy: an e2e script that prints a PASS and
# exits 2, a cmocka binary that crashes
mkdir -p "$T/repo/tests/e2e" "$T/repo/b/tests/x"
cp tests/run.sh tests/kinds.txt "$T/repo/tests/"
printf 'echo "PASS [derived] looks fine"\necho "NOTE [derived] one note"\nexit 2\n' >"$T/repo/tests/e2e/bad.sh"
printf 'echo "PASS [litesvm] compared"\necho "SKIP [litesvm] not compared (SCP_NO_ORACLE=1)"\n' >"$T/repo/tests/e2e/good.sh"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$T/repo/b/tests/x/test_crash"
chmod +x "$T/repo/b/tests/x/test_crash"
# checks that vanished: a script that printed no PASS line, one that
# printed fewer than its PLAN, a cmocka binary that ran no test
printf 'echo "NOTE [other] nothing checked"\n' >"$T/repo/tests/e2e/nopass.sh"
printf 'echo "PLAN 3"\necho "PASS one"\necho "PASS two"\n' >"$T/repo/tests/e2e/short.sh"
printf '#!/bin/sh\necho "[==========] 0 test(s) run."\necho "[  PASSED  ] 0 test(s)."\n' >"$T/repo/b/tests/x/test_none"
chmod +x "$T/repo/b/tests/x/test_none"
(cd "$T/repo" && sh tests/run.sh b) >"$T/run.txt" 2>&1
rc=$?
NAME="run.sh on a copy with a crashing binary, a failing script and three whose checks vanished: exit 1, 5 failed"
ok sh -c "[ $rc -eq 1 ] && tail -n 1 '$T/run.txt' | grep -qx '4 passed, 5 failed, 1 skipped'"
NAME="run.sh names each vanished check: no PASS line, fewer than the PLAN, no test passed"
ok sh -c "grep -q '^FAIL tests/e2e/nopass.sh printed no PASS line' '$T/run.txt' &&
          grep -q '^FAIL tests/e2e/short.sh printed 2 PASS/SKIP lines, fewer than its PLAN 3' '$T/run.txt' &&
          grep -q '^FAIL b/tests/x/test_none: no test passed' '$T/run.txt'"
NAME="run.sh prints an evidence line per kind before its summary"
ok sh -c "grep -q '^evidence litesvm: 1 passed, 0 failed, 1 skipped' '$T/run.txt' &&
          grep -q '^evidence derived: 1 passed, 0 failed, 0 skipped -- .*; one note\$' '$T/run.txt' &&
          grep -q '^evidence other: 2 passed, 5 failed' '$T/run.txt'"
(cd "$T/repo" && SCP_RECORD_GOLDEN=1 sh tests/run.sh b) >"$T/run2.txt" 2>&1
rc=$?
NAME="run.sh refuses to run with SCP_RECORD_GOLDEN set"
ok sh -c "[ $rc -eq 2 ] && grep -q 'SCP_RECORD_GOLDEN is set' '$T/run2.txt'"
for v in SCP_WRITE_GOLDEN SCP_RECORD SCP_SPEC_ONLY SCP_ORACLE_ONLY; do
  (cd "$T/repo" && env "$v=1" sh tests/run.sh b) >"$T/run3.txt" 2>&1
  rc=$?
  NAME="run.sh refuses to run with $v set (it records or thins what the tests compare)"
  ok sh -c "[ $rc -eq 2 ] && grep -q '$v is set' '$T/run3.txt'"
done

# a spec file whose every command is text-format: test_spec fails it
if [ -x "$B/tests/wasm/test_spec" ] && command -v wast2json >/dev/null 2>&1; then
  mkdir -p "$T/spec/tests/data/wasm-testsuite" "$T/spec/b"
  printf '(assert_malformed (module quote "(func (nop") "unexpected end")\n' \
    >"$T/spec/tests/data/wasm-testsuite/textonly.wast"
  (cd "$T/spec" && SCP_BUILD=b SCP_SPEC_ONLY=textonly "$B/tests/wasm/test_spec") >"$T/spec.txt" 2>&1
  rc=$?
  NAME="a spec file that runs no command fails test_spec"
  ok sh -c "[ $rc -ne 0 ] && grep -q 'textonly.wast: no command ran' '$T/spec.txt'"
else
  echo "FAIL $B/tests/wasm/test_spec or wast2json missing"
fi
