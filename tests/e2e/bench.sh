#!/bin/sh
# End-to-end: `scprof bench`.  A bench file of 22 cases of both chains
# (Soroban calls and a two-call scenario, Solana instructions and
# transactions; successes and expected failures of every kind) is run in
# one process: the markdown table on stdout equals DIR/bench.md, every
# case's profile is beside it, and a second run writes bench.md and
# bench.json byte for byte the same.  A changed program (one more
# syscall: 2 -> 103 CU) shows its delta against the saved baseline and
# fails with --max-increase 0 (11).  Every kind of failed run of both
# chains not expected (trap, Budget, host error; instruction error, VM,
# syscall and transaction out of CU) fails the bench with profile's
# status; so do an expected failure that did not happen, one with another
# error, and a set-up call that failed without a profile to show it.  With the
# programs litesvm ships (build/oracle), --matrix puts p-token and
# Token-2022 side by side on the mint and transfer cases of
# tests/oracle/cases.sh, each cell the CU litesvm 1.5.0 charged
# (tests/oracle/expected.txt: independent evidence).  Demo's 413,850 CPU
# and syscalls' 36,711 CU are the README's and litesvm's numbers; the other
# costs are regression pins of scprof's own output.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
D=$(dirname "$0")/../oracle
if ! command -v node >/dev/null 2>&1; then
  echo "FAIL bench: no node to write the Solana programs (scripts/deps installs it)"; exit 0
fi
node "$D/mkprog.js" "$T/p" >/dev/null
W=$T/w
mkdir -p "$W"
cp "$B/examples/demo.wasm" "$T/p/ret_v3.so" "$T/p/syscalls_v3.so" "$T/p/fault_v3.so" "$W/"
cp "$T/p/ret_v3.so" "$W/prog.so"

demo() {   # $1 file, $2 args of run
  printf '{"contracts": [{"name": "demo", "wasm": "demo.wasm"}], "calls": [%s]}\n' "$2" >"$W/$1"
}
sol() {    # $1 file, $2 program file, $3 instruction (or transactions) JSON
  printf '{"programs": [{"name": "p", "elf": "%s"}, {"name": "s", "elf": "syscalls_v3.so", "id": "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"}], %s}\n' "$2" "$3" >"$W/$1"
}
call() { printf '{"contract": "demo", "function": "run", "args": ["u32:%s"]}' "$1"; }
cases=
add() { cases="$cases${cases:+,
}  $1"; }
for n in 1 2 5 10 20 50 100 200 400; do
  demo "run$n.json" "$(call $n)"
  add "{\"label\": \"demo_run_$n\", \"scenario\": \"run$n.json\"}"
done
demo two.json "$(call 200), $(call 400)"
add '{"label": "demo_two_calls", "scenario": "two.json"}'
demo trap.json "$(call 9999)"
add '{"label": "demo_trap", "scenario": "trap.json", "expect": "fail", "error": "divide by zero"}'
printf '{"contracts": [{"name": "demo", "wasm": "demo.wasm"}], "cpu_limit": 100000, "calls": [%s]}\n' "$(call 200)" >"$W/budget.json"
add '{"label": "demo_budget", "scenario": "budget.json", "expect": "fail", "error": "ExceededLimit"}'
ix() { printf '"instructions": [{"program": "%s", "data": "%s"%s}]' "$1" "$2" "${3:-}"; }
sol ret.json ret_v3.so "$(ix p 0000000000000000)"
add '{"label": "ret_ok", "scenario": "ret.json"}'
sol custom.json ret_v3.so "$(ix p 6500000000000000)"
add '{"label": "ret_custom", "scenario": "custom.json", "expect": "fail", "error": "Custom(101)"}'
sol prog.json prog.so "$(ix p 0000000000000000)"
add '{"label": "prog", "scenario": "prog.json"}'
sol sys.json syscalls_v3.so "$(ix p "")"
add '{"label": "syscalls", "scenario": "sys.json"}'
sol fault.json fault_v3.so "$(ix p "")"
add '{"label": "fault", "scenario": "fault.json", "expect": "fail", "error": "ProgramFailedToComplete"}'
sol vm_out.json ret_v3.so "$(ix s "" ', "cu_limit": 2')"
add '{"label": "vm_out_of_cu", "scenario": "vm_out.json", "expect": "fail", "error": "ProgramFailedToComplete"}'
sol sys_out.json ret_v3.so "$(ix s "" ', "cu_limit": 100')"
add '{"label": "syscall_out_of_cu", "scenario": "sys_out.json", "expect": "fail", "error": "ComputationalBudgetExceeded"}'
sol tx.json ret_v3.so '"transactions": [{"label": "pair", "instructions": [{"program": "p", "data": "0000000000000000", "label": "t0"}, {"program": "p", "data": "0000000000000000", "label": "t1"}]}]'
add '{"label": "tx_pair", "scenario": "tx.json"}'
sol tx_custom.json ret_v3.so '"transactions": [{"label": "bad", "instructions": [{"program": "p", "data": "0100000000000000"}]}]'
add '{"label": "tx_custom", "scenario": "tx_custom.json", "expect": "fail", "error": "Custom(1)"}'
sol tx_budget.json ret_v3.so '"transactions": [{"label": "low", "instructions": [{"program": "compute_budget", "data": "02b0040000"}, {"program": "s"}]}]'
add '{"label": "tx_out_of_cu", "scenario": "tx_budget.json", "expect": "fail", "error": "ComputationalBudgetExceeded"}'
printf '{"cases": [\n%s]}\n' "$cases" >"$W/bench.json"

"$BIN" bench "$W/bench.json" -o "$T/a" --save-baseline "$T/base.json" >"$T/out" 2>"$T/err"; rc=$?
NAME="bench: 22 cases of both chains run, exit 0, nothing on stderr"
[ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && [ "$(grep -c '"case"' "$T/a/bench.json")" -eq 23 ]; passed $?
NAME="bench: the table on stdout is DIR/bench.md, the baseline is bench.json"
cmp -s "$T/out" "$T/a/bench.md" && cmp -s "$T/base.json" "$T/a/bench.json"; passed $?
NAME="bench: a header and a row per profile (23: the two-call scenario gives two)"
[ "$(grep -c '^| ' "$T/out")" -eq 24 ] && grep -qx '| case | cost | memory | result |' "$T/out"; passed $?
NAME="bench: each case's profile beside the table"
[ -s "$T/a/08-demo_run_200/01-run/report.json" ] && [ -s "$T/a/10-demo_two_calls/02-run/flamegraph.svg" ] &&
   [ -s "$T/a/20-tx_pair/01-pair/profile.folded" ]; passed $?
NAME="bench: demo run u32:200 is the README's 413,850 CPU, syscalls litesvm's 36,711 CU"
grep -qx '| demo_run_200 | 413,850 CPU | [0-9,]* | ok |' "$T/out" &&
   grep -qx '| syscalls | 36,711 CU |  | ok |' "$T/out"; passed $?
NAME="bench: two calls of one scenario are two rows, LABEL/NN-NAME"
grep -q '^| demo_two_calls/01-run | 413,850 CPU |' "$T/out" && grep -q '^| demo_two_calls/02-run | 628,350 CPU |' "$T/out"; passed $?
NAME="bench: expected failures show their error, marked expected"
grep -qx '| ret_custom | 2 CU |  | instruction failed: Custom(101) (expected) |' "$T/out" &&
   grep -q '^| demo_trap | .* | trap: .*divide by zero.* (expected) |$' "$T/out" &&
   grep -q '^| demo_budget | .* (expected) |$' "$T/out" &&
   grep -qx '| vm_out_of_cu | 2 CU |  | instruction failed: ProgramFailedToComplete (expected) |' "$T/out" &&
   grep -qx '| syscall_out_of_cu | 100 CU |  | instruction failed: ComputationalBudgetExceeded (expected) |' "$T/out" &&
   grep -qx '| tx_out_of_cu | 1,200 CU |  | instruction #2 failed: ComputationalBudgetExceeded (expected) |' "$T/out"; passed $?
NAME="bench: bench.json's status of a failed run is in its chain's words"
ok sh -c "grep -q '\"case\": \"ret_custom\",.* \"status\": \"failed\", ' '$T/a/bench.json' &&
          grep -q '\"case\": \"syscall_out_of_cu\",.* \"status\": \"out of compute units\", ' '$T/a/bench.json' &&
          grep -q '\"case\": \"demo_trap\",.* \"status\": \"contract trapped\", ' '$T/a/bench.json'"
"$BIN" bench "$W/bench.json" -o "$T/b" -q 2>/dev/null
NAME="bench: a second run writes bench.md and bench.json byte for byte the same"
cmp -s "$T/a/bench.md" "$T/b/bench.md" && cmp -s "$T/a/bench.json" "$T/b/bench.json"; passed $?

# the program changes: one more syscall
cp "$T/p/retlog_v3.so" "$W/prog.so"
"$BIN" bench "$W/bench.json" -o "$T/c" --baseline "$T/base.json" >"$T/out" 2>"$T/err"; rc=$?
NAME="bench --baseline: exit 0 without a limit; the changed program's row shows +101 CU"
[ "$rc" -eq 0 ] && grep -qx '| prog | 103 CU |  | +101 | +5050.00% | ok |' "$T/out" &&
   grep -qx '| ret_ok | 2 CU |  | 0 | 0.00% | ok |' "$T/out"; passed $?
"$BIN" bench "$W/bench.json" -o "$T/c" --baseline "$T/base.json" --max-increase 0 >"$T/out" 2>"$T/err"; rc=$?
NAME="bench --max-increase 0: the regression fails the bench (exit 11, one line)"
ok one_line_error 11 "1 of 23 results failed the bench (a cost grew past its limit)"
NAME="bench --max-increase 0: the row says regression, the others ok"
grep -qx '| prog | 103 CU |  | +101 | +5050.00% | \*\*regression\*\* |' "$T/out" &&
   [ "$(grep -c regression "$T/out")" -eq 1 ]; passed $?
"$BIN" bench "$W/bench.json" -o "$T/c" --baseline "$T/base.json" --max-increase 5050 -q 2>/dev/null; r1=$?
"$BIN" bench "$W/bench.json" -o "$T/c" --baseline "$T/base.json" --max-increase 5049.99 -q 2>/dev/null; r2=$?
NAME="bench --max-increase: 5050% holds, 5049.99% does not"
[ "$r1" -eq 0 ] && [ "$r2" -eq 11 ]; passed $?
"$BIN" diff "$T/a" "$T/c" -o "$T/d" >"$T/out" 2>&1; rc=$?
NAME="diff of two bench folders: the changed case paired by label, +101 CU"
ok sh -c "[ $rc -eq 0 ] && grep -qx '== 15 prog/01-p (was 15 prog/01-p)' '$T/out' && grep -Eq '^  CU +2 +103 +\+101 ' '$T/d/15-prog/01-p/diff.txt'"

# verdicts
one() {   # $1 case JSON: a bench of it alone
  printf '{"cases": [%s]}\n' "$1" >"$W/one.json"
  "$BIN" bench "$W/one.json" -o "$T/one" >"$T/out" 2>"$T/err"; rc=$?
}
one '{"label": "ret_custom", "scenario": "custom.json"}'
NAME="bench: a failure not expected fails with its status (10)"
ok sh -c "[ $rc -eq 10 ] && grep -q 'a run failed' '$T/err' && grep -q '\*\*failed\*\*: instruction failed: Custom(101)' '$T/out'"
ISS=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5 TO=GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ
printf '{"assets": [{"name": "usdc", "asset": "USDC:%s"}], "accounts": [{"id": "%s"}, {"id": "%s"}],
 "trustlines": [{"account": "%s", "asset": "usdc"}],
 "calls": [{"contract": "usdc", "function": "transfer", "args": ["addr:%s", "addr:%s", "i128:100"]}]}\n' \
  "$ISS" "$ISS" "$TO" "$TO" "$TO" "$ISS" >"$W/host.json"
# every kind of failed run, not expected, fails the bench with profile's status
for kind in "trap.json 10" "budget.json 11" "host.json 12" "vm_out.json 11" "sys_out.json 11" \
            "fault.json 10" "tx_custom.json 10" "tx_budget.json 11"; do
  one "{\"label\": \"x\", \"scenario\": \"${kind% *}\"}"
  NAME="bench: ${kind% *} failing, not expected: exit ${kind#* }, the row says failed"
  ok sh -c "[ $rc -eq ${kind#* } ] && grep -q '^| x | .* | \*\*failed\*\*: ' '$T/out'"
done
one '{"label": "ret_custom", "scenario": "custom.json", "expect": "fail", "error": "Custom(7)"}'
NAME="bench: a failure with another error than expected fails (10)"
ok sh -c "[ $rc -eq 10 ] && grep -q 'failed, but not with the expected error' '$T/out'"
one '{"label": "ret_ok", "scenario": "ret.json", "expect": "fail"}'
NAME="bench: an expected failure that did not happen fails (4)"
ok sh -c "[ $rc -eq 4 ] && grep -q 'expected a failure, the run succeeded' '$T/out'"
one '{"label": "ret_ok", "scenario": "ret.json", "colour": "red"}'
NAME="bench: an unknown key is refused, one line naming the file"
ok one_line_error 65 "one.json: cases[0]: unknown key \"colour\""
one '{"label": "no/slash", "scenario": "ret.json"}'
NAME="bench: a label that is no folder name is refused"
ok one_line_error 65 "cases[0].label"
one '{"label": "missing", "scenario": "nosuch.json"}'
NAME="bench: a scenario that cannot be read stops the bench with its status (74)"
ok one_line_error 74 "nosuch.json"
printf '{"contracts": [{"name": "demo", "wasm": "demo.wasm"}], "calls": [%s, %s]}\n' \
  "$(call 9999 | sed 's/}$/, "profile": false}/')" "$(call 200)" >"$W/setup.json"
one '{"label": "setup", "scenario": "setup.json"}'
NAME="bench: a set-up call that fails (no profile to show it) stops the bench with its status"
ok one_line_error 10 "calls[0]"
cp "$T/b/bench.md" "$T/b.md"
"$BIN" bench "$W/one.json" -o "$T/b" -q 2>/dev/null
NAME="bench: a bench stopped by an error leaves the old output folder as it was"
cmp -s "$T/b.md" "$T/b/bench.md" && [ -d "$T/b/22-tx_out_of_cu" ]; passed $?
printf '{"cases": [{"label": "ret_ok", "scenario": "ret.json"}]}\n' >"$W/one.json"
"$BIN" bench "$W/one.json" -o "$T/b" -q 2>/dev/null; rc=$?
NAME="bench: a new run replaces its old output folder whole (no stale cases)"
[ "$rc" -eq 0 ] && [ "$(ls "$T/b" | tr '\n' ' ')" = "01-ret_ok bench.json bench.md " ]; passed $?
"$BIN" bench "$W/bench.json" --matrix -o "$T/m" >/dev/null 2>"$T/err"; rc=$?
NAME="bench --matrix on a file without a matrix: usage"
ok one_line_error 2 "has no \"matrix\""

# --matrix: p-token and Token-2022 on litesvm-checked cases
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
if [ ! -f "$ORACLE/token.so" ] || [ ! -f "$ORACLE/token2022.so" ]; then
  oracle_missing "bench --matrix: $ORACLE/token.so, token2022.so not extracted (scripts/deps)"
  exit 0
fi
MX=$T/mx
mkdir -p "$MX"
cp "$ORACLE/token.so" "$ORACLE/token2022.so" "$MX/"
# each case of cases.sh a scenario file: --ix and --account into JSON
ocase() {
  name=$1 prog=${2#builtin:}
  shift 2
  case "$prog" in token|token2022) ;; *) return 0 ;; esac
  id=TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA
  [ "$prog" = token ] || id=TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb
  data= accts= refs=
  while [ $# -gt 1 ]; do
    case "$1" in
      --ix) data=$2 ;;
      --account)
        f=$2
        key=${f%%:*} r=${f#*:}; lam=${r%%:*} r=${r#*:}; own=${r%%:*} r=${r#*:}; dat=${r%%:*}
        case ":$r:" in *:s:*) s=true ;; *) s=false ;; esac
        case ":$r:" in *:w:*) w=true ;; *) w=false ;; esac
        accts="$accts${accts:+, }{\"pubkey\": \"$key\", \"lamports\": $lam, \"owner\": \"$own\", \"data\": \"$dat\"}"
        refs="$refs${refs:+, }{\"pubkey\": \"$key\", \"signer\": $s, \"writable\": $w}" ;;
    esac
    shift 2
  done
  printf '{"programs": [{"name": "%s", "elf": "%s.so", "id": "%s"}], "accounts": [%s],\n "instructions": [{"program": "%s", "data": "%s", "accounts": [%s]}]}\n' \
    "$prog" "$prog" "$id" "$accts" "$prog" "$data" "$refs" >"$MX/$name.json"
}
PROGS=$T/p
. "$D/cases.sh"
mcases=
for c in initialize_mint2 initialize_account3 mint_to transfer transfer_checked burn approve revoke; do
  mcases="$mcases{\"label\": \"$c\", \"scenario\": {\"p-token\": \"token_$c.json\", \"token-2022\": \"token2022_$c.json\"}},"
done
printf '{"matrix": ["p-token", "token-2022"], "cases": [%s\n{"label": "transfer_insufficient", "expect": "fail", "error": "Custom(1)", "scenario": {"p-token": "token_transfer_insufficient.json", "token-2022": "token2022_transfer_insufficient.json"}}]}\n' "$mcases" >"$MX/bench.json"
"$BIN" bench "$MX/bench.json" --matrix -o "$T/mo" >"$T/out" 2>"$T/err"; rc=$?
NAME="bench --matrix p-token vs Token-2022: exit 0, both columns"
[ "$rc" -eq 0 ] && grep -qx '| case | p-token | token-2022 | result |' "$T/out" &&
   [ -s "$T/mo/p-token/04-transfer/01-token/report.json" ] && [ -s "$T/mo/token-2022/04-transfer/01-token2022/report.json" ]; passed $?
grp() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
bad=0
for c in initialize_mint2 initialize_account3 mint_to transfer transfer_checked burn approve revoke transfer_insufficient; do
  a=$(awk -v n="token_$c" '$1 == n {print $2}' "$D/expected.txt")
  b=$(awk -v n="token2022_$c" '$1 == n {print $2}' "$D/expected.txt")
  row=$(grep "^| $c |" "$T/out")
  want=$(printf '| %s | %s CU | %s CU |' "$c" "$(grp "$a")" "$(grp "$b")")
  case "$row" in "$want"*) ;; *) echo "  $c: '$row', litesvm: $a and $b CU"; bad=1 ;; esac
done
NAME="bench --matrix: every cell is the CU litesvm 1.5.0 charged (tests/oracle/expected.txt)"
ok [ $bad -eq 0 ]
NAME="bench --matrix: the insufficient transfer fails in both columns, as expected"
ok grep -q '^| transfer_insufficient | .* | p-token: instruction failed: Custom(1) (expected); token-2022: instruction failed: Custom(1) (expected) |$' "$T/out"
"$BIN" bench "$MX/bench.json" -o "$T/m1" -q 2>/dev/null; rc=$?
NAME="bench without --matrix runs the first column alone (p-token's 76 CU transfer)"
ok sh -c "[ $rc -eq 0 ] && grep -q '\"case\": \"transfer\", \"metric\": \"CU\", \"cost\": 76,' '$T/m1/bench.json'"
