#!/bin/sh
# End-to-end checks of `annotate FUNCTION` on Soroban contracts without
# DWARF (wasm-strip drops the custom sections): the function's WASM
# operators are listed with the CPU booked at each.  Evidence:
#  - wasm-objdump (wabt, independent of scprof) decodes the same bytes: every
#    row's operator name is the one it prints at that code offset, and every
#    "(function entry)" row is where it starts a function;
#  - [derived] figures worked out from wasmi 0.31's fuel rules and demo.c;
#  - the rows of every guest function add up to its self CPU, which is its
#    inclusive CPU minus its children (host functions and calls) in the
#    folded stacks.
#  - [derived] run counts worked out from demo.c's loops and branches;
#  - every row's runs times its operator's wasmi fuel (by its name, the
#    rules of docs/reference/metering.txt) times 4, plus the entry row and
#    what the nodes say was charged ahead, is the function's self CPU; its
#    entry ran as often as the function was called (the nodes' calls).
# Prints PASS / FAIL lines; $SCPROF is the binary, $SCP_BUILD the build
# folder; run from the repository root (tests/run.sh does).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 35

if ! command -v wasm-strip >/dev/null 2>&1 || ! command -v wasm-objdump >/dev/null 2>&1; then
  echo "FAIL wasm_annotate: wasm-strip / wasm-objdump not installed (scripts/deps installs wabt)"
  exit 0
fi

# rows_sum FILE: Σ of the first column (CPU) of an annotate listing's rows
rows_sum() { awk 'NR > 2 && $1 ~ /^[0-9,]+$/ {gsub(",", "", $1); s += $1} END {print s + 0}' "$1"; }

# self_of FOLDED FRAME: the frame's inclusive CPU minus its children's,
# over every stack it is the leaf or an inner frame of
self_of() {
  awk -v fn="$2" '{c = $NF; st = $0; sub(/ [0-9]+$/, "", st); n = split(st, a, ";")
                   for (i = 1; i <= n; i++) if (a[i] == fn) { inc += c; if (i < n) kids += c; break } }
                  END {print inc - kids}' "$1"
}

# hex("0x1f"): 31 (mawk has no strtonum)
HEX='function hex(s,  v, i) { v = 0; s = tolower(s); sub(/^0x/, "", s)
       for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
       return v }
'

mkdir -p "$T/w"
for w in examples/demo.wasm:run:u32:200 tests/fixtures/rust/vault_O3.wasm:deposit:u32:5; do
  f=${w%%:*}; rest=${w#*:}; fn=${rest%%:*}; arg=${rest#*:}; n=$(basename "$f" .wasm)
  if ! cp "$B/$f" "$T/w/$n.wasm" || ! wasm-strip "$T/w/$n.wasm"; then
    echo "FAIL wasm_annotate $n: cannot strip a copy with wasm-strip"; continue
  fi
  "$BIN" profile "$T/w/$n.wasm" "$fn" "$arg" -o "$T/$n" -q -f folded,json >/dev/null 2>&1
  NAME="wasm_annotate $n: the stripped profile has instruction rows"; ok grep -q '"pcs":\[' "$T/$n/report.json"
  # the code section's payload offset: pcs are relative to it
  base=$(wasm-objdump -h "$T/w/$n.wasm" | sed -n 's/^ *Code start=\(0x[0-9a-f]*\) .*/\1/p')
  wasm-objdump -d "$T/w/$n.wasm" |
    awk '/^ [0-9a-f]+: / {o = $1; sub(/:$/, "", o); t = $0; sub(/^[^|]*\| */, "", t); split(t, a, " "); print o, a[1]}
         /^[0-9a-f]+ func\[/ {print $1, "func"}' >"$T/$n.objdump"
  nf=0
  for frame in $(awk '{n = split($0, a, ";"); for (i = 2; i <= n; i++) { x = a[i]; sub(/ [0-9]+$/, "", x)
                        if (x ~ /^func\[[0-9]+\] / || x ~ / \[export\]$/) print x } }' "$T/$n/profile.folded" |
                 sed 's/ \[.*//' | sort -u); do
    "$BIN" annotate "$T/$n/report.json" "$frame" >"$T/out" 2>"$T/err"; rc=$?
    label=$(awk -v fn="$frame" '{n = split($0, a, ";"); for (i = 1; i <= n; i++) { x = a[i]; sub(/ [0-9]+$/, "", x)
                                  y = x; sub(/ \[.*/, "", y); if (y == fn) { print x; exit } } }' "$T/$n/profile.folded")
    self=$(self_of "$T/$n/profile.folded" "$label")
    sum=$(rows_sum "$T/out")
    head1=$(sed -n '1s/.* self CPU \([0-9,]*\) .*/\1/p' "$T/out" | tr -d ,)
    NAME="wasm_annotate $n: annotate $frame: Σ rows' CPU = inclusive - children CPU in the folded stacks ($sum, $self)"
    [ "$rc" -eq 0 ] && [ "$sum" = "$self" ] && [ "$head1" = "$self" ] && [ "$self" -gt 0 ]; passed $?
    # every row's operator as wasm-objdump decodes the byte at base + pc;
    # the awk prints how many rows it checked, so a check that read
    # nothing fails
    bad=$(awk -v base="$base" "$HEX"'NR == FNR {op[$1] = $2; next}
            FNR > 2 && $0 ~ / 0x[0-9a-f]+  / {
              for (i = 1; i <= NF; i++) if ($i ~ /^0x[0-9a-f]+$/) { pc = $i; mn = $(i + 1); break }
              at = sprintf("%06x", hex(base) + hex(pc))
              if (mn == "(function") mn = "func"
              if (op[at] != mn) { print pc, mn, op[at]; exit }
              n++ }
            END {print "checked", n + 0}' "$T/$n.objdump" "$T/out")
    rows=$(awk 'FNR > 2 && / 0x[0-9a-f]+  /' "$T/out" | wc -l)
    NAME="wasm_annotate $n: annotate $frame: every row is the operator wasm-objdump reads there ($bad of $rows)"
    [ "$bad" = "checked $rows" ] && [ "$rows" -gt 0 ]; passed $?
    # runs x fuel x 4 over the operator rows + the entry row + ahead = self
    ahead=$(jq --arg fn "$frame" '[.frames as $f | .nodes[] | select($f[.frame].name == $fn) | .ahead] | add' "$T/$n/report.json")
    calls=$(jq --arg fn "$frame" '[.frames as $f | .nodes[] | select($f[.frame].name == $fn) | .calls] | add' "$T/$n/report.json")
    ran=$(awk 'FNR > 2 && / 0x[0-9a-f]+  / {
                 for (i = 1; i <= NF; i++) if ($i ~ /^0x[0-9a-f]+$/) { runs = $(i - 1); mn = $(i + 1); break }
                 cpu = $1; gsub(",", "", cpu); gsub(",", "", runs)
                 if (mn == "(function") { entry = cpu; eruns = runs; next }
                 f = 1
                 if (mn ~ /^call/) f = 67
                 else if (mn ~ /^(global|memory|table)\./ || mn ~ /^(data|elem)\.drop$/) f = 3
                 else if (mn ~ /\.load/) f = 2
                 s += runs * f * 4; n++ }
               END {print s + entry, eruns, n + 0}' "$T/out")
    NAME="wasm_annotate $n: annotate $frame: Σ runs x fuel x 4 + entry + ahead $ahead = self CPU $self, the entry ran $calls times ($ran)"
    ok [ "$(echo "$ran" | awk -v a="$ahead" -v s="$self" -v c="$calls" '{print ($1 + a == s && $2 == c && $3 > 0)}')" = 1 ]
    nf=$((nf + 1))
  done
  # the checks above go frame by frame: a profile with no frame would skip them all
  NAME="wasm_annotate $n: the stripped profile's functions were annotated ($nf)"; ok [ "$nf" -gt 0 ]
done

# demo.c's run(200), from wasmi 0.31's fuel (base 1, load 2, global 3, call
# 67; entry 1 + locals/8) times WasmInsnExec's 4 CPU: the hash loop runs
# 200 * 16 = 3,200 times, unrolled by two: 1,600 block entries of 1 fuel per
# operator = 6,400 CPU each; the buffer loop 256 / 4 = 64 entries = 256
"$BIN" annotate "$T/demo/report.json" run >"$T/out" 2>"$T/err"
NAME="[pin] wasm_annotate: annotate run lists 161 instructions, self CPU 201,748"
ok grep -q '^-- run: no source lines, its 161 instructions -- self CPU 201,748 ' "$T/out"
NAME="wasm_annotate: the listing says what a row's CPU is and that it counts runs"
ok grep -q "CPU at an instruction is its wasmi fuel times the Budget's WasmInsnExec CPU, for every entry of its block.*; runs: how often each instruction ran" "$T/out"
NAME="wasm_annotate: the listing has a runs column before the address"
ok grep -qE '^ +CPU +% +Memory +runs +address  instruction$' "$T/out"
NAME="[derived] wasm_annotate: the hash loop's 30 operators (loop .. br_if) are 6,400 CPU and ran 1,600 times each"
ok [ "$(awk "$HEX"'$5 ~ /^0x/ && hex($5) >= 84 && hex($5) <= 139 && $1 == "6,400" && $4 == "1,600"' "$T/out" | wc -l)" -eq 30 ]
NAME="[derived] wasm_annotate: the buffer loop's i32.store8 is 256 CPU and ran 64 times (64 entries)"
ok grep -qE '^ +256 +0\.06% +\. +64 +0xb6  i32\.store8$' "$T/out"
NAME="[derived] wasm_annotate: the buffer loop's 26 operators (0xa9 loop .. 0xea br_if) ran 64 times each"
ok [ "$(awk "$HEX"'$5 ~ /^0x/ && hex($5) >= 169 && hex($5) <= 234 && $4 == "64"' "$T/out" | wc -l)" -eq 26 ]
NAME="[derived] wasm_annotate: a call is 268 CPU (67 fuel), a host function's named as its frame is"
ok grep -qE '^ +268 +0\.06% +\. +1 +0x157  call 5 \(host:contract_event\)$' "$T/out"
# run(200) does not fail (n <= 10000), yet the call in that branch is paid:
# a block is no region of its own, so its operators are charged with the
# function body's on entry
NAME="[derived] wasm_annotate: the fail_with_error call that did not run is charged ahead (268 CPU) and ran 0 times"
ok sh -c "grep -qE '^ +268 +0\\.06% +\\. +0 +0x30  call 0 \\(host:fail_with_error\\)$' '$T/out' &&
          ! grep -q 'host:fail_with_error' '$T/demo/profile.folded'"
# n != 9999: the division by zero's branch (0x100 .. 0x10f) is skipped by
# the br_if at 0xfe, which ran once; the operators after it ran once
NAME="[derived] wasm_annotate: the n == 9999 branch's 8 operators ran 0 times, the br_if before it once"
skipped_branch() {
  [ "$(awk "$HEX"'$5 ~ /^0x/ && hex($5) >= 256 && hex($5) <= 271 && $4 == "0"' "$T/out" | wc -l)" -eq 8 ] &&
    grep -qE '^ +4 +0\.00% +\. +1 +0xfe  br_if 0$' "$T/out" && grep -qE '^ +4 +0\.00% +\. +1 +0x112  local\.get 2$' "$T/out"
}
ok skipped_branch
# every other host function a call row names is a frame under run
missing=$(sed -n 's/.*  call [0-9]* (\(host:[a-z0-9_]*\))$/\1/p' "$T/out" | grep -vx 'host:fail_with_error' |
          while read -r h; do grep -qF "run [export];$h " "$T/demo/profile.folded" || echo "$h"; done)
NAME="wasm_annotate: the host functions the calls name are run's host frames${missing:+ (not: $missing)}"
[ -z "$missing" ] && [ "$(grep -c '  call [0-9]* (host:' "$T/out")" -eq 8 ]; passed $?
NAME="[derived] wasm_annotate: an i32.load is 8 CPU (2 fuel), its offset printed"
ok grep -qE '^ +8 +0\.00% +\. +0 +0x10b  i32\.load offset=12$' "$T/out"
NAME="[derived] wasm_annotate: global.set is 12 CPU (3 fuel)"; ok grep -qE '^ +12 +0\.00% +\. +1 +0x13  global\.set 0$' "$T/out"
NAME="[derived] wasm_annotate: the entry of run (1 param + 8 locals: 1 + 9/8 fuel) is 8 CPU"
ok grep -qE '^ +8 +0\.00% +\. +1 +0x3  \(function entry, 8 locals\)$' "$T/out"
NAME="wasm_annotate: constants print signed, as the text format does"; ok grep -qE '0x38  i32\.const -2128831035$' "$T/out"
NAME="wasm_annotate: no CPU is left at no instruction"; ok sh -c "! grep -q 'at no instruction' '$T/out'"

# with the DWARF back (--symbols), the same run keeps no instruction rows
"$BIN" profile "$T/w/demo.wasm" run u32:200 --symbols "$B/examples/demo.wasm" -o "$T/sym" -q -f json >/dev/null 2>&1
NAME="wasm_annotate: a profile with source lines carries no instruction rows"
ok sh -c "[ -s '$T/sym/report.json' ] && ! grep -q '\"pcs\"' '$T/sym/report.json'"

# the same run twice gives the same report.json, run counts included
"$BIN" profile "$T/w/demo.wasm" run u32:200 -o "$T/again" -q -f json >/dev/null 2>&1
NAME="wasm_annotate: report.json with run counts is byte-identical across two runs"
ok sh -c "grep -q '\"runs\":1600}' '$T/again/report.json' && cmp -s '$T/demo/report.json' '$T/again/report.json'"
# run counts are on every instruction row or on none: a report.json with a
# row that lost its count is refused, as one with a count that is no number
sed 's/,"runs":1600}/}/' "$T/demo/report.json" >"$T/bad.json"
"$BIN" annotate "$T/bad.json" run >"$T/out" 2>"$T/err"; rc=$?
NAME="wasm_annotate: a report.json with runs on some instruction rows only is refused"
ok one_line_error 65 '"runs" (a count on every row or on none)'
sed 's/"runs":1600}/"runs":"many"}/' "$T/demo/report.json" >"$T/bad.json"
"$BIN" annotate "$T/bad.json" run >"$T/out" 2>"$T/err"; rc=$?
NAME="wasm_annotate: a report.json whose run count is not a number is refused"
ok one_line_error 65 '"runs"'
