#!/bin/sh
# End-to-end: the "Ledger entries" table without --network: the same
# entries, keys, sizes, TTLs and call paths as with a network, no fee
# columns, and a footnote saying how to get them.  The scenario is
# ledger_entries.sh's (ledger_keys.c: keys of four shapes, a seeded
# Balance(user) the call extends); the run with a network is given a
# settings file whose TTL settings are the host's defaults (what a run
# without a network uses), so that every TTL column can be compared.
# Evidence: [derived] the sizes (ledger_entries.sh works them out from the
# XDR layout) and the TTLs worked out below from the host's default TTL
# settings; row by row against the table of the run with a network.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 25
. "$(dirname "$0")/lib/ledger_keys.sh"
cp "$B/tests/fixtures/wasm/ledger_keys.wasm" "$T/"
ledger_keys_scenario "$T/keys.json"
# the TTL settings scprof's host uses without a network
# (src/soroban/core/host.c): minimum TTLs 4,096 persistent, 16 temporary
cat >"$T/ttl.json" <<'JSON'
{"updated_entry": [{"state_archival": {"max_entry_ttl": 3110400, "min_temporary_ttl": 16,
                                       "min_persistent_ttl": 4096}}]}
JSON
"$BIN" profile --scenario "$T/keys.json" -o "$T/o" -q -f report,json 2>"$T/err"; rc=$?
NAME="without --network the scenario runs (exit $rc)"; ok [ "$rc" -eq 0 ]
"$BIN" profile --scenario "$T/keys.json" --network-config "$T/ttl.json" -o "$T/n" -q -f report,json 2>"$T/err"; rc=$?
NAME="with the default TTLs as a network's settings it runs (exit $rc)"; ok [ "$rc" -eq 0 ]
R=$T/o/01-setup/report.txt
J=$T/o/01-setup/report.json
RN=$T/n/01-setup/report.txt

# rows FILE: the table's rows (up to its total, footnote or end), one a line
rows() { awk '/^Ledger entries$/ {on = 1; getline; next} on && (/^  total/ || /^  \(fees:/ || /^$/) {exit} on' "$1"; }
# table FILE: the table from its header to its end
table() { awk '/^Ledger entries$/ {on = 1; next} on && /^$/ {exit} on' "$1"; }
# names FILE: the rows' entry names, in order
names() { rows "$1" | sed -E 's/^  //; s/  +.*//'; }
# first5 FILE NAME: the row's first five numbers (sizes, TTLs, rent ledgers)
first5() {
  rows "$1" | awk -v n="$2" 'index($0, "  " n "  ") == 1 {gsub(",", ""); print; exit}' |
    tr -s ' ' '\n' | grep -E '^[0-9]+$' | head -5 | tr '\n' ' ' | sed 's/ $//'
}
# same5 NAME: the row's first five numbers are the network run's (and are there)
same5() { [ -n "$(first5 "$RN" "$1")" ] && [ "$(first5 "$R" "$1")" = "$(first5 "$RN" "$1")" ]; }
# notes_paths FILE: each row's text without its numbers (name, entry, path)
notes_paths() { rows "$1" | sed -E 's/  +[0-9,]+//g'; }

NAME="the table is there, 5 rows"
ok [ "$(rows "$R" | wc -l)" -eq 5 ]
NAME="the same entries in the same (footprint) order, named alike"
ok sh -c "[ '$(names "$RN" | wc -l)' -eq 5 ] && [ '$(names "$R" | tr '\n' '|')' = '$(names "$RN" | tr '\n' '|')' ]"
NAME="the same entry notes and call paths, row by row"
ok [ "$(notes_paths "$R" | sed -E 's/ +$//')" = "$(notes_paths "$RN" | sed -E 's/ +$//')" ]
for n in "(7, lock)" Admin "Balance($USER)" instance code; do
  NAME="row $n: sizes, TTLs and rent ledgers equal the network run's ($(first5 "$RN" "$n"))"
  ok same5 "$n"
done
# New entries live until 1,000 + minimum TTL - 1 and pay from ledger 999;
# the deploy gave the instance and code the persistent minimum too.
NAME="[derived] Admin: 0 -> 128 bytes, new, until 1,000 + 4,096 - 1 = 5,095 (4,096 ledgers)"
ok [ "$(first5 "$R" Admin)" = "0 128 0 5095 4096" ]
NAME="[derived] (7, lock): temporary, 0 -> 96 bytes, until 1,000 + 16 - 1 = 1,015 (16 ledgers)"
ok [ "$(first5 "$R" "(7, lock)")" = "0 96 0 1015 16" ]
NAME="[derived] Balance(USER): 136 bytes, extended 1,100 -> 1,000 + 50,000 = 51,000 (49,900 ledgers)"
ok [ "$(first5 "$R" "Balance($USER)")" = "136 136 1100 51000 49900" ]
NAME="[derived] instance: 104 -> 132 bytes (the count added), TTL 5,095 unchanged"
ok [ "$(first5 "$R" instance)" = "104 132 5095 5095 0" ]
NAME="code: 6,384 bytes (the Wasm's ContractCodeEntry), read-only, TTL 5,095"
ok [ "$(first5 "$R" code)" = "6384 6384 5095 5095 0" ]

NAME="no fee columns: the header ends with rent ledgers and the call path"
ok sh -c "awk '/^Ledger entries\$/ {getline; print; exit}' '$R' | grep -qE 'live until after +rent ledgers +call path\$'"
NAME="no fee column anywhere in the table (the network run has them)"
ok sh -c "! awk '/^Ledger entries\$/ {getline; print; exit}' '$R' | grep -qE 'disk read|write (entries|bytes)|TTL writes| rent  ' &&
          awk '/^Ledger entries\$/ {getline; print; exit}' '$RN' | grep -q 'TTL writes'"
NAME="one line under the table says how to get the fees, and no total line (nothing to sum)"
ok sh -c "[ \"\$(table() { awk '/^Ledger entries\$/ {on = 1; next} on && /^\$/ {exit} on' \"\$1\"; }; table '$R' | tail -1)\" = '  (fees: give --network NAME)' ] &&
          [ \$(awk '/^Ledger entries\$/ {on = 1; next} on && /^\$/ {exit} on' '$R' | wc -l) -eq 7 ] &&
          ! awk '/^Ledger entries\$/ {on = 1; next} on && /^\$/ {exit} on' '$R' | grep -q '^  total'"
NAME="the counts line names the footprint's counts"
ok grep -q "^  ledger entries  *5 in the footprint (1 read-only, 4 read-write; with 1 instance, 1 code), 0 read from disk, 4 written, 3 TTLs extended (the footprint's counts; the storage line counts host calls)$" "$R"

NAME="JSON: five columns, none tied to a fee row, and the footnote"
ok grep -q '"columns":\[{"name":"size before","metric":-1},{"name":"size after","metric":-1},{"name":"live until before","metric":-1},{"name":"live until after","metric":-1},{"name":"rent ledgers","metric":-1}\],"rows"' "$J"
NAME="JSON: the footnote"
ok grep -q '"footnote":"fees: give --network NAME"' "$J"
NAME="JSON: Admin's row with its note and node"
ok grep -q '{"name":"Admin","values":\[0,128,0,5095,4096\],"note":"persistent data of ledger_keys.wasm, read-write","node":[0-9]*}' "$J"
NAME="JSON: host:put_contract_data links to the three entries it wrote"
ok admin_writer_links "$J"
"$BIN" check "$J" --max-cpu 1000000 >"$T/out" 2>"$T/err"; rc=$?
NAME="the JSON reads back (exit $rc)"; ok [ "$rc" -eq 0 ]

# A lone call (no scenario) has the table too: the contract's instance
# and code.
"$BIN" profile "$B/examples/demo.wasm" run u32:3 -o "$T/d" -q 2>"$T/err"; rc=$?
NAME="a lone call without --network lists its instance and code (exit $rc)"
ok sh -c "[ $rc -eq 0 ] && [ \"\$(awk '/^Ledger entries\$/ {on = 1; getline; next} on && /^  \\(fees:/ {exit} on' '$T/d/report.txt' | sed -E 's/^  //; s/  +.*//' | tr '\n' ' ')\" = 'instance code ' ]"
