#!/bin/sh
# End-to-end: the Solana oracle.  Every case of tests/oracle/cases.sh runs
# in litesvm 1.5.0 (tests/oracle/run.js), whose compute units must equal
# the ones pinned in tests/oracle/expected.txt (p-token's MintTo 119 and
# Transfer 76 among them), and, once scprof runs sBPF programs, in scprof
# with the same arguments, whose result.txt (CU, logs, outcome, accounts
# after) must equal the oracle's line for line.  Without node or the
# litesvm package (scripts/deps installs it with npm) the oracle side is
# skipped with a message, and scprof is held to the pinned numbers.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
BIN=${SCPROF:-build/bin/scprof}
B=${SCP_BUILD:-build}
D=$(dirname "$0")/../oracle
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib/check.sh"

# the oracle lives in the release build's folder whatever BUILD this is
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
export SCP_ORACLE_DIR="$ORACLE"
have_oracle=0
if command -v node >/dev/null 2>&1 && [ -f "$ORACLE/node_modules/litesvm/package.json" ]; then
  have_oracle=1
else
  echo "SKIP oracle: litesvm 1.5.0 not installed in $ORACLE (run scripts/deps with npm reachable)"
fi

# Solana programs in scprof: present when its usage knows --ix
have_sbpf=0
"$BIN" --help 2>&1 | grep -q -- '--ix HEX' && have_sbpf=1
[ $have_sbpf -eq 1 ] || echo "SKIP scprof: this build runs no sBPF programs"

# builtin:NAME -> the ELF scripts/deps extracted and the id and loader it runs under
builtin_args() {
  case "$1" in
    token) echo "$ORACLE/token.so --program-id TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA --loader v3" ;;
    token2022) echo "$ORACLE/token2022.so --program-id TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb --loader v3" ;;
    ata) echo "$ORACLE/ata.so --program-id ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL --loader v2" ;;
    memo1) echo "$ORACLE/memo1.so --program-id Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo --loader v1" ;;
    memo) echo "$ORACLE/memo.so --program-id MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr --loader v2" ;;
  esac
}

ncase=0
ocase() {
  name=$1; shift
  ncase=$((ncase + 1))
  want=$(awk -v n="$name" '$1 == n {print $2}' "$D/expected.txt")
  [ -n "$want" ] || { echo "FAIL $name: not in expected.txt"; return; }
  # "-": a fixture the project builds, whose CU moves with its source:
  # compared with the oracle only
  case "$1" in builtin:*) ;; *) [ -f "$1" ] || { echo "SKIP $name: $1 not built"; return 0; } ;; esac
  if [ $have_oracle -eq 1 ]; then
    node "$D/run.js" "$@" >"$T/oracle.txt" 2>"$T/oracle.err"
    if [ "$want" = - ]; then
      NAME="oracle $name runs"
      ok grep -qx "cu [0-9]*" "$T/oracle.txt"
    else
      NAME="oracle $name charges $want CU"
      ok grep -qx "cu $want" "$T/oracle.txt"
    fi
  fi
  [ $have_sbpf -eq 1 ] || return 0
  [ "$want" != - ] || [ $have_oracle -eq 1 ] || return 0
  prog=$1; shift
  case "$prog" in
    builtin:*)
      set -- $(builtin_args "${prog#builtin:}") "$@"
      [ -f "$1" ] || { echo "SKIP scprof $name: $1 not extracted"; return 0; } ;;
    *) set -- "$prog" "$@" ;;
  esac
  rm -rf "$T/out"
  "$BIN" profile "$@" -o "$T/out" >"$T/stdout" 2>"$T/err"
  [ "$want" != - ] || want=$(sed -n 's/^cu //p' "$T/oracle.txt")
  NAME="scprof $name charges $want CU"
  ok grep -qx "cu $want" "$T/out/result.txt"
  NAME="scprof $name: the profile's self CU add up to the CU charged"
  ok [ "$(awk '{s += $NF} END {print s + 0}' "$T/out/profile.folded")" = "$want" ]
  if [ $have_oracle -eq 1 ]; then
    NAME="scprof $name: result.txt equals the oracle's"
    ok cmp -s "$T/oracle.txt" "$T/out/result.txt"
  fi
}
# the hand-assembled v3 programs of cases.sh, written afresh
PROGS=
if command -v node >/dev/null 2>&1; then
  PROGS="$T/progs"
  node "$D/mkprog.js" "$PROGS" || PROGS=
fi
[ -n "$PROGS" ] || echo "SKIP v3 programs: no node to write them"
. "$D/cases.sh"

NAME="every case of cases.sh is in expected.txt and the other way round"
ok [ "$ncase" -eq "$(grep -vc '^#' "$D/expected.txt")" ]
