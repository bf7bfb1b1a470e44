# tests/oracle/cases.sh — the oracle cases: one instruction each, run in
# litesvm 1.5.0 (tests/oracle/run.js) and in scprof with the same arguments.
# Sourced by tests/e2e/oracle.sh, which defines `ocase NAME PROGRAM ARGS...`;
# expected.txt pins what litesvm 1.5.0 charged for each (the oracle is
# checked against it too, so a changed oracle fails loudly).  PROGRAM is an
# ELF path or builtin:NAME (an ELF litesvm ships, extracted by scripts/deps).
#
# Accounts are PUBKEY:LAMPORTS:OWNER:DATA[:s][:w]; keys are 32 equal bytes.

K1=4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi    # [1; 32]  the mint
K2=8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR    # [2; 32]  a token account
K3=CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8    # [3; 32]  mint authority, K2's owner
K4=GgBaCs3NCBuZN12kCJgAW63ydqohFkHEdfdEXBPzLHq    # [4; 32]  a second token account
K5=LbUiWL3xVV8hTFYBVdbTNrpDo41NKS6o3LHHuDzjfcY    # [5; 32]  K4's owner
SYS=11111111111111111111111111111111
TOKEN=TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA
TOKEN22=TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb

rep() { i=0; while [ $i -lt "$2" ]; do printf %s "$1"; i=$((i + 1)); done; }
key() { rep "$(printf %02x "$1")" 32; }                    # [n; 32] in hex
le64() { printf '%016x' "$1" | sed 's/\(..\)/\1 /g' | awk '{for (i = NF; i; i--) printf "%s", $i}'; }
# SPL Token state: a Mint (82 bytes) and an Account (165 bytes).
mint() { printf '01000000%s%s%02x0100000000%s' "$(key "$1")" "$(le64 "$2")" "$3" "$(rep 00 32)"; }
tacct() { printf '%s%s%s00000000%s%s%s' "$(key "$1")" "$(key "$2")" "$(le64 "$3")" "$(rep 00 32)" "${4:-01}" "$(rep 00 56)"; }
# a Mint whose freeze authority is [n; 32] too
fmint() { printf '01000000%s%s%02x0101000000%s' "$(key "$1")" "$(le64 "$2")" "$3" "$(key "$1")"; }
MINT_RENT=1461600 ACCT_RENT=2039280 WALLET=1000000000

for PV in TOKEN TOKEN22; do
  eval "OWN=\$$PV"; PN=$(echo $PV | tr 'A-Z' 'a-z' | sed 's/token22/token2022/')
  MINT="$K1:$MINT_RENT:$OWN:$(mint 3 1000 6)"
  SRC="$K2:$ACCT_RENT:$OWN:$(tacct 1 3 500)"
  DST="$K4:$ACCT_RENT:$OWN:$(tacct 1 5 0)"
  OWNER="$K3:$WALLET:$SYS::s"
  FMINT="$K1:$MINT_RENT:$OWN:$(fmint 3 1000 6)"
  FROZEN="$K2:$ACCT_RENT:$OWN:$(tacct 1 3 500 02)"
  ocase ${PN}_initialize_mint2 builtin:$PN --ix "1406$(key 3)00" --account "$K1:$MINT_RENT:$OWN:$(rep 00 82):w"
  ocase ${PN}_initialize_account3 builtin:$PN --ix "12$(key 5)" --account "$K4:$ACCT_RENT:$OWN:$(rep 00 165):w" --account "$MINT"
  ocase ${PN}_mint_to builtin:$PN --ix "07$(le64 100)" --account "$MINT:w" --account "$SRC:w" --account "$OWNER"
  ocase ${PN}_transfer builtin:$PN --ix "03$(le64 100)" --account "$SRC:w" --account "$DST:w" --account "$OWNER"
  ocase ${PN}_transfer_checked builtin:$PN --ix "0c$(le64 100)06" --account "$SRC:w" --account "$MINT" --account "$DST:w" --account "$OWNER"
  ocase ${PN}_burn builtin:$PN --ix "08$(le64 100)" --account "$SRC:w" --account "$MINT:w" --account "$OWNER"
  ocase ${PN}_close_account builtin:$PN --ix "09" --account "$K4:$ACCT_RENT:$OWN:$(tacct 1 3 0):w" --account "$K5:$WALLET:$SYS::w" --account "$OWNER"
  # error paths: too little to send (custom 1), the wrong owner signing (custom 4), no signature
  ocase ${PN}_transfer_insufficient builtin:$PN --ix "03$(le64 501)" --account "$SRC:w" --account "$DST:w" --account "$OWNER"
  ocase ${PN}_transfer_wrong_owner builtin:$PN --ix "03$(le64 1)" --account "$SRC:w" --account "$DST:w" --account "$K5:$WALLET:$SYS::s"
  ocase ${PN}_transfer_unsigned builtin:$PN --ix "03$(le64 1)" --account "$SRC:w" --account "$DST:w" --account "$K3:$WALLET:$SYS:"
  # the other instructions: delegation, authorities, freezing, the checked
  # forms, and the ones that answer through return data
  ocase ${PN}_approve builtin:$PN --ix "04$(le64 50)" --account "$SRC:w" --account "$K5:$WALLET:$SYS:" --account "$OWNER"
  ocase ${PN}_approve_checked builtin:$PN --ix "0d$(le64 50)06" --account "$SRC:w" --account "$MINT" --account "$K5:$WALLET:$SYS:" --account "$OWNER"
  ocase ${PN}_revoke builtin:$PN --ix "05" --account "$SRC:w" --account "$OWNER"
  ocase ${PN}_set_authority builtin:$PN --ix "060001$(key 5)" --account "$MINT:w" --account "$OWNER"
  ocase ${PN}_freeze builtin:$PN --ix "0a" --account "$SRC:w" --account "$FMINT" --account "$OWNER"
  ocase ${PN}_thaw builtin:$PN --ix "0b" --account "$FROZEN:w" --account "$FMINT" --account "$OWNER"
  ocase ${PN}_freeze_without_authority builtin:$PN --ix "0a" --account "$SRC:w" --account "$MINT" --account "$OWNER"
  ocase ${PN}_mint_to_checked builtin:$PN --ix "0e$(le64 100)06" --account "$MINT:w" --account "$SRC:w" --account "$OWNER"
  ocase ${PN}_mint_to_checked_wrong_decimals builtin:$PN --ix "0e$(le64 100)09" --account "$MINT:w" --account "$SRC:w" --account "$OWNER"
  ocase ${PN}_burn_checked builtin:$PN --ix "0f$(le64 100)06" --account "$SRC:w" --account "$MINT:w" --account "$OWNER"
  ocase ${PN}_get_account_data_size builtin:$PN --ix "15" --account "$MINT"
  ocase ${PN}_amount_to_ui_amount builtin:$PN --ix "17$(le64 1234567)" --account "$MINT"
  ocase ${PN}_ui_amount_to_amount builtin:$PN --ix "18$(printf '12.5' | od -An -tx1 | tr -d ' \n')" --account "$MINT"
  ocase ${PN}_initialize_immutable_owner builtin:$PN --ix "16" --account "$K4:$ACCT_RENT:$OWN:$(rep 00 165):w"
done

# Memo 4.0.0 (loader 2, aligned input) and Memo 1.0.0 (deprecated loader,
# unaligned input): a text, a text with a signer, bytes that are not UTF-8.
for M in memo memo1; do
  ocase ${M}_hello builtin:$M --ix "$(printf 'hello, memo' | od -An -tx1 | tr -d ' \n')"
  ocase ${M}_signed builtin:$M --ix "$(printf 'signed' | od -An -tx1 | tr -d ' \n')" --account "$K3:$WALLET:$SYS::s"
  ocase ${M}_not_utf8 builtin:$M --ix "68ff69"
done

# Hand-assembled sBPF v3 programs (tests/oracle/mkprog.js writes them into
# $PROGS): every implemented syscall in one run, the ways a run fails, and
# the write-back checks.  They run as ScprofProgram111... under the
# upgradeable loader; accounts that program owns may change.
P=ScprofProgram111111111111111111111111111111
  D8=0102030405060708
  ocase v3_syscalls "$PROGS/syscalls_v3.so"
  ocase v3_sysvars "$PROGS/sysvars_v3.so"
  ocase v3_log_truncated "$PROGS/spam_v3.so"
  ocase v3_epoch_stake "$PROGS/epochstake_v3.so"
  for C in validate_point group_op decompress pairing_map; do
    ocase v3_curve_${C}_unknown_id "$PROGS/badcurve_${C}_v3.so"
  done
  ocase v3_curve_group_op_unknown_op "$PROGS/badop_group_op_v3.so"
  ocase v3_unregistered_big_mod_exp "$PROGS/bigmodexp_v3.so"
  ocase v3_unregistered_remaining_cu "$PROGS/remaining_v3.so"
  ocase v3_unregistered_blake3 "$PROGS/blake3_v3.so"
  ocase v3_fault_depletes "$PROGS/fault_v3.so"
  ocase v3_divide_by_zero "$PROGS/divzero_v3.so"
  ocase v3_panic "$PROGS/panic_v3.so"
  ocase v3_abort "$PROGS/abort_v3.so"
  ocase v3_memcpy_overlap "$PROGS/overlap_v3.so"
  ocase v3_cu_limit_mid_syscall "$PROGS/syscalls_v3.so" --cu-limit 30000
  ocase v3_heap_64k "$PROGS/syscalls_v3.so" --heap 65536
  ocase v3_r0_custom "$PROGS/ret_v3.so" --ix "$(le64 42)"
  ocase v3_r0_custom_zero "$PROGS/ret_v3.so" --ix "$(le64 4294967296)"
  ocase v3_r0_invalid_argument "$PROGS/ret_v3.so" --ix "$(le64 8589934592)"
  ocase v3_r0_invalid_error "$PROGS/ret_v3.so" --ix "$(le64 1099511627776000)"
  ocase v3_write_owned "$PROGS/write_v3.so" --account "$K1:$WALLET:$P:$D8:w"
  ocase v3_write_readonly "$PROGS/write_v3.so" --account "$K1:$WALLET:$P:$D8"
  ocase v3_write_not_owned "$PROGS/write_v3.so" --account "$K1:$WALLET:$SYS:$D8:w"
  ocase v3_write_duplicate "$PROGS/write_v3.so" --account "$K1:$WALLET:$P:$D8:w" --account "$K1:$WALLET:$P:$D8"
  ocase v3_move_lamport "$PROGS/move_v3.so" --account "$K1:$WALLET:$P:$D8:w" --account "$K2:$WALLET:$SYS::w"
  ocase v3_move_readonly "$PROGS/move_v3.so" --account "$K1:$WALLET:$P:$D8" --account "$K2:$WALLET:$SYS::w"
  ocase v3_move_not_owned "$PROGS/move_v3.so" --account "$K1:$WALLET:$SYS:$D8:w" --account "$K2:$WALLET:$SYS::w"
  ocase v3_burn_unbalanced "$PROGS/burn_v3.so" --account "$K1:$WALLET:$P:$D8:w"
  ocase v3_grow_10 "$PROGS/resize_v3.so" --ix "$(le64 18)" --account "$K1:$WALLET:$P:$D8:w"
  ocase v3_grow_limit "$PROGS/resize_v3.so" --ix "$(le64 10248)" --account "$K1:$WALLET:$P:$D8:w"
  ocase v3_grow_past_limit "$PROGS/resize_v3.so" --ix "$(le64 10249)" --account "$K1:$WALLET:$P:$D8:w"
  ocase v3_shrink "$PROGS/resize_v3.so" --ix "$(le64 2)" --account "$K1:$WALLET:$P:$D8:w"
  ocase v3_resize_not_owned "$PROGS/resize_v3.so" --ix "$(le64 2)" --account "$K1:$WALLET:$SYS:$D8:w"
  ocase v3_assign_zeroed "$PROGS/assign_v3.so" --account "$K1:$WALLET:$P:0000:w"
  ocase v3_assign_with_data "$PROGS/assign_v3.so" --account "$K1:$WALLET:$P:$D8:w"
  ocase v3_assign_not_owned "$PROGS/assign_v3.so" --account "$K1:$WALLET:$SYS::w"

# The C fixtures the project builds (tests/fixtures/sbpf, linked as sBPF v0
# with relocations and as strict v3): their CU moves with their source, so
# expected.txt says "-" and scprof is held to the oracle.
FIX=${SCP_BUILD:-build}/tests/fixtures/sbpf
for V in "" _v3; do
  ocase fixture_counter$V "$FIX/counter$V.so"
  ocase fixture_counter_50$V "$FIX/counter$V.so" --ix 32
  ocase fixture_counter_error$V "$FIX/counter$V.so" --ix c9
  ocase fixture_token_mint_to$V "$FIX/token$V.so" --ix "00$(le64 250)" \
    --account "$K1:$WALLET:$P:$(rep 00 8):w" --account "$K2:$WALLET:$P:$(rep 00 72):w" --account "$OWNER"
  ocase fixture_token_copy$V "$FIX/token$V.so" --ix 01 \
    --account "$K1:$WALLET:$P:$(rep 11 32):w" --account "$K2:$WALLET:$P:$(rep 00 72):w" --account "$OWNER"
  ocase fixture_token_unsigned$V "$FIX/token$V.so" --ix "00$(le64 1)" \
    --account "$K1:$WALLET:$P:$(rep 00 8):w" --account "$K2:$WALLET:$P:$(rep 00 72):w" --account "$K3:$WALLET:$SYS:"
  ocase fixture_token_overflow$V "$FIX/token$V.so" --ix "00$(le64 18446744073709551615)" \
    --account "$K1:$WALLET:$P:$(rep ff 8):w" --account "$K2:$WALLET:$P:$(rep 00 72):w" --account "$OWNER"
done
ocase fixture_token_mint_to_loader2 "$FIX/token.so" --loader v2 --ix "00$(le64 7)" \
  --account "$K1:$WALLET:$P:$(rep 00 8):w" --account "$K2:$WALLET:$P:$(rep 00 72):w" --account "$OWNER"
# traps.c: one fault per tag (divide by zero, a read at 0, the call depth, a
# store into the program, the meter, the v0 stack gap) and tag 6, none
for V in "" _v3; do
  for TAG in 0 1 2 3 4 5 6; do
    ocase fixture_traps_$TAG$V "$FIX/traps$V.so" --ix 0$TAG
  done
done

# crypto.c (tests/fixtures/sbpf/crypto.c): one syscall per case on bytes the
# instruction carries; the results are logged, so the oracle compares them.
# alt_bn128: BN254's generators G1 = (1, 2) and G2 (EIP-197's, imaginary
# parts first), their negations, and NS, a point of the twist outside the
# order-r subgroup.  Big-endian unless the op has 0x80.
G1=0000000000000000000000000000000000000000000000000000000000000001$(printf '%064x' 2)
NG1=$(printf '%064x' 1)30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd45
G2=198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa
NG2=198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed275dc4a288d1afb3cbb1ac09187524c7db36395df7be3b99e673b13a075a65ec1d9befcd05a5323e6da4d435f3b617cdb3af83285c2df711ef39c01571827f9d
NS=$(printf '%064x%064x' 0 1)0d1271953ed9ea0836846e70a1934187998c7f790cb4d7511b7f8da82de048a42869111d5381f072f8e2728fdb825a51aadd70e52c9830e9ab4b871c0531f1bb
BN_P=30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47
BN_R=30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
n32() { printf '%064x' "$1"; }
# the little-endian form: the bytes of each $2-byte chunk reversed
lerev() { echo "$1" | fold -w $(($2 * 2)) | while read -r ch; do echo "$ch" | sed 's/../& /g' | awk '{for (i = NF; i; i--) printf "%s", $i}'; done; }
L1() { lerev "$1" 32; }
L2() { lerev "$1" 64; }
Z64=$(rep 00 64) Z128=$(rep 00 128)
CR=$FIX/crypto_v3.so
ocase crypto_bn_g1_add "$CR" --ix "0000$G1$G1"
ocase crypto_bn_g1_add_neg "$CR" --ix "0000$G1$NG1"
ocase crypto_bn_g1_add_short "$CR" --ix "0000$G1"
ocase crypto_bn_g1_add_empty "$CR" --ix "0000"
ocase crypto_bn_g1_add_long "$CR" --ix "0000$G1${G1}00"
ocase crypto_bn_g1_add_x_over_p "$CR" --ix "0000$(n32 0)${BN_P%?}8$(n32 2)$G1"
ocase crypto_bn_g1_add_off_curve "$CR" --ix "0000$(n32 1)$(n32 3)$G1"
ocase crypto_bn_g1_add_inf_flag "$CR" --ix "0000$(n32 5)40$(n32 7 | cut -c3-)$G1"
ocase crypto_bn_g1_add_both_flags "$CR" --ix "0000$(n32 1)c0$(n32 2 | cut -c3-)$G1"
ocase crypto_bn_g1_add_le "$CR" --ix "0080$(L1 $G1)$(L1 $G1)"
ocase crypto_bn_g1_add_le_short "$CR" --ix "0080$(L1 $G1)"
ocase crypto_bn_g1_mul "$CR" --ix "0002$G1$(n32 2)"
ocase crypto_bn_g1_mul_order "$CR" --ix "0002$G1$BN_R"
ocase crypto_bn_g1_mul_unreduced "$CR" --ix "0002$NG1$(rep ff 32)"
ocase crypto_bn_g1_mul_short "$CR" --ix "0002$G1"
ocase crypto_bn_g1_mul_long "$CR" --ix "0002$G1$(n32 2)00"
ocase crypto_bn_g1_mul_le "$CR" --ix "0082$(L1 $G1)$(L1 $(n32 5))"
ocase crypto_bn_g1_mul_le_short "$CR" --ix "0082$(L1 $G1)05"
ocase crypto_bn_g2_add "$CR" --ix "0004$G2$G2"
ocase crypto_bn_g2_add_neg "$CR" --ix "0004$G2$NG2"
ocase crypto_bn_g2_add_not_subgroup "$CR" --ix "0004$G2$NS"
ocase crypto_bn_g2_add_off_curve "$CR" --ix "0004${G2%??}01$G2"
ocase crypto_bn_g2_add_short "$CR" --ix "0004$G2"
ocase crypto_bn_g2_add_le "$CR" --ix "0084$(L2 $G2)$(L2 $G2)"
ocase crypto_bn_g2_mul "$CR" --ix "0006$G2$(n32 3)"
ocase crypto_bn_g2_mul_not_subgroup "$CR" --ix "0006$NS$(n32 3)"
ocase crypto_bn_g2_mul_short "$CR" --ix "0006$G2$(n32 3 | cut -c3-)"
ocase crypto_bn_g2_mul_le "$CR" --ix "0086$(L2 $G2)$(L1 $(n32 3))"
ocase crypto_bn_pairing_one "$CR" --ix "0003$G1$G2$NG1$G2"
ocase crypto_bn_pairing_not_one "$CR" --ix "0003$G1$G2"
ocase crypto_bn_pairing_empty "$CR" --ix "0003"
ocase crypto_bn_pairing_ragged "$CR" --ix "0003$G1${G2}00"
ocase crypto_bn_pairing_not_subgroup "$CR" --ix "0003$G1$NS"
ocase crypto_bn_pairing_inf "$CR" --ix "0003$Z64$G2$G1$Z128"
ocase crypto_bn_pairing_le "$CR" --ix "0083$(L1 $G1)$(L2 $G2)$(L1 $NG1)$(L2 $G2)"
ocase crypto_bn_pairing_cu_limit "$CR" --ix "0003$G1$G2$NG1$G2" --cu-limit 40000
ocase crypto_bn_op_g1_sub "$CR" --ix "0001$G1$G1"
ocase crypto_bn_op_g2_sub "$CR" --ix "0005$G2$G2"
ocase crypto_bn_op_7 "$CR" --ix "0007$G1$G1"
ocase crypto_bn_bad_result "$CR" --ix "8000$G1$G1"
ocase crypto_bn_g1_compress "$CR" --ix "0100$G1"
ocase crypto_bn_g1_compress_neg "$CR" --ix "0100$NG1"
ocase crypto_bn_g1_compress_zero "$CR" --ix "0100$Z64"
ocase crypto_bn_g1_compress_off_curve "$CR" --ix "0100$(n32 1)$(n32 3)"
ocase crypto_bn_g1_compress_inf_flag "$CR" --ix "0100$(n32 5)40$(n32 7 | cut -c3-)"
ocase crypto_bn_g1_compress_short "$CR" --ix "0100${G1%??}"
ocase crypto_bn_g1_compress_le "$CR" --ix "0180$(L1 $NG1)"
ocase crypto_bn_g1_decompress "$CR" --ix "0101$(n32 1)"
ocase crypto_bn_g1_decompress_large "$CR" --ix "010180$(n32 1 | cut -c3-)"
ocase crypto_bn_g1_decompress_inf_flag "$CR" --ix "010140$(n32 9 | cut -c3-)"
ocase crypto_bn_g1_decompress_zero "$CR" --ix "0101$(n32 0)"
ocase crypto_bn_g1_decompress_no_root "$CR" --ix "0101$(n32 4)"
ocase crypto_bn_g1_decompress_over_p "$CR" --ix "0101$BN_P"
ocase crypto_bn_g1_decompress_le "$CR" --ix "0181$(L1 80$(n32 1 | cut -c3-))"
ocase crypto_bn_g2_compress "$CR" --ix "0102$G2"
ocase crypto_bn_g2_compress_neg "$CR" --ix "0102$NG2"
ocase crypto_bn_g2_compress_le "$CR" --ix "0182$(L2 $NG2)"
ocase crypto_bn_g2_decompress "$CR" --ix "0103$(echo $G2 | cut -c1-128)"
ocase crypto_bn_g2_decompress_large "$CR" --ix "010399$(echo $G2 | cut -c3-128)"
ocase crypto_bn_g2_decompress_le "$CR" --ix "0183$(L2 $(echo $G2 | cut -c1-128))"
ocase crypto_bn_g2_decompress_long "$CR" --ix "0103$(echo $G2 | cut -c1-128)00"
ocase crypto_bn_compress_op_4 "$CR" --ix "0104$G1"
ocase crypto_bn_compress_bad_result "$CR" --ix "8101$(n32 1)"
# sol_poseidon: ix 02, parameters, endianness, the count, then each input
# as a length byte and its bytes
pv() { printf '20%s' "$1"; }
ocase crypto_poseidon_one "$CR" --ix "020000$(printf %02x 1)$(pv $(n32 1))"
ocase crypto_poseidon_one_two "$CR" --ix "02000002$(pv $(n32 1))$(pv $(n32 2))"
ocase crypto_poseidon_le "$CR" --ix "02000102$(pv $(rep 01 32))$(pv $(rep 02 32))"
ocase crypto_poseidon_twelve "$CR" --ix "0200000c$(rep "$(pv $(n32 1))" 12)"
ocase crypto_poseidon_thirteen "$CR" --ix "0200000d$(rep "$(pv $(n32 1))" 13)"
ocase crypto_poseidon_none "$CR" --ix "02000000"
ocase crypto_poseidon_short_input "$CR" --ix "020000011f$(rep 00 30)01"
ocase crypto_poseidon_long_input "$CR" --ix "0200000121$(n32 1)00"
ocase crypto_poseidon_empty_input "$CR" --ix "0200000100"
ocase crypto_poseidon_modulus "$CR" --ix "02000001$(pv $BN_R)"
ocase crypto_poseidon_modulus_le "$CR" --ix "02000101$(pv $(L1 $BN_R))"
ocase crypto_poseidon_below_modulus "$CR" --ix "02000001$(pv ${BN_R%?}0)"
ocase crypto_poseidon_bad_parameters "$CR" --ix "02010001$(pv $(n32 1))"
ocase crypto_poseidon_bad_endianness "$CR" --ix "02000201$(pv $(n32 1))"
ocase crypto_poseidon_bad_result "$CR" --ix "82000001$(pv $(n32 1))"
ocase crypto_poseidon_cu_limit "$CR" --ix "0200000c$(rep "$(pv $(n32 1))" 12)" --cu-limit 9000
# curve25519 (curve 0 Edwards, 1 Ristretto): ix 03 validate (curve, point),
# 04 group op (curve, op, left, right; MUL's left is the scalar), 05
# multiscalar (curve, n, n scalars, n points; | 0x40: n + 512).  Edwards
# points as curve25519-dalek decodes them: small order (O2 (0, -1), O8 of
# order 8), outside the prime-order subgroup (EMIX = B + O8), y = p + 1
# (ENC, the identity), x = 0 with the sign bit (ESIGN).  Scalars are
# little-endian and must be below l.
sc() { printf '%02x%s' "$1" "$(rep 00 31)"; }
EB=$(rep 58 1)$(rep 66 31)
EID=$(sc 1)
EO2=ec$(rep ff 30)7f
EO8=26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05
EMIX=da99e28ba529cdde35a25fba9059e78ecaee239f99755b9b1aa4f65df00803e2
ENC=ee$(rep ff 30)7f
ESIGN=01$(rep 00 30)80
EOFF=$(sc 2)
RG=e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76
RG2=6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919
RZ=$(rep 00 32)
RNC=ed$(rep ff 30)7f
SL=edd3f55c1a631258d69cf7a2def9de14$(rep 00 15)10
SLM1=ecd3f55c1a631258d69cf7a2def9de14$(rep 00 15)10
for P in EB EID EO2 EO8 EMIX ENC ESIGN EOFF; do
  eval "ocase crypto_c25519_ed_validate_$(echo $P | cut -c2- | tr A-Z a-z) \"\$CR\" --ix \"0300\$$P\""
done
for P in RG RZ RNC EB EID; do
  eval "ocase crypto_c25519_rist_validate_$(echo $P | tr A-Z a-z) \"\$CR\" --ix \"0301\$$P\""
done
ocase crypto_c25519_ed_add "$CR" --ix "040000$EB$EB"
ocase crypto_c25519_ed_add_mixed "$CR" --ix "040000$EB$EO8"
ocase crypto_c25519_ed_add_order2 "$CR" --ix "040000$EO2$EO2"
ocase crypto_c25519_ed_add_noncanonical "$CR" --ix "040000$ENC$EB"
ocase crypto_c25519_ed_add_sign_zero "$CR" --ix "040000$ESIGN$EMIX"
ocase crypto_c25519_ed_add_off_curve "$CR" --ix "040000$EB$EOFF"
ocase crypto_c25519_ed_sub "$CR" --ix "040001$EB$EB"
ocase crypto_c25519_ed_sub_from_identity "$CR" --ix "040001$EID$EMIX"
ocase crypto_c25519_ed_mul "$CR" --ix "040002$(sc 2)$EB"
ocase crypto_c25519_ed_mul_zero "$CR" --ix "040002$(sc 0)$EMIX"
ocase crypto_c25519_ed_mul_order8 "$CR" --ix "040002$(sc 8)$EO8"
ocase crypto_c25519_ed_mul_mixed "$CR" --ix "040002$SLM1$EMIX"
ocase crypto_c25519_ed_mul_l "$CR" --ix "040002$SL$EB"
ocase crypto_c25519_ed_mul_ff "$CR" --ix "040002$(rep ff 32)$EB"
ocase crypto_c25519_ed_mul_off_curve "$CR" --ix "040002$(sc 2)$EOFF"
ocase crypto_c25519_ed_op_3 "$CR" --ix "040003$EB$EB"
ocase crypto_c25519_ed_add_short "$CR" --ix "040000"
ocase crypto_c25519_ed_add_bad_result "$CR" --ix "840000$EB$EB"
ocase crypto_c25519_ed_add_bad_result_invalid "$CR" --ix "840000$EB$EOFF"
ocase crypto_c25519_rist_add "$CR" --ix "040100$RG$RG"
ocase crypto_c25519_rist_add_identity "$CR" --ix "040100$RZ$RG2"
ocase crypto_c25519_rist_add_invalid "$CR" --ix "040100$RG$EB"
ocase crypto_c25519_rist_sub "$CR" --ix "040101$RG2$RG"
ocase crypto_c25519_rist_sub_self "$CR" --ix "040101$RG$RG"
ocase crypto_c25519_rist_mul "$CR" --ix "040102$(sc 2)$RG"
ocase crypto_c25519_rist_mul_zero "$CR" --ix "040102$(sc 0)$RG"
ocase crypto_c25519_rist_mul_identity "$CR" --ix "040102$(sc 5)$RZ"
ocase crypto_c25519_rist_mul_lm1 "$CR" --ix "040102$SLM1$RG2"
ocase crypto_c25519_rist_mul_l "$CR" --ix "040102$SL$RG"
ocase crypto_c25519_rist_mul_invalid "$CR" --ix "040102$(sc 2)$RNC"
ocase crypto_c25519_rist_op_3 "$CR" --ix "040103$RG$RG"
ocase crypto_c25519_unknown_curve "$CR" --ix "040200$RG$RG"
ocase crypto_c25519_ed_msm_none "$CR" --ix "050000"
ocase crypto_c25519_ed_msm_one "$CR" --ix "050001$(sc 3)$EMIX"
ocase crypto_c25519_ed_msm_two "$CR" --ix "050002$(sc 3)$(sc 5)$EB$EO8"
ocase crypto_c25519_ed_msm_l "$CR" --ix "050002$(sc 3)$SL$EB$EB"
ocase crypto_c25519_ed_msm_off_curve "$CR" --ix "050002$(sc 3)$(sc 5)$EB$EOFF"
ocase crypto_c25519_ed_msm_short "$CR" --ix "050003$(sc 1)"
ocase crypto_c25519_ed_msm_bad_result "$CR" --ix "850001$(sc 3)$EB"
ocase crypto_c25519_ed_msm_513 "$CR" --ix "450001"
ocase crypto_c25519_ed_msm_512 "$CR" --ix "450000"
ocase crypto_c25519_ed_msm_512_past_input "$CR" --ix "450000" --cu-limit 1400000
ocase crypto_c25519_ed_msm_cu_limit "$CR" --ix "050002$(sc 3)$(sc 5)$EB$EO8" --cu-limit 3000
ocase crypto_c25519_rist_msm_none "$CR" --ix "050100"
ocase crypto_c25519_rist_msm_one "$CR" --ix "050101$(sc 3)$RG"
ocase crypto_c25519_rist_msm_two "$CR" --ix "050102$(sc 3)$(sc 5)$RG$RG2"
ocase crypto_c25519_rist_msm_to_identity "$CR" --ix "050102$SLM1$(sc 1)$RG$RG"
ocase crypto_c25519_rist_msm_invalid "$CR" --ix "050102$(sc 3)$(sc 5)$RG$RNC"
ocase crypto_c25519_rist_msm_l "$CR" --ix "050101$SL$RG"
ocase crypto_c25519_rist_msm_513 "$CR" --ix "450101"
ocase crypto_c25519_rist_msm_cu_limit "$CR" --ix "050102$(sc 3)$(sc 5)$RG$RG2" --cu-limit 3000
ocase crypto_c25519_msm_unknown_curve "$CR" --ix "050200"
ocase crypto_c25519_msm_513_unknown_curve "$CR" --ix "450201"
# bls.c (tests/fixtures/sbpf/bls.c): the BLS12-381 curve ids (5 G1, 6 G2,
# 4 the pairing; | 0x80 big-endian).  Zcash points: the generators, their
# negations, BS1 = (4, sqrt(68)) on the curve outside the order-r
# subgroup, BZ = (0, 2) which blst refuses, the compressed forms (0x80,
# 0x20 when y is the larger root).  Little-endian reverses each 48-byte Fp
# and puts Fp2's real part first.
BL=$FIX/bls_v3.so
BG1=17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1
BNG1=17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb114d1d6855d545a8aa7d76c8cf2e21f267816aef1db507c96655b9d5caac42364e6f38ba0ecb751bad54dcd6b939c2ca
BS1=$(rep 00 47)040a989badd40d6212b33cffc3f3763e9bc760f988c9926b26da9dd85e928483446346b8ed00e1de5d5ea93e354abe706c
BZ=$(rep 00 48)$(rep 00 47)02
BG1C=97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
BNG1C=b7f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
BS1C=80$(rep 00 46)04
BG2X=13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8
BG2=${BG2X}0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801
BG2C=9$(echo $BG2X | cut -c2-)
BINF1=40$(rep 00 95)
BINF2=40$(rep 00 191)
BP=1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
BLS_R=73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
B1() { lerev "$1" 48; }
# G2 little-endian: each Fp reversed, then the two halves of each Fp2 swapped
B2() { echo "$1" | fold -w 192 | while read -r f2; do
  printf '%s%s' "$(B1 "$(echo $f2 | cut -c97-)")" "$(B1 "$(echo $f2 | cut -c1-96)")"; done; }
ocase crypto_bls_g1_validate "$BL" --ix "008500$BG1"
ocase crypto_bls_g1_validate_le_id "$BL" --ix "000500$BG1"
ocase crypto_bls_g1_validate_le "$BL" --ix "000500$(B1 $BG1)"
ocase crypto_bls_g1_validate_neg "$BL" --ix "008500$BNG1"
ocase crypto_bls_g1_validate_inf "$BL" --ix "008500$BINF1"
ocase crypto_bls_g1_validate_inf_le "$BL" --ix "000500$(B1 $BINF1)"
ocase crypto_bls_g1_validate_inf_extra "$BL" --ix "008500${BINF1%??}01"
ocase crypto_bls_g1_validate_inf_sort "$BL" --ix "008500$(echo $BINF1 | sed 's/^40/60/')"
ocase crypto_bls_g1_validate_zero "$BL" --ix "008500$(rep 00 96)"
ocase crypto_bls_g1_validate_not_subgroup "$BL" --ix "008500$BS1"
ocase crypto_bls_g1_validate_x_zero "$BL" --ix "008500$BZ"
ocase crypto_bls_g1_validate_off_curve "$BL" --ix "008500${BG1%?}0"
ocase crypto_bls_g1_validate_x_p "$BL" --ix "008500$BP$(echo $BG1 | cut -c97-)"
ocase crypto_bls_g1_validate_compressed_flag "$BL" --ix "0085009$(echo $BG1 | cut -c2-)"
ocase crypto_bls_g1_validate_bad_pointer "$BL" --ix "408500$BG1"
ocase crypto_bls_g2_validate "$BL" --ix "008600$BG2"
ocase crypto_bls_g2_validate_le "$BL" --ix "000600$(B2 $BG2)"
ocase crypto_bls_g2_validate_inf "$BL" --ix "008600$BINF2"
ocase crypto_bls_g2_validate_off_curve "$BL" --ix "008600${BG2%?}0"
ocase crypto_bls_g2_validate_swapped "$BL" --ix "008600$(B1 $(B2 $BG2))"
ocase crypto_bls_pairing_id_validate "$BL" --ix "008400$BG1"
ocase crypto_bls_g1_decompress "$BL" --ix "018500$BG1C"
ocase crypto_bls_g1_decompress_le "$BL" --ix "010500$(B1 $BG1C)"
ocase crypto_bls_g1_decompress_neg "$BL" --ix "018500$BNG1C"
ocase crypto_bls_g1_decompress_inf "$BL" --ix "018500c0$(rep 00 47)"
ocase crypto_bls_g1_decompress_inf_sort "$BL" --ix "018500e0$(rep 00 47)"
ocase crypto_bls_g1_decompress_no_flag "$BL" --ix "0185001$(echo $BG1C | cut -c2-)"
ocase crypto_bls_g1_decompress_no_root "$BL" --ix "01850080$(rep 00 46)01"
ocase crypto_bls_g1_decompress_not_subgroup "$BL" --ix "018500$BS1C"
ocase crypto_bls_g1_decompress_x_p "$BL" --ix "0185009$(echo $BP | cut -c2-)"
ocase crypto_bls_g1_decompress_bad_result "$BL" --ix "818500$BG1C"
ocase crypto_bls_g2_decompress "$BL" --ix "018600$BG2C"
ocase crypto_bls_g2_decompress_le "$BL" --ix "010600$(B2 $BG2C)"
ocase crypto_bls_g2_decompress_sorted "$BL" --ix "018600b$(echo $BG2C | cut -c2-)"
ocase crypto_bls_pairing_id_decompress "$BL" --ix "018400$BG1C"
ocase crypto_bls_g1_add "$BL" --ix "02850060$BG1$BG1"
ocase crypto_bls_g1_add_le "$BL" --ix "02050060$(B1 $BG1)$(B1 $BG1)"
ocase crypto_bls_g1_add_neg "$BL" --ix "02850060$BG1$BNG1"
ocase crypto_bls_g1_add_inf "$BL" --ix "02850060$BINF1$BG1"
ocase crypto_bls_g1_add_not_subgroup "$BL" --ix "02850060$BG1$BS1"
ocase crypto_bls_g1_add_x_zero "$BL" --ix "02850060$BG1$BZ"
ocase crypto_bls_g1_add_off_curve "$BL" --ix "02850060$BG1${BG1%?}0"
ocase crypto_bls_g1_sub "$BL" --ix "02850160$BG1$BNG1"
ocase crypto_bls_g1_sub_self "$BL" --ix "02850160$BG1$BG1"
ocase crypto_bls_g1_mul "$BL" --ix "02850220$(n32 5)$BG1"
ocase crypto_bls_g1_mul_le "$BL" --ix "02050220$(L1 $(n32 5))$(B1 $BG1)"
ocase crypto_bls_g1_mul_r "$BL" --ix "02850220$BLS_R$BG1"
ocase crypto_bls_g1_mul_r_minus_1 "$BL" --ix "02850220${BLS_R%?}0$BG1"
ocase crypto_bls_g1_mul_not_subgroup "$BL" --ix "02850220$(n32 5)$BS1"
ocase crypto_bls_g1_mul_inf "$BL" --ix "02850220$(n32 5)$BINF1"
ocase crypto_bls_g1_op_3 "$BL" --ix "02850360$BG1$BG1"
ocase crypto_bls_g1_add_bad_result "$BL" --ix "82850060$BG1$BG1"
ocase crypto_bls_g1_add_bad_left "$BL" --ix "42850060$BG1$BG1"
ocase crypto_bls_g2_add "$BL" --ix "028600c0$BG2$BG2"
ocase crypto_bls_g2_add_le "$BL" --ix "020600c0$(B2 $BG2)$(B2 $BG2)"
ocase crypto_bls_g2_sub_self "$BL" --ix "028601c0$BG2$BG2"
ocase crypto_bls_g2_mul "$BL" --ix "02860220$(n32 7)$BG2"
ocase crypto_bls_g2_mul_le "$BL" --ix "02060220$(L1 $(n32 7))$(B2 $BG2)"
ocase crypto_bls_g2_mul_cu_limit "$BL" --ix "02860220$(n32 7)$BG2" --cu-limit 5000
ocase crypto_bls_pairing_id_group_op "$BL" --ix "02840060$BG1$BG1"
ocase crypto_bls_pairing_none "$BL" --ix "038400"
ocase crypto_bls_pairing_none_le "$BL" --ix "030400"
ocase crypto_bls_pairing_one "$BL" --ix "038401$BG1$BG2"
ocase crypto_bls_pairing_one_le "$BL" --ix "030401$(B1 $BG1)$(B2 $BG2)"
ocase crypto_bls_pairing_two "$BL" --ix "038402$BG1$BNG1$BG2$BG2"
ocase crypto_bls_pairing_inf "$BL" --ix "038401$BINF1$BG2"
ocase crypto_bls_pairing_not_subgroup "$BL" --ix "038401$BS1$BG2"
ocase crypto_bls_pairing_g1_id "$BL" --ix "038501$BG1$BG2"
ocase crypto_bls_pairing_bad_result "$BL" --ix "838401$BG1$BG2"
ocase crypto_bls_pairing_past_input "$BL" --ix "038403$BG1$BG2"
ocase crypto_bls_pairing_cu_limit "$BL" --ix "038402$BG1$BNG1$BG2$BG2" --cu-limit 30000
