#!/bin/sh
# Time per Solana transaction, in instructions executed (callgrind; repeatable
# on a loaded machine where wall time is not): a scenario of N transactions
# against the same scenario with N + K, the difference over K.
#   transfer   p-token Transfer of 1 token (one instruction, no CPI)
#   transfer_np   the same with "profile": false (no profile, no outputs)
#   ata_pair   ATA create (4 CPIs: System and token) then token CloseAccount,
#              which frees the address for the next create
# The others are run profiled (every transaction's outputs written, as
# `scprof profile --scenario` does).  Needs valgrind and litesvm's ELFs
# (build/oracle, scripts/deps).  usage: bench/sol_tx.sh BUILD [K]
set -eu
B=${1:-build}
K=${2:-40}
ORACLE=${SCP_ORACLE_DIR:-$B/oracle}
command -v valgrind >/dev/null 2>&1 || { echo "sol_tx: valgrind not installed, skipped"; exit 0; }
[ -f "$ORACLE/token.so" ] && [ -f "$ORACLE/ata.so" ] || { echo "sol_tx: $ORACLE/{token,ata}.so missing, skipped"; exit 0; }
ORACLE=$(cd "$ORACLE" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TK=TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA
MINT=4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi
SRC=8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR
DST=GgBaCs3NCBuZN12kCJgAW63ydqohFkHEdfdEXBPzLHq
WAL=CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8
ATA=4iVXddBZKmBBRndg5o9PCs4pG4kP59at3r7oD4kdM62i
# n bytes of b, in hex
rep() { i=0; while [ $i -lt "$1" ]; do printf '%s' "$2"; i=$((i + 1)); done; }
A3=$(rep 32 03)   # the wallet's (and mint authority's) key bytes: $WAL
# a mint: authority A3, supply 10^8, 6 decimals, initialized
MINTD=01000000${A3}00e1f505000000000601$(rep 36 00)
# a token account of mint 0x01.., owner A3, holding $1 (8 bytes LE hex), initialized
acct() { printf '%s%s%s%s01%s' "$(rep 32 01)" "$A3" "$1" "$(rep 36 00)" "$(rep 56 00)"; }
SRCD=$(acct 00e1f50500000000)
DSTD=$(acct 0000000000000000)

# transactions N FN: the scenario's "transactions", FN I printing the I-th
transactions() {
  echo " \"transactions\": ["
  i=1
  while [ $i -le "$1" ]; do
    [ $i -gt 1 ] && echo ","
    "$2" $i
    i=$((i + 1))
  done
  echo "]}"
}

tx_transfer() {
  printf '{"label": "t%d", %s"instructions": [{"program": "token", "data": "030100000000000000", "accounts": [{"pubkey": "%s", "writable": true}, {"pubkey": "%s", "writable": true}, {"pubkey": "%s", "signer": true}]}]}' \
    "$1" "$PF" "$SRC" "$DST" "$WAL"
}

# scenario_transfer N: N transfers of 1 token, each its own transaction
# (unprofiled with PF='"profile": false, ' PF_NAME=_np)
scenario_transfer() {
  {
    echo "{\"programs\": [{\"name\": \"token\", \"elf\": \"$ORACLE/token.so\", \"id\": \"$TK\"}],"
    echo " \"accounts\": [{\"pubkey\": \"$WAL\", \"lamports\": 1000000000},"
    echo "  {\"pubkey\": \"$SRC\", \"lamports\": 2039280, \"owner\": \"$TK\", \"data\": \"$SRCD\"},"
    echo "  {\"pubkey\": \"$DST\", \"lamports\": 2039280, \"owner\": \"$TK\", \"data\": \"$DSTD\"}],"
    transactions "$1" tx_transfer
  } >"$T/transfer$PF_NAME$1.json"
}

tx_ata() {
  printf '{"label": "create%d", "instructions": [{"program": "ata", "data": "", "accounts": [{"pubkey": "%s", "signer": true, "writable": true}, {"pubkey": "%s", "writable": true}, {"pubkey": "%s"}, {"pubkey": "%s"}, {"pubkey": "11111111111111111111111111111111"}, {"pubkey": "%s"}]}]},\n' \
    "$1" "$WAL" "$ATA" "$WAL" "$MINT" "$TK"
  printf '{"label": "close%d", "instructions": [{"program": "token", "data": "09", "accounts": [{"pubkey": "%s", "writable": true}, {"pubkey": "%s", "writable": true}, {"pubkey": "%s", "signer": true}]}]}' \
    "$1" "$ATA" "$WAL" "$WAL"
}

# scenario_ata N: N times ATA create then CloseAccount
scenario_ata() {
  {
    echo "{\"programs\": [{\"name\": \"ata\", \"elf\": \"$ORACLE/ata.so\", \"id\": \"ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL\", \"loader\": \"v2\"},"
    echo "  {\"name\": \"token\", \"elf\": \"$ORACLE/token.so\", \"id\": \"$TK\"}],"
    echo " \"accounts\": [{\"pubkey\": \"$WAL\", \"lamports\": 1000000000},"
    echo "  {\"pubkey\": \"$MINT\", \"lamports\": 1461600, \"owner\": \"$TK\", \"data\": \"$MINTD\"}],"
    transactions "$1" tx_ata
  } >"$T/ata$1.json"
}

# instructions scprof executes for scenario $1 (its outputs in $T/out)
count() {
  rm -rf "$T/out"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/bin/scprof" profile --scenario "$1" \
    -o "$T/out" -q 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-10s %8s %16s %16s %14s\n' scenario txs "instrs (1)" "instrs (1+K)" "per tx"
for w in transfer transfer_np ata; do
  PF= PF_NAME=
  [ "$w" = transfer_np ] && PF='"profile": false, ' PF_NAME=_np
  "scenario_${w%_np}" 1
  "scenario_${w%_np}" $((K + 1))
  a=$(count "$T/${w}1.json")
  grep -qv 'ok$' "$T/out/scenario.txt" && { echo "sol_tx: $w: a transaction failed"; exit 1; }
  b=$(count "$T/$w$((K + 1)).json")
  grep -qv 'ok$' "$T/out/scenario.txt" && { echo "sol_tx: $w: a transaction failed"; exit 1; }

  [ "$w" = ata ] && w=ata_pair
  awk -v w="$w" -v k="$K" -v a="$a" -v b="$b" 'BEGIN { printf "%-10s %8d %16d %16d %14.0f\n", w, k, a, b, (b - a) / k }'
done
