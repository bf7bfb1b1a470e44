#!/bin/sh
# The profiled CLI of two scprof builds against litesvm's node driver, in
# paired rounds: per round and scenario (1,000 transactions; ata: 1,000
# pairs), litesvm's whole node process, then the BEFORE build profiled,
# the AFTER build profiled and the AFTER build unprofiled ("profile":
# false), one after the other; prints the medians of the times and of
# the per-round ratios.  The first round's output folders of the two
# builds must be the same (diff -r), or the script stops.  Run it with
# TMPDIR on a memory file system (/dev/shm): on a disk, creating the
# 8,000 files of 1,000 profiles dominates whatever writes them.
#   usage: bench/sol_cli_pair.sh BEFORE_SCPROF AFTER_SCPROF [ROUNDS] [KINDS]
# (needs node and litesvm in build/oracle or SCP_ORACLE_DIR, scripts/deps)
set -eu
OLD=$1
NEW=$2
ROUNDS=${3:-3}
KINDS=${4:-transfer checked ata}
D=$(cd "$(dirname "$0")" && pwd)
. "$D/sol/lib.sh"
sol_oracle sol_cli_pair "$D/../build/oracle"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf 'load average at the start: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %8s %8s %8s %8s %10s %10s %10s\n' case litesvm before after after_np before/lsvm after/lsvm after/before
for k in $KINDS; do
  python3 "$D/sol/scenario.py" $k 1000 "$ORACLE" "$T/$k.json"
  python3 "$D/sol/scenario.py" $k 1000 "$ORACLE" "$T/$k.np.json" noprofile
  : >"$T/r"
  r=0
  while [ $r -lt "$ROUNDS" ]; do
    t0=$(ns); node "$D/sol/litesvm_tx.js" "$T/$k.json" >/dev/null
    t1=$(ns); "$OLD" profile -q -o "$T/old" --scenario "$T/$k.json"
    t2=$(ns); "$NEW" profile -q -o "$T/new" --scenario "$T/$k.json"
    t3=$(ns); "$NEW" profile -q -o "$T/np" --scenario "$T/$k.np.json"
    t4=$(ns)
    if [ $r -eq 0 ]; then
      diff -r "$T/old" "$T/new" >/dev/null || { echo "sol_cli_pair: $k: the two builds' folders differ"; exit 1; }
    fi
    rm -rf "$T/old" "$T/new" "$T/np"
    echo "$((t1 - t0)) $((t2 - t1)) $((t3 - t2)) $((t4 - t3))" >>"$T/r"
    r=$((r + 1))
  done
  col() { awk "{ print $1 }" "$T/r" | median; }
  printf '%-9s %8.2f %8.2f %8.2f %8.2f %9.2fx %9.2fx %9.2fx\n' $k "$(col '$1 / 1e9')" "$(col '$2 / 1e9')" \
    "$(col '$3 / 1e9')" "$(col '$4 / 1e9')" "$(col '$2 / $1')" "$(col '$3 / $1')" "$(col '$3 / $2')"
done
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
