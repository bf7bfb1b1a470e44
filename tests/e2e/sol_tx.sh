#!/bin/sh
# End-to-end: Solana transactions (tests/oracle/tx_cases.json: System and
# Compute Budget builtins, Memo under loaders 2 and 1, budgets, failures
# that stop the transaction, the rent-state check), run by scprof profile
# --scenario, one after the other on the same accounts.  Each transaction's
# CU and outcome must equal the ones litesvm 1.5.0 charged (pinned in
# tests/oracle/tx_expected.txt) and, with the oracle installed, its
# result.txt (CU, every log line, outcome) must equal tests/oracle/tx.js's
# line for line.  Every profile's folded stacks add up to the CU consumed,
# and check --max-cu works on a transaction's profile.
set -u
BIN=${SCPROF:-build/bin/scprof}
D=$(dirname "$0")/../oracle
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib/check.sh"
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
export SCP_ORACLE_DIR="$ORACLE"
if [ ! -f "$ORACLE/memo.so" ]; then
  echo "SKIP sol_tx: $ORACLE/memo.so not extracted (run scripts/deps with npm reachable)"
  exit 0
fi
ORACLE_ABS=$(cd "$ORACLE" && pwd)
sed "s|@ORACLE@|$ORACLE_ABS|g" "$D/tx_cases.json" >"$T/tx.json"

"$BIN" profile --scenario "$T/tx.json" -o "$T/out" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_tx scenario runs (exit 10: a transaction failed)"
ok [ "$rc" -eq 10 ]
NAME="sol_tx CU and outcome of every transaction as pinned"
ok cmp -s "$T/out/scenario.txt" "$D/tx_expected.txt"
[ -s "$T/out/scenario.txt" ] && ! cmp -s "$T/out/scenario.txt" "$D/tx_expected.txt" &&
  diff "$D/tx_expected.txt" "$T/out/scenario.txt" | head -20

bad=0
for dir in "$T"/out/*/; do
  cu=$(awk '$1 == "cu" {print $2}' "$dir/result.txt")
  sum=$(awk '{s += $NF} END {print s + 0}' "$dir/profile.folded")
  [ "$cu" = "$sum" ] || { echo "  $dir: folded $sum != cu $cu"; bad=1; }
done
NAME="sol_tx every transaction's self CU add up to its consumed CU"
ok [ $bad -eq 0 ]

NAME="sol_tx profile: instruction nodes under the root, program frames under them"
ok grep -qx "transaction;instruction #3;program:memo;entrypoint \[symtab\];syscall:sol_log_ 200" \
  "$T/out/02-budget_memo/profile.folded"

NAME="sol_tx check --max-cu on a transaction (848 CU)"
ok sh -c "'$BIN' check '$T/out/02-budget_memo/report.json' --max-cu 848 >/dev/null &&
          ! '$BIN' check '$T/out/02-budget_memo/report.json' --max-cu 847 >/dev/null 2>&1"

if command -v node >/dev/null 2>&1 && [ -f "$ORACLE/node_modules/litesvm/package.json" ]; then
  node "$D/tx.js" "$T/tx.json" >"$T/oracle.txt" 2>"$T/oracle.err"
  n=0
  for dir in "$T"/out/*/; do
    n=$((n + 1))
    label=$(basename "$dir" | sed 's/^[0-9]*-//')
    awk -v l="$label" '$1 == "tx" {on = ($2 == l); next} on' "$T/oracle.txt" |
      sed 's/^result err TransactionError/result err /' >"$T/want.txt"
    NAME="sol_tx $label equals litesvm (CU, logs, outcome)"
    ok cmp -s "$T/want.txt" "$dir/result.txt"
    cmp -s "$T/want.txt" "$dir/result.txt" || diff "$T/want.txt" "$dir/result.txt" | head -10
  done
else
  echo "SKIP sol_tx oracle: litesvm 1.5.0 not installed in $ORACLE"
fi
