#!/bin/sh
# End-to-end: Solana transactions (tests/oracle/tx_cases.json: System and
# Compute Budget builtins, Memo under loaders 2 and 1, budgets, failures
# that stop the transaction, the rent-state check; then ATA and Token-2022
# flows, durable nonces, cross-program invocation, programs deployed in
# accounts), run by scprof profile --scenario, one after the other on the
# same accounts.  Each transaction is one [litesvm] check: its result.txt
# (CU, every log line, outcome, every account its instructions name as it
# is afterwards) equals tests/oracle/tx.js's line for line, and its
# profile's self CU add up to its CU.  Each scenario's CU and outcomes are
# also held to the numbers litesvm 1.5.0 charged, pinned in
# tests/oracle/*expected.txt ([pin]).  litesvm is required (scripts/deps);
# SCP_NO_ORACLE=1 turns each transaction not compared into a SKIP line.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
D=$(dirname "$0")/../oracle
. "$(dirname "$0")/lib/words.sh"
. "$(dirname "$0")/lib/sol.sh"
oracle_setup

# every transaction of scenario $1 (profiled in $2) against litesvm
against_oracle() {
  rm -f "$T/oracle.txt"
  if [ $have_oracle -eq 1 ]; then
    node "$D/tx.js" "$1" >"$T/oracle.txt" 2>"$T/oracle.err" ||
      { echo "FAIL [litesvm] sol_tx: tx.js $(basename "$1") exited $?"; head -3 "$T/oracle.err"; }
    tx_all_profiled "[litesvm] sol_tx $(basename "$1"):" "$T/oracle.txt" "$2"
  fi
  for dir in "$2"/*/; do
    [ -d "$dir" ] || continue
    label=$(basename "$dir" | sed 's/^[0-9]*-//')
    if [ $have_oracle -eq 0 ]; then
      oracle_missing "sol_tx $label: not compared with litesvm, not installed in $ORACLE"
      continue
    fi
    awk -v l="$label" '$1 == "tx" {on = ($2 == l); next} on' "$T/oracle.txt" |
      sed 's/^result err TransactionError/result err /' >"$T/want.txt"
    cu=$(awk '$1 == "cu" {print $2}' "$dir/result.txt")
    sum=$(awk '{s += $NF} END {print s + 0}' "$dir/profile.folded")
    NAME="[litesvm] sol_tx $label equals litesvm (cu $cu, logs, outcome, accounts after; profile sums to the CU)"
    ok sh -c "[ -s '$T/want.txt' ] && cmp -s '$T/want.txt' '$dir/result.txt' && [ '$cu' = '$sum' ]"
    cmp -s "$T/want.txt" "$dir/result.txt" || diff "$T/want.txt" "$dir/result.txt" | head -10
  done
}

# the ELF files litesvm ships: without them the scenarios naming them do
# not run, each of their transactions a SKIP (SCP_NO_ORACLE=1) or a FAIL
not_run() {
  for f in "$@"; do
    while read -r _ label _; do
      oracle_missing "sol_tx $label: not run, $ORACLE/memo.so (litesvm's ELF) not extracted"
    done <"$f"
  done
}
have_elfs=0
[ -f "$ORACLE/memo.so" ] && have_elfs=1 && ORACLE_ABS=$(cd "$ORACLE" && pwd)
if [ $have_elfs -eq 1 ]; then
sed "s|@ORACLE@|$ORACLE_ABS|g" "$D/tx_cases.json" >"$T/tx.json"

"$BIN" profile --scenario "$T/tx.json" -o "$T/out" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_tx scenario runs (exit 10: a transaction failed)"
ok [ "$rc" -eq 10 ]
NAME="[pin] sol_tx CU and outcome of every transaction as litesvm 1.5.0 charged when pinned"
ok cmp -s "$T/out/scenario.txt" "$D/tx_expected.txt"
[ -s "$T/out/scenario.txt" ] && ! cmp -s "$T/out/scenario.txt" "$D/tx_expected.txt" &&
  diff "$D/tx_expected.txt" "$T/out/scenario.txt" | head -20

NAME="sol_tx profile: instruction nodes under the root, program frames under them"
ok grep -qx "transaction;instruction #3;program:memo Memo;entrypoint \[symtab\];syscall:sol_log_ 200" \
  "$T/out/02-budget_memo/profile.folded"

NAME="sol_tx check --max-cu on a transaction (848 CU)"
ok sh -c "'$BIN' check '$T/out/02-budget_memo/report.json' --max-cu 848 >/dev/null &&
          ! '$BIN' check '$T/out/02-budget_memo/report.json' --max-cu 847 >/dev/null 2>&1"

against_oracle "$T/tx.json" "$T/out"
fi

# Real flows on litesvm's own programs: Associated Token Account create
# (CPIs into Token and System, the Rust ABI), idempotent create of an
# existing account, create of an existing one (IllegalOwner), the same with
# Token-2022, and Token-2022 mint_to / transfer_checked / burn, alone and in
# one transaction.
if [ $have_elfs -eq 1 ]; then
sed "s|@ORACLE@|$ORACLE_ABS|g" "$D/ata_cases.json" >"$T/ata.json"
"$BIN" profile --scenario "$T/ata.json" -o "$T/ata" -q >/dev/null 2>"$T/err"
NAME="[pin] sol_tx ata: CU and outcome of every transaction as pinned (ATA create 13386)"
ok cmp -s "$T/ata/scenario.txt" "$D/ata_expected.txt"
# Programs are named by their ids, whatever the scenario calls them ("ata"),
# and each invoke by the instruction it ran (the data's tag); ATA's
# `entrypoint` and Token's are two rows of the function tables.
ata_names() {   # folder, token program name
  f="$1/profile.folded"
  for ix in GetAccountDataSize InitializeImmutableOwner InitializeAccount3; do
    grep -q "^transaction;instruction #1;program:associated-token-account Create[a-zA-Z]*;.*syscall:sol_invoke_signed_rust;program:$2 $ix;" "$f" ||
      { echo "no $2 $ix under the ATA's invoke" >&2; return 1; }
  done
  grep -q "^transaction;instruction #1;program:associated-token-account Create[a-zA-Z]*;.*syscall:sol_invoke_signed_rust;program:system CreateAccount 150\$" "$f" &&
    ! grep -q 'program:ata\b\|program:token;\|program:System' "$f"
}
NAME="sol_tx ata: Token's three invokes and System's CreateAccount named under ATA's Create"
ok ata_names "$T/ata/01-ata_create" token
NAME="sol_tx ata: the same with Token-2022 under CreateIdempotent"
ok ata_names "$T/ata/04-ata_create_token2022" token-2022
# the function tables keep each program's entrypoint apart (report and JSON)
NAME="sol_tx ata: ATA's and Token's entrypoint are two rows of the report (189 and 185 self CU)"
ok sh -c "grep -Eq '^ +189 .* 1  associated-token-account +entrypoint \[symtab\]\$' '$T/ata/01-ata_create/report.txt' &&
          grep -Eq '^ +185 .* 3  token +entrypoint \[symtab\]\$' '$T/ata/01-ata_create/report.txt'"
NAME="sol_tx ata: two entrypoint frames in the JSON, each with its program and id"
ok sh -c "[ \$(grep -c '\"name\":\"entrypoint\".*\"program\":\"associated-token-account\",\"program_id\":\"ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL\"' '$T/ata/01-ata_create/report.json') = 1 ] &&
          [ \$(grep -c '\"name\":\"entrypoint\".*\"program\":\"token\",\"program_id\":\"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA\"' '$T/ata/01-ata_create/report.json') = 1 ]"
# the Programs table: Token's three invocations are the CU of their
# "consumed" lines (183, 38, 235), System's CreateAccount its 150, ATA's
# Create the rest of 13,386 (12,780 self)
NAME="sol_tx ata: the Programs table by instruction, from the consumed lines"
programs_ok() {
  r="$T/ata/01-ata_create/report.txt"
  grep -Eq '^  program:associated-token-account Create +1 +12,780 +13,386$' "$r" &&
    grep -Eq '^  program:token GetAccountDataSize +1 +183 +183$' "$r" &&
    grep -Eq '^  program:token InitializeImmutableOwner +1 +38 +38$' "$r" &&
    grep -Eq '^  program:token InitializeAccount3 +1 +235 +235$' "$r" &&
    grep -Eq '^  program:system CreateAccount +1 +150 +150$' "$r" &&
    grep -q 'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA consumed 183 of' "$r" &&
    grep -q 'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA consumed 38 of' "$r" &&
    grep -q 'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA consumed 235 of' "$r"
}
ok programs_ok
# the same transaction with ATA's program named "p0" in the scenario: the
# same profile, and diff says no change
sed 's/"ata"/"p0"/g' "$T/ata.json" >"$T/ata_p0.json"
"$BIN" profile --scenario "$T/ata_p0.json" -o "$T/ata_p0" -q >/dev/null 2>"$T/err"
NAME="sol_tx ata: a scenario naming ATA \"p0\" gives the same folded profile"
ok cmp -s "$T/ata/01-ata_create/profile.folded" "$T/ata_p0/01-ata_create/profile.folded"
# --max-nodes bounds each program invocation's tree (ATA's and each CPI's
# into Token and System), the transaction's nodes outside it: the CU stay
# those pinned above (litesvm's), every folded stack is kept
"$BIN" profile --scenario "$T/ata.json" -o "$T/ata_mn" -q --max-nodes 2 >/dev/null 2>"$T/err.mn"; rc_mn=$?
"$BIN" profile --scenario "$T/ata.json" -o "$T/ata_un" -q >/dev/null 2>&1; rc_un=$?
NAME="sol_tx ata --max-nodes 2: exit status as unbounded ($rc_un), CU and outcomes as pinned (ATA create 13386)"
ok sh -c "[ $rc_mn -eq $rc_un ] && cmp -s '$T/ata_mn/scenario.txt' '$D/ata_expected.txt'"
NAME="sol_tx ata --max-nodes 2: warned, naming the scenario and the transaction"
ok grep -q "^scprof: warning: $T/ata.json: transaction 1: node budget of 2 reached" "$T/err.mn"
NAME="sol_tx ata --max-nodes 2: each warning names a transaction of its own"
ok sh -c "[ \"\$(grep -o '^scprof: warning: .*/ata.json: transaction [0-9]*: node budget' '$T/err.mn' | sort -u | wc -l)\" -eq \"\$(wc -l <'$T/err.mn')\" ]"
NAME="sol_tx ata --max-nodes 2: [truncated] under ATA's program node and under a CPI's into Token"
ok sh -c "grep -q '^transaction;instruction #1;program:associated-token-account [^;]*;\[truncated\];' '$T/ata_mn/01-ata_create/profile.folded' &&
          grep -q ';program:token [^;]*;\[truncated\];' '$T/ata_mn/01-ata_create/profile.folded'"
NAME="sol_tx ata --max-nodes 2: ata_create's folded stacks add up to its 13386 CU"
ok sh -c "[ \$(awk '{s += \$NF} END {print s}' '$T/ata_mn/01-ata_create/profile.folded') = 13386 ]"
# said once per transaction, not once per program invocation (ATA create
# token2022 ran 4 cut invocations): 8 transactions cut, 8 warnings, one
# call tree line each; ata_create's names the invocations and counts the
# [truncated] frames its stacks show, and (a pin) 217 calls: 213 in ATA's
# invocation, 2 in each of Token's two, as each invocation's own note said
cut=0 lines=0
for d in "$T/ata_mn"/*/; do
  grep -q '\[truncated\]' "$d/profile.folded" && cut=$((cut + 1))
  lines=$((lines + $(grep -c '^  call tree ' "$d/report.txt")))
done
NAME="sol_tx ata --max-nodes 2: one warning and one call tree line per transaction cut ($cut)"
ok sh -c "[ $cut -eq 8 ] && [ $lines -eq 8 ] && [ \$(grep -c '^scprof: warning: ' '$T/err.mn') -eq 8 ]"
said=$(note_programs "$T/ata_mn/01-ata_create/report.txt") seen=$(trunc_programs "$T/ata_mn/01-ata_create/profile.folded")
NAME="sol_tx ata --max-nodes 2: ata_create's line names ATA's invocation and Token's two, as its stacks do"
ok sh -c "[ '$said' = 'associated-token-account 1
token 2' ] && [ '$said' = '$seen' ]"
NAME="[pin] sol_tx ata --max-nodes 2: ata_create's line: 217 calls into the 3 [truncated] frames its stacks show"
ok grep -q "^  call tree .* reached in 3 program invocations (associated-token-account 1, token 2): 217 calls on paths past it merged into $(trunc_frames "$T/ata_mn/01-ata_create/profile.folded") \[truncated\] frames" "$T/ata_mn/01-ata_create/report.txt"
against_oracle "$T/ata.json" "$T/ata"
else
  not_run "$D/tx_expected.txt" "$D/ata_expected.txt"
fi

# The System program's durable nonces (initialize, advance, withdraw,
# authorize, upgrade of a legacy nonce) on the blockhash litesvm gives each
# transaction, TransferWithSeed, CreateAccountAllowPrefund, and each one's
# errors: wrong or missing signer, read-only or foreign account, wrong
# sysvar, too few lamports, an uninitialized or initialized nonce, an
# advance twice in one blockhash, a seed that does not derive the address.
"$BIN" profile --scenario "$D/nonce_cases.json" -o "$T/nonce" -q >/dev/null 2>"$T/err"
NAME="[pin] sol_tx nonce: CU and outcome of every transaction as pinned"
ok cmp -s "$T/nonce/scenario.txt" "$D/nonce_expected.txt"
[ -s "$T/nonce/scenario.txt" ] && ! cmp -s "$T/nonce/scenario.txt" "$D/nonce_expected.txt" &&
  diff "$D/nonce_expected.txt" "$T/nonce/scenario.txt" | head -20
against_oracle "$D/nonce_cases.json" "$T/nonce"

# Cross-program invocation: tests/fixtures/sbpf/cpi.c (a System transfer
# from its PDA, self-invocation two levels deep with return data, the
# runtime's privilege and depth errors).
B=${SCP_BUILD:-build}
if [ ! -f "$B/tests/fixtures/sbpf/cpi.so" ]; then
  echo "FAIL sol_tx cpi: $B/tests/fixtures/sbpf/cpi.so not built"
elif [ $have_elfs -eq 0 ]; then
  printf '01 memo_deployed\n02 upgradeable_deployed_nest\n' >"$T/dep_expected.txt"
  not_run "$D/cpi_expected.txt" "$T/dep_expected.txt"
else
  B_ABS=$(cd "$B" && pwd)
  sed "s|@BUILD@|$B_ABS|g; s|@ORACLE@|$ORACLE_ABS|g" "$D/cpi_cases.json" >"$T/cpi.json"
  "$BIN" profile --scenario "$T/cpi.json" -o "$T/cpi" -q >/dev/null 2>"$T/err"
  NAME="[pin] sol_tx cpi: CU and outcome of every transaction as pinned"
  ok cmp -s "$T/cpi/scenario.txt" "$D/cpi_expected.txt"
  NAME="sol_tx cpi: the callee under the invoke, the invoke keeping its 946 CU"
  ok sh -c "grep -q 'transfer (tests/fixtures/sbpf/cpi.c:[0-9]*);syscall:sol_invoke_signed_c 946\$' '$T/cpi/01-pda_transfer/profile.folded' &&
            grep -q ';syscall:sol_invoke_signed_c;program:system Transfer 150\$' '$T/cpi/01-pda_transfer/profile.folded'"
  NAME="sol_tx cpi: three program frames nested (depth 3)"
  ok grep -q 'sol_invoke_signed_c;program:cpi ix 0x0201;.*sol_invoke_signed_c;program:cpi ix 0x0200;.*syscall:sol_set_return_data 100$' \
    "$T/cpi/05-nest_return_data/profile.folded"
  NAME="sol_tx cpi: diff of two transactions' profiles"
  ok sh -c "'$BIN' diff '$T/cpi/01-pda_transfer/report.json' '$T/cpi/07-two_transfers/report.json' -o '$T/d' -q >/dev/null &&
            grep -q 'program:cpi' '$T/d/diff.txt'"
  # a program the chain does not know takes the scenario's name, so the
  # same transaction reads "program:cpi" in one file and "program:p0" in
  # another; diff matches program frames by their id and says no change
  sed 's/"cpi"/"p0"/g; s/"cpi2"/"p1"/g' "$T/cpi.json" >"$T/cpi_p0.json"
  "$BIN" profile --scenario "$T/cpi_p0.json" -o "$T/cpi_p0" -q >/dev/null 2>&1
  NAME="sol_tx cpi: the scenario's names \"cpi\" and \"p0\" differ, diff by program id says no change"
  same_by_id() {
    a="$T/cpi/05-nest_return_data" b="$T/cpi_p0/05-nest_return_data"
    grep -q 'program:cpi ix 0x0202;' "$a/profile.folded" && grep -q 'program:p0 ix 0x0202;' "$b/profile.folded" &&
      "$BIN" diff "$a/report.json" "$b/report.json" -o "$T/dp0" -q >/dev/null &&
      [ "$(grep -c '(no change)' "$T/dp0/diff.txt")" = 3 ] && grep -q '^  CU  *2,969  *2,969  *0  ' "$T/dp0/diff.txt"
  }
  ok same_by_id
  # each program frame's inclusive CU is its "consumed N of M" line
  d8="$T/cpi/08-token_pda_transfer"
  tok=$(awk '/Program Tokenkeg.* consumed/ {print $5}' "$d8/result.txt")
  tok_sum=$(awk '/;syscall:sol_invoke_signed_c;program:token/ {s += $NF} END {print s + 0}' "$d8/profile.folded")
  outer=$(awk '/Program ScprofProgram.* consumed/ {print $5}' "$d8/result.txt")
  outer_sum=$(awk '/^transaction;instruction #1;program:cpi/ {s += $NF} END {print s + 0}' "$d8/profile.folded")
  NAME="sol_tx cpi: Token's frame holds its consumed $tok CU, the caller's its $outer"
  frames_match() { [ -n "$tok" ] && [ "$tok" = "$tok_sum" ] && [ "$outer" = "$outer_sum" ]; }
  ok frames_match
  against_oracle "$T/cpi.json" "$T/cpi"

  # Programs deployed in the accounts, as on chain: Memo as a loader-2
  # account holding its ELF, the cpi fixture as an upgradeable program
  # account and its programdata account (a 45-byte header, then the ELF).
  { printf '\003\000\000\000'; head -c 41 /dev/zero; cat "$B/tests/fixtures/sbpf/cpi.so"; } >"$T/cpi.programdata"
  sed "s|@ORACLE@|$ORACLE_ABS|g; s|@PROGRAMDATA@|$T/cpi.programdata|g" "$D/deployed_cases.json" >"$T/dep.json"
  "$BIN" profile --scenario "$T/dep.json" -o "$T/dep" -q >/dev/null 2>"$T/err"
  NAME="[pin] sol_tx deployed: Memo from its account (274 CU), the upgradeable cpi from its programdata (1570)"
  ok sh -c "printf '01\tmemo_deployed\t274\tok\n02\tupgradeable_deployed_nest\t1570\tok\n' | cmp -s - '$T/dep/scenario.txt'"
  against_oracle "$T/dep.json" "$T/dep"
fi
# every scenario's profiles print Solana's words only (lib/words.sh)
for s in out ata ata_p0 nonce cpi cpi_p0 dep; do
  if [ -d "$T/$s" ]; then vocab "sol_tx $s: reports, JSON status, flamegraph words" "$T/$s" "$SOROBAN_WORDS" 1; fi
done
# the checks above print PASS/FAIL (and SKIP under SCP_NO_ORACLE=1)
exit 0
