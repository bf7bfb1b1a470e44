#!/bin/sh
# scprof against litesvm per Solana transaction, on the programs litesvm
# ships (build/oracle, scripts/deps): p-token Transfer, Token-2022
# TransferChecked, ATA Create (paired with a CloseAccount that frees the
# address again; counted per pair).  Every figure is a ratio of two runs
# made side by side in the same round, the median over ROUNDS rounds:
#   in-process   bench_soltx (a C harness calling libscprof's
#                scp_solana_transaction in a loop; plain: no profile, or
#                profiled: each transaction's profile built) against
#                bench/sol/litesvm_tx.js (node calling litesvm in a loop):
#                the time of a loop of N2 transactions minus one of N1,
#                over N2 - N1, so loading programs and the first use of
#                anything is left out on both sides
#   CLI          `scprof profile --scenario` of 1,000 transactions, the
#                whole process (profiled: a profile written per
#                transaction; unprofiled: "profile": false), against
#                the whole node process running the same 1,000
# and, by callgrind (repeatable where wall time is not), the instructions
# bench_soltx executes per transaction.  Both sides must charge the same
# CU for the first transaction.
#   usage: bench/sol_litesvm.sh BUILD [ROUNDS]
set -eu
B=${1:-build}
ROUNDS=${2:-5}
N1=${N1:-100}
N2=${N2:-600}
D=$(cd "$(dirname "$0")" && pwd)
. "$D/sol/lib.sh"
sol_oracle sol_litesvm "$B/oracle"
[ -x "$B/bench/bench_soltx" ] || { echo "sol_litesvm: $B/bench/bench_soltx not built (make bench)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
field() { sed -n "s/^$1 //p"; }

for k in transfer checked ata; do
  # ata: a pair per count
  python3 "$D/sol/scenario.py" $k $N1 "$ORACLE" "$T/$k.1.json"
  python3 "$D/sol/scenario.py" $k $N2 "$ORACLE" "$T/$k.2.json"
  python3 "$D/sol/scenario.py" $k 1000 "$ORACLE" "$T/$k.cli.json"
  python3 "$D/sol/scenario.py" $k 1000 "$ORACLE" "$T/$k.clinp.json" noprofile
  a=$(node "$D/sol/litesvm_tx.js" "$T/$k.1.json" | field cu)
  b=$("$B/bench/bench_soltx" "$T/$k.1.json" plain | field cu)
  [ "$a" = "$b" ] || { echo "sol_litesvm: $k: litesvm charged $a CU, scprof $b"; exit 1; }
  echo "$k: $a CU (litesvm and scprof)"
done

printf '\n== in-process, microseconds per transaction (median of %d rounds; N = %d - %d)\n' "$ROUNDS" "$N2" "$N1"
printf '%-9s %10s %10s %10s %12s %14s\n' case litesvm plain profiled plain/litesvm profiled/litesvm
for k in transfer checked ata; do
  : >"$T/r"
  r=0
  while [ $r -lt "$ROUNDS" ]; do
    l1=$(node "$D/sol/litesvm_tx.js" "$T/$k.1.json" | field loop_ns)
    p1=$("$B/bench/bench_soltx" "$T/$k.1.json" plain | field loop_ns)
    q1=$("$B/bench/bench_soltx" "$T/$k.1.json" profiled | field loop_ns)
    l2=$(node "$D/sol/litesvm_tx.js" "$T/$k.2.json" | field loop_ns)
    p2=$("$B/bench/bench_soltx" "$T/$k.2.json" plain | field loop_ns)
    q2=$("$B/bench/bench_soltx" "$T/$k.2.json" profiled | field loop_ns)
    echo "$l1 $l2 $p1 $p2 $q1 $q2" >>"$T/r"
    r=$((r + 1))
  done
  n=$((N2 - N1))
  l=$(awk -v n=$n '{ print ($2 - $1) / n / 1000 }' "$T/r" | median)
  p=$(awk -v n=$n '{ print ($4 - $3) / n / 1000 }' "$T/r" | median)
  q=$(awk -v n=$n '{ print ($6 - $5) / n / 1000 }' "$T/r" | median)
  rp=$(awk -v n=$n '{ print (($4 - $3) / ($2 - $1)) }' "$T/r" | median)
  rq=$(awk -v n=$n '{ print (($6 - $5) / ($2 - $1)) }' "$T/r" | median)
  printf '%-9s %10.1f %10.1f %10.1f %11.2fx %13.2fx\n' $k "$l" "$p" "$q" "$rp" "$rq"
done

printf '\n== CLI, 1,000 transactions (ata: 1,000 pairs), whole process, seconds (median of %d rounds)\n' "$ROUNDS"
printf '%-9s %10s %12s %12s %14s %16s\n' case litesvm unprofiled profiled unprof/litesvm profiled/litesvm
for k in transfer checked ata; do
  : >"$T/r"
  r=0
  while [ $r -lt "$ROUNDS" ]; do
    t0=$(ns); node "$D/sol/litesvm_tx.js" "$T/$k.cli.json" >/dev/null
    t1=$(ns); "$B/bin/scprof" profile -q -o "$T/np" --scenario "$T/$k.clinp.json"
    t2=$(ns); "$B/bin/scprof" profile -q -o "$T/p" --scenario "$T/$k.cli.json"
    t3=$(ns)
    grep -qv 'ok' "$T/p/scenario.txt" "$T/np/scenario.txt" && { echo "sol_litesvm: $k: a transaction failed"; exit 1; }
    rm -rf "$T/p" "$T/np"
    echo "$((t1 - t0)) $((t2 - t1)) $((t3 - t2))" >>"$T/r"
    r=$((r + 1))
  done
  l=$(awk '{ print $1 / 1e9 }' "$T/r" | median)
  u=$(awk '{ print $2 / 1e9 }' "$T/r" | median)
  p=$(awk '{ print $3 / 1e9 }' "$T/r" | median)
  ru=$(awk '{ print $2 / $1 }' "$T/r" | median)
  rp=$(awk '{ print $3 / $1 }' "$T/r" | median)
  printf '%-9s %10.2f %12.2f %12.2f %13.2fx %15.2fx\n' $k "$l" "$u" "$p" "$ru" "$rp"
done

if command -v valgrind >/dev/null 2>&1; then
  printf '\n== in-process, instructions per transaction (callgrind; bench_soltx, %d - 10 transactions)\n' 60
  printf '%-9s %14s %14s\n' case plain profiled
  for k in transfer checked ata; do
    python3 "$D/sol/scenario.py" $k 10 "$ORACLE" "$T/$k.c1.json"
    python3 "$D/sol/scenario.py" $k 60 "$ORACLE" "$T/$k.c2.json"
    count() {
      valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/bench/bench_soltx" "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    a=$(count "$T/$k.c1.json" plain) b=$(count "$T/$k.c2.json" plain)
    c=$(count "$T/$k.c1.json" profiled) d=$(count "$T/$k.c2.json" profiled)
    awk -v k=$k -v a="$a" -v b="$b" -v c="$c" -v d="$d" 'BEGIN { printf "%-9s %14.0f %14.0f\n", k, (b - a) / 50, (d - c) / 50 }'
  done
fi
