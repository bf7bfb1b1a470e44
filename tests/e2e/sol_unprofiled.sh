#!/bin/sh
# End-to-end: a scenario of transactions where one says "profile": false.
# The cpi fixture (tests/fixtures/sbpf/cpi.c) invokes itself twice, 2969 CU
# as litesvm charges it (tests/solana/test_sol_tx.c); run three times in one
# scenario it loads once (scp_sol_progs) and costs the same each time, the
# unprofiled transaction gets its scenario.txt line and no folder, the
# profiled ones the same profile.  A "profile" that is not true or false is
# refused.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 5
ELF=$(cd "$B/tests/fixtures/sbpf" 2>/dev/null && pwd)/cpi.so
if [ ! -f "$ELF" ]; then
  echo "FAIL sol_unprofiled: $B/tests/fixtures/sbpf/cpi.so not built"; exit 0
fi
P=ScprofProgram111111111111111111111111111111
tx() { printf '{"label": "%s", %s"instructions": [{"program": "cpi", "data": "0202", "accounts": [{"pubkey": "%s"}]}]}' "$1" "$2" "$P"; }
scenario() {
  cat <<JSON
{"programs": [{"name": "cpi", "elf": "$ELF"}],
 "transactions": [$(tx one ""), $(tx two "\"profile\": $1, "), $(tx three "")]}
JSON
}
scenario false >"$T/s.json"
"$BIN" profile --scenario "$T/s.json" -o "$T/out" -q 2>"$T/err"; rc=$?
NAME="sol_unprofiled: every transaction 2969 CU (litesvm's, as test_sol_tx), the unprofiled one too"
[ "$rc" -eq 0 ] && [ "$(cat "$T/out/scenario.txt")" = "$(printf '01\tone\t2969\tok\n02\ttwo\t2969\tok\n03\tthree\t2969\tok')" ]; passed $?
NAME="sol_unprofiled: the profiled transactions get a folder, the unprofiled one does not"
[ -s "$T/out/01-one/profile.folded" ] && [ ! -e "$T/out/02-two" ] && [ -s "$T/out/03-three/result.txt" ]; passed $?
NAME="sol_unprofiled: the program loaded once gives the third transaction the first one's profile"
ok cmp -s "$T/out/01-one/profile.folded" "$T/out/03-three/profile.folded"
NAME="sol_unprofiled: the profile sums to the CU"
ok [ "$(awk '{s += $NF} END {print s + 0}' "$T/out/03-three/profile.folded")" = 2969 ]

scenario '"no"' >"$T/bad.json"
"$BIN" profile --scenario "$T/bad.json" -o "$T/bad" -q 2>"$T/err"; rc=$?
NAME="sol_unprofiled: a transaction's \"profile\" other than true or false: one line, exit 65"
ok one_line_error 65 "\"profile\" is true or false"
