#!/bin/sh
# End-to-end: scprof profile --tx (wire transactions, legacy and v0).
#
# Without the oracle: a hand-made legacy transaction (one System
# instruction with no data) read as raw bytes, base64 and base58 gives the
# same result (150 CU, 0 InvalidInstructionData, a 5,000-lamport fee kept
# by the failed transaction: pinned, worked out from the rules); bad bytes
# are refused with one line and exit 65; --tx refuses options it cannot
# honour.
#
# With litesvm 1.5.0 and @solana/web3.js in build/oracle (tests/oracle/
# wire.js builds and serializes every transaction of tests/oracle/
# {tx,ata,nonce,ptoken,cpi,sysprog}_cases.json with web3.js and runs it in
# litesvm; sysprog's ALT and Stake instructions are web3.js's own
# builders', its Clock and SlotHashes set): every transaction as (a) a
# scenario, (c) a legacy and (d) a v0 wire transaction whose non-signer
# accounts come from a lookup table, (c) and (d) again on (b) the state as
# account dumps (sysvars as their accounts) with the programs as --program
# files, gives litesvm's CU, logs, outcome and writable accounts after it,
# the fee payer's lamports included (independent evidence); so do (e)
# their getTransaction responses (base64 and json) with litesvm's meta as
# the chain's record, inner instructions compared one by one, and
# --sigverify on a signed transaction and a durable-nonce transaction;
# the profiles of all these forms are byte-identical; lookup tables the
# runtime refuses (deactivated, extended in this slot, wrong owner, bad
# data) and fee payers that cannot pay give litesvm's errors.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
D=$(dirname "$0")/../oracle
. "$(dirname "$0")/lib/words.sh"
oracle_setup

# ---- without the oracle -------------------------------------------------
# FeePayer1111... (base58 decoded by python, as the test's own arithmetic)
py() { python3 -c "$1"; }
PAYER=FeePayer11111111111111111111111111111111111
py "
import sys
A='123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
def d(s):
  n=0
  for c in s: n=n*58+A.index(c)
  return n.to_bytes(32,'big')
payer=d('$PAYER')
# 1 signature; header 1 0 1; keys: payer, System; blockhash 7s; one
# instruction: program 1, no accounts, no data
tx=bytes([1])+bytes(64)+bytes([1,0,1,2])+payer+bytes(32)+bytes([7])*32+bytes([1,1,0,0])
open('$T/tx.bin','wb').write(tx)
open('$T/tx.bin+1','wb').write(tx+b'\0')
import base64
open('$T/tx.b64','w').write(base64.b64encode(tx).decode()+'\n')
n=int.from_bytes(tx,'big'); s=''
while n: s=A[n%58]+s; n//=58
s='1'*(len(tx)-len(tx.lstrip(b'\0')))+s
open('$T/tx.b58','w').write(s+'\n')
open('$T/v1.bin','wb').write(bytes([1])+bytes(64)+bytes([0x81]))
open('$T/noncanon.bin','wb').write(bytes([0x81,0x00]))
open('$T/short.bin','wb').write(tx[:100])
open('$T/sanitize.bin','wb').write(tx[:-4]+bytes([1,0,0,0]))
"
for f in bin b64 b58; do
  "$BIN" profile --tx "$T/tx.$f" --account "$PAYER:1000000000:11111111111111111111111111111111:" \
    -o "$T/o.$f" -q >/dev/null 2>"$T/err"
  echo $? >"$T/rc.$f"
done
printf '%s\n' "cu 150" "log Program 11111111111111111111111111111111 invoke [1]" \
  "log Program 11111111111111111111111111111111 failed: invalid instruction data" \
  "result err 0 InvalidInstructionData" "fee 5000" \
  "post $PAYER 999995000 11111111111111111111111111111111 " >"$T/want"
NAME="sol_wire raw bytes: 150 CU, 0 InvalidInstructionData, the 5000-lamport fee kept (exit 10)"
ok sh -c "[ \$(cat '$T/rc.bin') -eq 10 ] && cmp -s '$T/want' '$T/o.bin/result.txt'"
[ -f "$T/o.bin/result.txt" ] && ! cmp -s "$T/want" "$T/o.bin/result.txt" && diff "$T/want" "$T/o.bin/result.txt"
NAME="sol_wire base64 and base58 text read as the same transaction"
ok sh -c "cmp -s '$T/o.bin/result.txt' '$T/o.b64/result.txt' && cmp -s '$T/o.bin/result.txt' '$T/o.b58/result.txt' &&
          cmp -s '$T/o.bin/profile.folded' '$T/o.b58/profile.folded'"
NAME="sol_wire the instruction's node under the root (System with no data: no instruction name)"
ok grep -qx "transaction;instruction #1;program:system 150" "$T/o.bin/profile.folded"

refused() {   # file, exit status, text of the one line
  "$BIN" profile --tx "$1" --account "$PAYER:1000000000:11111111111111111111111111111111:" -o "$T/x" -q \
    >/dev/null 2>"$T/err"
  rc=$?
  one_line_error "$2" "$3"
}
NAME="sol_wire bytes after the transaction refused (exit 65)"
ok refused "$T/tx.bin+1" 65 "1 bytes after the transaction"
NAME="sol_wire message version 1 refused"
ok refused "$T/v1.bin" 65 "message version 1"
NAME="sol_wire a non-canonical compact-u16 refused"
ok refused "$T/noncanon.bin" 65 "not a canonical compact-u16"
NAME="sol_wire a cut transaction refused, naming the file"
ok refused "$T/short.bin" 65 "short.bin: the account keys at byte 69 runs past the end"
printf 'not a transaction!\n' >"$T/text"
NAME="sol_wire text neither base64 nor base58 refused"
ok refused "$T/text" 65 "neither base64 nor base58"
NAME="sol_wire a program index 0 is the runtime's SanitizeFailure (0 CU, no fee)"
ok sh -c "'$BIN' profile --tx '$T/sanitize.bin' --account '$PAYER:1000000000:11111111111111111111111111111111:' \
            -o '$T/s' -q >/dev/null 2>&1; [ \$? -eq 10 ] &&
          printf 'cu 0\nresult err SanitizeFailure\nfee 0\n' | cmp -s - '$T/s/result.txt'"
usage() {
  "$BIN" profile --tx "$T/tx.bin" "$@" -q -o "$T/u" >/dev/null 2>"$T/err"
  rc=$?
  one_line_error 2 "--tx"
}
NAME="sol_wire --tx refuses --ix (usage, exit 2)"
ok usage --ix 00
NAME="sol_wire --tx refuses --cu-limit: the budget is the transaction's"
ok usage --cu-limit 5
NAME="sol_wire --tx refuses :s on --account: the message says who signs"
ok usage --account "$PAYER:1:11111111111111111111111111111111::s"
NAME="sol_wire --expect-chain without --tx refused"
ok sh -c "'$BIN' profile '$T/tx.bin' --expect-chain -q -o '$T/u' >/dev/null 2>&1; [ \$? -eq 2 ]"

# ---- against litesvm and web3.js ----------------------------------------
if ! command -v node >/dev/null 2>&1 || [ ! -f "$ORACLE/node_modules/litesvm/package.json" ] ||
   [ ! -f "$ORACLE/node_modules/@solana/web3.js/package.json" ] || [ ! -f "$ORACLE/token.so" ]; then
  oracle_missing "sol_wire: every transaction against litesvm and web3.js (not installed in $ORACLE)"
  exit 0
fi
ORACLE_ABS=$(cd "$ORACLE" && pwd)
B_ABS=$(cd "$B" && pwd)

# every transaction of case file $1 in its three forms
forms() {
  name=$1
  sed "s|@ORACLE@|$ORACLE_ABS|g; s|@BUILD@|$B_ABS|g; s|@ELF@|$T/elf|g" "$D/${name}_cases.json" >"$T/$name.json"
  SCP_WIRE_ALT_CASES=${2:-} node "$D/wire.js" "$T/$name.json" "$T/$name" 2>"$T/oracle.err" ||
    { echo "FAIL sol_wire $name: wire.js failed: $(head -3 "$T/oracle.err")"; return; }
  n=0 bad=0 same=0 differ=0 pinned=0 sposts=0 labels=0 nb=0 bbad=0 nr=0 rbad=0 ninner=0
  # (b): the state as account dumps (the sysvars as their accounts) and
  # the programs as --program files named as the scenario names them
  mkdir -p "$T/$name/progs"
  python3 "$D/dump.py" cli "$T/$name/dump" $(cat "$T/$name/state.specs") >/dev/null
  pargs=
  while read -r id pname elf loader; do
    cp "$elf" "$T/$name/progs/$pname.so"
    pargs="$pargs --program $id=$T/$name/progs/$pname.so:$loader"
  done <"$T/$name/state.programs"
  for want in "$T/$name"/*.legacy.want; do
    label=$(basename "$want" .legacy.want)
    labels=$((labels + 1))
    # no output of the last transaction can stand in for this one's
    rm -rf "$T/a" "$T/legacy" "$T/v0" "$T/blegacy" "$T/bv0" "$T"/elegacy* "$T"/ev0*
    "$BIN" profile --scenario "$T/$name/$label.scn.json" -o "$T/a" -q >/dev/null 2>&1
    for f in legacy v0; do
      n=$((n + 1))
      "$BIN" profile --scenario "$T/$name/state.json" --tx "$T/$name/$label.$f.b64" -o "$T/$f" -q >/dev/null 2>&1
      if ! grep -v '^fee ' "$T/$f/result.txt" | cmp -s - "$T/$name/$label.$f.want"; then
        bad=$((bad + 1))
        echo "  $label $f:"; grep -v '^fee ' "$T/$f/result.txt" | diff "$T/$name/$label.$f.want" - | head -5
      fi
      nb=$((nb + 1))
      # shellcheck disable=SC2086
      "$BIN" profile $pargs --accounts "$T/$name/dump" --tx "$T/$name/$label.$f.b64" -o "$T/b$f" -q >/dev/null 2>&1
      if ! grep -v '^fee ' "$T/b$f/result.txt" | cmp -s - "$T/$name/$label.$f.want"; then
        bbad=$((bbad + 1))
        echo "  $label $f from dumps:"; grep -v '^fee ' "$T/b$f/result.txt" | diff "$T/$name/$label.$f.want" - | head -5
      fi
      # (e): its getTransaction responses, both encodings: litesvm's meta
      # is the chain's record, which scprof must meet exactly
      for e in rpc rpcjson; do
        nr=$((nr + 1))
        "$BIN" profile --scenario "$T/$name/state.json" --tx "$T/$name/$label.$f.$e.json" --expect-chain \
          -o "$T/e$f$e" -q >/dev/null 2>"$T/err"
        rc=$?
        if [ $rc -ne 0 ] && [ $rc -ne 10 ] || ! grep -q '^chain logs same' "$T/e$f$e/result.txt" ||
           ! grep -q '^chain inner instructions same' "$T/e$f$e/result.txt"; then
          rbad=$((rbad + 1)); echo "  $label.$f.$e.json: exit $rc: $(cat "$T/err")"
        fi
        i=$(sed -n 's/^chain inner instructions same (\([0-9]*\))$/\1/p' "$T/e$f$e/result.txt")
        ninner=$((ninner + ${i:-0}))
      done
    done
    # the scenario form's CU, logs and outcome as the wire forms' (the
    # rent-state check's account index counts in each message's own order)
    grep -v '^post \|^fee ' "$T/legacy/result.txt" >"$T/wl"
    grep -v '^post \|^fee ' "$T/v0/result.txt" >"$T/wv"
    grep -v '^post \|^fee ' "$T/a/01-$label/result.txt" >"$T/sa"
    # the scenario's accounts after (its own key order) as litesvm's
    grep '^post ' "$T/a/01-$label/result.txt" | sort >"$T/sp"
    grep '^post ' "$T/$name/$label.legacy.want" | sort >"$T/lp"
    cmp -s "$T/sp" "$T/lp" && [ -s "$T/sp" ] && sposts=$((sposts + 1))
    if cmp -s "$T/sa" "$T/wl" && cmp -s "$T/wl" "$T/wv"; then
      pinned=$((pinned + 1))
      for p in profile.folded report.json report.txt callgrind.out.scprof profile.speedscope.json flamegraph.svg profile.pb.gz; do
        for o in legacy v0 blegacy bv0 elegacyrpc elegacyrpcjson ev0rpc ev0rpcjson; do
          if cmp -s "$T/a/01-$label/$p" "$T/$o/$p"; then same=$((same + 1))
          else differ=$((differ + 1)); echo "  $label: $p differs between the scenario and $o"; fi
        done
      done
    elif ! grep -q 'InsufficientFundsForRent' "$T/wl"; then
      differ=$((differ + 1)); echo "  $label: the scenario's result differs from the wire's"
    fi
  done
  NAME="[litesvm] sol_wire $name: $nr getTransaction responses (base64 and json) meet the chain's CU, logs, err and all $ninner inner instructions (program, accounts, data, stack height)"
  ok [ "$nr" -gt 0 -a "$rbad" -eq 0 ]
  [ "$name" = ata ] && { NAME="sol_wire ata: the responses record inner instructions to compare"; ok [ "$ninner" -gt 0 ]; }
  big=$(find "$T/$name" -maxdepth 1 -name '*.toolarge' | wc -l)
  NAME="[litesvm] sol_wire $name: $n legacy and v0 wire transactions equal litesvm (CU, logs, outcome, writable accounts with the fee payer; $big larger than a packet left out)"
  ok [ "$n" -gt 0 -a "$bad" -eq 0 ]
  NAME="[litesvm] sol_wire $name: $nb legacy and v0 wire transactions on account dumps with --program files equal litesvm"
  ok [ "$nb" -gt 0 -a "$bbad" -eq 0 ]
  NAME="[litesvm] sol_wire $name: the $labels scenario transactions with a fee_payer leave litesvm's accounts, fee payer included"
  ok [ "$labels" -gt 0 -a "$sposts" -eq "$labels" ]
  NAME="sol_wire $name: profiles byte-identical from the scenario, the legacy and v0 wire forms, both on account dumps, and their getTransaction responses ($same files of $pinned transactions)"
  ok [ "$same" -gt 0 -a "$differ" -eq 0 ]
}
forms tx
forms ata 1
# the two input forms of one transaction are one profile: diff says no change
"$BIN" profile --scenario "$T/ata/ata_create.scn.json" -o "$T/as" -q >/dev/null 2>&1
"$BIN" profile --scenario "$T/ata/state.json" --tx "$T/ata/ata_create.legacy.b64" -o "$T/aw" -q >/dev/null 2>&1
NAME="sol_wire ata_create: scenario and --tx wire forms diff as no change, Token's InitializeAccount3 named in both"
ok sh -c "'$BIN' diff '$T/as/01-ata_create/report.json' '$T/aw/report.json' -o '$T/ad' -q >/dev/null &&
          [ \$(grep -c '(no change)' '$T/ad/diff.txt') = 3 ] && grep -q '^  CU  *13,386  *13,386  *0  ' '$T/ad/diff.txt' &&
          grep -q ';program:token InitializeAccount3;' '$T/as/01-ata_create/profile.folded' &&
          grep -q ';program:token InitializeAccount3;' '$T/aw/profile.folded'"
forms nonce
forms ptoken
# CPIs nested up to the depth limit (the CPI refused for CallDepth is in
# the chain's inner instructions too), failing ones, System and Token callees
forms cpi
"$BIN" profile --scenario "$T/cpi/state.json" --tx "$T/cpi/depth_limit.v0.rpc.json" -o "$T/dl" -q >/dev/null 2>&1
# programs that read sysvars, with the Clock and SlotHashes set: the Clock
# reader (tests/fixtures/sbpf/clock.c), the Address Lookup Table program
# creating tables and extending one (instructions built by web3.js's
# AddressLookupTableProgram), Stake's Initialize (StakeProgram), both core
# BPF programs taken out of litesvm
node "$D/run.js" --extract "$T/elf" >/dev/null 2>&1 || echo "FAIL [litesvm] sol_wire: run.js --extract failed"
forms sysprog
NAME="[litesvm] sol_wire sysprog: ALT create (10,499 CU), create and extend (16,944), Stake Initialize (7,568) as litesvm charged them"
ok sh -c "grep -qx 'cu 10499' '$T/sysprog/alt_create.v0.want' && grep -qx 'cu 16944' '$T/sysprog/alt_create_extend.v0.want' &&
          grep -qx 'cu 7568' '$T/sysprog/stake_initialize.legacy.want' && grep -qx 'result ok' '$T/sysprog/alt_create_extend.legacy.want'"
NAME="[litesvm] sol_wire cpi: depth_limit's 5 inner instructions, nested to stackHeight 6 (the one refused for CallDepth), as the chain's"
ok sh -c "grep -q '\"stackHeight\": 6' '$T/cpi/depth_limit.v0.rpc.json' && grep -qx 'chain inner instructions same (5)' '$T/dl/result.txt'"
"$BIN" profile --scenario "$T/ptoken/state.json" --tx "$T/ptoken/ptoken_priority_fee.v0.b64" -o "$T/pf" -q >/dev/null 2>&1
NAME="sol_wire p-token with a price of 1,000 micro-lamports over 100,000 CU: fee 2 x 5,000 + 100 (1,166 CU)"
ok sh -c "grep -qx 'fee 10100' '$T/pf/result.txt' && grep -qx 'cu 1166' '$T/pf/result.txt'"

# a record scprof does not meet: CU and a log line changed
r=$T/ata/ata_create.v0.rpc.json
sed 's/"computeUnitsConsumed": 13386/"computeUnitsConsumed": 13385/; s/Program log: Create/Program log: Created/' "$r" >"$T/changed.json"
"$BIN" profile --scenario "$T/ata/state.json" --tx "$T/changed.json" --expect-chain -o "$T/c" -q >"$T/out" 2>"$T/err"
rc=$?
NAME="sol_wire --expect-chain: a record that differs is exit 14, the first differing log line named"
ok sh -c "[ $rc -eq 14 ] && grep -q 'chain 13385 CU, scprof 13386 CU; log line 2 differs: chain \"Program log: Created\", scprof \"Program log: Create\"' '$T/err' &&
          grep -qx 'chain cu 13385 scprof 13386' '$T/c/result.txt' && grep -qx 'chain log 2: Program log: Created' '$T/c/result.txt'"
"$BIN" profile --scenario "$T/ata/state.json" --tx "$T/changed.json" -o "$T/c" -q >/dev/null 2>&1
NAME="sol_wire without --expect-chain the difference is reported, not an error"
ok [ $? -eq 0 ]
# an inner instruction the chain recorded otherwise: the data of
# ata_create's third CPI replaced by one other byte (base58 "2" or "3")
python3 -c "
import json, sys
d = json.load(open('$r'))
ii = d['result']['meta']['innerInstructions'][0]['instructions']
sys.stdout.write(ii[2]['data'])
ii[2]['data'] = '2' if ii[2]['data'] != '2' else '3'
json.dump(d, open('$T/inner.json', 'w'))
del ii[2]['stackHeight']
json.dump(d, open('$T/noheight.json', 'w'))
" >"$T/inner_data"
"$BIN" profile --scenario "$T/ata/state.json" --tx "$T/inner.json" --expect-chain -o "$T/c" -q >"$T/out" 2>"$T/err"
rc=$?
NAME="sol_wire --expect-chain: an inner instruction that differs is exit 14, the first one named with both sides"
ok sh -c "[ $rc -eq 14 ] && grep -q 'inner instruction 3 differs: chain \"index 0 stackHeight 2 programIdIndex [0-9]* accounts \[[0-9,]*\] data [23]\", scprof \"index 0 stackHeight 2 programIdIndex [0-9]* accounts \[[0-9,]*\] data $(cat "$T/inner_data")\"' '$T/err' &&
          grep -q '^scprof inner 3: index 0 stackHeight 2' '$T/c/result.txt'"
"$BIN" profile --scenario "$T/ata/state.json" --tx "$T/noheight.json" -o "$T/c" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_wire an inner instruction without stackHeight refused (exit 65, JSON path named)"
ok one_line_error 65 "result.meta.innerInstructions[0].instructions[2].stackHeight"
sed 's/"computeUnitsConsumed": 13386/"computeUnitsConsumed": null/' "$r" >"$T/nocu.json"
"$BIN" profile --scenario "$T/ata/state.json" --tx "$T/nocu.json" -o "$T/c" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_wire a record without computeUnitsConsumed (null) refused (exit 65, JSON path named)"
ok one_line_error 65 "nocu.json: result.meta.computeUnitsConsumed"
sed 's/"meta": {/"meta": {"surprise": 1,/' "$r" >"$T/unknown.json"
"$BIN" profile --scenario "$T/ata/state.json" --tx "$T/unknown.json" -o "$T/c" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_wire an unknown key in meta refused"
ok one_line_error 65 'unknown key "surprise"'

# refused lookup tables and fee payers that cannot pay (from ata_create)
bad=0 n=0
for dir in "$T"/ata/alt-* "$T"/ata/payer_*; do
  n=$((n + 1))
  "$BIN" profile --scenario "$dir/state.json" --tx "$dir/tx.v0.b64" -o "$T/r" -q >/dev/null 2>&1
  grep -v '^fee ' "$T/r/result.txt" | cmp -s - "$dir/tx.v0.want" ||
    { bad=$((bad + 1)); echo "  $(basename "$dir"):"; grep -v '^fee ' "$T/r/result.txt" | diff "$dir/tx.v0.want" - | head -5; }
done
NAME="sol_wire $n lookup tables and fee payers (deactivated, extended now, foreign, bad data; poor, rent-paying, not system, absent) as litesvm"
ok [ "$n" -eq 11 -a "$bad" -eq 0 ]
# signatures: a really signed transfer and the same with a signature byte
# changed, against litesvm with its signature checks on
for d in sig_good sig_bad; do
  "$BIN" profile --scenario "$T/ata/$d/state.json" --tx "$T/ata/$d/tx.b64" --sigverify -o "$T/$d" -q >/dev/null 2>&1
  echo $? >"$T/$d.rc"
done
NAME="sol_wire --sigverify: a good signature runs (150 CU), a bad one is SignatureFailure, as litesvm"
ok sh -c "grep -v '^fee ' '$T/sig_good/result.txt' | cmp -s - '$T/ata/sig_good/tx.want' && [ \$(cat '$T/sig_good.rc') -eq 0 ] &&
          grep -v '^fee ' '$T/sig_bad/result.txt' | cmp -s - '$T/ata/sig_bad/tx.want' && [ \$(cat '$T/sig_bad.rc') -eq 10 ] &&
          grep -qx 'result err SignatureFailure' '$T/ata/sig_bad/tx.want'"
"$BIN" profile --scenario "$T/ata/sig_bad/state.json" --tx "$T/ata/sig_bad/tx.b64" -o "$T/nosig" -q >/dev/null 2>&1
NAME="sol_wire without --sigverify the bad signature is not checked"
ok [ $? -eq 0 ]

# a durable-nonce transaction built by web3.js (its recent blockhash the
# stored nonce): the nonce advanced from it, as litesvm advances it
"$BIN" profile --scenario "$T/ata/nonce_durable/state.json" --tx "$T/ata/nonce_durable/tx.b64" -o "$T/nd" -q >/dev/null 2>&1
NAME="sol_wire a durable-nonce transaction (300 CU, the nonce advanced) as litesvm"
ok sh -c "grep -v '^fee ' '$T/nd/result.txt' | cmp -s - '$T/ata/nonce_durable/tx.want' && grep -qx 'cu 300' '$T/nd/result.txt'"

NAME="sol_wire a table deactivated in this slot still loads; one deactivated earlier is AddressLookupTableNotFound"
ok sh -c "grep -qx 'result ok' '$T/ata/alt-deactivated_now/tx.v0.want' &&
          grep -qx 'result err AddressLookupTableNotFound' '$T/ata/alt-deactivated/tx.v0.want'"

# the wire transactions' profiles (and the scenario form's) print
# Solana's words only (lib/words.sh)
for s in as aw pf nd nosig; do
  if [ -d "$T/$s" ]; then vocab "sol_wire $s: reports, JSON status, flamegraph words" "$T/$s" "$SOROBAN_WORDS" 1; fi
done
exit 0
