#!/bin/sh
# End-to-end checks of `scprof size`: for every contract and program the
# build has (examples, WASM/WAT/Rust fixtures, sBPF fixtures and objects,
# the real programs litesvm ships when the oracle is installed), the size
# tree against the file and the standard tools (tests/e2e/size_check.py:
# sum == file length, section sizes == wasm-objdump -h / llvm-objdump -h,
# function sizes == code bodies / symbol table); the outputs byte-identical
# across runs; diff of two builds; one-line errors for bad input.
# Prints PASS / FAIL / SKIP lines.  $SCPROF is the binary, $SCP_BUILD the
# build folder; run from the repository root (tests/run.sh does).
set -u
BIN=${SCPROF:-build/bin/scprof}
B=${SCP_BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
have() { command -v "$1" >/dev/null 2>&1; }

if ! have wasm-objdump || ! have llvm-objdump || ! have llvm-readelf || ! have python3; then
  skip "size: wasm-objdump, llvm-objdump, llvm-readelf and python3 are needed"
  exit 0
fi

n=0
for f in "$B"/examples/*.wasm "$B"/tests/fixtures/wasm/*.wasm "$B"/tests/fixtures/wat/*.wasm \
         "$B"/tests/fixtures/rust/*.wasm "$B"/tests/fixtures/sbpf/*.so "$B"/tests/fixtures/sbpf/*.o; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  if "$BIN" size "$f" -o "$T/out" -q -f folded,json 2>"$T/err"; then
    python3 tests/e2e/size_check.py "$f" "$T/out/profile.folded" "$T/out/report.json"
  else
    fail "size $f: exit $?: $(cat "$T/err")"
  fi
done
[ "$n" -ge 30 ] && pass "size: $n fixtures checked" || fail "size: only $n fixtures found (build them first)"

found=0
for f in "$B"/oracle/*.so; do
  [ -f "$f" ] || continue
  found=1
  if "$BIN" size "$f" -o "$T/out" -q -f folded,json 2>"$T/err"; then
    python3 tests/e2e/size_check.py "$f" "$T/out/profile.folded" "$T/out/report.json"
  else
    fail "size $f: exit $?: $(cat "$T/err")"
  fi
done
[ "$found" -eq 1 ] || skip "size: litesvm's programs (build/oracle, scripts/deps installs them)"

# every format, twice: byte-identical; the flamegraph is size.svg
DEMO=$B/examples/demo.wasm
"$BIN" size "$DEMO" -o "$T/a" -q && "$BIN" size "$DEMO" -o "$T/b" -q
if diff -r "$T/a" "$T/b" >/dev/null && [ -s "$T/a/size.svg" ] && [ -s "$T/a/report.json" ] &&
   [ -s "$T/a/profile.speedscope.json" ] && [ -s "$T/a/report.txt" ]; then
  pass "size: every format written, byte-identical across runs"
else
  fail "size: outputs differ between runs or are missing: $(ls "$T/a")"
fi

# diff of two builds of one contract: the debug sections are what went
"$BIN" size "$B/tests/fixtures/wasm/demo_stripped.wasm" -o "$T/c" -q
if "$BIN" diff "$T/a" "$T/c" -o "$T/d" -q && grep -q "Custom:.debug_info" "$T/d/diff.txt"; then
  pass "size: diff of two builds names the sections that changed"
else
  fail "size: diff of demo.wasm and demo_stripped.wasm"
fi

# bad input: one line naming the file, the documented status
printf 'not a module' >"$T/junk.wasm"
"$BIN" size "$T/junk.wasm" -o "$T/e" -q 2>"$T/err"
st=$?
if [ "$st" -eq 65 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then pass "size: junk file is exit 65, one line"
else fail "size: junk file: exit $st: $(cat "$T/err")"; fi
head -c 200 "$DEMO" >"$T/cut.wasm"
"$BIN" size "$T/cut.wasm" -o "$T/e" -q 2>"$T/err"
st=$?
if [ "$st" -eq 65 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "cut.wasm" "$T/err"; then
  pass "size: cut-short module is exit 65, one line naming it"
else fail "size: cut-short module: exit $st: $(cat "$T/err")"; fi
"$BIN" size 2>"$T/err"
st=$?
[ "$st" -eq 2 ] && pass "size: no file is a usage error" || fail "size: no file: exit $st"
