# tests/e2e/lib/kv_scenario.sh — the sdk-test scenario of the kv_store
# fixture (tests/fixtures/wasm/kv_store.c) that sdk_context.sh pins and
# sdk_constructor.sh compares with its goldens: put, get, del, get of one
# key, the contract named "kv" from kv.wasm beside the scenario file.

# kv_scenario FILE: writes the scenario to FILE
kv_scenario() {
  cat >"$1" <<'J'
{"context": "sdk-test",
 "contracts": [{"name": "kv", "wasm": "kv.wasm"}],
 "calls": [
  {"contract": "kv", "function": "put", "args": ["sym:k1", "sym:v1"]},
  {"contract": "kv", "function": "get", "args": ["sym:k1"]},
  {"contract": "kv", "function": "del", "args": ["sym:k1"]},
  {"contract": "kv", "function": "get", "args": ["sym:k1"]}
 ]}
J
}
