#!/bin/sh
# End-to-end checks on Rust contracts as users build them: the no_std
# fixture tests/fixtures/rust/vault (host functions through extern "C"
# imports, Vals encoded by hand, generics and traits that inline, loops,
# storage, an error path and a panic), built by Debian's rustc at
# opt-level z and 3 with legacy and v0 mangling and full debug info.
# Checks names, file:line, host-call placement against llvm-symbolizer's
# inline chains (rust_check.js), Σ self == total, and exact totals.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 287
HERE=$(dirname "$0")

# run NAME STATUS WASM ARGS... : profile into $T/NAME; checks the status
run() {
  name=$1 want=$2 w=$3; shift 3
  "$BIN" profile "$w" "$@" -o "$T/$name" -q >"$T/out" 2>"$T/err"
  rc=$?
  NAME="$name exits $want"; ok [ "$rc" -eq "$want" ]
  [ "$rc" -eq "$want" ] || cat "$T/err"
}

# budget NAME CPU MEM: the report's Budget lines
budget() {
  cpu=$(awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$T/$1/report.txt")
  mem=$(awk '$1 == "Memory" {gsub(",", "", $2); print $2; exit}' "$T/$1/report.txt")
  NAME="[pin] $1 costs $2 CPU, $3 bytes (got $cpu, $mem)"; [ "$cpu" = "$2" ] && [ "$mem" = "$3" ]; passed $?
}

# frames NAME: the distinct guest and inlined frame labels of a profile
frames() {
  node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
    for (const l of new Set(d.frames.filter((f) => f.kind == "guest" || f.kind == "inlined")
                                    .map((f) => f.label))) console.log(l)' "$T/$1/report.json"
}
has_frame() { frames "$1" | grep -qxF -- "$2"; }

# Pinned totals per build (module sizes differ, so do instantiation costs;
# the mangling does not change the code).  CPU and memory of:
#   find u32:5 (no key present: the loop runs 5 times and reads 5 times),
#   deposit u32:5, deposit u32:0 (fails with Error(Contract, 1)),
#   sum u32:3 (one u64 object each way), checked u32:7, checked
#   u32:2000000000 (panics: the product overflows); each includes the
#   decoding of the contract's instance, read through encoded (4,546 CPU /
#   616 bytes); the vault's key is absent or put, never decoded
for v in Oz O3 Oz_v0 O3_v0; do
  W=$B/tests/fixtures/rust/vault_$v.wasm
  NAME="fixture vault_$v.wasm was built by /usr/bin/rustc"; ok [ -s "$W" ]
  [ -s "$W" ] || continue
  case $v in
    Oz*) set -- 298868 1199375 286626 1197036 271334 1196050 285839 1196362 270735 1196050 272175 1196050 ;;
    O3*) set -- 293859 1199029 279133 1196690 272325 1195704 278914 1196016 270266 1195704 271706 1195704 ;;
  esac
  run "$v-find" 0 "$W" find u32:5;                 budget "$v-find" "$1" "$2"
  run "$v-deposit" 0 "$W" deposit u32:5;           budget "$v-deposit" "$3" "$4"
  run "$v-deposit0" 10 "$W" deposit u32:0;         budget "$v-deposit0" "$5" "$6"
  run "$v-sum" 0 "$W" sum u32:3;                   budget "$v-sum" "$7" "$8"
  run "$v-checked" 0 "$W" checked u32:7;           budget "$v-checked" "$9" "${10}"
  run "$v-panic" 10 "$W" checked u32:2000000000;   budget "$v-panic" "${11}" "${12}"

  NAME="$v find returns u32:0"; ok grep -q "result *u32:0$" "$T/$v-find/report.txt"
  NAME="$v deposit returns u32:5"; ok grep -q "result *u32:5$" "$T/$v-deposit/report.txt"
  NAME="$v sum returns 3*2^60 + 24"; ok grep -q "result *u64:3458764513820540952$" "$T/$v-sum/report.txt"
  NAME="$v checked returns u32:21"; ok grep -q "result *u32:21$" "$T/$v-checked/report.txt"
  NAME="$v deposit u32:0 fails with the contract's error"
  ok grep -q "contract error 1" "$T/$v-deposit0/report.txt"
  for r in find deposit deposit0 sum checked panic; do
    helper viewer "$v $r: rust_check.js" node "$HERE/rust_check.js" "$W" "$T/$v-$r/report.json" "$v $r"
  done

  # names: trait impls keep their Self type, both FromVal impls are
  # separate functions, the generic storage getter is named, file:line
  # from the remapped crate
  for f in "<u32 as vault::FromVal>::from_val (/src/vault/src/lib.rs:75)" \
           "<u64 as vault::FromVal>::from_val (/src/vault/src/lib.rs:90)" \
           "<u64 as vault::IntoVal>::into_val (/src/vault/src/lib.rs:100)" \
           "sum (/src/vault/src/lib.rs:194)"; do
    NAME="$v sum has frame $f"; ok has_frame "$v-sum" "$f"
  done
  case $v in
    *_v0) get="<vault::Storage>::get::<u32> (/src/vault/src/lib.rs:141)"
          add="vault::add_all::<u64> (/src/vault/src/lib.rs:185)" ;;
    *)    get="vault::Storage::get (/src/vault/src/lib.rs:141)"
          add="vault::add_all (/src/vault/src/lib.rs:185)" ;;
  esac
  NAME="$v find has frame $get"; ok has_frame "$v-find" "$get"
  NAME="$v sum has frame $add"; ok has_frame "$v-sum" "$add"
  NAME="$v core's inlined code is named with its own file"
  ok has_frame "$v-sum" "core::num::<impl u64>::wrapping_add (/usr/src/rustc-1.63.0/library/core/src/num/uint_macros.rs:1183)"
  # find reads five keys, each through has_contract_data inlined into get
  NAME="$v find: 5 has_contract_data calls, no get_contract_data"
  ok sh -c "grep -q '^ *5 .*host:has_contract_data\$' '$T/$v-find/report.txt' &&
            ! grep -q 'host:get_contract_data' '$T/$v-find/report.txt'"

  # charged ahead: find leaves its loop early at every key that is absent,
  # so code after the has_contract_data test was charged and never ran
  R=$T/$v-find/report.txt
  NAME="$v find: every hot line's ran + ahead is its CPU"
  ok awk '/^Hottest source lines/ {on = 1; next} on && /^$/ {on = 0}
          on && $3 == "ran" {hdr = 1; next}
          on && hdr && $1 ~ /^[0-9,]+$/ {gsub(",", "", $1); gsub(",", "", $3); gsub(",", "", $4);
                                         n++; if ($1 != $3 + $4) bad = 1}
          END {exit !(n > 0 && !bad)}' "$R"
  NAME="$v find: some CPU is charged ahead"
  ok awk '/^Hottest source lines/ {on = 1; next} on && $1 ~ /^[0-9,]+$/ && $4 != "0" {f = 1}
          END {exit !f}' "$R"
  node -e '
    const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
    let ok = true, any = 0;
    for (const n of d.nodes) {
      let s = 0;
      for (const l of n.lines) { if (!(l.ahead <= l.cost[0])) ok = false; s += l.ahead; }
      if (s !== n.ahead || n.ahead > n.self[0]) ok = false;
      any += n.ahead;
    }
    console.log((ok && any > 0 ? "PASS " : "FAIL ") + process.argv[2] +
                " find: JSON ahead per line <= its CPU, lines add up to the node (" + any + ")");
  ' "$T/$v-find/report.json" "$v"
  NAME="$v find: the flamegraph tooltip says what was charged ahead"
  ok grep -q "of it charged ahead [0-9]" "$T/$v-find/flamegraph.svg"
  "$BIN" annotate "$T/$v-find/report.json" -S "$(dirname "$0")/../fixtures/rust/vault" >"$T/ann" 2>&1
  NAME="$v find: annotate has the ahead column"
  ok grep -q "^    CPU        %  ahead" "$T/ann"
  case $v in
    Oz*) # the get_contract_data line: charged at each of the 5 loop
         # entries (5 x 137 fuel x 4), never run: no key was present
         NAME="$v find: the get_contract_data line ran 0 times, 2,740 CPU ahead"
         ok grep -q "^  2,740  [0-9.]*%      0  2,740 .* /src/vault/src/lib.rs:143 " "$R" ;;
  esac
done

# Paths: rustc names the crate's files relative to DW_AT_comp_dir (the
# crate folder, remapped to /src/vault): they are joined, so the crate's
# src/lib.rs and any other crate's src/lib.rs stay apart, and annotate
# never reads a different file that happens to have the same relative name.
P=$T/Oz-find/report.json
NAME="file names are joined with DW_AT_comp_dir"
ok sh -c "grep -q '\"/src/vault/src/lib.rs\"' '$P' && ! grep -q '\"src/lib.rs\"' '$P'"
mkdir -p "$T/decoy/src"
echo "DECOY: another crate's src/lib.rs" >"$T/decoy/src/lib.rs"
ABS_BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
(cd "$T/decoy" && "$ABS_BIN" annotate "$P" lib.rs >"$T/ann_decoy" 2>&1)
NAME="annotate does not show a same-named file of another folder"
ok sh -c "! grep -q DECOY '$T/ann_decoy' && grep -q 'source not available' '$T/ann_decoy'"
"$BIN" annotate "$P" lib.rs -S "/src/vault=$HERE/../fixtures/rust/vault" >"$T/ann_map" 2>&1
NAME="annotate -S OLD=NEW finds a moved crate's source"
ok grep -q "  176      while i < n {" "$T/ann_map"
"$BIN" annotate "$P" lib.rs -S "$HERE/../fixtures/rust/vault" >"$T/ann_dir" 2>&1
NAME="annotate -S DIR does not cut an absolute name down to a relative one"
ok grep -q "source not available" "$T/ann_dir"

# annotate FUNCTION: the last path components name it, and code inlined
# into it (at any depth) is its own
"$BIN" annotate "$T/Oz_v0-sum/report.json" add_all >"$T/ann_fn" 2>&1
NAME="annotate add_all finds vault::add_all::<u32> and ::<u64>"; ok grep -q "^-- /src/vault/src/lib.rs --" "$T/ann_fn"
NAME="annotate add_all includes <u64 as FromVal>::from_val, inlined into it"
ok grep -q "^ *[0-9,][0-9,]* .*  *93$" "$T/ann_fn"

# A panic: the one-line message names the first frame outside the panic
# machinery; the report and JSON carry the guest backtrace, innermost first
for v in Oz O3 Oz_v0 O3_v0; do
  "$BIN" profile "$B/tests/fixtures/rust/vault_$v.wasm" checked u32:2000000000 -o "$T/bt" -q 2>"$T/err"
  rc=$?
  NAME="$v panic: one line naming checked at its line"
  ok sh -c "[ $rc -eq 10 ] && [ \$(wc -l <'$T/err') -eq 1 ] &&
            grep -q 'trap: unreachable in panic (/src/vault/src/lib.rs), panicked in checked (/src/vault/src/lib.rs:212)' '$T/err'"
  NAME="$v panic: backtrace from the handler to checked, innermost first"
  ok awk '$1 == "backtrace" {n++; s = s "|" $0}
          END {exit !(n >= 3 && s ~ /\|  backtrace +#0 / && s ~ /#[0-9]+ panic \(\/src\/vault\/src\/lib.rs:218\)/ &&
                      s ~ /expect_failed/ && s ~ /#[0-9]+ checked \(\/src\/vault\/src\/lib.rs:212\)$/)}' "$T/bt/report.txt"
  NAME="$v panic: the backtrace is in report.json"
  ok grep -q '"key": *"backtrace", *"value": *"#0 ' "$T/bt/report.json"
done
NAME="file names have no . or .. components (core's stdarch files have one name)"
ok sh -c "! grep -q '/\.\./\|/\./' '$T/bt/report.json' && grep -q '/usr/src/rustc-1.63.0/library/stdarch/crates/core_arch/' '$T/bt/report.json'"
NAME="a failed run's report shows its status once"
ok [ "$(grep -c '^  status ' "$T/Oz-deposit0/report.txt")" -eq 1 ]

# Damaged debug information: a warning naming the section, the offset and
# the fallback (and the same in the report header); --strict-debug makes
# it the bad-debug-information status, 68, and writes nothing.  A damaged
# unit header loses only that unit: the others keep their lines.
W=$B/tests/fixtures/rust/vault_Oz.wasm
info=$(wasm-objdump -h "$W" | sed -n 's/.*start=0x\([0-9a-f]*\).*"\.debug_info".*/\1/p')
# the payload follows the name (1 + 11 bytes); the second unit starts after
# the first's 4-byte length and its length; its version is 4 bytes in
first=$((0x$info + 12))
len1=$(od -An -tu4 -j "$first" -N4 "$W" | tr -d ' ')
second=$((4 + len1))
cp "$W" "$T/damaged.wasm"
printf '\143\000' | dd of="$T/damaged.wasm" bs=1 seek=$((first + second + 4)) conv=notrunc 2>/dev/null
"$BIN" profile "$T/damaged.wasm" find u32:5 -o "$T/dmg" -q 2>"$T/err"
rc=$?
want=$(printf 'damaged .debug_info at offset 0x%x: unknown DWARF version 99 (this unit only); functions there: names from the name section, no source lines' "$second")
NAME="damaged .debug_info: exit 0, one warning naming section, offset and fallback"
ok sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF 'warning: $T/damaged.wasm: $want' '$T/err'"
NAME="damaged .debug_info: the report header says it too"
ok sh -c "grep -F '$want' '$T/dmg/report.txt' | grep -q '^  debug info  '"
"$BIN" profile "$T/damaged.wasm" find u32:5 -o "$T/dmg_strict" -q --strict-debug 2>"$T/err"
rc=$?
NAME="--strict-debug: status 68, one line, no outputs"
ok sh -c "[ $rc -eq 68 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF '$want' '$T/err' && [ ! -e '$T/dmg_strict' ]"
abbrev=$(wasm-objdump -h "$W" | sed -n 's/.*start=0x\([0-9a-f]*\).*"\.debug_abbrev".*/\1/p')
cp "$W" "$T/damaged2.wasm"
printf '\377\377\377\377' | dd of="$T/damaged2.wasm" bs=1 seek=$((0x$abbrev + 14)) conv=notrunc 2>/dev/null
"$BIN" profile "$T/damaged2.wasm" find u32:5 -o "$T/dmg2" -q 2>"$T/err"
rc=$?
NAME="damaged .debug_abbrev: exit 0, one warning naming it and its unit (only that unit is lost)"
ok sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'warning: .*: damaged .debug_abbrev at offset 0x0 (the unit at .debug_info offset 0x0): .*; functions there: names from the name section, no source lines' '$T/err'"
# The first unit (the vault crate's) damaged: only it is lost; core's units
# after it keep their names and lines
cp "$W" "$T/damaged1.wasm"
printf '\143\000' | dd of="$T/damaged1.wasm" bs=1 seek=$((first + 4)) conv=notrunc 2>/dev/null
"$BIN" profile "$T/damaged1.wasm" checked u32:2000000000 -o "$T/dmg1" -q 2>"$T/err"
NAME="damaged first unit: one warning naming it at offset 0x0 and the fallback"
ok grep -qF "damaged .debug_info at offset 0x0: unknown DWARF version 99 (this unit only); functions there: names from the name section, no source lines" "$T/err"
NAME="damaged first unit: core's frames keep their lines, the crate's fall back to names"
ok sh -c "grep -q 'backtrace .*core::option::expect_failed (/usr/src/rustc-1.63.0/library/core/src/option.rs:[0-9]*)$' '$T/dmg1/report.txt' &&
          grep -q 'backtrace .*#[0-9]* checked$' '$T/dmg1/report.txt'"
echo '{"contracts": [{"name": "v", "wasm": "damaged.wasm"}], "calls": [{"function": "find", "args": ["u32:5"]}]}' >"$T/dmg.json"
"$BIN" profile -q -o "$T/dsc" --scenario "$T/dmg.json" 2>"$T/err"
rc=$?
NAME="scenario with a damaged contract: the same one warning line, exit 0"
ok sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF '$want' '$T/err'"
"$BIN" profile -q -o "$T/dsc2" --strict-debug --scenario "$T/dmg.json" 2>"$T/err"
rc=$?
NAME="scenario with --strict-debug: status 68"
ok sh -c "[ $rc -eq 68 ] && grep -qF '$want' '$T/err'"
NAME="an intact module gives no warning"
"$BIN" profile "$W" find u32:5 -o "$T/intact" -q 2>"$T/err"
ok [ ! -s "$T/err" ]

# pprof: both FromVal impls keep their own names through go tool pprof's
# default simplification (it strips <...> from names it takes to be C++)
if command -v go >/dev/null 2>&1; then
  "$BIN" profile "$B/tests/fixtures/rust/vault_Oz.wasm" sum u32:8 -o "$T/pp" -q -f pprof
  go tool pprof -top "$T/pp/profile.pb.gz" >"$T/top" 2>/dev/null
  NAME="go tool pprof -top lists <u32 as vault::FromVal>::from_val"
  ok grep -q " <u32 as vault::FromVal>::from_val$" "$T/top"
  NAME="go tool pprof -top lists <u64 as vault::FromVal>::from_val"
  ok grep -q " <u64 as vault::FromVal>::from_val (inline)$" "$T/top"
  NAME="go tool pprof -top has no name cut down to ::from_val"
  ok sh -c "! grep -q ' ::from_val' '$T/top'"
else
  echo "FAIL go tool pprof: go is not installed (make deps installs golang-go)"
fi

# Without contractspecv0: --list shows the exports with their signatures,
# an unknown function names the exported ones, and a module stripped of
# its name section calls its exported functions by their export names
W=$B/tests/fixtures/rust/vault_Oz.wasm
"$BIN" profile "$W" --list >"$T/list" 2>"$T/err"
rc=$?
NAME="--list without a spec: the four exports, WASM signatures"
ok sh -c "[ $rc -eq 0 ] && grep -q '^$W: 4 exported functions (no contractspecv0 section' '$T/list' &&
          [ \"\$(grep -c '^  [a-z]*(i64) -> i64\$' '$T/list')\" -eq 4 ] && grep -qx '  checked(i64) -> i64' '$T/list'"
"$BIN" profile "$W" withdraw u32:1 -o "$T/x" -q 2>"$T/err"
rc=$?
NAME="unknown function: one line listing the exported functions, exit 4"
ok one_line_error 4 "no exported function 'withdraw' (exported: deposit, find, sum, checked)"
wasm-strip "$W" -o "$T/stripped.wasm" 2>/dev/null || cp "$W" "$T/stripped.wasm"
"$BIN" profile "$T/stripped.wasm" find u32:5 -o "$T/strip" -q 2>"$T/err"
NAME="stripped module: the exported function is named find [export]"
ok grep -q "  find \[export\]$" "$T/strip/report.txt"
NAME="stripped module: a function it does not export stays func[N]"
ok grep -q "  func\[[0-9]*\] \[no symbols\]$" "$T/strip/report.txt"

# Smaller points: readable per-metric flamegraph names; diff does not rank
# compiler-generated code (line 0) as a source line, as the report does
# not; report tables leave out all-zero metrics and cut long Rust names
NAME="per-metric flamegraphs: -mem, -reads, -writes, -loaded-bytes, -stored-bytes"
ok sh -c "for f in mem reads writes loaded-bytes stored-bytes; do [ -s '$T/Oz-deposit/flamegraph-'\$f.svg ] || exit 1; done"
"$BIN" diff "$T/Oz-find/report.json" "$T/Oz-deposit/report.json" -o "$T/diff" >"$T/diff.txt" 2>&1
NAME="diff: no (no line) row among the changed source lines"
ok sh -c "grep -q 'src/lib.rs:' '$T/diff.txt' && ! grep -q 'no line' '$T/diff.txt'"
NAME="report: find wrote nothing, so no Writes or Stored bytes column"
ok sh -c "! grep -q 'self Writes\|self Stored bytes' '$T/Oz-find/report.txt' && grep -q 'self Reads' '$T/Oz-find/report.txt'"
NAME="report: no line wider than 210 bytes (was 269: long names and paths cut in the middle)"
ok awk 'length($0) > 210 {bad = 1} END {exit bad}' "$T/Oz-deposit/report.txt" "$T/Oz-sum/report.txt"
NAME="report: a cut name keeps its start and its file:line"
ok grep -q "  <core::slice::iter::Iter<T> as core::iter::tr…core/src/slice/iter/macros.rs:134)$" "$T/Oz-sum/report.txt"
