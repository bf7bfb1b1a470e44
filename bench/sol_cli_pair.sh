#!/bin/sh
# The profiled CLI of two scprof builds against litesvm's node driver, in
# paired rounds: per round and scenario (1,000 transactions; ata: 1,000
# pairs), litesvm's whole node process, then the BEFORE build profiled,
# the AFTER build profiled and the AFTER build unprofiled ("profile":
# false), one after the other; prints the medians of the wall times and
# of the per-round ratios, then the same for the CPU time (user + system,
# all threads, by /usr/bin/time), which a loaded machine disturbs less.  The first round's output folders of the two
# builds must be the same (diff -r, profile.pb.gz decompressed), or the script stops.  Run it with
# TMPDIR on a memory file system (/dev/shm): on a disk, creating the
# 8,000 files of 1,000 profiles dominates whatever writes them.
#   usage: bench/sol_cli_pair.sh BEFORE_SCPROF AFTER_SCPROF [ROUNDS] [KINDS]
# SCP_JOBS=N passes -j N (threads in all: one runs, N - 1 write) to the
# AFTER build; unset, it takes its default (the online CPUs, at most 8).
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
printf '%-9s %-4s %8s %8s %8s %8s %10s %10s %10s\n' case s litesvm before after after_np before/lsvm after/lsvm after/before
[ -x /usr/bin/time ] || { echo "sol_cli_pair: needs /usr/bin/time"; exit 1; }
# run NAME CMD...: CMD's wall and CPU seconds appended to $T/NAME
run() {
  n=$1
  shift
  /usr/bin/time -f '%e %U %S' -o "$T/t" "$@" >/dev/null
  awk '{ print $1, $2 + $3 }' "$T/t" >>"$T/$n"
}
for k in $KINDS; do
  python3 "$D/sol/scenario.py" $k 1000 "$ORACLE" "$T/$k.json"
  python3 "$D/sol/scenario.py" $k 1000 "$ORACLE" "$T/$k.np.json" noprofile
  rm -f "$T/l" "$T/o" "$T/n" "$T/u"
  r=0
  while [ $r -lt "$ROUNDS" ]; do
    run l node "$D/sol/litesvm_tx.js" "$T/$k.json"
    run o "$OLD" profile -q -o "$T/old" --scenario "$T/$k.json"
    run n "$NEW" profile ${SCP_JOBS:+-j "$SCP_JOBS"} -q -o "$T/new" --scenario "$T/$k.json"
    run u "$NEW" profile ${SCP_JOBS:+-j "$SCP_JOBS"} -q -o "$T/np" --scenario "$T/$k.np.json"
    if [ $r -eq 0 ]; then
      # profile.pb.gz compared by its protobuf: two builds may deflate at
      # different levels (SCP_OUT_PPROF_GZIP_LEVEL)
      for d in old new; do
        find "$T/$d" -name profile.pb.gz | while read -r f; do gzip -dc "$f" >"$f.pb" && rm "$f"; done
      done
      diff -r "$T/old" "$T/new" >/dev/null || { echo "sol_cli_pair: $k: the two builds' folders differ"; exit 1; }
    fi
    rm -rf "$T/old" "$T/new" "$T/np"
    r=$((r + 1))
  done
  # column c (1 wall, 2 CPU) of each run side by side, a round a line
  paste -d' ' "$T/l" "$T/o" "$T/n" "$T/u" >"$T/w$k"
  for c in 1 2; do
    col() { awk -v c=$c "{ split(\$0, f, \" \"); l = f[c]; o = f[2 + c]; n = f[4 + c]; u = f[6 + c]; print $1 }" "$T/w$k" | median; }
    printf '%-9s %-4s %8.2f %8.2f %8.2f %8.2f %9.2fx %9.2fx %9.2fx\n' $k "$([ $c = 1 ] && echo wall || echo cpu)" \
      "$(col l)" "$(col o)" "$(col n)" "$(col u)" "$(col 'o / l')" "$(col 'n / l')" "$(col 'n / o')"
  done
done
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
