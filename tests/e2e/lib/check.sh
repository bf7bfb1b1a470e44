# tests/e2e/lib/check.sh — the checks the end-to-end scripts share; each
# script sources it.  A check prints "PASS NAME" or "FAIL NAME" (NAME set
# by the caller), the lines tests/run.sh counts.

ok() { if "$@"; then echo "PASS $NAME"; else echo "FAIL $NAME"; fi; }

# passed STATUS: the same line for a check that is a list of commands,
# "A && B; passed $?".  ("ok A && B" would check A alone: B runs after ok
# has printed PASS, and its status is lost.)
passed() { if [ "$1" -eq 0 ]; then echo "PASS $NAME"; else echo "FAIL $NAME"; fi; }

# The opening every script shares: the scprof under test ($SCPROF), the
# build folder ($SCP_BUILD) and a scratch folder $T removed at exit.
# e2e_setup N: the script prints at least N PASS or SKIP lines when all is
# well; its "PLAN N" line makes tests/run.sh fail a run that printed fewer
# (checks that vanished: a loop that found nothing, an early exit).
e2e_setup() {
  [ $# -eq 0 ] || echo "PLAN $1"
  BIN=${SCPROF:-build/bin/scprof}
  B=${SCP_BUILD:-build}
  T=$(mktemp -d)
  trap 'rm -rf "$T"' EXIT
}

# The command's status $rc is $1 and its stderr ($T/err) is one line
# "scprof: ..." (containing $2 when given).
one_line_error() {
  [ "$rc" -eq "$1" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "^scprof: " "$T/err" &&
    { [ $# -lt 2 ] || grep -qF -- "$2" "$T/err"; }
}

# same_bytes A B: A is not empty and B is byte for byte A (two outputs
# both missing or empty are no evidence that anything stayed the same).
same_bytes() { [ -s "$1" ] && cmp -s "$1" "$2"; }

# The folded stacks of profile folder $1 add up to its report's CPU.
folded_is_cpu() {
  sum=$(awk '{s += $NF} END {print s}' "$1/profile.folded")
  cpu=$(awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$1/report.txt")
  [ -n "$cpu" ] && [ "$sum" = "$cpu" ]
}

# Kinds of evidence (tests/run.sh prints a line per kind): a check line may
# carry its kind as a tag after PASS/FAIL/SKIP, e.g. "PASS [litesvm] ...":
#   [litesvm] compared with litesvm, live    [trace] with the reference traces
#   [spec]    the WebAssembly spec suite     [viewer] read by a real viewer / llvm-symbolizer
#   [derived] a figure worked out by hand    [pin] a recorded number (regression pin)
# Untagged lines count as "other" (behaviour, errors, internal consistency).

# helper KIND WHAT CMD...: runs a checking helper (a script that prints its
# own PASS/FAIL lines) and passes its lines on, tagged [KIND] unless the
# helper tagged them.  A non-zero
# exit, or a run that prints no PASS/FAIL line at all, is one FAIL more:
# a helper cannot make its checks vanish.
helper() {
  hkind=$1 hwhat=$2; shift 2
  hout=$(mktemp)
  "$@" >"$hout" 2>&1
  hrc=$?
  sed -e "s/^\(PASS\|FAIL\|SKIP\) \([^[]\)/\1 [$hkind] \2/" "$hout"
  if [ "$hrc" -ne 0 ]; then
    echo "FAIL [$hkind] $hwhat: the helper exited $hrc"
  elif ! grep -q '^\(PASS\|FAIL\) ' "$hout"; then
    echo "FAIL [$hkind] $hwhat: the helper printed no check"
  fi
  rm -f "$hout"
}

# The litesvm oracle is required unless SCP_NO_ORACLE=1 opts out (a user
# without npm): then every case that needs it prints its own SKIP line.
# oracle_setup: ORACLE is the litesvm install (build/oracle whatever the
# build folder, or $SCP_ORACLE_DIR), exported for tests/oracle/*.js;
# have_oracle=1 when node and litesvm are there.
oracle_setup() {
  ORACLE=${SCP_ORACLE_DIR:-build/oracle}
  export SCP_ORACLE_DIR="$ORACLE"
  have_oracle=0
  command -v node >/dev/null 2>&1 && [ -f "$ORACLE/node_modules/litesvm/package.json" ] && have_oracle=1
}

# oracle_missing WHAT: one SKIP (opted out) or FAIL line for WHAT.
oracle_missing() {
  if [ "${SCP_NO_ORACLE:-0}" = 1 ]; then
    echo "SKIP [litesvm] $1 (SCP_NO_ORACLE=1)"
  else
    echo "FAIL [litesvm] $1 (scripts/deps installs litesvm; SCP_NO_ORACLE=1 skips)"
  fi
}

# report_meta REPORT.json KEY: the values of the report's meta lines KEY,
# one a line.
report_meta() { python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))
print("\n".join(m["value"] for m in j["meta"] if m["key"] == sys.argv[2]))' "$1" "$2"; }

# report_totals REPORT.json: its CPU and memory totals, "CPU MEM".
report_totals() { python3 -c 'import json,sys
print(" ".join(str(m["total"]) for m in json.load(open(sys.argv[1]))["metrics"][:2]))' "$1"; }
