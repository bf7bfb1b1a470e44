#!/bin/sh
# End-to-end: no option is silently ignored.  Every combination of an
# option with an input that cannot honour it is one usage line naming the
# option (exit 2) and writes nothing: the
# options of a run with --list (Solana and Soroban), the options a
# Solana scenario's file gives, --program-id and --loader with no
# PROGRAM.so, the state options with --tx --scenario, --soroban-state-size
# without a fee network, bench --network with only Solana cases.  And
# the combinations next to them keep working: --max-nodes on a scenario's
# instructions and transactions (the node budget reached, the warning),
# --fold-recursion and --max-nodes with --tx, a --tx run with
# -q --top -f, PROGRAM.so --list, a contract's --list, a fee network with
# --soroban-state-size.  These are behaviour checks (exit statuses,
# messages, files); the one number, 150 CU of the hand-made transaction,
# is sol_wire.sh's, worked out from the rules there.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 41
CTR=$(cd "$B/tests/fixtures/sbpf" 2>/dev/null && pwd)/counter.so
SPEC=$B/tests/fixtures/wasm/spec_args.wasm
DEMO=$B/examples/demo.wasm
for f in "$CTR" "$SPEC" "$DEMO"; do
  [ -f "$f" ] || { echo "FAIL cli_options: $f not built"; exit 0; }
done
P=ScprofProgram111111111111111111111111111111
PAYER=FeePayer11111111111111111111111111111111111
SYS=11111111111111111111111111111111
PAY="$PAYER:1000000000:$SYS:"

# sol_wire.sh's legacy transaction: one System instruction, no data
python3 -c "
A='123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
n=0
for c in '$PAYER': n=n*58+A.index(c)
payer=n.to_bytes(32,'big')
open('$T/tx.bin','wb').write(bytes([1])+bytes(64)+bytes([1,0,1,2])+payer+bytes(32)+bytes([7])*32+bytes([1,1,0,0]))
"
printf '{"programs": [{"name": "counter", "elf": "%s"}], "instructions": [{"program": "counter", "data": "32"}]}\n' \
  "$CTR" >"$T/ix.json"
printf '{"programs": [{"name": "counter", "elf": "%s"}], "transactions": [{"label": "t1", "instructions": [{"program": "counter", "data": "32"}]}]}\n' \
  "$CTR" >"$T/tx.json"
printf '{"programs": [{"name": "counter", "elf": "%s"}]}\n' "$CTR" >"$T/state.json"

# refused TEXT ARGS...: scprof profile ARGS -o $T/never is one usage line
# holding TEXT (exit 2), and $T/never is not made
refused() {
  text=$1
  shift
  rm -rf "$T/never"
  "$BIN" profile "$@" -o "$T/never" >"$T/out" 2>"$T/err"
  rc=$?
  one_line_error 2 "$text" && [ ! -e "$T/never" ]
}

# ---- Solana transactions: the call-tree shape options are honoured
# (sol_txshape.sh checks what they do; here: accepted, written, warned)
"$BIN" profile --tx "$T/tx.bin" --account "$PAY" --max-nodes 5 -q -o "$T/s1" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --tx --max-nodes accepted: exit 10 as without it (the transaction fails), 150 CU"
ok sh -c "[ $rc -eq 10 ] && grep -qx 'cu 150' '$T/s1/result.txt' && [ -f '$T/s1/profile.folded' ]"
"$BIN" profile --tx "$T/tx.bin" --account "$PAY" --fold-recursion -q -o "$T/s2" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --tx --fold-recursion accepted (a builtin alone: no call tree to fold, nothing said)"
ok sh -c "[ $rc -eq 10 ] && grep -qx 'cu 150' '$T/s2/result.txt' && ! grep -q '^  recursion' '$T/s2/report.txt'"
"$BIN" profile --scenario "$T/tx.json" --max-nodes 2 -q -o "$T/s3" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options a scenario's transactions with --max-nodes 2: exit 0, the budget reached and said"
ok sh -c "[ $rc -eq 0 ] && grep -q 'warning: .*tx.json: transaction 1: node budget of 2 reached' '$T/err' &&
          grep -q 'truncated' '$T/s3/01-t1/profile.folded'"
"$BIN" profile --scenario "$T/tx.json" --fold-recursion -q -o "$T/s4" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options a scenario's transactions with --fold-recursion: exit 0, said in the report"
ok sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && grep -q '^  recursion  *folded' '$T/s4/01-t1/report.txt'"
printf '{"programs": [{"name": "counter", "elf": "%s"}], "instructions": [],
  "accounts": [{"pubkey": "%s", "lamports": 1000000000, "owner": "%s"}]}\n' "$CTR" "$PAYER" "$SYS" >"$T/payer.json"
"$BIN" profile --tx "$T/tx.bin" --scenario "$T/payer.json" --max-nodes 9 -q -o "$T/s5" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --tx with the state of a scenario: --max-nodes accepted (exit 10, 150 CU)"
ok sh -c "[ $rc -eq 10 ] && grep -qx 'cu 150' '$T/s5/result.txt'"

# ---- --tx: what describes PROGRAM.so, what the scenario gives
NAME="cli_options --tx --program-id without PROGRAM.so refused"
ok refused "--program-id: with --tx it describes PROGRAM.so, and none is given" --tx "$T/tx.bin" --account "$PAY" --program-id "$P"
NAME="cli_options --tx --loader without PROGRAM.so refused"
ok refused "--loader: with --tx it describes PROGRAM.so" --tx "$T/tx.bin" --account "$PAY" --loader v2
NAME="cli_options --tx --scenario --program refused: the scenario gives the programs"
ok refused "--program: --tx with --scenario takes the programs and accounts from the scenario" \
  --tx "$T/tx.bin" --scenario "$T/state.json" --program "$P=$CTR"

# ---- a Solana scenario: its file gives these
for o in "--cu-limit 5000" "--heap 65536" "--program-id $P" "--loader v2" "--list"; do
  NAME="cli_options --scenario with ${o%% *} refused: the file gives it"
  # shellcheck disable=SC2086
  ok refused "${o%% *}: --scenario takes the programs, their loaders and each instruction's" --scenario "$T/ix.json" $o
done

# ---- Solana --list runs nothing
for o in "--max-nodes 5" "-q" "--top 3" "--feature deplete_cu_meter_on_vm_failure=off" "--cu-limit 5"; do
  NAME="cli_options PROGRAM.so --list with ${o%% *} refused"
  # shellcheck disable=SC2086
  ok refused "${o%% *}: --list prints the program's functions and runs nothing" "$CTR" --list $o
done
NAME="cli_options PROGRAM.so --list -o refused (-o is the first option given)"
rm -rf "$T/never"
"$BIN" profile "$CTR" -o "$T/never" --list >"$T/out" 2>"$T/err"; rc=$?
ok one_line_error 2 "-o: --list prints the program's functions and runs nothing"
NAME="cli_options --loader with --program ID=FILE (which has its own) refused"
ok refused "--loader: it describes PROGRAM.so, and none is given" --program "$P=$CTR" --loader v2 --ix 32

# ---- Soroban: listing runs nothing; a state size needs a network
NAME="cli_options CONTRACT.wasm --list -q refused"
ok refused "-q: listing the contract's functions (--list, or no FUNCTION) runs nothing; it takes --snapshot and --wasm only" \
  "$SPEC" --list -q
NAME="cli_options CONTRACT.wasm without FUNCTION, with --top, refused"
ok refused "--top: listing the contract's functions" "$SPEC" --top 3
NAME="cli_options CONTRACT.wasm FUNCTION --list refused"
ok refused "--list prints the contract's functions and runs none: no FUNCTION (add) with it" "$SPEC" add --list
NAME="cli_options --soroban-state-size without --network refused"
ok refused "--soroban-state-size is the state size behind the rent write fee: it goes with --network or --network-config" \
  -q "$DEMO" run u32:1 --soroban-state-size 1000000

# ---- options that shape an output not made
NAME="cli_options --icicle with no svg in --format refused"
ok refused "--icicle shapes the flamegraphs, and --format asks for no svg" -q -f report "$DEMO" run u32:1 --icicle
NAME="cli_options --min-width with no svg (Solana) refused"
ok refused "--min-width shapes the flamegraphs, and --format asks for no svg" -f json,report --min-width 1 "$CTR" --ix 32
NAME="cli_options --top with -q and no report refused"
ok refused "--top: the rows of the report, and none is written" -q -f json --top 3 "$DEMO" run u32:1
NAME="cli_options --top on a scenario with no report (its summary is printed, not the reports) refused"
ok refused "--top: the rows of the report" -f json --top 3 --scenario "$T/ix.json"

# size: the same two
rm -rf "$T/never"
"$BIN" size -q -f json --top 3 -o "$T/never" "$CTR" >"$T/out" 2>"$T/err"; rc=$?
NAME="cli_options size --top with -q and no report refused"
ok sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF -- '--top: the rows of the report' '$T/err' && [ ! -e '$T/never' ]"
rm -rf "$T/never"
"$BIN" size -q -f json --icicle -o "$T/never" "$DEMO" >"$T/out" 2>"$T/err"; rc=$?
NAME="cli_options size --icicle with no svg refused"
ok sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF -- '--icicle shapes the flamegraphs' '$T/err' && [ ! -e '$T/never' ]"

# ---- bench: --network with Solana cases alone
printf '{"cases": [{"label": "ix", "scenario": "ix.json"}]}\n' >"$T/bench.json"
rm -rf "$T/never"
"$BIN" bench "$T/bench.json" --network mainnet -o "$T/never" -q >"$T/out" 2>"$T/err"; rc=$?
NAME="cli_options bench --network with only Solana cases refused"
ok sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qF -- '--network: every case of $T/bench.json is a Solana scenario' '$T/err' && [ ! -e '$T/never' ]"

# ---- what keeps working
"$BIN" profile --scenario "$T/ix.json" --max-nodes 2 -q -o "$T/k1" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --max-nodes on a scenario's instructions: exit 0, the budget reached and said"
ok sh -c "[ $rc -eq 0 ] && grep -q 'warning: .*ix.json: instruction 1: node budget of 2 reached' '$T/err' &&
          grep -q 'truncated' '$T/k1/01-counter/profile.folded'"
"$BIN" profile --scenario "$T/tx.json" -q -o "$T/k2" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options a scenario's transactions without shape options: exit 0, one ok line"
ok sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && [ \$(wc -l <'$T/k2/scenario.txt') -eq 1 ] && grep -q '	t1	[0-9]*	ok\$' '$T/k2/scenario.txt'"
"$BIN" profile --tx "$T/tx.bin" --account "$PAY" -q --top 3 -f report,folded -o "$T/k3" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --tx with -q --top -f: exit 10 (the transaction fails), 150 CU, the formats asked for alone"
ok sh -c "[ $rc -eq 10 ] && grep -qx 'cu 150' '$T/k3/result.txt' && [ -f '$T/k3/report.txt' ] &&
          [ -f '$T/k3/profile.folded' ] && [ ! -e '$T/k3/flamegraph.svg' ]"
"$BIN" profile --tx "$T/tx.bin" "$CTR" --program-id "$P" --account "$PAY" -q -o "$T/k4" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --tx PROGRAM.so --program-id: accepted (exit 10, 150 CU)"
ok sh -c "[ $rc -eq 10 ] && grep -qx 'cu 150' '$T/k4/result.txt'"
"$BIN" profile -f json --top 2 -o "$T/k6" "$DEMO" run u32:1 >"$T/out" 2>"$T/err"; rc=$?
NAME="cli_options --top with no report file: the printed report takes it (exit 0, 2 rows)"
ok sh -c "[ $rc -eq 0 ] && grep -q '^Top 2 ' '$T/out' && [ ! -e '$T/k6/report.txt' ]"
"$BIN" profile -q -f svg --icicle --min-width 5 -o "$T/k7" "$CTR" --ix 32 >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --icicle --min-width with svg (Solana): exit 0, the flamegraph alone"
ok sh -c "[ $rc -eq 0 ] && [ -f '$T/k7/flamegraph.svg' ] && [ ! -e '$T/k7/report.txt' ]"
"$BIN" size -q -f svg --icicle -o "$T/k8" "$DEMO" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options size --icicle with svg: exit 0, size.svg"
ok sh -c "[ $rc -eq 0 ] && [ -f '$T/k8/size.svg' ]"
"$BIN" profile "$CTR" --list >"$T/out" 2>"$T/err"; rc=$?
NAME="cli_options PROGRAM.so --list alone: exit 0, its version"
ok sh -c "[ $rc -eq 0 ] && grep -q '^sbpf v' '$T/out'"
"$BIN" profile "$SPEC" --list >"$T/out" 2>"$T/err"; rc=$?
NAME="cli_options CONTRACT.wasm --list alone: exit 0, its functions"
ok sh -c "[ $rc -eq 0 ] && grep -q '5 functions (contractspecv0)' '$T/out'"
"$BIN" profile -q -o "$T/k5" "$DEMO" run u32:1 --network mainnet --soroban-state-size 1000000 >/dev/null 2>"$T/err"; rc=$?
NAME="cli_options --soroban-state-size with --network: exit 0, a Fee metric"
ok sh -c "[ $rc -eq 0 ] && grep -q '^Fee' '$T/k5/report.txt'"
