#!/bin/sh
# End-to-end: --context sdk-test with mocked auths (the test's
# env.mock_all_auths(): --auth mock, or "auth": "mock" in a scenario's
# call) on examples/counter.c, whose increment(user, by) requires user's
# auth.  The test Env switches to recording mode (rs-soroban-env v28
# Host::switch_to_recording_auth, before the span); inside Host::call the
# require_auth makes a recording tracker whose nonce is written at once
# (temporary, live until the maximum TTL), and the top-level contract
# frame's pop -- the last one, there is no HostFunction frame below it --
# runs the emulated authentication (pop_context, testutils builds), shown
# as auth:emulate.  The nonces come from the Env's one recording-nonce
# PRNG: e.register drew the first, each call continues the stream.
#
# Which checks are which:
#   - hand-derived from the cost model (docs/reference/cost-params.txt)
#     and the XDR: the signature payload's SHA-256 in auth:emulate,
#     3,636 + 7,013 x 204 / 128 = 14,812, the only ComputeSha256Hash of the
#     span (the PRNG seed is outside it), where 204 is
#     HashIdPreimage::SorobanAuthorizationWithAddress: 4 (type) + 32
#     (network id) + 40 (the account's ScAddress) + 8 (nonce) + 4
#     (expiration) + 116 (the invocation: 4 + 36 contract + 16
#     "increment" + 4 + 44 Address arg + 8 u32 arg + 4 no sub-invocations);
#     its ValSer memory 21 x 242 + 3 x 204 = 5,694 (the same 204 bytes);
#     the nonce entry's rent bytes 76 x 6,311,999 = 479,711,924 (76: the
#     kv_store entry's 80 of sdk_context.sh, +4 for an account's ScAddress,
#     -8 for a Void value in place of Symbol v1; live until 0 + 6,312,000
#     - 1); mock and mock-non-root cost the same (the non-root rule only
#     adds a refusal outside the root frame);
#   - behaviour the reference has: without mocks the test Env enforces
#     with no entries and the call fails (Unauthorized function call);
#     the second mocked call writes a fresh nonce (a run re-seeded
#     without the Env's stream would find the first call's: "nonce
#     already exists");
#   - pins of scprof's own output: the calls' CPU and peak memory.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 15

A=GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5
cp "$B/examples/counter.wasm" "$T/counter.wasm"
prof() { d=$1; shift; "$BIN" profile -q -o "$T/$d" "$@" "$T/counter.wasm" increment "addr:$A" u32:1 2>"$T/err"; }
# the cost-type row NAME of node FRAME (whole run when FRAME is "-")
row() { python3 - "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
if sys.argv[3] == "-":
    t = [x for x in j["tables"] if x["title"] == "Budget by cost type"][0]
    rows = t["rows"]
else:
    t = [x for x in j["tables"] if x["title"] == "Budget by cost type per node"][0]
    fr = {f["id"]: f["name"] for f in j["frames"]}
    ids = {n["id"] for n in j["nodes"] if fr[n["frame"]] == sys.argv[3]}
    rows = [r for r in t["rows"] if r["node"] in ids]
print(" ".join(map(str, next((r["values"] for r in rows if r["name"] == sys.argv[2]), []))))
PY
}

NAME="sdk_mock_auth: without mocks the test Env enforces with no entries: the call fails"
prof enf --context sdk-test
rc=$?
ok one_line_error 10 "require_auth: Unauthorized function call for address"

prof mock --context sdk-test --auth mock
r1=$?
prof mnr --context sdk-test --auth mock-non-root
r2=$?
R=$T/mock/report.json

NAME="sdk_mock_auth: --auth mock runs, the authorization listed"
ok [ "$r1/$r2/$(report_meta "$R" result)/$(report_meta "$R" "auth 1")" = \
     "0/0/u32:1/$A authorized increment(all args) of CBKMUZNFQIAL775XBB2W2GP5CNHBM5YGH6C3XB7AY6SUVO2IBU3VYK2V" ]

NAME="[pin] sdk_mock_auth: CPU and peak memory of the mocked call"
ok [ "$(report_totals "$R")" = "200212 223018" ]

NAME="[derived] sdk_mock_auth: mock and mock-non-root cost the same at the root"
ok [ "$(report_totals "$T/mnr/report.json")" = "$(report_totals "$R")" ]

NAME="[derived] sdk_mock_auth: the payload's SHA-256 (204 bytes: 14,812) in auth:emulate, the span's only one"
ok [ "$(row "$R" ComputeSha256Hash auth:emulate)/$(row "$R" ComputeSha256Hash -)" = "1 204 14812 0/1 204 14812 0" ]

NAME="[derived] sdk_mock_auth: auth:emulate serializes the same 204 bytes (ValSer memory 21 x 242 + 3 x 204)"
ok [ "$(row "$R" ValSer auth:emulate | cut -d' ' -f1,2,4)" = "21 204 5694" ]

NAME="[derived] sdk_mock_auth: the nonce entry's rent bytes (76 x 6,311,999)"
has() { report_meta "$1" "sdk resources" | grep -q "$2"; }
ok has "$R" "temporary_rent_ledger_bytes 479711924, temporary_entry_rent_bumps 1$"

NAME="sdk_mock_auth: --auth mock outside sdk-test is refused"
prof x --auth mock
rc=$?
ok one_line_error 3 "mocked auths are a soroban-sdk test's (context sdk-test)"

NAME="sdk_mock_auth: a bad --auth is a usage error"
prof x --context sdk-test --auth mocked
rc=$?
ok one_line_error 2 "--auth: 'mocked': record, enforce, mock or mock-non-root"

# One Env, three calls: two mocked, then one without (the test Env's
# mode is per call here, as a test's mock_all_auths() call sets it).
cat >"$T/sc.json" <<J
{"context": "sdk-test",
 "contracts": [{"name": "counter", "wasm": "counter.wasm"}],
 "calls": [
  {"contract": "counter", "function": "increment", "args": ["addr:$A", "u32:1"], "auth": "mock"},
  {"contract": "counter", "function": "increment", "args": ["addr:$A", "u32:2"], "auth": "mock"},
  {"contract": "counter", "function": "increment", "args": ["addr:$A", "u32:3"]}
 ]}
J
"$BIN" profile -q -o "$T/sc" --scenario "$T/sc.json" 2>"$T/err"
rc=$?

NAME="sdk_mock_auth: the scenario's third call (no mocks) fails, the first two run"
third_fails() { one_line_error 10 "counter.wasm: require_auth: Unauthorized function call" && grep -qF "calls[2]: " "$T/err"; }
ok third_fails

NAME="[pin] sdk_mock_auth: the scenario's calls"
ok [ "$(cut -f3-5 "$T/sc/scenario.txt" | head -2)" = "increment	CPU 200212	memory 223018
increment	CPU 204721	memory 223039" ]

NAME="sdk_mock_auth: the map is kept (the second call counts 3)"
ok [ "$(report_meta "$T/sc/02-increment/report.json" result)" = "u32:3" ]

NAME="sdk_mock_auth: the second call writes a fresh nonce (the Env's nonce stream goes on)"
ok has "$T/sc/02-increment/report.json" "write_entries 2, .*temporary_entry_rent_bumps 1$"

NAME="sdk_mock_auth: \"auth\": \"mock\" in the network's context is refused"
sed 's/"sdk-test"/"network"/' "$T/sc.json" >"$T/net.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/net.json" 2>"$T/err"
rc=$?
ok one_line_error 3 "mocked auths are a soroban-sdk test's (context sdk-test)"

NAME="sdk_mock_auth: a scenario's bad \"auth\" is refused"
sed 's/"auth": "mock"/"auth": "mocked"/' "$T/sc.json" >"$T/bad.json"
"$BIN" profile -q -o "$T/x" --scenario "$T/bad.json" 2>"$T/err"
rc=$?
ok one_line_error 65 '"auth" is "record", "enforce", "mock" or "mock-non-root"'
