#!/bin/sh
# End-to-end: Solana sysvars.  tests/fixtures/sbpf/clock.c (reads the Clock
# with sol_get_clock_sysvar, SlotHashes and Rent with sol_get_sysvar; its CU
# move with unix_timestamp) and the Address Lookup Table program litesvm
# 1.5.0 ships (core BPF: CreateLookupTable reads all 20,488 bytes of
# SlotHashes through sol_get_sysvar, then CPIs into the System program).
#   - one instruction each, sysvars given as sysvar accounts (--account, as
#     litesvm's setAccount fills its sysvar cache) and --warp-slot: scprof's
#     result.txt (CU, logs, outcome, accounts after) must equal
#     tests/oracle/run.js's line for line, and the CU the ones pinned here
#     (litesvm 1.5.0 charged them);
#   - a scenario's "sysvars" object, which tests/oracle/tx.js applies with
#     litesvm's own setters (setClock, setSlotHashes ...): every
#     transaction's CU, logs and outcome equal litesvm's;
#   - bad sysvars are one-line errors naming the file and the JSON path.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
D=$(dirname "$0")/../oracle
. "$(dirname "$0")/lib/words.sh"
. "$(dirname "$0")/lib/sol.sh"
oracle_setup
CLOCKP=$B/tests/fixtures/sbpf/clock_v3.so
if [ ! -f "$CLOCKP" ]; then
  echo "FAIL sol_sysvar: $CLOCKP not built (make builds it)"
  exit 0
fi
# the ALT program's ELF: taken out of litesvm's package (into this test's
# folder, so the shared oracle folder is left as it is)
ALT=$ORACLE/alt.so
if [ ! -f "$ALT" ] && [ $have_oracle -eq 1 ]; then
  node "$D/run.js" --extract "$T/elf" >/dev/null 2>&1 && ALT=$T/elf/alt.so
fi
[ $have_oracle -eq 1 ] || oracle_missing "sol_sysvar: the litesvm comparisons (litesvm 1.5.0 not installed in $ORACLE)"

le64() { printf '%016x' "$1" | sed 's/\(..\)/\1 /g' | awk '{for (i = NF; i; i--) printf "%s", $i}'; }
rep() { i=0; while [ $i -lt "$2" ]; do printf %s "$1"; i=$((i + 1)); done; }
SYS=11111111111111111111111111111111
SV=Sysvar1111111111111111111111111111111111111
CK=SysvarC1ock11111111111111111111111111111111
SH=SysvarS1otHashes111111111111111111111111111
ALTID=AddressLookupTab1e1111111111111111111111111
K3=CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8     # [3; 32]: the table's authority and payer
SYSPROG="$SYS:1:NativeLoader1111111111111111111111111111111:736f6c616e615f73797374656d5f70726f6772616d:x"
# Clock: slot 1000 (1001 for the tables), epoch start 1,690,000,000, epoch 3,
# leader schedule epoch 4, unix_timestamp 1,700,000,100
CLK="$(le64 1000)$(le64 1690000000)$(le64 3)$(le64 4)$(le64 1700000100)"
CLK1001="$(le64 1001)$(le64 1690000000)$(le64 3)$(le64 4)$(le64 1700000100)"
# SlotHashes: (1000, sha256("a")), (999, [1; 32]), zero-padded to 20,488 bytes
HA=ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb
SHD="$(le64 2)$(le64 1000)$HA$(le64 999)$(rep 01 32)$(rep 00 20400)"
# the table addresses: PDA(ALT, [authority, recent_slot le]), bump 255
T447=J2Ks9ojPqJfzjMzAJp88KSbdKi9kRNrRgbBMMtN9sjLk
T999=7KaM6MPzg2jSbdCYvQJhnJdsFz46FAjfUyJeWV42VcHM
T998=7oo9mp1VvgdcVcBueUJFmT7wM6G4ntGdB5xL4p9eqS7K
create() { echo "--ix 00000000$(le64 "$1")ff --account $2:0:$SYS::w --account $K3:1000000000:$SYS::s --account $K3:1000000000:$SYS::s:w --account $SYSPROG"; }

# scase NAME CU PROGRAM ARGS...: sol_case, the ALT program as builtin:alt for the oracle
scase() {
  name=$1 want=$2 prog=$3
  shift 3
  if [ ! -f "$prog" ]; then oracle_missing "sol_sysvar $name: $prog not there"; return 0; fi
  if [ "$prog" = "$ALT" ]; then sol_case "sol_sysvar $name" "$want" "$prog --program-id $ALTID" builtin:alt "$@"
  else sol_case "sol_sysvar $name" "$want" "$prog" "$prog" "$@"; fi
}

scase clock_default 707 "$CLOCKP"
scase clock_unlocked 2517 "$CLOCKP" --ix "$(le64 1700000000)" --account "$CK:1:$SV:$CLK"
scase clock_locked 382 "$CLOCKP" --ix "$(le64 1800000000)" --account "$CK:1:$SV:$CLK"
scase clock_earlier 1725 "$CLOCKP" --ix "$(le64 1700000099)" --account "$CK:1:$SV:$CLK"
scase clock_warp 2517 "$CLOCKP" --ix "$(le64 1700000000)" --account "$CK:1:$SV:$CLK" --warp-slot 5000
NAME="sol_sysvar clock_warp: the Clock account moved with the warp, the rest kept"
ok grep -qx "post $CK 1 $SV $(le64 5000)$(le64 1690000000)$(le64 3)$(le64 4)$(le64 1700000100)" "$T/out/result.txt"
scase clock_warp_default 707 "$CLOCKP" --warp-slot 12345
scase alt_create 10517 "$ALT" $(create 447552000 $T447)
scase alt_create_slot_hashes 10823 "$ALT" $(create 999 $T999) --account "$SH:1:$SV:$SHD" --account "$CK:1:$SV:$CLK1001"
scase alt_create_not_recent 2294 "$ALT" $(create 998 $T998) --account "$SH:1:$SV:$SHD" --account "$CK:1:$SV:$CLK1001"
NAME="sol_sysvar alt_create_not_recent: a slot SlotHashes does not hold is refused"
ok grep -q "is not a recent slot" "$T/out/result.txt"

# A scenario's "sysvars" (tests/oracle/sysvar_cases.json): the Clock at
# 1,700,000,100 read by the program and as an account, a deadline after
# it, SlotHashes (1000, 999) under which the table of recent slot 999 is
# created, a changed EpochSchedule and LastRestartSlot.
if [ -f "$ALT" ]; then
  B_ABS=$(cd "$B" && pwd)
  ALT_ABS=$(cd "$(dirname "$ALT")" && pwd)/alt.so
  sed "s|@BUILD@|$B_ABS|g; s|@ALT@|$ALT_ABS|g" "$D/sysvar_cases.json" >"$T/scn.json"
  "$BIN" profile --scenario "$T/scn.json" -o "$T/scn" -q >/dev/null 2>"$T/err"
  printf '01\tclock_read\t707\tok\n02\tclock_unlocked\t2517\tok\n03\tclock_locked\t366\t0 Custom(6000)\n04\talt_create\t10499\tok\n' >"$T/want.txt"
  NAME="sol_sysvar scenario: CU and outcome of every transaction as pinned"
  ok cmp -s "$T/scn/scenario.txt" "$T/want.txt"
  NAME="sol_sysvar scenario: the program saw the Clock set by field (slot 1001, unix_timestamp 1,700,000,100)"
  ok grep -qx "log Program log: 0x3e9, 0x3, 0x4, 0x64bb5a80, 0x6553f164" "$T/scn/01-clock_read/result.txt"
  [ $have_oracle -eq 1 ] && sol_tx_oracle "sol_sysvar scenario (sysvars set by litesvm's setters):" "$T/scn.json" "$T/scn"
else
  oracle_missing "sol_sysvar scenario: no alt.so (litesvm not installed)"
fi

# Bad sysvars: one line naming the file and what is wrong, exit 65.
bad_scn() {
  printf '{"programs": [{"name": "clock", "elf": "%s"}], %s, "instructions": [{"program": "clock"}]}\n' \
    "$(cd "$(dirname "$CLOCKP")" && pwd)/clock_v3.so" "$2" >"$T/bad.json"
  "$BIN" profile --scenario "$T/bad.json" -o "$T/bad" -q >/dev/null 2>"$T/err"
  rc=$?
  NAME="sol_sysvar refuses $1"
  ok one_line_error 65 "$3"
  one_line_error 65 "$3" || cat "$T/err"
}
bad_scn "a negative slot" '"sysvars": {"clock": {"slot": -1}}' "bad.json: sysvars.clock.slot: negative"
bad_scn "an unknown Clock field" '"sysvars": {"clock": {"slott": 1}}' "sysvars.clock.slott: unknown key"
bad_scn "an unknown sysvar" '"sysvars": {"clocks": {}}' "sysvars.clocks: unknown sysvar"
bad_scn "slot hashes out of order" '"sysvars": {"slot_hashes": [[5, "11111111111111111111111111111111"], [6, "11111111111111111111111111111111"]]}' \
  "sysvars.slot_hashes[1]: slots go newest first"
bad_scn "a hash that is not base58" '"sysvars": {"slot_hashes": [[5, "0x00"]]}' "sysvars.slot_hashes[0][1]: not a base58 hash"
bad_scn "a burn percent over 100" '"sysvars": {"rent": {"burn_percent": 101}}' "sysvars.rent.burn_percent: a percentage is at most 100"
bad_scn "a bool that is not one" '"sysvars": {"epoch_schedule": {"warmup": 1}}' "sysvars.epoch_schedule.warmup: not true or false"
bad_scn "a short Clock account" "\"accounts\": [{\"pubkey\": \"$CK\", \"lamports\": 1, \"owner\": \"$SV\", \"data\": \"0102\"}]" \
  "bad.json: account $CK: the Clock sysvar: 2 bytes do not hold one (40 needed)"
bad_scn "a SlotHashes account shorter than its count" "\"accounts\": [{\"pubkey\": \"$SH\", \"lamports\": 1, \"data\": \"$(le64 2)$(le64 5)\"}]" \
  "the SlotHashes sysvar: 16 bytes do not hold 2 entries of 40 bytes"
"$BIN" profile "$CLOCKP" --warp-slot x -o "$T/bad" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_sysvar refuses --warp-slot x"
ok one_line_error 2 "--warp-slot: 'x' is not a non-negative integer"

# the profiles above print Solana's words only (lib/words.sh)
for s in scn; do
  if [ -d "$T/$s" ]; then vocab "sol_sysvar $s: reports, JSON status, flamegraph words" "$T/$s" "$SOROBAN_WORDS" 1; fi
done
