#!/bin/sh
# End-to-end checks of the scprof command line: outputs, determinism,
# documented exit codes and one-line errors on bad input.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 63
DEMO=$B/examples/demo.wasm

check() {  # check NAME EXPECTED_STATUS CMD...
  name=$1 want=$2; shift 2
  "$@" >"$T/out" 2>"$T/err"
  got=$?
  if [ "$got" -eq "$want" ]; then echo "PASS $name"; else
    echo "FAIL $name: exit $got, want $want"; cat "$T/err"; fi
}

one_line_err() {  # the error is exactly one line naming what
  name=$1 pat=$2
  if [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "$pat" "$T/err"; then echo "PASS $name"; else
    echo "FAIL $name: stderr:"; cat "$T/err"; fi
}

check "demo runs" 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/a" -q
for f in flamegraph.svg profile.folded report.txt; do
  if [ -s "$T/a/$f" ]; then echo "PASS writes $f"; else echo "FAIL writes $f"; fi
done
grep -q "run (examples/demo.c:36)" "$T/a/flamegraph.svg" && echo "PASS svg names frames with file:line" || echo "FAIL svg names frames with file:line"
grep -q "host:compute_hash_sha256" "$T/a/flamegraph.svg" && echo "PASS svg has host frames" || echo "FAIL svg has host frames"
# folded counts add up to the Budget CPU printed in the report
NAME="folded sums to Budget CPU"; ok folded_is_cpu "$T/a"

check "demo again" 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/b" -q
for f in flamegraph.svg profile.folded report.txt; do
  cmp -s "$T/a/$f" "$T/b/$f" && echo "PASS deterministic $f" || echo "FAIL deterministic $f"
done

check "prints report" 0 "$BIN" profile "$DEMO" run u32:10 -o "$T/c"
grep -q "^Budget" "$T/out" && echo "PASS report on stdout" || echo "FAIL report on stdout"

check "help" 0 "$BIN" --help
check "version" 0 "$BIN" --version
check "no arguments" 2 "$BIN"
check "unknown command" 2 "$BIN" frobnicate
one_line_err "unknown command message" "unknown command"
check "missing function" 2 "$BIN" profile "$DEMO"
check "missing file" 74 "$BIN" profile "$T/nope.wasm" run -o "$T/x"
one_line_err "missing file names it" "nope.wasm"
head -c 100 "$DEMO" >"$T/trunc.wasm"
check "truncated wasm" 65 "$BIN" profile "$T/trunc.wasm" run -o "$T/x"
one_line_err "truncated wasm names file" "trunc.wasm"
printf 'not wasm at all' >"$T/junk.wasm"
check "not wasm" 65 "$BIN" profile "$T/junk.wasm" run -o "$T/x"
one_line_err "not wasm message" "magic header"
check "unknown function" 4 "$BIN" profile "$DEMO" nope u32:1 -o "$T/x"
one_line_err "unknown function message" "no exported function 'nope'"
check "bad argument" 3 "$BIN" profile "$DEMO" run u32:banana -o "$T/x"
one_line_err "bad argument message" "banana"
check "wrong arity" 3 "$BIN" profile "$DEMO" run -o "$T/x"
check "trap exit" 10 "$BIN" profile "$DEMO" run u32:9999 -o "$T/t" -q
one_line_err "trap message" "integer divide by zero"
[ -s "$T/t/flamegraph.svg" ] && echo "PASS partial profile after trap" || echo "FAIL partial profile after trap"
check "budget exit" 11 "$BIN" profile "$DEMO" run u32:200 --cpu-limit 400000 -o "$T/u" -q
one_line_err "budget message" "ExceededLimit"
# an error about a 600-byte path is shortened in the middle: the start of
# the path and the reason both survive the 511-byte message
long=$T/$(printf '%0200d' 0)/$(printf '%0200d' 1)/$(printf '%0200d' 2).wasm
check "long missing path" 74 "$BIN" profile "$long" run
one_line_err "long path keeps the reason" "^scprof: $T/0000.*\.\.\..*02\.wasm: cannot open: No such file or directory$"
check "--cpu-limit 0 is refused" 2 "$BIN" profile "$DEMO" run u32:200 --cpu-limit 0 -o "$T/z" -q
one_line_err "--cpu-limit 0 message" "cpu-limit: 0 is not a limit"
check "--mem-limit 0 is refused" 2 "$BIN" profile "$DEMO" run u32:200 --mem-limit 0 -o "$T/z" -q
one_line_err "--mem-limit 0 message" "mem-limit: 0 is not a limit"
[ -s "$T/u/report.txt" ] && echo "PASS partial profile after budget" || echo "FAIL partial profile after budget"
# code the Soroban host refuses at upload is not profiled
check "start section refused" 67 "$BIN" profile "$B/tests/fixtures/wat/start.wasm" f u32:1 -o "$T/x"
one_line_err "start section message" "unsupported wasm section type"
check "33 parameters refused" 67 "$BIN" profile "$B/tests/fixtures/wat/many_args.wasm" f u32:1 -o "$T/x"
one_line_err "33 parameters message" "Too many arguments"
# a host function newer than the ledger's protocol: refused before the run
check "newer host function refused" 67 "$BIN" profile "$B/tests/fixtures/wasm/proto_gate.wasm" len str:abc --protocol 22 -o "$T/x" -q
one_line_err "newer host function message" "proto_gate.wasm: calls host function string_to_bytes, not yet supported by protocol 22"
check "same contract, protocol 23" 0 "$BIN" profile "$B/tests/fixtures/wasm/proto_gate.wasm" len str:abc --protocol 23 -o "$T/x" -q
# fallback names are marked as such
check "no DWARF profiles" 0 "$BIN" profile "$B/tests/fixtures/wasm/demo_nodebug.wasm" run u32:20 -o "$T/n"
grep -q "run \[name section\]" "$T/out" && echo "PASS name-section names marked" || echo "FAIL name-section names marked"
check "no symbols profiles" 0 "$BIN" profile "$B/tests/fixtures/wasm/demo_stripped.wasm" run u32:20 -o "$T/s"
grep -q "func\[.*\] \[no symbols\]" "$T/out" && echo "PASS raw names marked" || echo "FAIL raw names marked"
cmp -s "$T/n/report.json" "$T/s/report.json" && echo "FAIL fallbacks differ" || echo "PASS fallbacks differ"
# --source G...: the transaction's source account.  counter's increment
# authorizes its user: as the source account the require_auth writes no
# nonce (host:require_auth 1,701 CPU instead of 7,781) and the tracker is
# not emulated; otherwise the emulated signature check has its own
# auth:emulate frame (35,310 CPU: the account has no ledger entry, so it
# stops at load_account, as the reference does).
Z=GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF
COUNTER=$B/examples/counter.wasm
check "increment, no source account" 0 "$BIN" profile "$COUNTER" increment "addr:$Z" u32:1 -o "$T/s0" -q -f report,folded
grep -q "^contract:counter.wasm;auth:emulate 35310$" "$T/s0/profile.folded" && echo "PASS auth:emulate frame under the root" || echo "FAIL auth:emulate frame under the root"
grep -q "^  CPU *219,053 " "$T/s0/report.txt" && echo "PASS increment 219,053 CPU" || echo "FAIL increment 219,053 CPU"
check "increment, --source the user" 0 "$BIN" profile "$COUNTER" increment "addr:$Z" u32:1 --source "$Z" -o "$T/s1" -q -f report,folded
grep -q "auth:emulate" "$T/s1/profile.folded" && echo "FAIL source account not emulated" || echo "PASS source account not emulated"
grep -q ";host:require_auth 1701$" "$T/s1/profile.folded" && echo "PASS source account's require_auth writes no nonce" || echo "FAIL source account's require_auth writes no nonce"
grep -q "^  CPU *177,071 " "$T/s1/report.txt" && echo "PASS increment as source 177,071 CPU" || echo "FAIL increment as source 177,071 CPU"
check "--source a contract refused" 3 "$BIN" profile "$COUNTER" increment "addr:$Z" u32:1 --source CADQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQP5KR -o "$T/x" -q
one_line_err "--source message" "not an account strkey"
exit 0
