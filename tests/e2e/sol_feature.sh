#!/bin/sh
# End-to-end: Solana feature gates (the table in src/solana/sol_feature.c).
# Each gate scprof models is turned from litesvm 1.5.0's state to the other
# with --feature or a scenario's "features", and the run must equal
# litesvm's with the same feature set (tests/oracle/run.js / tx.js rebuild
# litesvm's runtime from its default set with the change: independent
# evidence), CU pinned here as litesvm charged them:
#   deplete_cu_meter_on_vm_failure off: a fault keeps the CU it used (285,
#     not the whole 200,000);
#   remaining_compute_units_syscall_enabled on: sol_remaining_compute_units
#     answers (323 CU) instead of failing as an unsupported instruction;
#   get_sysvar_syscall_enabled off: sol_get_sysvar becomes unsupported;
#   raise_cpi_nesting_limit_to_8 on: CPIs nest 8 deep (depth 5 and 8 run,
#     9 is CallDepth), tests/fixtures/sbpf/cpi.c through a scenario.
#   increase_cpi_account_info_limit (SIMD-0339) and
#     provide_instruction_data_offset_in_vm_r2 (SIMD-0321) off: agave 4.3
#     no longer reads them (their conditional code left agave in pulls
#     11121 and 11423, before master became 4.3), so a CPI costs
#     invoke_units 946 + floor(34 x metas / 250) + floor(data / 250) +
#     floor(80 x infos / 250) + the callee accounts' data / 250 either way
#     and r2 holds the instruction data's address either way: the CU
#     difference is 0 for every input.  litesvm with the gate off agrees
#     (independent); every transaction of tests/oracle/cpi_cases.json (21,
#     CPIs of System and Token, nested, failing) gives byte-identical
#     result.txt with the gate on and off.
# Gates scprof does not model are refused with one line naming them.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
D=$(dirname "$0")/../oracle
. "$(dirname "$0")/lib/words.sh"
. "$(dirname "$0")/lib/sol.sh"
oracle_setup
G=$B/tests/fixtures/sbpf/gates.so
if [ ! -f "$G" ] || [ ! -f "$B/tests/fixtures/sbpf/cpi.so" ]; then
  echo "FAIL sol_feature: $G or cpi.so not built (make builds them)"
  exit 0
fi
[ $have_oracle -eq 1 ] || oracle_missing "sol_feature: the litesvm comparisons (litesvm 1.5.0 not installed in $ORACLE)"

DEPLETE=B7H2caeia4ZFcpE3QcgMqbiWiBtWrdBRBSJ1DY6Ktxbq
REMAINING=5TuppMutoyzhUSfuYdhgzD47F92GL1g89KpCZQKqedxP
GETSYSVAR=CLCoTADvV64PSrnR6QXty6Fwrt9Xc6EdxSJE4wLRePjq
NEST8=6TkHkRmP7JZy1fdM6fg5uXn76wChQBWGokHBJzrLB3mj
R2=5xXZc66h4UdB6Yq7FzdBxBiRAFMMScMLwHxk2QZDaNZL
SIMD0339=H6iVbVaDZgDphcPbcZwc5LoznMPWQfnJ1AM7L1xzqvt5

fcase() {
  name=$1 want=$2
  shift 2
  sol_case "sol_feature $name" "$want" "$G" "$G" "$@"
}

fcase fault_depletes 200000 --ix 0010
fcase fault_no_deplete 285 --ix 0010 --feature $DEPLETE=off
cp "$T/out/result.txt" "$T/by_id.txt"
"$BIN" profile "$G" --ix 0010 --feature deplete_cu_meter_on_vm_failure=off -o "$T/out" -q >/dev/null 2>&1
NAME="sol_feature a gate named by its name is the gate of its id"
ok cmp -s "$T/by_id.txt" "$T/out/result.txt"
fcase remaining_unregistered 200000 --ix 01
fcase remaining_registered 323 --ix 01 --feature $REMAINING=on
# 199,787 = 200,000 - 13 instructions - 100 (sol_log_64_) - 100 (the syscall)
NAME="sol_feature sol_remaining_compute_units answers the CU left after its own charge (199,787)"
ok grep -q "^log Program log: 0x30c6b, " "$T/out/result.txt"
fcase get_sysvar 339 --ix 02
cp "$T/out/result.txt" "$T/r2_on.txt"
fcase get_sysvar_unregistered 200000 --ix 02 --feature $GETSYSVAR=off
fcase remaining_no_deplete 323 --ix 01 --feature $REMAINING=on --feature $DEPLETE=off

# raise_cpi_nesting_limit_to_8 through a scenario's "features"
B_ABS=$(cd "$B" && pwd)
ORACLE_ABS=$(cd "$ORACLE" 2>/dev/null && pwd)
sed "s|@BUILD@|$B_ABS|g" "$D/feature_cases.json" >"$T/nest.json"
"$BIN" profile --scenario "$T/nest.json" -o "$T/nest" -q >/dev/null 2>"$T/err"
printf '01\tdepth_5\t7166\tok\n02\tdepth_8\t11363\tok\n03\tdepth_9\t9666\t0 CallDepth\n' >"$T/want.txt"
NAME="sol_feature nesting 8: CPIs 8 deep run, 9 deep is CallDepth (CU pinned)"
ok cmp -s "$T/nest/scenario.txt" "$T/want.txt"
sed 's/"6TkH[^"]*": true/"raise_cpi_nesting_limit_to_8": false/' "$T/nest.json" >"$T/nest5.json"
"$BIN" profile --scenario "$T/nest5.json" -o "$T/nest5" -q >/dev/null 2>"$T/err"
NAME="sol_feature nesting 5 (litesvm's): depth 5 is CallDepth"
ok grep -q "^01	depth_5	5370	0 CallDepth$" "$T/nest5/scenario.txt"
"$BIN" profile --scenario "$T/nest5.json" --feature raise_cpi_nesting_limit_to_8=on -o "$T/nest5" -q >/dev/null 2>"$T/err"
NAME="sol_feature --feature overrides a scenario's \"features\""
ok cmp -s "$T/nest5/scenario.txt" "$T/want.txt"
[ $have_oracle -eq 1 ] && sol_tx_oracle "sol_feature nesting 8 (the gate on in litesvm too):" "$T/nest.json" "$T/nest"

# gates agave 4.3 no longer reads: r2 the data's address with SIMD-0321 off
# (the first log line is r2), the same 339 CU
fcase r2_gate_off 339 --ix 02 --feature $R2=off
NAME="[litesvm] sol_feature SIMD-0321 off: r2 is still the instruction data's address, as litesvm's"
ok sh -c "grep -q '^log Program log: 0x400000' '$T/out/result.txt' && cmp -s '$T/out/result.txt' '$T/r2_on.txt'"
# SIMD-0339 off through a scenario's "features": every CPI case as litesvm
# with the gate off, and byte-identical to the run with it on
sed "s|@BUILD@|$B_ABS|g; s|@ORACLE@|$ORACLE_ABS|g" "$D/cpi_cases.json" >"$T/cpi_on.json"
python3 -c "
import json; d = json.load(open('$T/cpi_on.json'))
d['features'] = {'$SIMD0339': False}
json.dump(d, open('$T/cpi_off.json', 'w'), indent=1)"
"$BIN" profile --scenario "$T/cpi_on.json" -o "$T/cpi_on" -q >/dev/null 2>&1
"$BIN" profile --scenario "$T/cpi_off.json" -o "$T/cpi_off" -q >/dev/null 2>&1
n=0 same=0
for d in "$T"/cpi_on/*/; do
  n=$((n + 1))
  cmp -s "$d/result.txt" "$T/cpi_off/$(basename "$d")/result.txt" && same=$((same + 1))
done
NAME="[derived] sol_feature SIMD-0339 off: the $n CPI transactions charge and log as with it on ($same the same)"
ok [ "$n" -eq 21 -a "$same" -eq "$n" ]
[ $have_oracle -eq 1 ] && sol_tx_oracle "sol_feature SIMD-0339 off (litesvm with the gate off too):" "$T/cpi_off.json" "$T/cpi_off"

# refused: one line naming the gate
"$BIN" profile "$G" --feature mask_out_rent_epoch_in_vm_serialization=off -o "$T/bad" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_feature refuses a gate it cannot change, saying why"
ok one_line_error 3 "feature mask_out_rent_epoch_in_vm_serialization: not modelled: accounts carry no rent_epoch"
"$BIN" profile "$G" --feature enable_sha512_syscall=on -o "$T/bad" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_feature refuses a gate it does not know"
ok one_line_error 3 "feature enable_sha512_syscall: not a gate scprof models"
"$BIN" profile "$G" --feature deplete_cu_meter_on_vm_failure -o "$T/bad" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_feature refuses a spec without =on|off"
ok one_line_error 2 "want ID|NAME=on|off"
sed 's/"6TkH[^"]*": true/"raise_cpi_nesting_limit_to_8": "yes"/' "$T/nest.json" >"$T/bad.json"
"$BIN" profile --scenario "$T/bad.json" -o "$T/bad" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_feature refuses a \"features\" value that is not a bool, with its JSON path"
ok one_line_error 65 "bad.json: features.raise_cpi_nesting_limit_to_8: not true or false"

# the profiles above print Solana's words only (lib/words.sh)
for s in out nest nest5; do
  if [ -d "$T/$s" ]; then vocab "sol_feature $s: reports, JSON status, flamegraph words" "$T/$s" "$SOROBAN_WORDS" 1; fi
done
