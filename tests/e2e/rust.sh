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
BIN=${SCPROF:-build/bin/scprof}
B=${SCP_BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib/check.sh"
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
  NAME="$1 costs $2 CPU, $3 bytes (got $cpu, $mem)"; ok [ "$cpu" = "$2" ] && [ "$mem" = "$3" ]
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
#   u32:2000000000 (panics: the product overflows)
for v in Oz O3 Oz_v0 O3_v0; do
  W=$B/tests/fixtures/rust/vault_$v.wasm
  NAME="fixture vault_$v.wasm was built by /usr/bin/rustc"; ok [ -s "$W" ]
  [ -s "$W" ] || continue
  case $v in
    Oz*) set -- 294322 1198759 282080 1196420 266788 1195434 281293 1195746 266189 1195434 267629 1195434 ;;
    O3*) set -- 289313 1198413 274587 1196074 267779 1195088 274368 1195400 265720 1195088 267160 1195088 ;;
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
    NAME="$v $r: folded stacks add up to the Budget CPU"; ok folded_is_cpu "$T/$v-$r"
    node "$HERE/rust_check.js" "$W" "$T/$v-$r/report.json" "$v $r"
  
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
         ok grep -q "^  2,740  [0-9.]*%      0  2,740 .* src/lib.rs:143 " "$R" ;;
  esac
done

  # names: trait impls keep their Self type, both FromVal impls are
  # separate functions, the generic storage getter is named, file:line
  # from the remapped crate
  for f in "<u32 as vault::FromVal>::from_val (src/lib.rs:75)" \
           "<u64 as vault::FromVal>::from_val (src/lib.rs:90)" \
           "<u64 as vault::IntoVal>::into_val (src/lib.rs:100)" \
           "sum (src/lib.rs:194)"; do
    NAME="$v sum has frame $f"; ok has_frame "$v-sum" "$f"
  
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
         ok grep -q "^  2,740  [0-9.]*%      0  2,740 .* src/lib.rs:143 " "$R" ;;
  esac
done
  case $v in
    *_v0) get="<vault::Storage>::get::<u32> (src/lib.rs:141)"
          add="vault::add_all::<u64> (src/lib.rs:185)" ;;
    *)    get="vault::Storage::get (src/lib.rs:141)"
          add="vault::add_all (src/lib.rs:185)" ;;
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
         ok grep -q "^  2,740  [0-9.]*%      0  2,740 .* src/lib.rs:143 " "$R" ;;
  esac
done
