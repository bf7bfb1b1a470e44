#!/bin/sh
# Runs every test: the cmocka unit-test binaries under BUILD/tests, then the
# end-to-end scripts tests/e2e/*.sh.  Prints each suite's result, then one
# line per kind of evidence ("evidence KIND: N passed, N failed, N skipped
# -- what it is; notes"), and ends with one summary line "N passed, N
# failed, N skipped" (skipped: a check that needs something outside the
# repository, named in its SKIP line, e.g. the litesvm oracle under
# SCP_NO_ORACLE=1 or a viewer that is not installed).  Exit status 1 on any
# failure.
#   usage: tests/run.sh BUILD_DIR
# A check cannot vanish: a cmocka binary that passes no test, an e2e script
# that prints no PASS line, or one that prints fewer PASS and SKIP lines
# than the N of its "PLAN N" line (tests/e2e/lib/check.sh's e2e_setup N)
# is one failure more.
# Kinds: an e2e line carries its kind as a tag ("PASS [litesvm] ..."); a
# cmocka binary or test has its kind in tests/kinds.txt; untagged checks
# count as "other".  A line "NOTE [KIND] TEXT" from any test adds TEXT to
# its kind's line (counts a test wants known, e.g. commands skipped).
set -u
BUILD=${1:-build}
if [ -n "${SCP_RECORD_GOLDEN:-}" ]; then
  # it makes test_out rewrite its goldens instead of comparing with them
  echo "tests/run.sh: SCP_RECORD_GOLDEN is set: unset it (tests/output/record-golden.sh records)" >&2
  exit 2
fi
# the same for the other recorders (test_snapshot's fixture, the e2e
# goldens of sdk_constructor.sh and ctor_cli.sh), and the variables that
# thin a run to a few cases: each would make checks pass without comparing
for v in SCP_WRITE_GOLDEN SCP_RECORD SCP_SPEC_ONLY SCP_ORACLE_ONLY; do
  if eval "[ -n \"\${$v:-}\" ]"; then
    echo "tests/run.sh: $v is set: unset it (it records or thins what the tests compare)" >&2
    exit 2
  fi
done
export SCPROF="$BUILD/bin/scprof" SCP_BUILD="$BUILD"
pass=0 fail=0 skip=0
log=$(mktemp) tally=$(mktemp) notes=$(mktemp)
trap 'rm -f "$log" "$tally" "$notes"' EXIT
KINDS=tests/kinds.txt

# the NOTE lines of $log, as "KIND<TAB>TEXT"
take_notes() {
  sed -n 's/^NOTE \[\([a-z]*\)\] \(.*\)/\1\t\2/p' "$log" >>"$notes"
}

for t in $(find "$BUILD/tests" -type f -name 'test_*' ! -name '*.d' | sort); do
  CMOCKA_MESSAGE_OUTPUT=stdout "$t" >"$log" 2>&1
  rc=$?
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
  p=${p:-0} f=${f:-0} k=${k:-0}
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or aborted
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL $t: no test passed" >>"$log"; fi
  pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
  # passes by test name (a test may have its own kind), the rest by binary
  rel=${t#"$BUILD/tests/"}
  sed -n 's/^\[       OK \] \(.*\)/\1/p' "$log" |
    awk -v b="$rel" -v f="$f" -v k="$k" -v p="$p" '
      FILENAME == ARGV[1] { if ($0 !~ /^#/ && NF == 2) kind[$2] = $1; next }
      { t = (b ":" $0) in kind ? kind[b ":" $0] : (b in kind ? kind[b] : "other"); n[t]++; ok++ }
      END { d = b in kind ? kind[b] : "other"
            for (t in n) print t, n[t], 0, 0
            print d, p - ok, f, k }' "$KINDS" - >>"$tally"
  take_notes
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
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL $s exited $rc" >>"$log"; fi
  # checks cannot vanish: a script with no PASS line, or fewer PASS and
  # SKIP lines than its "PLAN N" line (e2e_setup N) promises, fails
  plan=$(sed -n 's/^PLAN \([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)
  if [ "$p" -eq 0 ]; then
    f=$((f + 1)); echo "FAIL $s printed no PASS line" >>"$log"
  elif [ -n "$plan" ] && [ $((p + k)) -lt "$plan" ]; then
    f=$((f + 1)); echo "FAIL $s printed $((p + k)) PASS/SKIP lines, fewer than its PLAN $plan" >>"$log"
  fi
  pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
  awk '/^(PASS|FAIL|SKIP)/ { t = "other"; if ($2 ~ /^\[[a-z]+\]$/) t = substr($2, 2, length($2) - 2)
                             c[t] += 0; if ($1 == "PASS") p[t]++; else if ($1 == "FAIL") f[t]++; else s[t]++ }
       END { for (t in c) print t, p[t] + 0, f[t] + 0, s[t] + 0 }' "$log" >>"$tally"
  take_notes
  sk=; [ "$k" -ne 0 ] && sk=", $k skipped"
  if [ "$f" -ne 0 ]; then
    echo "FAIL $s ($p passed, $f failed$sk)"; grep -v '^PASS' "$log"
  else
    echo "ok   $s ($p passed$sk)"
  fi
done

awk -F '\t' '
  FILENAME == ARGV[1] { note[$1] = note[$1] (note[$1] == "" ? "" : "; ") $2; next }
  { split($0, a, " "); p[a[1]] += a[2]; f[a[1]] += a[3]; s[a[1]] += a[4] }
  END {
    what["litesvm"] = "compared with litesvm 1.5.0, live"
    what["trace"] = "compared with the reference traces (rs-soroban-env v28.0.2)"
    what["spec"] = "run from the WebAssembly spec suite"
    what["viewer"] = "read by real viewers and llvm-symbolizer"
    what["vector"] = "published known answers (test vectors)"
    what["derived"] = "figures worked out by hand from the rules"
    what["pin"] = "regression pins (recorded numbers, goldens scprof wrote)"
    what["other"] = "behaviour, errors, internal consistency (untagged)"
    n = split("litesvm trace spec viewer vector derived pin other", order, " ")
    for (t in p) if (!(t in what)) { order[++n] = t; what[t] = "unknown kind" }
    for (t in note) if (!(t in p)) { order[++n] = t; what[t] = "(no checks)" }
    for (i = 1; i <= n; i++) {
      t = order[i]
      printf "evidence %s: %d passed, %d failed, %d skipped -- %s%s\n", t, p[t], f[t], s[t], what[t],
             note[t] == "" ? "" : "; " note[t]
    }
  }' "$notes" "$tally"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
