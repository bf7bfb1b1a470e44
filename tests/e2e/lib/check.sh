# tests/e2e/lib/check.sh — the checks the end-to-end scripts share; each
# script sources it.  A check prints "PASS NAME" or "FAIL NAME" (NAME set
# by the caller), the lines tests/run.sh counts.

ok() { if "$@"; then echo "PASS $NAME"; else echo "FAIL $NAME"; fi; }

# The command's status $rc is $1 and its stderr ($T/err) is one line
# "scprof: ..." (containing $2 when given).
one_line_error() {
  [ "$rc" -eq "$1" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "^scprof: " "$T/err" &&
    { [ $# -lt 2 ] || grep -qF -- "$2" "$T/err"; }
}

# The folded stacks of profile folder $1 add up to its report's CPU.
folded_is_cpu() {
  sum=$(awk '{s += $NF} END {print s}' "$1/profile.folded")
  cpu=$(awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$1/report.txt")
  [ -n "$cpu" ] && [ "$sum" = "$cpu" ]
}
