#!/bin/sh
# Runs every test: the cmocka unit-test binaries under BUILD/tests, then the
# end-to-end scripts tests/e2e/*.sh.  Prints each suite's result and ends
# with one summary line "N passed, N failed, N skipped" (skipped: checks
# that need something the repository does not carry, e.g. the reference's
# contracts named by SCP_REF_WASMS, or a viewer that is not installed).  Exit status 1 on any failure.
#   usage: tests/run.sh BUILD_DIR
set -u
BUILD=${1:-build}
export SCPROF="$BUILD/bin/scprof" SCP_BUILD="$BUILD"
pass=0 fail=0 skip=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in $(find "$BUILD/tests" -type f -name 'test_*' ! -name '*.d' | sort); do
  CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log" 2>&1
  rc=$?
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  p=${p:-0} f=${f:-0} k=${k:-0}
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or aborted
  pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
  sk=; [ "$k" -ne 0 ] && sk=", $k skipped"
  if [ "$f" -ne 0 ]; then
    echo "FAIL $t ($p passed, $f failed$sk)"; cat "$log"
  else
    echo "ok   $t ($p passed$sk)"
  fi
done

for s in $(ls tests/e2e/*.sh 2>/dev/null | sort); do
  sh "$s" >"$log" 2>&1
  rc=$?
  p=$(grep -c '^PASS' "$log")
  f=$(grep -c '^FAIL' "$log")
  k=$(grep -c '^SKIP' "$log")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
  sk=; [ "$k" -ne 0 ] && sk=", $k skipped"
  if [ "$f" -ne 0 ]; then
    echo "FAIL $s ($p passed, $f failed$sk)"; grep -v '^PASS' "$log"
  else
    echo "ok   $s ($p passed$sk)"
  fi
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
