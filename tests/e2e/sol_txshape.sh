#!/bin/sh
# End-to-end: a Solana transaction (a scenario's "transactions", --tx)
# honours --max-nodes and --fold-recursion as one instruction does, the
# budget and the folding applying to each program invocation's call tree
# (the transaction's "instruction #k" and program nodes outside it).
#
# Fixtures: counter.so (ix 0x32: entrypoint -> mix_squares -> square, a
# log syscall) run twice in one transaction, and traps.so (ix 0x02:
# recurse() calls itself until the call depth runs out) in another; a
# hand-made legacy wire transaction calling counter.so for --tx.
# With --max-nodes 2: exit as without it, the warning on stderr, the
# report's "call tree" line, [truncated] frames under each instruction's
# program node, the transaction's CU those of the unbounded run and the
# folded stacks adding up to them.  With --fold-recursion: no recurse
# frame below recurse, the CU unchanged, the report says so.  These are
# internal consistency checks (bounded against unbounded runs of the same
# build, no number pinned); sol_tx.sh holds ATA's create under
# --max-nodes 2 to litesvm's CU.
# What the budget merged is said once per transaction, not once per
# program invocation: one warning and one "call tree" line for "two"'s
# two invocations of counter, its programs and [truncated] frames as the
# folded stacks show them, its calls twice those of one counter
# instruction profiled alone (the run's own count of one invocation).
set -u
. "$(dirname "$0")/lib/check.sh"
. "$(dirname "$0")/lib/sol.sh"
e2e_setup 25
SB=$(cd "$B/tests/fixtures/sbpf" 2>/dev/null && pwd)
CTR=$SB/counter.so
TRP=$SB/traps.so
for f in "$CTR" "$TRP"; do
  [ -f "$f" ] || { echo "FAIL sol_txshape: $f not built"; exit 0; }
done
P=ScprofProgram111111111111111111111111111111
PAYER=FeePayer11111111111111111111111111111111111
PAY="$PAYER:1000000000:11111111111111111111111111111111:"

printf '{"programs": [{"name": "counter", "elf": "%s", "id": "Counter111111111111111111111111111111111111"},
  {"name": "traps", "elf": "%s", "id": "Traps11111111111111111111111111111111111111"}],
 "transactions": [{"label": "two", "instructions": [{"program": "counter", "data": "32"}, {"program": "counter", "data": "32"}]},
                  {"label": "rec", "instructions": [{"program": "traps", "data": "02"}]}]}\n' "$CTR" "$TRP" >"$T/tx.json"

# the folded stacks of $1 add up to $2
folded_is() { [ -n "$2" ] && [ "$(awk '{s += $NF} END {print s}' "$1/profile.folded")" = "$2" ]; }
# the CU scenario.txt of folder $1 gives transaction $2
cu_of() { awk -F '\t' -v l="$2" '$2 == l {print $3}' "$1/scenario.txt"; }

for o in plain max fold; do
  case $o in plain) a="" ;; max) a="--max-nodes 2" ;; fold) a="--fold-recursion" ;; esac
  # shellcheck disable=SC2086
  "$BIN" profile --scenario "$T/tx.json" -q -f report,folded $a -o "$T/$o" >/dev/null 2>"$T/err.$o"
  echo $? >"$T/rc.$o"
done

# exit 10: transaction rec fails (the call depth), with or without the options
NAME="sol_txshape scenario: same exit status with and without --max-nodes/--fold-recursion ($(cat "$T/rc.plain"))"
ok sh -c "[ $(cat "$T/rc.plain") -eq 10 ] && [ $(cat "$T/rc.max") -eq 10 ] && [ $(cat "$T/rc.fold") -eq 10 ]"
NAME="sol_txshape scenario: no warning without the options"; ok sh -c "! grep -q warning '$T/err.plain'"
NAME="sol_txshape scenario: no [truncated] frame without the options"
ok sh -c "! grep -q 'truncated' '$T/plain/01-two/profile.folded' '$T/plain/02-rec/profile.folded'"
NAME="sol_txshape scenario: scenario.txt (CU, outcomes) the same under --max-nodes 2"
ok same_bytes "$T/plain/scenario.txt" "$T/max/scenario.txt"
NAME="sol_txshape scenario: scenario.txt the same under --fold-recursion"
ok same_bytes "$T/plain/scenario.txt" "$T/fold/scenario.txt"

two=$(cu_of "$T/plain" two) rec=$(cu_of "$T/plain" rec)
NAME="sol_txshape --max-nodes 2: warned, naming the scenario and the transaction"
ok grep -q "^scprof: warning: $T/tx.json: transaction 1: node budget of 2 reached" "$T/err.max"
NAME="sol_txshape --max-nodes 2: the report's call tree line"
ok grep -q "^  call tree  *node budget of 2 reached" "$T/max/01-two/report.txt"
NAME="sol_txshape --max-nodes 2: [truncated] under each instruction's program node"
ok sh -c "grep -q '^transaction;instruction #1;program:counter ix 0x32;\[truncated\];' '$T/max/01-two/profile.folded' &&
          grep -q '^transaction;instruction #2;program:counter ix 0x32;\[truncated\];' '$T/max/01-two/profile.folded'"
NAME="sol_txshape --max-nodes 2: folded stacks add up to the transaction's $two CU"; ok folded_is "$T/max/01-two" "$two"
NAME="sol_txshape --max-nodes 2: the failing transaction's folded stacks add up to its $rec CU"
ok folded_is "$T/max/02-rec" "$rec"
NAME="sol_txshape unbounded: folded stacks add up to the CU"; ok folded_is "$T/plain/01-two" "$two"

# one line per transaction: two and rec each cut, so two warnings
NAME="sol_txshape --max-nodes 2: one warning per transaction, not one per invocation"
ok sh -c "[ \$(grep -c '^scprof: warning: ' '$T/err.max') -eq 2 ] && [ \$(grep -c '^  call tree ' '$T/max/01-two/report.txt') -eq 1 ]"
said=$(note_programs "$T/max/01-two/report.txt") seen=$(trunc_programs "$T/max/01-two/profile.folded")
NAME="sol_txshape --max-nodes 2: two's call tree line names counter's 2 invocations, as its stacks do ($seen)"
ok sh -c "grep -q '^scprof: warning: .*reached in 2 program invocations (counter 2): ' '$T/err.max' &&
          [ '$said' = 'counter 2' ] && [ '$said' = '$seen' ]"
NAME="sol_txshape --max-nodes 2: two's [truncated] frames said as its stacks go through them (2)"
ok grep -q "merged into $(trunc_frames "$T/max/01-two/profile.folded") \[truncated\] frames" "$T/max/01-two/report.txt"
"$BIN" profile -q --max-nodes 2 -o "$T/one" "$CTR" --ix 32 >/dev/null 2>&1
# N calls of one counter instruction's note, doubled
calls_one=$(sed -n 's/^  call tree .* reached: \([0-9]*\) calls .*/\1/p' "$T/one/report.txt")
NAME="sol_txshape --max-nodes 2: two's calls twice those of one counter instruction ($calls_one)"
ok grep -q "^  call tree .*: $((${calls_one:-0} * 2)) calls on paths past it" "$T/max/01-two/report.txt"

NAME="sol_txshape unbounded: recurse below recurse"
ok grep -q 'recurse ([^)]*);recurse ' "$T/plain/02-rec/profile.folded"
NAME="sol_txshape --fold-recursion: no recurse below recurse"
ok sh -c "grep -q 'recurse ' '$T/fold/02-rec/profile.folded' && ! grep -q 'recurse ([^)]*);recurse ' '$T/fold/02-rec/profile.folded'"
NAME="sol_txshape --fold-recursion: folded stacks add up to the $rec CU"; ok folded_is "$T/fold/02-rec" "$rec"
NAME="sol_txshape --fold-recursion: said in the report, nothing on stderr but the failure"
ok sh -c "grep -q '^  recursion  *folded' '$T/fold/02-rec/report.txt' && ! grep -q warning '$T/err.fold'"

# --tx: a legacy transaction, the fee payer and counter.so at P, calling it with 0x32
python3 -c "
A='123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
def key(s):
    n=0
    for c in s: n=n*58+A.index(c)
    return n.to_bytes(32,'big')
open('$T/tx.bin','wb').write(bytes([1])+bytes(64)+bytes([1,0,1,2])+key('$PAYER')+key('$P')+bytes([7])*32+bytes([1,1,0,1,0x32]))
"
"$BIN" profile --tx "$T/tx.bin" "$CTR" --program-id "$P" --account "$PAY" -q -f report,folded -o "$T/w0" >/dev/null 2>"$T/err"
rc0=$?
"$BIN" profile --tx "$T/tx.bin" "$CTR" --program-id "$P" --account "$PAY" -q -f report,folded --max-nodes 2 \
  -o "$T/w1" >/dev/null 2>"$T/err"; rc=$?
wcu=$(awk '$1 == "cu" {print $2}' "$T/w0/result.txt")
NAME="sol_txshape --tx --max-nodes 2: exit 0 as without it ($rc0, $rc)"; ok [ "$rc0" -eq 0 -a "$rc" -eq 0 ]
NAME="sol_txshape --tx --max-nodes 2: warned, naming the file"; ok grep -q "^scprof: warning: $T/tx.bin: node budget of 2 reached" "$T/err"
NAME="sol_txshape --tx --max-nodes 2: result.txt (CU, logs, fee, accounts) unchanged"; ok same_bytes "$T/w0/result.txt" "$T/w1/result.txt"
NAME="sol_txshape --tx --max-nodes 2: [truncated] under the program node, none without it"
ok sh -c "grep -q ';program:counter ix 0x32;\[truncated\];' '$T/w1/profile.folded' && ! grep -q truncated '$T/w0/profile.folded'"
NAME="sol_txshape --tx --max-nodes 2: folded stacks add up to the $wcu CU"; ok folded_is "$T/w1" "$wcu"
"$BIN" profile --tx "$T/tx.bin" "$CTR" --program-id "$P" --account "$PAY" -q -f report,folded --fold-recursion \
  -o "$T/w2" >/dev/null 2>"$T/err"; rc=$?
NAME="sol_txshape --tx --fold-recursion: exit 0, nothing on stderr, result.txt unchanged, said in the report"
ok sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && cmp -s '$T/w0/result.txt' '$T/w2/result.txt' &&
          grep -q '^  recursion  *folded' '$T/w2/report.txt'"
