#!/bin/sh
# End-to-end: the numbers README.md's Solana tour states are the ones its
# commands print (docs_commands.sh only runs them).  The CU of the counter
# at --ix 32 (527) and of the cpi fixture's pda_transfer (2,847) are also
# compared with litesvm by oracle.sh (fixture_counter_50) and sol_tx.sh
# (tests/oracle/cpi_expected.txt); here they pin the README's text.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 4
README=$(dirname "$0")/../../README.md

if [ ! -f "$B/tests/fixtures/sbpf/counter.so" ] || [ ! -f "$B/tests/fixtures/sbpf/cpi.so" ]; then
  echo "FAIL readme_sol: the sBPF fixtures are not built (make builds them)"; exit 0
fi
# the tour's cpi.json, as README.md writes it, with the build's path
awk '/^```json file=cpi.json/ {on = 1; next} /^```/ {on = 0} on' "$README" |
  sed "s|\"build/|\"$(cd "$B" && pwd)/|" >"$T/cpi.json"

"$BIN" profile "$B/tests/fixtures/sbpf/counter.so" --ix 32 -o "$T/sol" >"$T/out" 2>&1
NAME="[pin] README Solana tour 1: 527 CU; mix_squares 255 self, square 150, sol_log_64_ 100"
ok sh -c "grep -q '^  CU           527  200,000       0.26%  compute units\$' '$T/out' &&
          grep -q '^      255  48.39%      1  mix_squares (tests/fixtures/sbpf/counter.c:10)\$' '$T/out' &&
          grep -q '^      150  28.46%      -  square (tests/fixtures/sbpf/counter.c:8)\$' '$T/out' &&
          grep -q '^      100  18.98%      1  syscall:sol_log_64_\$' '$T/out' &&
          grep -q 'consumed 527 of 200000 compute units' '$README' && grep -q '  CU           527  200,000' '$README'"

"$BIN" annotate "$T/sol/report.json" tests/fixtures/sbpf/counter.c >"$T/ann" 2>&1
NAME="[pin] README Solana tour 3: the loop's line 12 costs 201 CU, the inlined square's line 8 150"
ok sh -c "grep -qE '^ +201 +38.14% +12 ' '$T/ann' && grep -qE '^ +150 +28.46% +8 ' '$T/ann' &&
          grep -q 'Line 12, the loop, costs 201 CU, and line 8, the inlined .square., 150' '$README'"

"$BIN" profile "$B/tests/fixtures/sbpf/counter.so" --ix c9 -o "$T/err" -q >/dev/null 2>&1; rc=$?
NAME="README Solana tour 1: the failed instruction's status and error lines"
ok sh -c "[ $rc -eq 10 ] && grep -q '^  status  *failed: custom program error: 0x7\$' '$T/err/report.txt' &&
          grep -q '^  error  *instruction failed: Custom(7)\$' '$T/err/report.txt'"

"$BIN" profile --scenario "$T/cpi.json" -o "$T/cpi" -q >/dev/null 2>&1
F=$T/cpi/01-pda_transfer/profile.folded
NAME="[pin] README Solana tour 4: pda_transfer 2,847 CU, the invoke's own 946, System's 150"
ok sh -c "printf '01\tpda_transfer\t2847\tok\n' | cmp -s - '$T/cpi/scenario.txt' &&
          grep -q 'transfer (tests/fixtures/sbpf/cpi.c:65);syscall:sol_invoke_signed_c 946\$' '$F' &&
          grep -q 'transfer (tests/fixtures/sbpf/cpi.c:65);syscall:sol_invoke_signed_c;program:system Transfer 150\$' '$F' &&
          grep -q '^  program:cpi ix 0x0140420f00000000            1    2,697     2,847\$' '$T/cpi/01-pda_transfer/report.txt' &&
          grep -q '2,847 CU, as litesvm' '$README' && grep -q 'sol_invoke_signed_c 946\$' '$README'"
exit 0
