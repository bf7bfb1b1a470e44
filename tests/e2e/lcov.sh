#!/bin/sh
# End-to-end checks of --format lcov: the tracefile of a Soroban call, an
# sBPF instruction and a scenario (one summed over its calls), each line's
# count and each function's calls equal to the profiles' own (report.json,
# tests/e2e/lcov_check.py), and genhtml (Debian's lcov) rendering each
# without error; lcov is not among the default outputs; size refuses it.
# Prints PASS / FAIL / SKIP lines.  $SCPROF is the binary, $SCP_BUILD the
# build folder; run from the repository root (tests/run.sh does).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 9

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
have() { command -v "$1" >/dev/null 2>&1; }

# check NAME LCOV REPORT...: counts against the profiles, then genhtml
check() {
  name=$1; info=$2; shift 2
  if out=$(python3 tests/e2e/lcov_check.py "$info" "$@" 2>&1); then
    pass "lcov $name: counts equal the profile's ($out)"
  else
    fail "lcov $name: $out"
  fi
  if ! have genhtml; then echo "FAIL lcov $name: genhtml not installed (scripts/deps installs lcov)"; return; fi
  if genhtml -q -o "$T/html-$name" "$info" >"$T/gen.log" 2>&1 && [ -s "$T/html-$name/index.html" ]; then
    pass "lcov $name: genhtml renders it"
  else
    fail "lcov $name: genhtml: $(head -3 "$T/gen.log")"
  fi
}

"$BIN" profile "$B/examples/demo.wasm" run u32:200 -o "$T/demo" -q -f lcov,json &&
  check demo "$T/demo/lcov.info" "$T/demo/report.json" || fail "lcov demo: profile failed"
# the only-charged-ahead lines of demo.c are in the file as not run
grep -q "^DA:39,0$" "$T/demo/lcov.info" && pass "lcov demo: a line only charged ahead is DA:39,0" ||
  fail "lcov demo: no DA:39,0"

"$BIN" profile "$B/tests/fixtures/sbpf/counter.so" --ix 05 -o "$T/sol" -q -f lcov,json &&
  check counter "$T/sol/lcov.info" "$T/sol/report.json" || fail "lcov counter: profile failed"

# a scenario: DIR/lcov.info sums every call
awk '/```json file=token.json/{f=1;next} /```/{f=0} f' docs/scenarios.md >"$T/token.json"
sed -i "s|build/examples/|$(pwd)/$B/examples/|" "$T/token.json"
if "$BIN" profile --scenario "$T/token.json" -o "$T/tok" -q -f lcov,json; then
  check scenario "$T/tok/lcov.info" "$T"/tok/0*/report.json
else
  fail "lcov scenario: profile failed"
fi

"$BIN" profile "$B/examples/demo.wasm" run u32:5 -o "$T/def" -q
[ ! -e "$T/def/lcov.info" ] && [ -e "$T/def/report.json" ] && pass "lcov: not among the default outputs" ||
  fail "lcov: written by default"
"$BIN" size "$B/examples/demo.wasm" -o "$T/sz" -f lcov 2>"$T/err"
st=$?
[ "$st" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && pass "lcov: size refuses it (exit 2, one line)" ||
  fail "lcov: size -f lcov: exit $st"
