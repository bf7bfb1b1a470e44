#!/bin/sh
# End-to-end: memory as the host enforces it.  In examples/caller.c's run,
# each of the four contract VMs gives its linear memory back to the Budget
# when its frame ends, so the Budget's count (what --mem-limit is checked
# against, at every charge) peaks well below everything charged (what the
# call tree books).  The Budget table, the report's "memory" line, the JSON
# and `check --max-mem` all use that peak.
# Evidence: the run's own limit check at the peak N passes and at N-1 fails
# (so the figure shown is exactly the one enforced: independent of how it
# is printed); the charged total, the refund and the peak are pins [pin].
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 14
CALLER=$B/examples/caller.wasm
COUNTER=$B/examples/counter.wasm
ID=CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ

prof() {  # prof DIR LIMIT
  "$BIN" profile "$CALLER" run "str:$ID" u32:3 --contract "$COUNTER" -o "$T/$1" -q -f report,json \
    --mem-limit "$2" 2>"$T/err"
  rc=$?
}
budget_mem() { awk '$1 == "Memory" {gsub(",", "", $2); print $2; exit}' "$1/report.txt"; }

PEAK=671198 CHARGED=1066162 REFUNDED=655440 NET=410722
# A limit everything charged exceeds and the peak stays under.
prof a 700000
NAME="a limit under the charged total and over the peak: the run succeeds (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="[pin] the Budget table shows the peak against the limit"
ok grep -q "^  Memory  *671,198  *700,000  *95\.89%  bytes$" "$T/a/report.txt"
NAME="[pin] the report's one memory line: peak, limit, charged - refunded = net"
ok grep -q "^  memory  *peak 671,198 of the limit 700,000 (the Budget's count, lowered by refunds); charged 1,066,162 - refunded 655,440 (ended VMs' linear memory) = net 410,722$" "$T/a/report.txt"
NAME="charged - refunded = net ($CHARGED - $REFUNDED = $NET)"; ok [ $((CHARGED - REFUNDED)) -eq "$NET" ]
NAME="the note under the Budget table gives the call tree's total"
ok grep -q "^Memory: consumed is the count the limit is checked against; the call tree books 1,066,162 bytes" "$T/a/report.txt"
NAME="JSON: the metric's total is the tree's, enforced is the peak"
ok grep -q '{"name":"Memory","unit":"bytes","limit":700000,"total":1066162,"enforced":671198}' "$T/a/report.json"
NAME="no memory line left from the three unexplained ones"
ok sh -c "! grep -q 'memory peak\|memory net\|memory refunded' '$T/a/report.txt'"

"$BIN" check "$T/a/report.json" --max-mem 700000 >"$T/out" 2>"$T/err"
rc=$?
NAME="check --max-mem 700000 on that run passes (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="check quotes the peak"; ok grep -q "^ok    Memory 671,198 <= 700,000 (95\.89%)$" "$T/out"
"$BIN" check "$T/a/report.json" --max-mem $((PEAK - 1)) >"$T/out" 2>"$T/err"
rc=$?
NAME="check --max-mem one under the peak is over (exit $rc)"; ok [ "$rc" -eq 11 ]

# The run's own limit at the peak and one under: the figure is the enforced one.
prof n "$PEAK"
NAME="--mem-limit at the peak ($PEAK) holds (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="its Budget table shows 100.00%"; ok grep -q "^  Memory  *671,198  *671,198  *100\.00%" "$T/n/report.txt"
prof m $((PEAK - 1))
NAME="--mem-limit one under the peak fails with the Budget error"
ok one_line_error 11 "memory $PEAK of $((PEAK - 1)) ("
NAME="the failed run's Budget table shows the count that crossed the limit"
ok [ "$(budget_mem "$T/m")" = "$PEAK" ]
