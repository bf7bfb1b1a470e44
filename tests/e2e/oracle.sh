#!/bin/sh
# End-to-end: the Solana oracle.  Every case of tests/oracle/cases.sh runs
# in litesvm 1.5.0 (tests/oracle/run.js) and in scprof with the same
# arguments: one [litesvm] check per case (scprof's result.txt -- CU, logs,
# outcome, accounts after -- equals litesvm's line for line, and the
# profile's self CU add up to the CU), plus one [pin] check per case whose
# litesvm CU tests/oracle/expected.txt pins (p-token's MintTo 119 and
# Transfer 76 among them).  litesvm is required: scripts/deps installs it
# with npm; SCP_NO_ORACLE=1 (a user without npm) turns each comparison
# not made into its own SKIP line.  scprof always runs sBPF programs: a
# case it cannot run fails.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
D=$(dirname "$0")/../oracle

# the oracle lives in the release build's folder whatever BUILD this is
oracle_setup

# builtin:NAME -> the ELF scripts/deps extracted and the id and loader it runs under
builtin_args() {
  case "$1" in
    token) echo "$ORACLE/token.so --program-id TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA --loader v3" ;;
    token2022) echo "$ORACLE/token2022.so --program-id TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb --loader v3" ;;
    ata) echo "$ORACLE/ata.so --program-id ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL --loader v2" ;;
    memo1) echo "$ORACLE/memo1.so --program-id Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo --loader v1" ;;
    memo) echo "$ORACLE/memo.so --program-id MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr --loader v2" ;;
    *) echo "$ORACLE/unknown-builtin-$1.so" ;;
  esac
}

# One case, one check of the evidence: litesvm and scprof run the same
# arguments, and scprof's result.txt (CU, logs, outcome, every account
# after) equals litesvm's line for line, its profile's self CU adding up to
# that CU.  Where expected.txt pins litesvm's CU ("-": a fixture built here,
# whose CU moves with its source), a second, regression check holds
# scprof's CU to the pinned number (it runs without the oracle too).
# Without litesvm the case FAILs, or SKIPs under SCP_NO_ORACLE=1: one SKIP
# per case not compared.
# SCP_ORACLE_ONLY=ERE runs only the cases it matches (harness_selftest.sh);
# the count check at the end then fails, so it cannot thin a real run.
ncase=0
ocase() {
  name=$1; shift
  [ -z "${SCP_ORACLE_ONLY:-}" ] || echo "$name" | grep -Eqx -- "$SCP_ORACLE_ONLY" || return 0
  ncase=$((ncase + 1))
  want=$(awk -v n="$name" '$1 == n {print $2}' "$D/expected.txt")
  [ -n "$want" ] || { echo "FAIL $name: not in expected.txt"; return; }
  rm -f "$T/oracle.txt"
  [ $have_oracle -eq 1 ] && node "$D/run.js" "$@" >"$T/oracle.txt" 2>"$T/oracle.err"
  prog=$1; shift
  case "$prog" in
    builtin:*) set -- $(builtin_args "${prog#builtin:}") "$@" ;;
    *) set -- "$prog" "$@" ;;
  esac
  if [ ! -f "$1" ]; then
    # fixtures are built by make: missing is a failure whatever the oracle
    case "$prog" in
      builtin:*|"$PROGS"/*) oracle_missing "$name: $1 not there (litesvm's ELF, or node for mkprog.js)" ;;
      *) echo "FAIL [litesvm] $name: $1 not built" ;;
    esac
    return 0
  fi
  rm -rf "$T/out"
  "$BIN" profile "$@" -o "$T/out" >"$T/stdout" 2>"$T/err"
  cu=$(sed -n 's/^cu //p' "$T/out/result.txt" 2>/dev/null)
  sum=$(awk '{s += $NF} END {print s + 0}' "$T/out/profile.folded" 2>/dev/null)
  if [ "$want" != - ]; then
    NAME="[pin] $name: scprof charges $want CU, litesvm 1.5.0's pinned figure"
    ok [ "$cu" = "$want" ]
  fi
  if [ $have_oracle -eq 0 ]; then
    oracle_missing "$name: not compared with litesvm, not installed in $ORACLE"
    return 0
  fi
  NAME="[litesvm] $name: scprof equals litesvm (cu ${cu:-?}, logs, outcome, accounts after; profile sums to the CU)"
  ok sh -c "[ -s '$T/oracle.txt' ] && cmp -s '$T/oracle.txt' '$T/out/result.txt' && [ '$sum' = '$cu' ]"
  cmp -s "$T/oracle.txt" "$T/out/result.txt" ||
    { diff "$T/oracle.txt" "$T/out/result.txt" | head -8; head -3 "$T/oracle.err" "$T/err"; } 2>/dev/null |
    sed 's/^/  | /'
}
# the hand-assembled v3 programs of cases.sh, written afresh
PROGS=
if command -v node >/dev/null 2>&1; then
  PROGS="$T/progs"
  node "$D/mkprog.js" "$PROGS" >/dev/null || echo "FAIL mkprog.js: exit $?"
else
  PROGS="$T/no-node"
fi
. "$D/cases.sh"

NAME="every case of cases.sh is in expected.txt and the other way round"
ok [ "$ncase" -eq "$(grep -vc '^#' "$D/expected.txt")" ]
