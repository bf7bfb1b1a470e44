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
# Gates scprof does not model are refused with one line naming them.
set -u
BIN=${SCPROF:-build/bin/scprof}
B=${SCP_BUILD:-build}
D=$(dirname "$0")/../oracle
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib/check.sh"
. "$(dirname "$0")/lib/words.sh"
. "$(dirname "$0")/lib/sol.sh"
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
export SCP_ORACLE_DIR="$ORACLE"
G=$B/tests/fixtures/sbpf/gates.so
if [ ! -f "$G" ] || [ ! -f "$B/tests/fixtures/sbpf/cpi.so" ]; then
  echo "FAIL sol_feature: $G or cpi.so not built (make builds them)"
  exit 0
fi
have_oracle=0
command -v node >/dev/null 2>&1 && [ -f "$ORACLE/node_modules/litesvm/package.json" ] && have_oracle=1
[ $have_oracle -eq 1 ] || oracle_missing "sol_feature: the litesvm comparisons (litesvm 1.5.0 not installed in $ORACLE)"

DEPLETE=B7H2caeia4ZFcpE3QcgMqbiWiBtWrdBRBSJ1DY6Ktxbq
REMAINING=5TuppMutoyzhUSfuYdhgzD47F92GL1g89KpCZQKqedxP
GETSYSVAR=CLCoTADvV64PSrnR6QXty6Fwrt9Xc6EdxSJE4wLRePjq
NEST8=6TkHkRmP7JZy1fdM6fg5uXn76wChQBWGokHBJzrLB3mj

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
fcase get_sysvar_unregistered 200000 --ix 02 --feature $GETSYSVAR=off
fcase remaining_no_deplete 323 --ix 01 --feature $REMAINING=on --feature $DEPLETE=off

# raise_cpi_nesting_limit_to_8 through a scenario's "features"
B_ABS=$(cd "$B" && pwd)
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

# refused: one line naming the gate
"$BIN" profile "$G" --feature provide_instruction_data_offset_in_vm_r2=off -o "$T/bad" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_feature refuses a gate agave 4.3 no longer reads, saying why"
ok one_line_error 3 "feature provide_instruction_data_offset_in_vm_r2: not modelled: SIMD-0321"
"$BIN" profile "$G" --feature H6iVbVaDZgDphcPbcZwc5LoznMPWQfnJ1AM7L1xzqvt5=off -o "$T/bad" -q >/dev/null 2>"$T/err"
rc=$?
NAME="sol_feature refuses SIMD-0339 off by id, naming it"
ok one_line_error 3 "feature increase_cpi_account_info_limit: not modelled"
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
