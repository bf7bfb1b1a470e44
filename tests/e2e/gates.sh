#!/bin/sh
# End-to-end: `scprof check` and `scprof diff` as CI gates on both chains.
# A profile whose run failed -- a Soroban trap (10), an exhausted Budget
# (11), a host error (12); a Solana instruction error (10), the compute
# meter run out in the VM, in a syscall, in a builtin or in a transaction
# (11) -- fails `check` with its own FAIL line and the status `profile`
# exited with, however low its cost; --allow-failure lets the limits
# decide.  check and diff take a scenario's output folder (every case,
# paired by label then by order); a label inside a transaction names its
# "instruction #k" node.  The statuses are pinned from the README's
# table (independent of scprof's output); the CU in the folded lines are
# regression pins of scprof's own numbers for hand-assembled programs.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
DEMO=$B/examples/demo.wasm

failed_with() {   # check's status $rc is $1, one error line, a FAIL line
  one_line_error "$1" "the run failed" && grep -q "^FAIL  run ended: " "$T/out"
}

# profile exited $prc: it must be $1 (the README's status); check with a
# limit far above the cost fails with the same status, and passes with
# --allow-failure.  $2 names the case, $3 is the profile, $4 the limit.
gate() {
  NAME="$2: profile exits $1"
  ok [ "$prc" -eq "$1" ]
  "$BIN" check "$3" "$4" 100000000 >"$T/out" 2>"$T/err"; rc=$?
  NAME="$2: check fails with $1, a FAIL line and one error line"
  ok failed_with "$1"
  "$BIN" check "$3" "$4" 100000000 --allow-failure >"$T/out" 2>"$T/err"; rc=$?
  NAME="$2: check --allow-failure passes on its limits (a note line)"
  [ "$rc" -eq 0 ] && grep -q "^note  run ended: .*(failure allowed)$" "$T/out"; passed $?
}

# ---- Soroban
"$BIN" profile "$DEMO" run u32:200 -o "$T/s_ok" -q -f json,folded 2>/dev/null; prc=$?
"$BIN" check "$T/s_ok" --max-cpu 100000000 >"$T/out" 2>"$T/err"; rc=$?
NAME="soroban ok: check passes (exit 0), no FAIL line"
[ "$prc" -eq 0 ] && [ "$rc" -eq 0 ] && ! grep -q "run ended" "$T/out"; passed $?
"$BIN" profile "$DEMO" run u32:9999 -o "$T/s_trap" -q -f json 2>/dev/null; prc=$?
gate 10 "soroban trap" "$T/s_trap" --max-cpu
"$BIN" profile "$DEMO" run u32:200 --cpu-limit 100000 -o "$T/s_budget" -q -f json 2>/dev/null; prc=$?
gate 11 "soroban budget exhausted" "$T/s_budget" --max-cpu
# a host error: the asset contract refuses a transfer beyond the balance
ISS=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
TO=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ
cat >"$T/host.json" <<JSON
{"assets": [{"name": "usdc", "asset": "USDC:$ISS"}],
 "accounts": [{"id": "$ISS"}, {"id": "$TO"}], "trustlines": [{"account": "$TO", "asset": "usdc"}],
 "calls": [{"contract": "usdc", "function": "transfer", "args": ["addr:$TO", "addr:$ISS", "i128:100"]}]}
JSON
"$BIN" profile --scenario "$T/host.json" -o "$T/s_host" -q -f json 2>/dev/null; prc=$?
gate 12 "soroban host error" "$T/s_host/01-transfer" --max-cpu
"$BIN" check "$T/s_host" --max-cpu 100000000 >"$T/out" 2>"$T/err"; rc=$?
NAME="soroban scenario folder: check fails with the failed call's 12, under its heading"
ok sh -c "[ $rc -eq 12 ] && grep -qx '== 01 transfer' '$T/out' && grep -q 'the first: transfer' '$T/err'"

# ---- Solana
if ! command -v node >/dev/null 2>&1; then
  echo "FAIL gates solana: no node to write the programs (scripts/deps installs it)"; exit 0
fi
node "$(dirname "$0")/../oracle/mkprog.js" "$T/p"
"$BIN" profile "$T/p/ret_v3.so" --ix 0000000000000000 -o "$T/o_ok" -q -f json 2>/dev/null; prc=$?
"$BIN" check "$T/o_ok" --max-cu 2 >"$T/out" 2>"$T/err"; rc=$?
NAME="solana ok: 2 CU, check --max-cu 2 passes"
[ "$prc" -eq 0 ] && [ "$rc" -eq 0 ]; passed $?
"$BIN" profile "$T/p/ret_v3.so" --ix 6500000000000000 -o "$T/o_custom" -q -f json 2>/dev/null; prc=$?
gate 10 "solana Custom(101)" "$T/o_custom" --max-cu
NAME="solana Custom(101): the FAIL line names the error"
"$BIN" check "$T/o_custom" --max-cu 2000000 >"$T/out" 2>/dev/null
ok grep -qx "FAIL  run ended: instruction failed: Custom(101)" "$T/out"
"$BIN" profile "$T/p/fault_v3.so" -o "$T/o_fault" -q -f json 2>/dev/null; prc=$?
gate 10 "solana access violation" "$T/o_fault" --max-cu
"$BIN" profile "$T/p/syscalls_v3.so" --cu-limit 2 -o "$T/o_vm" -q -f json 2>"$T/err"; prc=$?
NAME="solana VM meter run out: profile's error says so"
ok grep -q "ProgramFailedToComplete after 2 CU, out of compute units" "$T/err"
gate 11 "solana VM meter run out" "$T/o_vm" --max-cu
"$BIN" profile "$T/p/syscalls_v3.so" --cu-limit 100 -o "$T/o_sys" -q -f json 2>/dev/null; prc=$?
gate 11 "solana syscall charge over the meter" "$T/o_sys" --max-cu

# transactions: labels, a failure, the meter run out by a program, by the
# VM and by a builtin
ID2=4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi
cat >"$T/p/tx.json" <<JSON
{"programs": [{"name": "ret", "elf": "ret_v3.so"}, {"name": "sys", "elf": "syscalls_v3.so", "id": "$ID2"}],
 "transactions": [
  {"label": "pair", "instructions": [
     {"program": "ret", "data": "0000000000000000", "label": "t0"},
     {"program": "ret", "data": "0000000000000000", "label": "t1"},
     {"program": "ret", "data": "0000000000000000"}]},
  {"label": "custom", "instructions": [{"program": "ret", "data": "6500000000000000"}]},
  {"label": "syscall_out", "instructions": [
     {"program": "compute_budget", "data": "02b0040000"}, {"program": "sys", "label": "work"}]},
  {"label": "vm_out", "instructions": [
     {"program": "compute_budget", "data": "02a0000000"}, {"program": "sys"}]},
  {"label": "builtin_out", "instructions": [{"program": "compute_budget", "data": "0264000000"}]}]}
JSON
"$BIN" profile --scenario "$T/p/tx.json" -o "$T/tx" -q -f json,folded 2>/dev/null; prc=$?
NAME="tx scenario: exit 10, the first failure's"
ok [ "$prc" -eq 10 ]
NAME="tx: labels name the instruction nodes (instruction #2 t1), an unlabelled one stays bare"
grep -qx "transaction;instruction #1 t0;program:ret ix 0x0000000000000000;entrypoint \[no symbols\] 2" "$T/tx/01-pair/profile.folded" &&
   grep -qx "transaction;instruction #2 t1;program:ret ix 0x0000000000000000;entrypoint \[no symbols\] 2" "$T/tx/01-pair/profile.folded" &&
   grep -qx "transaction;instruction #3;program:ret ix 0x0000000000000000;entrypoint \[no symbols\] 2" "$T/tx/01-pair/profile.folded"; passed $?
prc=10; gate 10 "tx Custom(101)" "$T/tx/02-custom" --max-cu
prc=11; gate 11 "tx syscall out of CU (1,200 CU)" "$T/tx/03-syscall_out" --max-cu
prc=11; gate 11 "tx VM out of CU (160 CU)" "$T/tx/04-vm_out" --max-cu
prc=11; gate 11 "tx builtin out of CU (100 CU)" "$T/tx/05-builtin_out" --max-cu
NAME="tx: the meter runs out where pinned (1,200, 160 and 100 CU)"
[ "$(awk '{s += $NF} END {print s}' "$T/tx/03-syscall_out/profile.folded")" = 1200 ] &&
   [ "$(awk '{s += $NF} END {print s}' "$T/tx/04-vm_out/profile.folded")" = 160 ] &&
   [ "$(awk '{s += $NF} END {print s}' "$T/tx/05-builtin_out/profile.folded")" = 100 ]; passed $?
"$BIN" check "$T/tx" --max-cu 100000000 >"$T/out" 2>"$T/err"; rc=$?
NAME="check on the scenario folder: every case under its heading, exit 10 (the first failed run's)"
ok sh -c "[ $rc -eq 10 ] && [ \$(grep -c '^== ' '$T/out') -eq 5 ] && [ \$(grep -c '^FAIL  run ended' '$T/out') -eq 4 ] &&
          grep -q '4 of 5 cases failed their check (the first: custom)' '$T/err'"
"$BIN" check "$T/tx" --max-cu 100000000 --allow-failure >"$T/out" 2>"$T/err"; rc=$?
NAME="check on the scenario folder --allow-failure: exit 0"
ok [ "$rc" -eq 0 ]
"$BIN" check "$T/tx" --max-cu 5 --allow-failure >"$T/out" 2>"$T/err"; rc=$?
NAME="check on the scenario folder: a case over its limit exits 11"
ok sh -c "[ $rc -eq 11 ] && grep -q '^OVER  CU 1,200 > 5' '$T/out'"
NAME="check: an overrun's percentage is grouped as its numbers are (1,200 > 5: +23,900.00%)"
ok grep -q '^OVER  CU 1,200 > 5 (+23,900.00%)$' "$T/out"

# diff of two scenario folders: paired by label, then by order
mkdir -p "$T/old"
cp -r "$T/tx/01-pair" "$T/old/07-pair"
cp -r "$T/tx/03-syscall_out" "$T/old/01-renamed"
cp -r "$T/tx/02-custom" "$T/old/02-gone_label"
"$BIN" diff "$T/old" "$T/tx" -o "$T/d" >"$T/out" 2>"$T/err"; rc=$?
NAME="diff of folders: exit 0, a diff per paired case in DIR/NN-LABEL/"
[ "$rc" -eq 0 ] && [ -s "$T/d/01-pair/diff.svg" ] && [ -s "$T/d/02-custom/diff.txt" ] &&
   [ -s "$T/d/03-syscall_out/diff.txt" ] && [ ! -e "$T/d/04-vm_out" ] && cmp -s "$T/out" "$T/d/diff.txt"; passed $?
NAME="diff of folders: by label first (pair was 07), then in order (custom was 01, syscall_out was 02)"
grep -qx "== 01 pair (was 07 pair)" "$T/out" && grep -qx "== 02 custom (was 01 renamed)" "$T/out" &&
   grep -qx "== 03 syscall_out (was 02 gone_label)" "$T/out" &&
   grep -qx "== 04 vm_out: new, no case to compare with" "$T/out"; passed $?
NAME="diff of folders: custom (2 CU) against syscall_out's 1,200 shows the change"
ok grep -Eq "^  CU +1,200 +2 +-1,198 " "$T/d/02-custom/diff.txt"
"$BIN" diff "$T/old" "$T/o_ok" -o "$T/d2" >/dev/null 2>"$T/err"; rc=$?
NAME="diff of a folder with one profile: usage error, one line"
ok one_line_error 2 "compare a folder of cases with another folder"
mkdir -p "$T/empty"
"$BIN" check "$T/empty" --max-cu 1 >/dev/null 2>"$T/err"; rc=$?
NAME="check on a folder with no profiles: exit 74, one line"
ok one_line_error 74 "no report.json and no NN-LABEL/report.json folders"

# a callee invoked by CPI runs the meter out: tests/oracle/cpi_cases.json's
# nest_cu_limit (litesvm: 1,800 CU, ComputationalBudgetExceeded), and the
# same nesting with 1,259 CU, where the callee's VM runs out
# (ProgramFailedToComplete in the caller, "exceeded CUs meter" at invoke [2])
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
if [ -f "$ORACLE/token.so" ] && [ -f "$B/tests/fixtures/sbpf/cpi.so" ]; then
  B_ABS=$(cd "$B" && pwd) O_ABS=$(cd "$ORACLE" && pwd)
  sed "s|@BUILD@|$B_ABS|g; s|@ORACLE@|$O_ABS|g" "$(dirname "$0")/../oracle/cpi_cases.json" |
    node -e '
      const d = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const t = d.transactions.find((x) => x.label === "nest_cu_limit");
      const v = JSON.parse(JSON.stringify(t));
      v.label = "callee_vm_out"; v.instructions[0].data = "02eb040000";
      d.transactions = [t, v];
      process.stdout.write(JSON.stringify(d));' >"$T/cpi.json"
  "$BIN" profile --scenario "$T/cpi.json" -o "$T/cpi" -q -f json 2>/dev/null; prc=$?
  NAME="cpi: the scenario exits 11, the first failure's (out of compute units)"
  ok [ "$prc" -eq 11 ]
  prc=11; gate 11 "cpi nest_cu_limit (ComputationalBudgetExceeded)" "$T/cpi/01-nest_cu_limit" --max-cu
  prc=11; gate 11 "cpi callee's VM out of CU (ProgramFailedToComplete)" "$T/cpi/02-callee_vm_out" --max-cu
  NAME="cpi callee's VM out of CU: it was the callee's meter, 1,259 CU in all"
  P=ScprofProgram111111111111111111111111111111
  [ "$(grep -o '"value":"Program [^"]*' "$T/cpi/02-callee_vm_out/report.json" | sed -n '4,6s/^"value":"//p')" = \
       "$(printf 'Program %s invoke [2]\nProgram %s consumed 35 of 35 compute units\nProgram %s failed: exceeded CUs meter at BPF instruction' "$P" "$P" "$P")" ] &&
     grep -q '"message":"instruction #2 failed: ProgramFailedToComplete"' "$T/cpi/02-callee_vm_out/report.json"; passed $?
else
  oracle_missing "gates cpi: $ORACLE/token.so or the cpi.so fixture missing"
fi
