#!/bin/sh
# End-to-end: each chain's outputs speak that chain's words.  A set of
# Solana runs (one instruction, one failing with a custom error, one out
# of compute units, one with no source lines, a scenario of transactions
# with cross-program invocation, a --tx wire transaction) and of Soroban
# runs (the demo, a trap, a cross-contract call, a scenario), and the
# size profile of a program and of a contract, write their report.txt,
# report.json and flamegraph.svg (size.svg); no word of the other
# chain's vocabulary (lib/words.sh) may appear in the words those files
# print (the report whole; the JSON's status text and the flamegraph's
# title, subtitle and search prompt).  Then the Solana report's own
# sections and status lines, exactly.  Behaviour checks: these pin
# scprof's own words.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
. "$(dirname "$0")/lib/words.sh"

CTR=$B/tests/fixtures/sbpf/counter.so
CPI=$B/tests/fixtures/sbpf/cpi.so
if [ ! -f "$CTR" ] || [ ! -f "$CPI" ] || [ ! -f "$B/examples/demo.wasm" ]; then
  echo "FAIL chain_words: the fixtures are not built (make builds them)"; exit 0
fi

# ---- the runs -------------------------------------------------------------
sol() { d=$1; shift; "$BIN" profile "$@" -o "$T/sol/$d" -q >/dev/null 2>"$T/err.$d"; echo $? >"$T/rc.$d"; }
mkdir -p "$T/sol" "$T/sor"
sol ok "$CTR" --ix 05
sol custom "$CTR" --ix ff
sol out_of_cu "$CTR" --ix 05 --cu-limit 50
# the counter without its DWARF: no source lines, names from .symtab
if ! llvm-objcopy --strip-debug "$CTR" "$T/stripped.so"; then
  echo "FAIL chain_words: llvm-objcopy (package llvm, scripts/deps) could not strip $CTR"; exit 0
fi
sol nolines "$T/stripped.so" --ix 05
# transactions of the cpi fixture (tests/oracle/cpi_cases.json, the cases
# that need no program from litesvm's install)
B_ABS=$(cd "$B" && pwd)
python3 - "$(dirname "$0")/../oracle/cpi_cases.json" "$B_ABS" >"$T/cpi.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["programs"] = [p for p in d["programs"] if "@ORACLE@" not in p["elf"]]
for p in d["programs"]: p["elf"] = p["elf"].replace("@BUILD@", sys.argv[2])
keep = {"pda_transfer", "missing_signer", "nest_return_data", "two_programs"}
d["transactions"] = [t for t in d["transactions"] if t.get("label") in keep]
json.dump(d, sys.stdout)
EOF
"$BIN" profile --scenario "$T/cpi.json" -o "$T/sol/cpi" -q >/dev/null 2>"$T/err.cpi"
# a wire transaction: the fee payer and the counter, one instruction (05)
PAYER=FeePayer11111111111111111111111111111111111
PROG=ScprofProgram111111111111111111111111111111
# (its file's name has dots: the title keeps all but the last)
python3 - "$PAYER" "$PROG" >"$T/swap.v2.bin" <<'EOF'
import sys
A = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
def d(s):
  n = 0
  for c in s: n = n * 58 + A.index(c)
  return n.to_bytes(32, 'big')
# 1 signature; header 1 0 1; keys: payer, program; blockhash; one
# instruction: program 1, no accounts, data 05
tx = bytes([1]) + bytes(64) + bytes([1, 0, 1, 2]) + d(sys.argv[1]) + d(sys.argv[2]) + \
     bytes([7]) * 32 + bytes([1, 1, 0, 1, 5])
sys.stdout.buffer.write(tx)
EOF
sol tx --tx "$T/swap.v2.bin" "$CTR" --account "$PAYER:1000000000:11111111111111111111111111111111:"

sor() { d=$1; shift; "$BIN" profile "$@" -o "$T/sor/$d" -q >/dev/null 2>&1; echo $? >"$T/rc.$d"; }
sor demo "$B/examples/demo.wasm" run u32:200
sor trap "$B/examples/demo.wasm" run u32:9999
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ
sor cross "$B/examples/caller.wasm" run "str:$ID" u32:3 --contract "$B/examples/counter.wasm"
cp "$B/examples/caller.wasm" "$B/examples/counter.wasm" "$T/"
cat >"$T/run.json" <<EOF
{"contracts": [{"name": "caller", "wasm": "caller.wasm"}, {"name": "counter", "wasm": "counter.wasm"}],
 "calls": [{"contract": "counter", "function": "increment",
            "args": ["addr:GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF", "u32:1"]},
           {"contract": "caller", "function": "run", "args": ["str:$ID", "u32:3"]}]}
EOF
"$BIN" profile --scenario "$T/run.json" -o "$T/sor/scenario" -q >/dev/null 2>&1
# the bytes of a program and of a contract
"$BIN" size "$CTR" -o "$T/sol/size" -q >/dev/null 2>&1; echo $? >"$T/rc.sol_size"
"$BIN" size "$B/examples/demo.wasm" -o "$T/sor/size" -q >/dev/null 2>&1; echo $? >"$T/rc.sor_size"

NAME="the runs end as they should: Solana 0 10 11 0 0 0, Soroban 0 10 0 0"
[ "$(cat "$T/rc.ok" "$T/rc.custom" "$T/rc.out_of_cu" "$T/rc.nolines" "$T/rc.tx" "$T/rc.sol_size" | tr '\n' ' ')" = "0 10 11 0 0 0 " ] &&
   [ "$(cat "$T/rc.demo" "$T/rc.trap" "$T/rc.cross" "$T/rc.sor_size" | tr '\n' ' ')" = "0 10 0 0 " ]; passed $?

# ---- the words (lib/words.sh) ---------------------------------------------
vocab "Solana reports, JSON status, flamegraph titles" "$T/sol" "$SOROBAN_WORDS"
vocab "Soroban reports, JSON status, flamegraph titles" "$T/sor" "$SOLANA_WORDS"
words "$T/sol/out_of_cu" >"$T/w1.txt"
NAME="the words checked hold the JSON status text and the flamegraph's title and subtitle"
ok sh -c "grep -qx 'out of compute units' '$T/w1.txt' && grep -qx 'program:counter ix 0x05' '$T/w1.txt' &&
          grep -q '^CU: 50 compute units, 100.00% of the 50 limit; run ended: instruction failed: ' '$T/w1.txt'"
# the vocabularies themselves match their own chain's outputs (a check
# whose pattern matches nothing could never fail)
# the flamegraph's search prompt suggests the chain's own prefix
prompts() {
  n=0; k=0
  for r in $(find "$1" -name report.txt); do
    n=$((n + 1))
    grep -qF "prompt(\"Enter a search term (regexp allowed, eg: $2)\"," "$(svg "$(dirname "$r")")" && k=$((k + 1))
  done
  [ "$n" -ge 4 ] && [ "$k" = "$n" ]
}
NAME="every Solana flamegraph's search prompt suggests ^syscall:, every Soroban one ^host:"
both_prompts() { prompts "$T/sol" '^syscall:' && prompts "$T/sor" '^host:'; }
ok both_prompts
NAME="each vocabulary is found in its own chain's outputs"
ok sh -c "grep -qE '$SOLANA_WORDS' '$T/sol/ok/report.txt' && grep -qE '$SOROBAN_WORDS' '$T/sor/trap/report.txt'"

# ---- the Solana report's sections -----------------------------------------
R=$T/sol
NAME="Solana report: Compute units, Top functions, source lines, Syscalls"
ok sh -c "grep -qx 'Compute units' '$R/ok/report.txt' && grep -qx 'Top 20 functions by self CU' '$R/ok/report.txt' &&
          grep -qx 'Hottest source lines by CU' '$R/ok/report.txt' && grep -qx 'Syscalls (self CU)' '$R/ok/report.txt' &&
          grep -q '^  calls  self CU       %  syscall\$' '$R/ok/report.txt' && grep -q '^  status  *success\$' '$R/ok/report.txt'"
NAME="Solana report: a custom error in the runtime's words, the InstructionError as scprof names it"
ok sh -c "grep -q '^  status  *failed: custom program error: 0x7\$' '$R/custom/report.txt' &&
          grep -q '^  error  *instruction failed: Custom(7)\$' '$R/custom/report.txt'"
NAME="Solana report: out of compute units in the runtime's words"
ok sh -c "grep -q '^  status  *failed: exceeded CUs meter at BPF instruction\$' '$R/out_of_cu/report.txt' &&
          grep -q '\"text\":\"out of compute units\"' '$R/out_of_cu/report.json'"
NAME="Solana report without source lines: the hottest functions, the --symbols hint"
ok sh -c "! grep -q 'Hottest source lines' '$R/nolines/report.txt' &&
          grep -qx 'Hottest functions by self CU' '$R/nolines/report.txt' &&
          grep -q -- '--symbols FILE' '$R/nolines/report.txt'"
NAME="Solana transaction report: the programs it ran by instruction, not its instructions"
ok sh -c "sed -n '/^Programs\$/,/^\$/p' '$R/cpi/01-pda_transfer/report.txt' >'$T/progs' &&
          grep -q '^  program:cpi ix 0x0140420f00000000 ' '$T/progs' && grep -q '^  program:system Transfer ' '$T/progs' &&
          ! grep -q 'instruction #' '$T/progs'"
NAME="Solana transaction report: a failed instruction's runtime error and its index"
ok sh -c "grep -q '^  status  *failed: ' '$R/cpi/02-missing_signer/report.txt' &&
          grep -q '^  error  *instruction #1 failed: ' '$R/cpi/02-missing_signer/report.txt'"
NAME="Solana report.json says its chain; a Soroban one has no chain key (the default)"
ok sh -c "grep -q '\"chain\":\"solana\"' '$R/tx/report.json' && ! grep -q '\"chain\"' '$T/sor/demo/report.json'"
# the same bytes saved under a name that tags their form (as wire.js saves
# LABEL.legacy.b64): the tag is not the transaction's name
cp "$T/swap.v2.bin" "$T/swap.v2.legacy.b64"
"$BIN" profile --tx "$T/swap.v2.legacy.b64" "$CTR" --account "$PAYER:1000000000:11111111111111111111111111111111:" \
  -o "$T/txform" -q >/dev/null 2>&1
NAME="Solana --tx report: titled by the file's name without its last extension (dots kept) or a form tag"
ok sh -c "[ \"\$(head -1 '$R/tx/report.txt')\" = 'scprof report: transaction swap.v2' ] &&
          grep -q '<text id=\"title\"[^>]*>transaction swap.v2<' '$R/tx/flamegraph.svg' &&
          [ \"\$(head -1 '$T/txform/report.txt')\" = 'scprof report: transaction swap.v2' ]"
NAME="a program's size report: Solana's, totals under Size, no syscalls; a contract's keeps Budget and host functions"
ok sh -c "grep -q '\"chain\":\"solana\"' '$R/size/report.json' && grep -qx 'Size' '$R/size/report.txt' &&
          grep -q '^  status  *success\$' '$R/size/report.txt' && ! grep -q 'yscall' '$R/size/report.txt' &&
          grep -qx 'Top 20 functions by self Size' '$R/size/report.txt' &&
          grep -qx 'Budget' '$T/sor/size/report.txt' && grep -qx 'Host functions (self cost)' '$T/sor/size/report.txt' &&
          ! grep -q '\"chain\"' '$T/sor/size/report.json'"
"$BIN" diff "$R/cpi/01-pda_transfer/report.json" "$R/cpi/02-missing_signer/report.json" -o "$T/d" -q >/dev/null 2>&1
NAME="a Solana report.json read back keeps its chain: diff.svg says how the run ended in Solana's words"
ok sh -c "grep -q 'run ended: instruction #1 failed: ' '$T/d/diff.svg' && ! grep -qE '$SOROBAN_WORDS' '$T/d/diff.svg'"

# --help: both chains, every option of the Solana profile command
"$BIN" --help >"$T/help.txt"
sed -n '/^profile runs/,/^$/p' "$T/help.txt" >"$T/intro.txt"
missing=""
for o in --ix --account --accounts --program --program-id --loader --cu-limit --heap --warp-slot \
         --feature --list --tx --expect-chain --sigverify --scenario; do
  grep -q -- "^ *$o " "$T/help.txt" || missing="$missing $o"
done
NAME="--help: its introduction names both chains, and every Solana option is listed"
ok sh -c "grep -q 'Soroban contract' '$T/intro.txt' && grep -q 'Solana program' '$T/intro.txt' && [ -z '$missing' ]"
[ -n "$missing" ] && echo "  not in --help:$missing"

# pprof glues a value to its unit: "compute units" would read "118compute units"
if command -v go >/dev/null 2>&1; then
  go tool pprof -top "$R/custom/profile.pb.gz" >"$T/pp.txt" 2>&1
  NAME="[viewer] go tool pprof -top: a Solana profile's 118 CU read as CU"
  ok sh -c "grep -qx 'Type: CU' '$T/pp.txt' && grep -q 'accounting for 118CU, 100% of 118CU total' '$T/pp.txt'"
else
  echo "FAIL [viewer] chain_words: no go tool pprof (golang-go, scripts/deps installs it)"
fi
exit 0
