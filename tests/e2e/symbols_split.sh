#!/bin/sh
# End-to-end checks of symbols from another file: stripped copies of the
# project's DWARF fixtures (llvm-objcopy --strip-all, and the split debug
# file of --only-keep-debug, whose code sections are NOBITS) profiled with
# --symbols / --symbols-dir give the same folded stacks and report.json as
# the unstripped file; a file of another program is refused in one line; a
# stripped program without symbols gets its functions from call targets.
# Prints PASS / FAIL lines; $SCPROF is the binary, $SCP_BUILD the build
# folder; run from the repository root (tests/run.sh does).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
F=$B/tests/fixtures/sbpf

if ! command -v llvm-objcopy >/dev/null 2>&1; then
  echo "FAIL symbols_split: llvm-objcopy not installed (scripts/deps installs llvm)"
  exit 0
fi

# same A B: the folded stacks and report.json of two profile folders agree
same() { cmp -s "$1/profile.folded" "$2/profile.folded" && cmp -s "$1/report.json" "$2/report.json"; }

# split NAME: $T/s/NAME.so (stripped) and $T/s/NAME.debug (the debug half)
mkdir -p "$T/s" "$T/d"
split() {
  llvm-objcopy --strip-all "$F/$1.so" "$T/s/$1.so" &&
    llvm-objcopy --only-keep-debug "$F/$1.so" "$T/d/$1.debug"
}

for v in counter counter_v3 token; do
  NAME="symbols_split $v: llvm-objcopy splits it"; ok split $v
  case $v in
    token) set -- --ix 00 ;;
    *) set -- --ix 05 ;;
  esac
  "$BIN" profile "$F/$v.so" "$@" -o "$T/$v-full" -q -f folded,json >/dev/null 2>&1
  "$BIN" profile "$T/s/$v.so" "$@" -o "$T/$v-strip" -q -f folded,json >/dev/null 2>&1
  "$BIN" profile "$T/s/$v.so" "$@" --symbols "$T/d/$v.debug" -o "$T/$v-debug" -q -f folded,json >/dev/null 2>&1
  "$BIN" profile "$T/s/$v.so" "$@" --symbols "ScprofProgram111111111111111111111111111111=$F/$v.so" \
    -o "$T/$v-unstripped" -q -f folded,json >/dev/null 2>&1
  "$BIN" profile "$T/s/$v.so" "$@" --symbols-dir "$T/d" -o "$T/$v-dir" -q -f folded,json >/dev/null 2>&1
  NAME="symbols_split $v: the DWARF fixture has source lines"; ok grep -q '\.c:[0-9]' "$T/$v-full/profile.folded"
  NAME="symbols_split $v: the stripped copy has none"; ok sh -c "! grep -q '\\.c:[0-9]' '$T/$v-strip/profile.folded'"
  NAME="symbols_split $v: --symbols FILE.debug gives the unstripped profile"; ok same "$T/$v-full" "$T/$v-debug"
  NAME="symbols_split $v: --symbols ID=unstripped.so gives it"; ok same "$T/$v-full" "$T/$v-unstripped"
  NAME="symbols_split $v: --symbols-dir (NAME.debug) gives it"; ok same "$T/$v-full" "$T/$v-dir"
  NAME="symbols_split $v: the stripped profile costs the same"
  ok [ "$(awk '{s += $NF} END {print s}' "$T/$v-full/profile.folded")" = \
       "$(awk '{s += $NF} END {print s}' "$T/$v-strip/profile.folded")" ]
done

# counter.c: entrypoint calls mix_squares (not inlined, at 0x2c8); stripped,
# .dynsym names the entrypoint only and the call target gets an address name
NAME="symbols_split: a stripped program's call target is its own function, not the entrypoint calling itself"
ok grep -qx 'program:counter ix 0x05;entrypoint \[symtab\];fn_0x2c8 \[no symbols\] 45' "$T/counter-strip/profile.folded"
NAME="symbols_split: no entrypoint under entrypoint"
ok sh -c "! grep -q 'entrypoint.*;entrypoint' '$T/counter-strip/profile.folded'"
"$BIN" profile "$T/s/counter.so" --list >"$T/list" 2>&1
NAME="symbols_split: --list names the call target fn_0x2c8"; ok grep -qx 'function 0x2c8 fn_0x2c8' "$T/list"
"$BIN" profile "$T/s/counter.so" --list --symbols "$T/d/counter.debug" >"$T/list" 2>&1
NAME="symbols_split: --list --symbols names it mix_squares"; ok grep -qx 'function 0x2c8 mix_squares' "$T/list"

# refusals: one line, non-zero
"$BIN" profile "$T/s/counter.so" --ix 05 --symbols "$F/token.so" -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: another program's file is refused in one line"
ok one_line_error 3 "$F/token.so: not the symbols of program counter: its .text is at 0x120, 1648 bytes; the program's at 0x120, 528 bytes"
"$BIN" profile "$T/s/counter.so" --ix 05 --symbols "$T/d/token.debug" -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: another program's debug file is refused in one line"; ok one_line_error 3 "not the symbols of program counter"
"$BIN" profile "$T/s/counter.so" --ix 05 --symbols "$F/counter_v3.so" -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: the v3 build of the same source is refused"; ok one_line_error 3 "not the symbols of program counter"
llvm-objcopy --strip-all "$F/counter.so" "$T/patched.so"
printf '\377' | dd of="$T/patched.so" bs=1 seek=$((0x128)) conv=notrunc 2>/dev/null
"$BIN" profile "$T/s/counter.so" --ix 05 --symbols "$T/patched.so" -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: a build whose code differs by one byte is refused"
ok one_line_error 3 "its .text bytes differ from the program's"
"$BIN" profile "$T/s/counter.so" --ix 05 --symbols "Vote111111111111111111111111111111111111111=$T/d/counter.debug" \
  -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: an id no program of the run has is refused"; ok one_line_error 2 "no program of the run has id"
"$BIN" profile "$T/d/counter.debug" --ix 05 -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: profiling the debug file says what it is"; ok one_line_error 2 "a split debug file"
"$BIN" profile "$T/s/counter.so" --ix 05 --symbols-dir "$T/nope" -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: --symbols-dir of a missing folder"; ok one_line_error 2 "not a folder"

# CPI callees: the scenario of tests/oracle/cpi_cases.json with cpi.so
# stripped; its symbols from --symbols-dir serve both ids that run it
if [ -f "$ORACLE/token.so" ]; then
  split cpi
  # $T/d also holds the fixture token.debug, which the scenario's token
  # (litesvm's SPL Token) would refuse
  mkdir -p "$T/dc"
  mv "$T/d/cpi.debug" "$T/dc/"
  B_ABS=$(cd "$B" && pwd)
  O_ABS=$(cd "$ORACLE" && pwd)
  sed "s|@BUILD@|$B_ABS|g; s|@ORACLE@|$O_ABS|g" tests/oracle/cpi_cases.json >"$T/full.json"
  sed "s|@BUILD@/tests/fixtures/sbpf/cpi.so|$T/s/cpi.so|g; s|@ORACLE@|$O_ABS|g" tests/oracle/cpi_cases.json >"$T/strip.json"
  "$BIN" profile --scenario "$T/full.json" -o "$T/cpi-full" -q -f folded >/dev/null 2>&1
  "$BIN" profile --scenario "$T/strip.json" --symbols-dir "$T/dc" -o "$T/cpi-dir" -q -f folded >/dev/null 2>&1
  NAME="symbols_split cpi: nested CPI frames with lines in the stripped scenario"
  ok grep -q 'sol_invoke_signed_c;program:cpi ix 0x[0-9a-f]*;.*cpi.c:[0-9]' "$T/cpi-dir/05-nest_return_data/profile.folded"
  NAME="symbols_split cpi: every transaction's folded stacks as unstripped"
  ok diff -r "$T/cpi-full" "$T/cpi-dir"
  # without symbols: a transaction's profile keeps the instruction rows and
  # the note of the program it ran
  "$BIN" profile --scenario "$T/strip.json" -o "$T/cpi-bare" -q -f folded,json,report >/dev/null 2>&1
  d1=$T/cpi-bare/01-pda_transfer
  "$BIN" annotate "$d1/report.json" entrypoint >"$T/out" 2>&1
  self=$(awk '{n = split($0, a, ";"); c = $NF; sub(/ [0-9]+$/, "", a[n]); if (a[n] == "entrypoint [symtab]") s += c}
              END {print s + 0}' "$d1/profile.folded")
  sum=$(awk 'NR > 2 && $1 ~ /^[0-9,]+$/ {gsub(",", "", $1); s += $1} END {print s + 0}' "$T/out")
  NAME="symbols_split cpi: annotate entrypoint in a transaction's profile: Σ instructions' CU = self CU ($sum, $self)"
  [ "$sum" = "$self" ] && [ "$self" -gt 0 ]; passed $?
  NAME="symbols_split cpi: the transaction's report notes the program without DWARF"
  ok grep -qF "source lines  program:cpi: no DWARF" "$d1/report.txt"
  "$BIN" profile --scenario "$T/strip.json" --symbols-dir "$T/d" -o "$T/x" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="symbols_split cpi: a NAME.debug of another program named alike is refused"
  ok one_line_error 3 "$T/d/token.debug: not the symbols of program token"
else
  echo "FAIL symbols_split cpi: $ORACLE/token.so missing (scripts/deps installs litesvm's programs)"
fi

# Soroban: the contract with its custom sections dropped (wasm-strip: the
# DWARF and the name section), given its unstripped build with --symbols;
# the copies keep the file name so the profiles compare whole but for the
# path in report.json's "contract" line
mkdir -p "$T/w"
# jsame A B: as same, with the folder of the contract path dropped
# (the files differ, so do their paths, the whole file's hash and the
# size of its code entry in the ledger-entry table; the code section, and
# with it every function's body hash, is the same)
jnorm() {
  sed 's|"value":"[^"]*/\([^"/]*\.wasm\)"|"value":"\1"|; s|"wasm sha256","value":"[0-9a-f]*"||
       s|{"name":"code","values":\[[0-9]*,[0-9]*,|{"name":"code","values":[|' "$1"
}
jsame() {
  cmp -s "$1/profile.folded" "$2/profile.folded" &&
    [ "$(jnorm "$1/report.json")" = "$(jnorm "$2/report.json")" ]
}
# (vault's deposit has inline chains three deep)
for c in examples/demo.wasm:run:u32:200 tests/fixtures/rust/vault_O3.wasm:deposit:u32:5; do
  w=${c%%:*}; rest=${c#*:}; fn=${rest%%:*}; arg=${rest#*:}; n=$(basename "$w" .wasm)
  if ! cp "$B/$w" "$T/w/$n.wasm" || ! wasm-strip "$T/w/$n.wasm"; then
    echo "FAIL symbols_split $n: cannot strip a copy with wasm-strip (scripts/deps installs wabt)"; continue
  fi
  "$BIN" profile "$B/$w" "$fn" "$arg" -o "$T/$n-full" -q -f folded,json >/dev/null 2>&1
  "$BIN" profile "$T/w/$n.wasm" "$fn" "$arg" -o "$T/$n-strip" -q -f folded,json >/dev/null 2>&1
  "$BIN" profile "$T/w/$n.wasm" "$fn" "$arg" --symbols "$B/$w" -o "$T/$n-sym" -q -f folded,json >/dev/null 2>&1
  NAME="symbols_split $n: the stripped contract has no source lines"
  ok sh -c "[ -s '$T/$n-strip/profile.folded' ] && ! grep -q '[a-z]:[0-9][0-9]*)' '$T/$n-strip/profile.folded'"
  NAME="symbols_split $n: the unstripped one has them"; ok grep -q '[a-z]:[0-9][0-9]*)' "$T/$n-full/profile.folded"
  NAME="symbols_split $n: --symbols FILE.wasm gives the unstripped profile"; ok jsame "$T/$n-full" "$T/$n-sym"
done
"$BIN" profile "$T/w/demo.wasm" run u32:200 --symbols "$B/examples/token.wasm" -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: another contract's Wasm is refused in one line"
ok one_line_error 3 "$B/examples/token.wasm: not the symbols of $T/w/demo.wasm: its code section differs from the contract's (2918 bytes, the contract's 585)"
"$BIN" profile "$T/w/demo.wasm" run u32:200 --symbols "CAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=$B/examples/demo.wasm" -o "$T/x" -q 2>"$T/err"; rc=$?
NAME="symbols_split: C...=FILE.wasm without --snapshot is refused"; ok one_line_error 2 "needs --snapshot"

# without DWARF: a note in report.txt and report.json, and annotate says
# why it has nothing to show instead of printing nothing
"$BIN" profile "$T/w/demo.wasm" run u32:200 -o "$T/dn" -q -f report,json >/dev/null 2>&1
NOTE="contract:demo.wasm: no DWARF, so no source lines; build with debug info or give the unstripped build with --symbols (docs/symbols.md)"
NAME="symbols_split: report.txt notes the missing DWARF and the recipe"; ok sh -c "sed -n 's/^  source lines  *//p' '$T/dn/report.txt' | grep -qxF '$NOTE'"
NAME="symbols_split: report.json carries the note"; ok grep -qF "{\"key\":\"source lines\",\"value\":\"$NOTE\"}" "$T/dn/report.json"
NAME="symbols_split: no note when --symbols gives the DWARF"; ok sh -c "! grep -q 'source lines' '$T/demo-sym/report.json'"
"$BIN" profile "$T/s/counter.so" --ix 05 -o "$T/cn" -q -f report >/dev/null 2>&1
NAME="symbols_split: a stripped program's report notes it too"
ok grep -qF "  source lines  program:counter: no DWARF, so no source lines;" "$T/cn/report.txt"
"$BIN" annotate "$T/dn/report.json" >"$T/out" 2>"$T/err"; rc=$?
NAME="symbols_split: annotate of a profile without lines fails in one line with the recipe"
ok one_line_error 68 "no source lines to annotate (its code has no DWARF): profile a build with debug info, or the stripped one with --symbols"
"$BIN" annotate "$T/dn/report.json" run >"$T/out" 2>"$T/err"; rc=$?
NAME="symbols_split: annotate FUNCTION finds the export 'run' and lists its instructions (tests/e2e/wasm_annotate.sh)"
ok sh -c "[ $rc -eq 0 ] && grep -q '^-- run: no source lines, its [0-9]* instructions -- self CPU ' '$T/out'"
"$BIN" annotate "$T/dn/report.json" "run [export]" >"$T/out" 2>"$T/err"; rc=$?
NAME="symbols_split: annotate takes the frame's label 'run [export]' too"
ok sh -c "[ $rc -eq 0 ] && grep -q '^-- run: no source lines, its [0-9]* instructions' '$T/out'"
"$BIN" annotate "$T/dn/report.json" nosuch >"$T/out" 2>"$T/err"; rc=$?
NAME="symbols_split: annotate of a function not in the profile"; ok one_line_error 4 "no source file or function 'nosuch'"
"$BIN" annotate "$T/demo-sym/report.json" run >"$T/out" 2>"$T/err"; rc=$?
NAME="symbols_split: annotate run of the --symbols profile shows demo.c"
ok sh -c "[ $rc -eq 0 ] && grep -q '^-- examples/demo.c -- CPU ' '$T/out'"

# annotate FUNCTION of a stripped program lists its instructions; their CU
# add up to the function's self CU in the folded stacks, for every
# function of counter and token.  counter.c's mix_squares (fn_0x2c8) for
# --ix 05, counted by hand: 4 set-up instructions, the 8-instruction loop
# body 5 times, the exit: 4 + 40 + 1 = 45 CU
"$BIN" annotate "$T/counter-strip/report.json" "fn_0x2c8 [no symbols]" >"$T/out" 2>"$T/err"; rc=$?
NAME="[derived] symbols_split: annotate fn_0x2c8 lists 13 instructions, self CU 45"
ok sh -c "[ $rc -eq 0 ] && grep -q '^-- fn_0x2c8: no source lines, its 13 instructions -- self CU 45 ' '$T/out'"
NAME="symbols_split: the loop body's multiply ran 5 times"; ok grep -qE '^ +5 +2\.99% +0x2f8  mul64r r0, r0$' "$T/out"
NAME="symbols_split: the call and the syscall are instructions of the entrypoint"
ok sh -c "'$BIN' annotate '$T/counter-strip/report.json' entrypoint | grep -q '0x278  call 0x2c8' &&
          '$BIN' annotate '$T/counter-strip/report.json' entrypoint | grep -q '0x2b0  syscall sol_log_64_'"
for v in counter counter_v3 token; do
  f=$T/$v-strip/profile.folded
  nf=0
  for fn in $(awk '{n = split($0, a, ";"); sub(/ [0-9]+$/, "", a[n]); if (a[n] ~ / \[(symtab|no symbols)\]$/) print a[n]}' "$f" |
              sed 's/ \[.*//' | sort -u); do
    self=$(awk -v fn="$fn" '{n = split($0, a, ";"); c = $NF; sub(/ [0-9]+$/, "", a[n]); sub(/ \[.*/, "", a[n]);
                             if (a[n] == fn) s += c} END {print s + 0}' "$f")
    "$BIN" annotate "$T/$v-strip/report.json" "$fn" >"$T/out" 2>&1
    sum=$(awk 'NR > 2 && $1 ~ /^[0-9,]+$/ {gsub(",", "", $1); s += $1} END {print s + 0}' "$T/out")
    head1=$(sed -n '1s/.* self CU \([0-9,]*\) .*/\1/p' "$T/out" | tr -d ,)
    NAME="symbols_split $v: annotate $fn: Σ instructions' CU = its self CU in the folded stacks ($sum, $self)"
    [ "$sum" = "$self" ] && [ "$head1" = "$self" ] && [ "$self" -gt 0 ]; passed $?
    nf=$((nf + 1))
  done
  # the checks above go function by function: none found would skip them all
  NAME="symbols_split $v: the stripped profile's functions were annotated ($nf)"; ok [ "$nf" -gt 0 ]
done
# a report.json whose rows cost more than their node is refused
sed 's/"insn":"mul64r r0, r0","cost":\[5\]/"insn":"mul64r r0, r0","cost":[500]/' "$T/counter-strip/report.json" >"$T/bad.json"
"$BIN" annotate "$T/bad.json" fn_0x2c8 >"$T/out" 2>"$T/err"; rc=$?
NAME="symbols_split: a report.json whose instructions cost more than their node is refused"
ok one_line_error 65 "\"pcs\" cost more than its self cost"
NAME="symbols_split: the DWARF profile carries no instruction rows"; ok sh -c "! grep -q '\"pcs\"' '$T/counter-debug/report.json'"
