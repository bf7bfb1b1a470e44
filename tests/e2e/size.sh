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
. "$(dirname "$0")/lib/check.sh"
e2e_setup

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
have() { command -v "$1" >/dev/null 2>&1; }

if ! have wasm-objdump || ! have llvm-objdump || ! have llvm-readelf || ! have python3; then
  echo "FAIL size: wasm-objdump, llvm-objdump, llvm-readelf and python3 are needed (scripts/deps installs them)"
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
ORACLE=${SCP_ORACLE_DIR:-build/oracle}   # scripts/deps fills build/oracle whatever the build folder
for f in "$ORACLE"/*.so; do
  [ -f "$f" ] || continue
  found=1
  if "$BIN" size "$f" -o "$T/out" -q -f folded,json 2>"$T/err"; then
    python3 tests/e2e/size_check.py "$f" "$T/out/profile.folded" "$T/out/report.json"
  else
    fail "size $f: exit $?: $(cat "$T/err")"
  fi
done
if [ "$found" -ne 1 ]; then
  if [ "${SCP_NO_ORACLE:-0}" = 1 ]; then skip "[litesvm] size: litesvm's programs (SCP_NO_ORACLE=1)"
  else echo "FAIL size: litesvm's programs are not in $ORACLE (scripts/deps installs them; SCP_NO_ORACLE=1 skips)"; fi
fi

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

# size --profile: a function no run called is never run, all of its bytes
# (the body size wasm-objdump gives, the symbol size llvm-readelf gives);
# lines run in the size tree exactly where the run's lcov counts them
CTR=$B/examples/counter.wasm
G=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
"$BIN" profile "$CTR" increment "addr:$G" u32:1 -o "$T/inc" -q -f json,lcov
"$BIN" size "$CTR" --profile "$T/inc" -o "$T/szc" -q -f json,report
fail_size=$(wasm-objdump -x "$CTR" | sed -n 's/^ - func\[[0-9]*\] size=\([0-9]*\) <fail>$/\1/p')
python3 tests/e2e/size_cover_check.py "$T/szc/report.json" "$T/inc/lcov.info" fail "$fail_size"
grep -q "never run .*; 1 of 2 functions ran" "$T/szc/report.txt" && pass "size --profile: 1 of 2 functions ran" ||
  fail "size --profile: the report's never-run line"
# with a second profile, of fail, both ran
"$BIN" profile "$CTR" fail -o "$T/fail" -q -f json 2>/dev/null
"$BIN" size "$CTR" --profile "$T/inc/report.json" --profile "$T/fail" -o "$T/szc2" -q -f report
grep -q "never run .*; 2 of 2 functions ran" "$T/szc2/report.txt" && pass "size --profile twice: 2 of 2 functions ran" ||
  fail "size --profile twice: $(grep 'never run' "$T/szc2/report.txt")"
# an sBPF program whose error path skips mix_squares
SO=$B/tests/fixtures/sbpf/counter.so
"$BIN" profile "$SO" --ix c9 -o "$T/sol" -q -f json,lcov 2>/dev/null
"$BIN" size "$SO" --profile "$T/sol" -o "$T/szs" -q -f json
mix=$(llvm-readelf -s --wide "$SO" | awk '$4 == "FUNC" && $8 == "mix_squares" {print $3}')
python3 tests/e2e/size_cover_check.py "$T/szs/report.json" "$T/sol/lcov.info" mix_squares "$mix"
# a profile of another file is refused, one line
"$BIN" size "$B/examples/demo.wasm" --profile "$T/inc" -o "$T/e" -q 2>"$T/err"
st=$?
[ "$st" -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && pass "size --profile of another file: exit 3, one line" ||
  fail "size --profile of another file: exit $st: $(cat "$T/err")"

# the VM's instantiation, which every call pays: size's figure is the
# Budget's vm:instantiate charge in a real profile of the same contract
vm_check() {
  name=$1; wasm=$2; shift 2
  # a call that traps still has its VM made, and its profile written
  rm -rf "$T/vm"
  "$BIN" profile "$wasm" "$@" -o "$T/vm" -q -f json 2>"$T/err"
  if [ ! -s "$T/vm/report.json" ]; then fail "size VM $name: profile: $(cat "$T/err")"; return; fi
  "$BIN" size "$wasm" -o "$T/vms" -q -f report
  got=$(sed -n 's/^  VM per call  *CPU \([0-9]*\) instructions, memory \([0-9]*\) bytes$/\1 \2/p' "$T/vms/report.txt")
  want=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
fr = {f["id"]: f["name"] for f in r["frames"]}
v = [n["total"] for n in r["nodes"] if fr[n["frame"]] == "vm:instantiate"]
print("%d %d" % (v[0][0], v[0][1]) if len(v) == 1 else "none")' "$T/vm/report.json")
  [ -n "$got" ] && [ "$got" = "$want" ] && pass "size VM $name: per call CPU and memory $got == the profile's vm:instantiate" ||
    fail "size VM $name: size says '$got', the profile's vm:instantiate '$want'"
}
vm_check demo "$B/examples/demo.wasm" run u32:5
vm_check counter "$CTR" increment "addr:$G" u32:1
vm_check token "$B/examples/token.wasm" decimals \
  --constructor-args "{\"admin\": \"$G\", \"decimal\": 7, \"name\": \"T\", \"symbol\": \"T\"}"
vm_check vault_Oz "$B/tests/fixtures/rust/vault_Oz.wasm" sum u32:8
vm_check vault_O3 "$B/tests/fixtures/rust/vault_O3.wasm" sum u32:8

# Rust paths fold into crate -> module -> function: the standard library
# apart from the contract's own code
"$BIN" size "$B/tests/fixtures/rust/vault_O3.wasm" -o "$T/rs" -q -f folded
if grep -q "^vault_O3.wasm;Code;crate:core;module:core::fmt::Formatter;core::fmt::Formatter::pad (" "$T/rs/profile.folded" &&
   grep -q "^vault_O3.wasm;Code;crate:vault;" "$T/rs/profile.folded"; then
  pass "size: Rust functions under crate:core -> module:core::fmt::Formatter, and crate:vault"
else
  fail "size: no crate:core / crate:vault grouping in vault_O3.wasm"
fi

# --network: the upload's fee and rent.  The upload's Budget charges are
# the reference's own traces of upload_wasm for its test contract
# (test_storage.c) -- independent evidence; test_size_upload derives the
# fee and rent by hand from mainnet's settings; the stroops here pin the
# CLI's report and JSON to them.
"$BIN" size tests/data/ref-wasms/example_contract_data.wasm --network mainnet@2026-07-29 \
  -o "$T/up" -q -f report,json 2>"$T/err"
if grep -Eq "^  upload charges +CPU 3285246 instructions, memory 1640387 bytes" "$T/up/report.txt" &&
   grep -Eq "^  upload fee +44749535 stroops \(non-refundable 22352 \+ refundable 196 \+ rent 44726987\)$" "$T/up/report.txt" &&
   python3 -c '
import json, sys
m = {e["key"]: e["value"] for e in json.load(open(sys.argv[1]))["meta"]}
sys.exit(0 if m["upload fee"].startswith("44749535 stroops") and m["network"] == "mainnet, settings of 2026-07-29" else 1)' "$T/up/report.json"; then
  pass "size --network: upload charges == the reference trace; fee 44,749,535 stroops in report and JSON"
else
  fail "size --network: $(grep upload "$T/up/report.txt" 2>/dev/null) $(cat "$T/err")"
fi
for bad in "$B/tests/fixtures/sbpf/token.so --network mainnet" "$B/examples/demo.wasm --network moonnet"; do
  # shellcheck disable=SC2086
  "$BIN" size $bad -o "$T/bad" -q 2>"$T/err"
  st=$?
  [ "$st" -ne 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && pass "size $bad: exit $st, one line" ||
    fail "size $bad: exit $st: $(cat "$T/err")"
done

# a settings file applied on the default mainnet (protocol 23's rates: 25
# per 10,000 instructions): ceil(3,285,246 x 25 / 10,000) = 8,214
"$BIN" size tests/data/ref-wasms/example_contract_data.wasm --network-config examples/network/testnet-p23.json \
  -o "$T/upc" -q -f report 2>"$T/err"
grep -Eq "^  upload non-refundable +[0-9]+ stroops: instructions 8214 \(3285246 x 25 per 10,000\)" "$T/upc/report.txt" &&
  grep -Eq "^  network +examples/network/testnet-p23.json \(a settings file applied on mainnet" "$T/upc/report.txt" &&
  pass "size --network-config: the file's rates, 8,214 stroops for the instructions" ||
  fail "size --network-config: $(grep "network\|non-refundable" "$T/upc/report.txt" 2>/dev/null) $(cat "$T/err")"
"$BIN" size "$B/examples/demo.wasm" --soroban-state-size 5 -o "$T/bad" -q 2>"$T/err"
st=$?
[ "$st" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && pass "size --soroban-state-size without a network: exit 2, one line" ||
  fail "size --soroban-state-size without a network: exit $st: $(cat "$T/err")"
