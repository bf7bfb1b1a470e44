# tests/e2e/lib/ledger_keys.sh — the scenario ledger_entries.sh and
# ledger_entries_nonet.sh share: one call of ledger_keys.wasm's setup
# (tests/fixtures/wasm/ledger_keys.c) at ledger 1,000, protocol 23, with
# Balance(USER) seeded to live until 1,100 (the call extends it).
ADMIN=GAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYPSABOV
USER=GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H

# ledger_keys_scenario FILE: the scenario into FILE (ledger_keys.wasm
# beside it).  Balance(USER)'s key: ScVal Vec[Symbol("Balance"),
# Address(account USER)].
ledger_keys_scenario() {
  cat >"$1" <<JSON
{
  "ledger": {"protocol": 23, "sequence": 1000},
  "contracts": [{"name": "keys", "wasm": "ledger_keys.wasm"}],
  "storage": [
    {"key": {"xdr": "AAAAEAAAAAEAAAACAAAADwAAAAdCYWxhbmNlAAAAABIAAAAAAAAAAGL8HQvQkbK2HA3WVjRrKmjX00fG8sLI7m0ERwJW/AX3"},
     "value": "u32:1", "durability": "persistent", "live_until": 1100}
  ],
  "calls": [{"function": "setup", "args": ["addr:$ADMIN", "addr:$USER", "u32:5"]}]
}
JSON
}

# In report.json $1, the node of Admin's row (host:put_contract_data) links
# back to the first three rows of one table: the three entries it wrote.
admin_writer_links() {
  node=$(grep -o '{"name":"Admin","values":[^}]*"node":[0-9]*' "$1" | sed 's/.*"node"://')
  grep -Eq "^\{\"id\":$node,.*\"rows\":\[\[([0-9]+),0\],\[\1,1\],\[\1,2\]\]\}" "$1"
}
