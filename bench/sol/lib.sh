# bench/sol/lib.sh — what the Solana benches against litesvm share
# (sourced by bench/sol_litesvm.sh and bench/sol_cli_pair.sh).

# sol_oracle NAME DEFAULT: ORACLE = litesvm's folder (SCP_ORACLE_DIR, else
# DEFAULT), absolute and exported; exits 0 (skipped) when it is not there.
sol_oracle() {
  ORACLE=${SCP_ORACLE_DIR:-$2}
  [ -f "$ORACLE/token.so" ] && [ -d "$ORACLE/node_modules/litesvm" ] ||
    { echo "$1: litesvm and its programs not in $ORACLE (scripts/deps), skipped"; exit 0; }
  ORACLE=$(cd "$ORACLE" && pwd)
  export SCP_ORACLE_DIR="$ORACLE"
}

ns() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
