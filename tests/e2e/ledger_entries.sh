#!/bin/sh
# End-to-end: the "Ledger entries" table, every entry a call read or wrote
# with its key as the contract names it, its sizes and TTLs, and its part
# of the fee.  tests/fixtures/wasm/ledger_keys.c writes keys of four
# shapes (DataKey::Admin, DataKey::Balance(user), a tuple, an instance key)
# through its spec; the scenario seeds Balance(user) with a TTL that the
# call extends.  A payment through the native asset contract shows the
# asset contract's entries.
# Evidence: [derived] the sizes and fees worked out below from the XDR
# layout and the mainnet settings scprof ships (src/soroban/fee/net.c,
# mainnet 2026-07-29); the columns' sums against the fee table; the JSON
# reader refusing a report whose column does not sum to its fee row.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 27
. "$(dirname "$0")/lib/ledger_keys.sh"
cp "$B/tests/fixtures/wasm/ledger_keys.wasm" "$T/"
ledger_keys_scenario "$T/keys.json"
"$BIN" profile --scenario "$T/keys.json" --network mainnet -o "$T/o" -q -f report,json 2>"$T/err"
rc=$?
R=$T/o/01-setup/report.txt
J=$T/o/01-setup/report.json
NAME="the scenario runs with a fee (exit $rc)"; ok [ "$rc" -eq 0 ]

# row NAME: the table's row of the entry NAME, without commas.
row() { awk -v n="$1" '/^Ledger entries$/ {on = 1; next} on && index($0, "  " n "  ") == 1 {gsub(",", ""); print; exit}' "$R"; }
# fields: size before, size after, live until before, live until after,
# rent ledgers, disk read entries, disk read bytes, write entries, write
# bytes, rent, TTL writes (the numbers of the row, in order).
nums() { row "$1" | tr -s ' ' '\n' | grep -E '^[0-9]+$' | tr '\n' ' ' | sed 's/ $//'; }

# Sizes (LedgerEntry XDR): 12 (last-modified ledger, ext, data arm) + 4
# (ContractDataEntry ext) + 36 (the contract's ScAddress) + key + 4
# (durability) + value.  Admin: key Vec[Symbol "Admin"] = 12 + 16 = 28,
# value an account Address = 44: 128.  Balance(USER): key 12 + 16 + 44 =
# 72, value u32 = 8: 136.  (7, lock): key 12 + 8 (u32) + 12 (Symbol
# "lock") = 32, value true = 8: 96.
# Rent (fees.rs rent_fee_per_entry_change; mainnet: 1,000 stroops per KB
# (the minimum: the state size is under the target), denominators 1,215
# persistent and 2,430 temporary, minimum TTLs 2,073,600 and 17,280):
#   Admin, new: lives until 1,000 + 2,073,600 - 1 = 2,074,599, paid from
#     ledger 999: 2,073,600 ledgers; ceil(128 x 1,000 x 2,073,600 /
#     (1,024 x 1,215)) = ceil(213,333.3) = 213,334
#   (7, lock), new temporary: until 18,279, 17,280 ledgers;
#     ceil(96 x 1,000 x 17,280 / (1,024 x 2,430)) = ceil(666.7) = 667
#   Balance, 136 bytes before and after, extended from 1,100 to 1,000 +
#     50,000 = 51,000: 49,900 ledgers; ceil(136 x 1,000 x 49,900 /
#     1,244,160) = ceil(5,454.6) = 5,455
#   instance, 104 -> 132 bytes (count added), TTL unchanged: the 28 new
#     bytes over its prepaid 2,074,599 - 1,000 + 1 = 2,073,600 ledgers:
#     ceil(28 x 1,000 x 2,073,600 / 1,244,160) = ceil(46,666.7) = 46,667
# Writes: 2,500 per entry written; 875 per KB of the 492 bytes written
# (96 + 128 + 136 + 132): ceil(492 x 875 / 1,024) = 421, split by size with
# the largest remainders: 82, 110, 116, 113.  TTL writes: 3 entries
# extended (lock, Admin, Balance): 3 x 2,500 + ceil(3 x 48 x 875 / 1,024)
# = 7,624, split 2,542, 2,541, 2,541.
NAME="[derived] Admin: 0 -> 128 bytes, until 2,074,599 (2,073,600 ledgers), write 2,500 + 110, rent 213,334, TTL 2,541"
ok [ "$(nums Admin)" = "0 128 0 2074599 2073600 0 0 2500 110 213334 2541" ]
NAME="[derived] Balance(USER): 136 -> 136 bytes, 1,100 -> 51,000 (49,900 ledgers), rent 5,455"
ok [ "$(nums "Balance($USER)")" = "136 136 1100 51000 49900 0 0 2500 116 5455 2541" ]
NAME="[derived] (7, lock): temporary, 0 -> 96 bytes, until 18,279 (17,280 ledgers), rent 667"
ok [ "$(nums "(7, lock)")" = "0 96 0 18279 17280 0 0 2500 82 667 2542" ]
NAME="[derived] instance: 104 -> 132 bytes, the size increase's rent 46,667, no TTL write"
ok [ "$(nums instance)" = "104 132 2074599 2074599 0 0 0 2500 113 46667 0" ]
NAME="code: read-only, 6,384 bytes, no fee"
ok [ "$(row code | grep -c ' code of ledger_keys.wasm read-only ') $(nums code)" = "1 6384 6384 2074599 2074599 0 0 0 0 0 0 0" ]
NAME="[derived] rent 213,334 + 5,455 + 667 + 46,667 = 266,123"
ok [ $((213334 + 5455 + 667 + 46667)) -eq 266123 ]

NAME="the keys read through the spec: kinds and owner in the entry column"
ok sh -c "row() { awk -v n=\"\$1\" '/^Ledger entries\$/ {on = 1; next} on && index(\$0, \"  \" n \"  \") == 1' '$R'; }
  row Admin | grep -q ' persistent data of ledger_keys.wasm, read-write ' &&
  row '(7, lock)' | grep -q ' temporary data of ledger_keys.wasm, read-write ' &&
  row instance | grep -q ' instance of ledger_keys.wasm, read-write '"
NAME="the rows name their call path"
ok sh -c "awk '/^Ledger entries\$/ {on = 1} on' '$R' | grep '^  Admin ' | grep -q 'setup (tests/fixtures/wasm/ledger_keys.c:[0-9]*) > host:put_contract_data\$'"

# Each fee column's total is its row of the fee table.
fee_row() { awk -v n="$1" 'index($0, "  " n " ") == 1 {gsub(",", "", $NF); print $NF; exit}' "$R"; }
total_of() {  # the Ledger entries table's total of fee column $1 (1 = disk read entries)
  awk -v c="$1" '/^Ledger entries$/ {on = 1; next} on && /^  total / {gsub(",", ""); n = NF - 6 + c; print $n; exit}' "$R"
}
for pair in "1 disk read entries" "2 disk read bytes" "3 write entries" "4 write bytes" "5 rent" "6 TTL writes"; do
  c=${pair%% *} name=${pair#* }
  NAME="the entries' $name sum to the fee table's ($(fee_row "$name"))"
  [ -n "$(fee_row "$name")" ] && [ "$(total_of "$c")" = "$(fee_row "$name")" ]; passed $?
done
NAME="[derived] the fee table: write entries 10,000, write bytes 421, rent 266,123, TTL writes 7,624"
ok [ "$(fee_row "write entries") $(fee_row "write bytes") $(fee_row rent) $(fee_row "TTL writes")" = "10000 421 266123 7624" ]

# One set of counts: the footprint line, the ledger entries line, the
# table's rows and the fee's write entries agree; the storage line says
# what it counts.
NAME="counts: 5 rows = 1 read-only + 4 read-write, as the footprint line says"
ok sh -c "grep -q '^  footprint  *1 read-only, 4 read-write (0 restored)\$' '$R' &&
  grep -q '^  ledger entries  *5 in the footprint (1 read-only, 4 read-write; with 1 instance, 1 code), 0 read from disk, 4 written, 3 TTLs extended' '$R' &&
  [ \$(awk '/^Ledger entries\$/ {on = 1; next} on && /read-write/' '$R' | wc -l) -eq 4 ] &&
  [ \$(awk '/^Ledger entries\$/ {on = 1; next} on && /read-only/' '$R' | wc -l) -eq 1 ] &&
  grep -q '^  write entries  *4 entries ' '$R'"
NAME="the storage line says it counts host calls, not entries"
ok grep -q "^  storage  *1 reads (80 bytes), 4 writes (268 bytes): host storage calls and their value bytes, not ledger entries$" "$R"

# JSON: the rows, their nodes, the nodes' links back, the columns' rows.
NAME="JSON: Admin's row with its note and node"
ok grep -q '{"name":"Admin","values":\[0,128,0,2074599,2073600,0,0,2500,110,213334,2541\],"note":"persistent data of ledger_keys.wasm, read-write","node":[0-9]*}' "$J"
NAME="JSON: the fee columns name their fee rows"
ok grep -q '{"name":"rent","metric":-1,"part":8},{"name":"TTL writes","metric":-1,"part":9}' "$J"
NAME="JSON: host:put_contract_data links to the three entries it wrote"
ok admin_writer_links "$J"
"$BIN" check "$J" --max-cpu 1000000 >"$T/out" 2>"$T/err"
rc=$?
NAME="the JSON reads back (its sums checked) (exit $rc)"; ok [ "$rc" -eq 0 ]
sed 's/"values":\[136,136,1100,51000,49900,0,0,2500,116,5455,2541\]/"values":[136,136,1100,51000,49900,0,0,2500,116,5456,2541]/' "$J" >"$T/bad.json"
"$BIN" check "$T/bad.json" --max-cpu 1000000 >"$T/out" 2>"$T/err"
rc=$?
NAME="a rent column off by one stroop is refused (exit $rc)"
ok sh -c "! cmp -s '$J' '$T/bad.json'" && one_line_error 65 "does not sum"
sed -E 's/"rows":\[\[([0-9]+),0\],\[([0-9]+),1\],\[([0-9]+),2\]\]/"rows":[[\1,0],[\2,1]]/' "$J" >"$T/bad2.json"
"$BIN" check "$T/bad2.json" --max-cpu 1000000 >"$T/out" 2>"$T/err"
rc=$?
NAME="a node that drops one of its entries is refused (exit $rc)"
ok sh -c "! cmp -s '$J' '$T/bad2.json'" && one_line_error 65 "bad node"

# An asset contract: paying 0 from a contract to a contract in XLM creates
# the recipient's Balance on the native asset contract.
NATIVE=CB56OQJZFJXSSKFK3MXJZ4TLJAJFWH6KXN6BAWHQSJDZPHZFVBJ353HU
ID=CC4CYWAN7VB5GRATMIDALG5FWMCOFPFAIGRCIXA4IC6ON2BBIB3JAPUY
"$BIN" profile "$B/examples/payer.wasm" pay "address:$NATIVE" "address:$ID" "address:$NATIVE" i128:0 \
  --asset native --network mainnet -o "$T/s" -q -f report 2>"$T/err"
rc=$?
NAME="asset contract: the payment runs (exit $rc)"; ok [ "$rc" -eq 0 ]
NAME="asset contract: the new balance entry, named by the SAC's key type"
ok grep -q "^  Balance($NATIVE)  *persistent data of SAC(native), read-write  *0  *224 " "$T/s/report.txt"
NAME="asset contract: its instance and the payer's nonce entry"
ok sh -c "grep -q '^  instance  *instance of SAC(native), read-only ' '$T/s/report.txt' &&
  grep -q '^  nonce [0-9]*  *temporary data of $ID, read-write ' '$T/s/report.txt'"
