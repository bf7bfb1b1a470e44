# tests/e2e/lib/token_flow.sh — the token example's flow as a scenario
# file, for the scripts that profile it (sourced): token_flow FILE writes
# it (token.wasm next to FILE): the admin and two accounts, the token
# deployed with its constructor, two mints, a transfer recorded as
# simulation runs it and the same transfer signed by Alice (seed 0x11 x 32).
ADMIN=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
S1=SAIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRDBNT
ALICE=GDIEVMRSOQV3JKZ2CNUL2RQV4TTNAISKW4NAC25PQUQKGMWJO6DTOAE7
BOB=GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6

token_flow() {
  cat >"$1" <<JSON
{"ledger": {"sequence": 100, "network_passphrase": "Test SDF Network ; September 2015"},
 "accounts": [{"id": "$ADMIN"}, {"id": "$ALICE"}, {"id": "$BOB"}],
 "contracts": [{"name": "token", "wasm": "token.wasm", "deployer": "$ADMIN",
                "constructor_args": {"admin": "$ADMIN", "decimal": 7,
                                     "name": "Example Token", "symbol": "EXT"}}],
 "calls": [{"function": "mint", "args": {"to": "$ALICE", "amount": 1000}},
           {"function": "mint", "args": {"to": "$BOB", "amount": 500}},
           {"function": "transfer", "args": {"from": "$ALICE", "to": "$BOB", "amount": 300}},
           {"function": "transfer", "args": {"from": "$ALICE", "to": "$BOB", "amount": 300},
            "auth": "enforce", "signers": ["$S1"]}]}
JSON
}
