#!/bin/sh
# End-to-end: account state brought from files.  Every case of
# tests/oracle/cases.sh that runs a real program litesvm ships (p-token,
# Token-2022, ATA, Memo 1 and 4) runs twice in scprof: (a) as the case
# gives it, every account in --account's own fields, and (b) with the same
# accounts written by tests/oracle/dump.py in one of the forms users
# already have (solana account --output json / json-compact / base58 /
# base64+zstd data, getAccountInfo replies named ADDR.json, a
# getMultipleAccounts reply with ADDR1,...=FILE, a Seashell gzip cache),
# given with --accounts, the program with --program ID=FILE.so:vN, and the
# instruction's accounts as --account PUBKEY[:s][:w].  (b)'s result.txt
# must equal litesvm's (tests/oracle/run.js on (a)'s arguments: independent
# evidence) or, without the oracle, (a)'s; (b)'s profile files must equal
# (a)'s byte for byte.  Every seventh case also deploys the program itself
# as accounts (an upgradeable program account and its programdata), as
# does every case of Memo (BPFLoader2 and the deprecated loader accounts
# holding the ELF), and runs it by --program-id alone.  Then the input that used to be taken silently is
# refused or read, one check each.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
D=$(dirname "$0")/../oracle
. "$(dirname "$0")/lib/words.sh"
. "$(dirname "$0")/lib/sol.sh"

oracle_setup
if [ $have_oracle -eq 0 ]; then
  oracle_missing "sol_state: every case against litesvm (litesvm 1.5.0 not installed in $ORACLE)"
fi
have_py=1
command -v python3 >/dev/null 2>&1 && command -v zstd >/dev/null 2>&1 || have_py=0
[ $have_py -eq 1 ] || echo "FAIL account files: python3 or zstd missing (scripts/deps installs them)"

# builtin:NAME -> its ELF, id and loader
prog_of() {
  case "$1" in
    token) echo "$ORACLE/token.so TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA v3" ;;
    token2022) echo "$ORACLE/token2022.so TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb v3" ;;
    ata) echo "$ORACLE/ata.so ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL v2" ;;
    memo1) echo "$ORACLE/memo1.so Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo v1" ;;
    memo) echo "$ORACLE/memo.so MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr v2" ;;
  esac
}
FORMS="cli compact base58 zstd info multi seashell"
PD=cGfHiC6Kgg3FpFZvgwGcswsCRtp4aBP2fzuXRQPizuN   # [9; 32]: the deployed form's programdata
PDHEX=$(printf '09%.0s' $(seq 32))

# The program deployed as accounts, as solana program dump / solana account
# give them: PUBKEY:LAMPORTS:OWNER:HEX:x specs for dump.py.
deployed_specs() {
  case "$3" in
    v1) echo "$2:1:BPFLoader1111111111111111111111111111111111:@$1:x" ;;
    v2) echo "$2:1:BPFLoader2111111111111111111111111111111111:@$1:x" ;;
    v3) echo "$2:1:BPFLoaderUpgradeab1e11111111111111111111111:02000000$PDHEX:x"
        # UpgradeableLoaderState::ProgramData: tag 3, slot, no authority, then the ELF
        echo "$PD:1:BPFLoaderUpgradeab1e11111111111111111111111:03000000$(printf '%082d' 0)@$1" ;;
  esac
}

ncase=0
ocase() {
  name=$1; prog=$2; shift 2
  case "$prog" in builtin:*) ;; *) return 0 ;; esac
  [ $have_py -eq 1 ] || return 0
  aargs="$*"   # hex, keys and numbers: no spaces
  set -- $(prog_of "${prog#builtin:}")
  elf=$1; id=$2; loader=$3
  set -- $aargs
  [ -f "$elf" ] || { oracle_missing "$name: $elf not extracted"; return 0; }
  form=$(echo $FORMS | cut -d' ' -f$((ncase % 7 + 1)))
  deploy=$((ncase % 7 == 0)); [ "$loader" = v3 ] || deploy=1
  ncase=$((ncase + 1))
  # (b)'s arguments: each --account PUBKEY:LAMPORTS:OWNER:DATA[:flags] as PUBKEY[:s][:w]
  specs=""; bargs=""
  while [ $# -gt 0 ]; do
    if [ "$1" = --account ]; then
      key=${2%%:*}; rest=${2#*:}; lam=${rest%%:*}; rest=${rest#*:}
      owner=${rest%%:*}; rest=${rest#*:}; data=${rest%%:*}
      flags=; x=
      case "$rest" in *:*) for f in $(echo "${rest#*:}" | tr : ' '); do
        if [ "$f" = x ]; then x=:x; else flags="$flags:$f"; fi; done ;; esac
      specs="$specs $key:$lam:$owner:$data$x"
      bargs="$bargs --account $key$flags"
      shift 2
    else
      bargs="$bargs $1"; shift
    fi
  done
  rm -rf "$T/a" "$T/b" "$T/c" "$T/dump"
  acc=
  if [ -n "$specs" ]; then
    # shellcheck disable=SC2086
    prefix=$(python3 "$D/dump.py" "$form" "$T/dump" $(printf '%s\n' $specs | sort -u))
    case $form in
      multi) acc="$prefix$T/dump/multi.json" ;;
      seashell) acc="$T/dump/scenarios/cache.json.gz" ;;
      *) acc="$T/dump" ;;
    esac
  fi
  # shellcheck disable=SC2086
  "$BIN" profile "$elf" --program-id "$id" --loader "$loader" $aargs -o "$T/a" -q >/dev/null 2>&1
  # shellcheck disable=SC2086
  "$BIN" profile --program "$id=$elf:$loader" ${acc:+--accounts "$acc"} $bargs -o "$T/b" -q >/dev/null 2>"$T/err"
  if [ $have_oracle -eq 1 ]; then
    # shellcheck disable=SC2086
    node "$D/run.js" "$prog" $aargs >"$T/oracle.txt" 2>/dev/null
    NAME="$name from $form files: litesvm's CU, logs, outcome and accounts"
    ok cmp -s "$T/oracle.txt" "$T/b/result.txt"
  else
    NAME="$name from $form files: the result of its own fields"
    ok cmp -s "$T/a/result.txt" "$T/b/result.txt"
  fi
  NAME="$name from $form files: the same profile, byte for byte"
  ok diff -r "$T/a" "$T/b"
  [ $deploy -eq 1 ] || return 0
  # shellcheck disable=SC2046
  python3 "$D/dump.py" cli "$T/prog" $(deployed_specs "$elf" "$id" "$loader") >/dev/null
  # shellcheck disable=SC2086
  "$BIN" profile --program-id "$id" --accounts "$T/prog" ${acc:+--accounts "$acc"} $bargs -o "$T/c" -q \
    >/dev/null 2>"$T/err"
  rm -rf "$T/prog"
  NAME="$name with the program deployed in account files ($loader): the same result"
  ok cmp -s "$T/b/result.txt" "$T/c/result.txt"
}
PROGS=   # the hand-assembled programs of cases.sh are not needed here
. "$D/cases.sh"
NAME="cases of real programs were run from files"
[ "$ncase" -gt 40 ] || [ $have_py -eq 0 ]; passed $?

# The same from a scenario of transactions: tests/oracle/ata_cases.json
# (ATA create with its CPIs into Token and System, Token-2022 flows) with
# its "accounts" replaced by files of each form; every transaction's
# result.txt must be litesvm's (tests/oracle/tx.js on the original) and
# every profile file the original's, byte for byte.
if [ $have_py -eq 1 ] && [ -f "$ORACLE/ata.so" ]; then
  ORACLE_ABS=$(cd "$ORACLE" && pwd)
  sed "s|@ORACLE@|$ORACLE_ABS|g" "$D/ata_cases.json" >"$T/ata.json"
  "$BIN" profile --scenario "$T/ata.json" -o "$T/ata" -q >/dev/null 2>&1
  [ $have_oracle -eq 1 ] && node "$D/tx.js" "$T/ata.json" >"$T/ata_oracle.txt" 2>/dev/null
  for form in $FORMS; do
    python3 "$D/dump.py" scenario "$form" "$T/ata.json" "$T/ata_$form.json"
    "$BIN" profile --scenario "$T/ata_$form.json" -o "$T/ata_$form" -q >/dev/null 2>"$T/err"
    NAME="ata_cases from $form files: every transaction's profile and result, byte for byte"
    ok diff -r "$T/ata" "$T/ata_$form"
    [ $have_oracle -eq 1 ] || continue
    tx_all_profiled "[litesvm] ata_cases from $form files:" "$T/ata_oracle.txt" "$T/ata_$form"
    for dir in "$T/ata_$form"/*/; do
      label=$(basename "$dir" | sed 's/^[0-9]*-//')
      awk -v l="$label" '$1 == "tx" {on = ($2 == l); next} on' "$T/ata_oracle.txt" |
        sed 's/^result err TransactionError/result err /' >"$T/want.txt"
      NAME="ata_cases $label from $form files equals litesvm (CU, logs, outcome)"
      ok cmp -s "$T/want.txt" "$dir/result.txt"
    done
  done
else
  oracle_missing "ata_cases from account files: $ORACLE/ata.so (litesvm's ELF) or python3 missing"
fi

# A scenario of "instructions" whose program is deployed in its account
# files (p-token as an upgradeable program and its programdata) and named
# by its id: MintTo at litesvm's 119 CU (expected.txt), the same result as
# the run from --account fields.
if [ $have_py -eq 1 ] && [ -f "$ORACLE/token.so" ]; then
  TK=TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA
  # shellcheck disable=SC2046
  python3 "$D/dump.py" cli "$T/dep/prog" $(deployed_specs "$ORACLE/token.so" $TK v3) >/dev/null
  python3 "$D/dump.py" info "$T/dep/state" "$K1:$MINT_RENT:$TK:$(mint 3 1000 6)" "$K2:$ACCT_RENT:$TK:$(tacct 1 3 500)" \
    "$K3:$WALLET:$SYS:" >/dev/null
  cat >"$T/dep/s.json" <<EOF2
{"programs": [], "accounts": ["prog", "state"],
 "instructions": [{"label": "mint_to", "program": "$TK", "data": "07$(le64 100)",
                   "accounts": [{"pubkey": "$K1", "writable": true}, {"pubkey": "$K2", "writable": true},
                                {"pubkey": "$K3", "signer": true}]}]}
EOF2
  "$BIN" profile --scenario "$T/dep/s.json" -o "$T/dep/out" -q >/dev/null 2>"$T/err"
  "$BIN" profile "$ORACLE/token.so" --program-id $TK --ix "07$(le64 100)" --account "$K1:$MINT_RENT:$TK:$(mint 3 1000 6):w" \
    --account "$K2:$ACCT_RENT:$TK:$(tacct 1 3 500):w" --account "$K3:$WALLET:$SYS::s" -o "$T/dep/cli" -q >/dev/null 2>&1
  NAME="scenario instruction by the id of a program deployed in its account files: MintTo 119 CU"
  ok grep -qx "cu 119" "$T/dep/out/01-mint_to/result.txt"
  NAME="scenario instruction by a deployed program's id: the result of the run from fields"
  ok cmp -s "$T/dep/cli/result.txt" "$T/dep/out/01-mint_to/result.txt"
  sed "s/\"prog\", //" "$T/dep/s.json" >"$T/dep/s2.json"
  "$BIN" profile --scenario "$T/dep/s2.json" -o "$T/dep/out2" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="an id neither in \"programs\" nor deployed: one line"
  ok one_line_error 65 "instruction 1: $TK is not in \"programs\" nor a program deployed in \"accounts\""
else
  oracle_missing "p-token deployed in account files: $ORACLE/token.so (litesvm's ELF) or python3 missing"
fi

# ---- what used to be taken silently: now read, or refused in one line ----
K=4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi
K3=CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8
SYS=11111111111111111111111111111111
MEMO="$ORACLE/memo.so"
if [ -f "$MEMO" ]; then
  cp "$MEMO" "$T/memo.so"
  # the scenario's own accounts in the CLI's shapes: data as [BASE64,
  # "base64"], {"pubkey", "account"}, rentEpoch u64::MAX as the CLI prints it
  cat >"$T/s.json" <<EOF2
{"programs": [{"name": "memo", "elf": "memo.so", "id": "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", "loader": "v2"}],
 "accounts": [{"pubkey": "$K", "lamports": 1000000000, "owner": "$SYS", "data": ["AQID", "base64"], "rentEpoch": 18446744073709551615},
              {"pubkey": "$K3", "account": {"lamports": "77", "data": ["AQIDBA==", "base64"], "owner": "$SYS",
               "executable": false, "rentEpoch": 18446744073709551615, "space": 4}}],
 "instructions": [{"program": "memo", "data": "6869", "accounts": [{"pubkey": "$K", "signer": true}, {"pubkey": "$K3", "signer": true}]}]}
EOF2
  "$BIN" profile --scenario "$T/s.json" -o "$T/s" -q >/dev/null 2>"$T/err"
  NAME="scenario: [BASE64, \"base64\"] data is read, not left empty"
  ok grep -qx "post $K 1000000000 $SYS 010203" "$T/s/01-memo/result.txt"
  NAME="scenario: {\"pubkey\", \"account\"} is that account (lamports as a string), not an empty one"
  ok grep -qx "post $K3 77 $SYS 01020304" "$T/s/01-memo/result.txt"
  sed 's/"signer": true}, {"pubkey": "'$K3'"/"is_signer": true}, {"pubkey": "'$K3'"/' "$T/s.json" >"$T/s2.json"
  "$BIN" profile --scenario "$T/s2.json" -o "$T/s" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="scenario: an unknown key is refused with its JSON path and the nearest key"
  ok one_line_error 65 "s2.json: instructions[0].accounts[0]: unknown key \"is_signer\"; did you mean \"signer\"?"
  sed 's/"space": 4/"space": 5/' "$T/s.json" >"$T/s3.json"
  "$BIN" profile --scenario "$T/s3.json" -o "$T/s" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="scenario: a \"space\" that is not the data's length is refused"
  ok one_line_error 65 "accounts[1].account.space: 5, but the data has 4 bytes"
  sed 's/"programs"/"sysvars": {"clok": {}}, "programs"/' "$T/s.json" >"$T/s4.json"
  "$BIN" profile --scenario "$T/s4.json" -o "$T/s" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="scenario: \"sysvars\" is read strictly: an unknown sysvar is refused with its JSON path"
  ok one_line_error 65 "s4.json: sysvars.clok: unknown sysvar"
  sed 's/"data": "6869"/"data": "6869", "cu_limit": 1400001/' "$T/s.json" >"$T/s5.json"
  "$BIN" profile --scenario "$T/s5.json" -o "$T/s" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="scenario: cu_limit above the runtime's 1,400,000 is refused"
  ok one_line_error 65 "instructions[0]: \"cu_limit\" is an integer from 1 to 1400000"
  sed 's/"profile"/"profile"/; s/"signer": true}, {"pubkey": "'$K3'", "signer": true}/"signer": "yes"}/' "$T/s.json" >"$T/s6.json"
  "$BIN" profile --scenario "$T/s6.json" -o "$T/s" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="scenario: a value of the wrong type is refused"
  ok one_line_error 65 "instructions[0].accounts[0]: \"signer\" is true or false"

  # the command line
  "$BIN" profile "$MEMO" --ix 6869 --account "$K:5:$SYS:b64:AQID:s" -o "$T/o" -q >/dev/null 2>"$T/err"
  NAME="--account PUBKEY:L:OWNER:b64:BASE64 is read (the colon after b64 splits no field)"
  ok grep -qx "post $K 5 $SYS 010203" "$T/o/result.txt"
  "$BIN" profile "$MEMO" --ix 00 --cu-limit 0 >/dev/null 2>"$T/err"; rc=$?
  NAME="--cu-limit 0: usage, exit 2"
  ok one_line_error 2 "--cu-limit: '0' is not an integer from 1 to 1400000"
  "$BIN" profile "$MEMO" --ix 00 --cu-limit 1400001 >/dev/null 2>"$T/err"; rc=$?
  NAME="--cu-limit above 1,400,000: usage, exit 2"
  ok one_line_error 2 "--cu-limit: '1400001'"
  if [ $have_py -eq 1 ]; then
    python3 "$D/dump.py" cli "$T/one" "$K:5:$SYS:000102" >/dev/null
    "$BIN" profile "$MEMO" --ix 6869 --account "@$T/one/00.json:s" -o "$T/o" -q >/dev/null 2>"$T/err"
    NAME="--account @acct.json: the account of the file, as an instruction account"
    ok grep -qx "post $K 5 $SYS 000102" "$T/o/result.txt"
    "$BIN" profile "$MEMO" --ix 6869 --account "$K:5:$SYS:@$T/one/00.json:s" -o "$T/o" -q >/dev/null 2>"$T/err"; rc=$?
    NAME="an account file given as data bytes: refused, not taken as the data"
    ok one_line_error 3 "is an account file (JSON), not the account's bytes"
    "$BIN" profile "$MEMO" --ix 6869 --account "$K:s" -o "$T/o" -q >/dev/null 2>"$T/err"; rc=$?
    NAME="--account PUBKEY without --accounts holding it: exit 3"
    ok one_line_error 3 "no --accounts file holds this account"
    printf '{"context": {"slot": 1}, "value": {"lamports": 5, "data": {"parsed": {}, "program": "spl-token", "space": 82}, "owner": "%s", "executable": false, "rentEpoch": 0, "space": 82}}' "$SYS" >"$T/$K.json"
    "$BIN" profile "$MEMO" --ix 00 --accounts "$T/$K.json" >/dev/null 2>"$T/err"; rc=$?
    NAME="jsonParsed data: refused, saying which encoding to ask for"
    ok one_line_error 65 "value.data: jsonParsed data cannot be profiled; ask the RPC for \"encoding\": \"base64\""
    cp "$T/$K.json" "$T/reply.json"
    "$BIN" profile "$MEMO" --ix 00 --accounts "$T/reply.json" >/dev/null 2>"$T/err"; rc=$?
    NAME="a getAccountInfo reply without its address: refused, saying how to give it"
    ok one_line_error 65 "give ADDR=$T/reply.json or name the file ADDR.json"
    printf '{"pubkey": "%s", "account": {"lamports": 5, "data": ["AA==", "base64"], "owner": "%s", "executable": false, "rent_epoch": 0}}' "$K" "$SYS" >"$T/bad.json"
    "$BIN" profile "$MEMO" --ix 00 --accounts "$T/bad.json" >/dev/null 2>"$T/err"; rc=$?
    NAME="an account file with an unknown key: refused with the nearest key"
    ok one_line_error 65 "account: unknown key \"rent_epoch\"; did you mean \"rentEpoch\"?"
  fi
  # p-token's InitializeMint2 on a mint Tokenkeg owns, run under the placeholder id
  MINT0="$K:1461600:TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA:$(printf '00%.0s' $(seq 82)):w"
  "$BIN" profile "$ORACLE/token.so" --ix "1406$(printf '03%.0s' $(seq 32))00" --account "$MINT0" -o "$T/o" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="a failure the placeholder id explains says so"
  ok one_line_error 10 "ExternalAccountDataModified after 201 CU (profile written to $T/o); the program ran as ScprofProgram111...; give --program-id"
  "$BIN" profile "$ORACLE/token.so" --ix "1406$(printf '03%.0s' $(seq 32))00" --account "$MINT0" --program-id "$SYS" -o "$T/o" -q >/dev/null 2>"$T/err"; rc=$?
  NAME="with --program-id given the hint is not added"
  no_hint() { [ "$rc" -eq 10 ] && ! grep -q "give --program-id" "$T/err"; }
  ok no_hint
else
  oracle_missing "Memo and token refusals: $MEMO (litesvm's ELF) missing"
fi

# the profiles above print Solana's words only (lib/words.sh)
for s in ata s o; do
  if [ -d "$T/$s" ]; then vocab "sol_state $s: reports, JSON status, flamegraph words" "$T/$s" "$SOROBAN_WORDS" 1; fi
done
