/*
 * test_scenario.c — the ledger a scenario's calls share (scp_ledger):
 * a later call sees what an earlier successful one stored, a failed call
 * leaves the ledger as it was, initial entries read as carried ones; the
 * ledger info (sequence, protocol range) and the "ledger" / "storage"
 * keys of a scenario file.
 *
 * Numbers: examples/counter.wasm increment(G..., 1) on an empty ledger is
 * 219,053 CPU / 223,348 bytes (the command line's profile, checked in
 * tests/e2e/scenario.sh); with the count entry already in the ledger,
 * 227,534 CPU / 224,102 bytes (the count entry read through encoded and
 * decoded by its first get: 4,247 CPU / 565 B, as tests/e2e/sortx.sh
 * works out).  Both include the recording auth
 * manager's require_auth (a nonce written through the storage: 7,781 CPU
 * / 1,174 B in host:require_auth) and the storage map's extra entry in
 * the calls after it, and the emulated authentication when the last frame
 * pops (auth:emulate, 35,310 CPU / 7,961 B: the account has no ledger
 * entry, so it stops at load_account); the nonce is not carried to the
 * next call.
 *
 * examples/vault.wasm carries instance storage from call to call in its
 * instance entry: deposit(G..., 5) on an empty ledger 220,517 CPU / 224,009
 * bytes (its frame's write-back of {total: 5} included), then total()
 * 149,487 / 211,858, then deposit(G..., 7) 233,059 / 225,403; the same
 * numbers when the entries are given up front.
 *
 * examples/token.wasm (the soroban-examples token in C), deployed with its
 * constructor, the admin and holders' accounts in the ledger: mint
 * 741,648 CPU (the emulated authentication's ed25519 check of the admin's
 * account 421,062 of it; vm:instantiate 175,345), the next mint 739,896
 * (its instance is already extended), transfer 800,052, balance 253,415,
 * approve 748,696, allowance 266,192, name 226,196, each with the
 * decoding of the entries it reads through (instance, balances, accounts,
 * allowances); each equal to the call alone with its entries seeded
 * (test_token_flow).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/scp_prof.h"
#include "soroban/core/host_private.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/core/scp_host.h"
#include "soroban/run/scp_scenario.h"
#include "util/scp_util.h"
#include "build_dir.h"
#include "scenario_paths.h"

#include <openssl/sha.h>

#define ZERO_G "GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF"

static const char *meta(const scp_profile *p, const char *key) {
  for (size_t i = 0; i < p->nmeta; i++)
    if (!strcmp(scp_prof_str(p, p->meta[i].key), key)) return scp_prof_str(p, p->meta[i].value);
  return "";
}

typedef struct counter {
  scp_contract_file file;
  uint8_t *wasm;
  scp_ledger *ledger;
} counter;

static void counter_open(counter *c) {
  scp_error err;
  size_t len;
  assert_int_equal(scp_read_file(build_path("examples/counter.wasm"), &c->wasm, &len, &err), SCP_OK);
  c->file = (scp_contract_file){.path = "counter.wasm", .wasm = c->wasm, .len = len};
  assert_non_null(c->ledger = scp_ledger_new(&c->file, 1));
}

static void counter_close(counter *c) {
  scp_ledger_free(c->ledger);
  free(c->wasm);
}

/* increment(ZERO_G, by); returns the status, the profile's totals and result. */
static int increment(counter *c, const char *by, uint64_t cpu_limit, uint64_t *cpu, uint64_t *mem,
                     char *result) {
  scp_arg a[2];
  scp_error err;
  assert_int_equal(scp_arg_parse("addr:" ZERO_G, &a[0], &err), SCP_OK);
  assert_int_equal(scp_arg_parse(by, &a[1], &err), SCP_OK);
  scp_sor_session sess = {.ledger = c->ledger};
  scp_soroban_opts o = {.wasm_path = "counter.wasm", .wasm = c->file.wasm, .wasm_len = c->file.len,
                        .function = "increment", .args = a, .nargs = 2, .limits = {.cpu = cpu_limit},
                        .session = &sess};
  scp_profile *p = NULL;
  int rc = scp_soroban_profile(&o, &p, &err);
  assert_non_null(p);
  *cpu = scp_profile_total(p, 0);
  *mem = scp_profile_total(p, 1);
  snprintf(result, 32, "%s", meta(p, "result"));
  scp_profile_destroy(p);
  return rc;
}

static void test_state_carries(void **state) {
  (void)state;
  counter c;
  counter_open(&c);
  uint64_t cpu, mem;
  char res[32];
  assert_int_equal(increment(&c, "u32:1", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:1");
  assert_int_equal(cpu, 219053);
  assert_int_equal(mem, 223348);
  assert_int_equal(increment(&c, "u32:1", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:2");
  assert_int_equal(cpu, 227534);
  assert_int_equal(mem, 224102);
  /* the same starting state, the same costs */
  assert_int_equal(increment(&c, "u32:4", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:6");
  assert_int_equal(cpu, 227534);
  counter_close(&c);
}

static void test_failed_call_changes_nothing(void **state) {
  (void)state;
  counter c;
  counter_open(&c);
  uint64_t cpu, mem;
  char res[32];
  /* runs out of CPU after its put: the write must not reach the ledger */
  assert_int_equal(increment(&c, "u32:9", 179016, &cpu, &mem, res), SCP_ERR_BUDGET);
  assert_int_equal(increment(&c, "u32:1", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:1");
  assert_int_equal(cpu, 219053);   /* as on the empty ledger */
  counter_close(&c);
}

static void test_seeded_entry_reads_as_carried(void **state) {
  (void)state;
  counter c;
  counter_open(&c);
  scp_ledger_seed sd = {.contract = 0, .dur = 1, .has_live_until = true, .live_until = 10000};
  scp_error err;
  assert_int_equal(scp_arg_parse("sym:count", &sd.key, &err), SCP_OK);
  assert_int_equal(scp_arg_parse("u32:1", &sd.val, &err), SCP_OK);
  c.ledger->seeds = &sd;
  c.ledger->nseeds = 1;
  uint64_t cpu, mem;
  char res[32];
  assert_int_equal(increment(&c, "u32:1", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:2");
  assert_int_equal(cpu, 227534);
  assert_int_equal(mem, 224102);
  counter_close(&c);
}

/* examples/vault.wasm: deposit(ZERO_G, amount) writes the balance
 * (persistent) and the total (instance storage); total() reads the total.
 * Instance storage travels in the instance entry: the deposit's frame
 * writes it back at its end, total()'s frame loads it (host_instance.c). */
static int vault_call(counter *c, const char *fn, const char *amount, uint64_t cpu_limit,
                      uint64_t *cpu, uint64_t *mem, char *result) {
  scp_arg a[2];
  scp_error err;
  size_t n = 0;
  if (amount) {
    assert_int_equal(scp_arg_parse("addr:" ZERO_G, &a[0], &err), SCP_OK);
    assert_int_equal(scp_arg_parse(amount, &a[1], &err), SCP_OK);
    n = 2;
  }
  scp_sor_session sess = {.ledger = c->ledger};
  scp_soroban_opts o = {.wasm_path = "vault.wasm", .wasm = c->file.wasm, .wasm_len = c->file.len,
                        .function = fn, .args = a, .nargs = n, .limits = {.cpu = cpu_limit},
                        .session = &sess};
  scp_profile *p = NULL;
  int rc = scp_soroban_profile(&o, &p, &err);
  assert_non_null(p);
  *cpu = scp_profile_total(p, 0);
  *mem = scp_profile_total(p, 1);
  snprintf(result, 32, "%s", meta(p, "result"));
  scp_profile_destroy(p);
  return rc;
}

static void vault_open(counter *c) {
  scp_error err;
  size_t len;
  assert_int_equal(scp_read_file(build_path("examples/vault.wasm"), &c->wasm, &len, &err), SCP_OK);
  c->file = (scp_contract_file){.path = "vault.wasm", .wasm = c->wasm, .len = len};
  assert_non_null(c->ledger = scp_ledger_new(&c->file, 1));
}

static void test_instance_storage_carries(void **state) {
  (void)state;
  counter c;
  vault_open(&c);
  uint64_t cpu, mem;
  char res[32];
  /* storage None in the entry: the first access is from_map of nothing */
  assert_int_equal(vault_call(&c, "total", NULL, 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:0");
  uint64_t fresh_cpu = cpu, fresh_mem = mem;
  /* one unit short of the deposit's cost: the run fails in its last
   * charges (the emulated authentication, after the vault's frame wrote its
   * instance storage back) and the ledger stays as it was */
  assert_int_equal(vault_call(&c, "deposit", "u32:5", 215970, &cpu, &mem, res), SCP_ERR_BUDGET);
  assert_int_equal(vault_call(&c, "total", NULL, 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:0");
  assert_int_equal(cpu, fresh_cpu);
  assert_int_equal(mem, fresh_mem);
  assert_int_equal(vault_call(&c, "deposit", "u32:5", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:5");
  assert_int_equal(cpu, 220517);
  assert_int_equal(mem, 224009);
  /* total() loads {total: 5} (from_instance_xdr of 1 entry: 578 CPU, 56
   * bytes, test_instance.c) and, the key being there, reads it */
  assert_int_equal(vault_call(&c, "total", NULL, 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:5");
  assert_int_equal(cpu, 149487);
  assert_int_equal(mem, 211858);
  assert_int_equal(vault_call(&c, "deposit", "u32:7", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:12");
  assert_int_equal(cpu, 233059);
  assert_int_equal(mem, 225403);
  counter_close(&c);
}

/* The same state given up front ("durability": "instance" seeds) costs
 * what the carried state costs. */
static void test_seeded_instance_reads_as_carried(void **state) {
  (void)state;
  counter c;
  vault_open(&c);
  scp_ledger_seed sd[2] = {{.contract = 0, .dur = SCP_SEED_INSTANCE}, {.contract = 0, .dur = 1}};
  scp_error err;
  assert_int_equal(scp_arg_parse("sym:total", &sd[0].key, &err), SCP_OK);
  assert_int_equal(scp_arg_parse("u32:5", &sd[0].val, &err), SCP_OK);
  assert_int_equal(scp_arg_parse("addr:" ZERO_G, &sd[1].key, &err), SCP_OK);
  assert_int_equal(scp_arg_parse("u32:5", &sd[1].val, &err), SCP_OK);
  c.ledger->seeds = sd;
  c.ledger->nseeds = 2;
  uint64_t cpu, mem;
  char res[32];
  assert_int_equal(vault_call(&c, "total", NULL, 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:5");
  assert_int_equal(cpu, 149487);
  assert_int_equal(mem, 211858);
  assert_int_equal(vault_call(&c, "deposit", "u32:7", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:12");
  assert_int_equal(cpu, 233059);
  assert_int_equal(mem, 225403);
  counter_close(&c);
}

/* exact.wat's seq returns get_ledger_sequence. */
static int seq_run(uint32_t protocol, uint32_t seq, char *result, uint64_t *cpu) {
  uint8_t *wasm;
  size_t len;
  scp_error err;
  assert_int_equal(scp_read_file(build_path("tests/fixtures/wat/exact.wasm"), &wasm, &len, &err), SCP_OK);
  scp_arg a;
  assert_int_equal(scp_arg_parse("void", &a, &err), SCP_OK);
  scp_soroban_opts o = {.wasm_path = "exact.wasm", .wasm = wasm, .wasm_len = len, .function = "seq",
                        .args = &a, .nargs = 1, .ledger = {.protocol = protocol, .sequence = seq}};
  scp_profile *p = NULL;
  int rc = scp_soroban_profile(&o, &p, &err);
  if (p) {
    snprintf(result, 64, "%s", meta(p, "result"));
    *cpu = scp_profile_total(p, 0);
  } else {
    snprintf(result, 64, "%.63s", err.msg);
  }
  scp_profile_destroy(p);
  free(wasm);
  return rc;
}

static void test_ledger_info_and_protocol(void **state) {
  (void)state;
  char res[64];
  uint64_t cpu0 = 0, cpu1 = 0;
  assert_int_equal(seq_run(0, 0, res, &cpu0), SCP_OK);
  assert_string_equal(res, "u32:0");
  assert_int_equal(seq_run(0, 4321, res, &cpu1), SCP_OK);
  assert_string_equal(res, "u32:4321");
  assert_int_equal(cpu1, cpu0);   /* a small U32Val either way */
  assert_int_equal(seq_run(20, 0, res, &cpu1), SCP_OK);
  assert_int_equal(seq_run(19, 0, res, &cpu1), SCP_ERR_ARG);
  assert_string_equal(res, "protocol 19: this host runs protocols 20 to 28");
  assert_int_equal(seq_run(29, 0, res, &cpu1), SCP_ERR_ARG);
}

static int load_text(const char *json, scp_scenario **s, scp_error *err) {
  char path[] = "/tmp/scp_scenario_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(json, f);
  fclose(f);
  int rc = scp_scenario_load(path, s, err);
  unlink(path);
  return rc;
}

static void test_scenario_ledger_keys(void **state) {
  (void)state;
  char json[2048];
  /* the fixture path must be absolute for a file in /tmp */
  char *abs = realpath(build_path("examples/counter.wasm"), NULL);
  assert_non_null(abs);
  snprintf(json, sizeof json,
           "{\"ledger\": {\"protocol\": 23, \"sequence\": 7, \"timestamp\": 1700000000,"
           " \"network_passphrase\": \"Test SDF Network ; September 2015\"},"
           " \"storage\": [{\"key\": \"sym:count\", \"value\": \"u32:5\", \"durability\": \"temporary\"}],"
           " \"contracts\": [{\"name\": \"c\", \"wasm\": \"%s\"}],"
           " \"calls\": [{\"function\": \"fail\", \"profile\": false}]}", abs);
  free(abs);
  scp_scenario *s;
  scp_error err;
  assert_int_equal(load_text(json, &s, &err), SCP_OK);
  scp_soroban_opts o;
  scp_sor_session sess = {0};
  scp_scenario_opts(s, 0, &o, &sess);
  assert_int_equal(o.ledger.protocol, 23);
  assert_int_equal(o.ledger.sequence, 7);
  assert_int_equal(o.ledger.timestamp, 1700000000);
  assert_true(o.ledger.has_network_id);
  /* SHA-256 of the testnet passphrase: the testnet's network id */
  static const uint8_t testnet[32] = {
    0xce, 0xe0, 0x30, 0x2d, 0x59, 0x84, 0x4d, 0x32, 0xbd, 0xca, 0x91, 0x5c, 0x82, 0x03, 0xdd, 0x44,
    0xb3, 0x3f, 0xbb, 0x7e, 0xdc, 0x19, 0x05, 0x1e, 0xa3, 0x7a, 0xbe, 0xdf, 0x28, 0xec, 0xd4, 0x72};
  assert_memory_equal(o.ledger.network_id, testnet, 32);
  assert_false(s->calls[0].profile);
  assert_int_equal(s->nstorage, 1);
  assert_int_equal(s->storage[0].dur, 0);
  assert_false(s->storage[0].has_live_until);
  assert_int_equal(s->storage[0].val.kind, SCP_ARG_U32);
  assert_int_equal(s->storage[0].val.lo, 5);
  scp_scenario_free(s);

  /* the ledger is read after contracts and calls are checked to be there */
  static const char *const bad[][2] = {
    {"{\"network_id\": \"xyz\"}", "ledger: \"network_id\" is 64 hex digits"},
    {"{\"height\": 1}", "ledger: unknown key \"height\""},
    {"{\"sequence\": 4294967296}", "ledger: \"sequence\" must be an integer from 0 to 4294967295"},
    /* the shared JSON reader: the key's path and the nearest known key */
    {"{\"sequense\": 1}", ": ledger: unknown key \"sequense\"; did you mean \"sequence\"?"},
    /* past int64: kept as its digits, refused, never rounded */
    {"{\"sequence\": 18446744073709551616}", "ledger: \"sequence\" must be an integer from 0 to 4294967295"},
  };
  for (size_t i = 0; i < SCP_ARRAY_LEN(bad); i++) {
    snprintf(json, sizeof json, "{\"ledger\": %s, \"contracts\": [{\"name\": \"c\", \"wasm\": \"x.wasm\"}],"
             " \"calls\": [{\"function\": \"f\"}]}", bad[i][0]);
    assert_int_equal(load_text(json, &s, &err), SCP_ERR_MALFORMED);
    assert_non_null(strstr(err.msg, bad[i][1]));
  }
}

/* ---- the ledger a scenario sets up: contracts, accounts, trustlines, assets ---- */

#define ISSUER "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5"
#define FROM "GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ"
#define TO "GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6"


typedef struct run {
  scp_scenario *s;
  scp_ledger *l;
} run;

static void run_open(run *r, const char *tmpl) {
  scp_error err = {0};
  int rc = load_text(with_paths(tmpl), &r->s, &err);
  if (rc) print_message("%s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  assert_non_null(r->l = scp_scenario_ledger(r->s, NULL, 0));
}

static void run_close(run *r) {
  scp_ledger_free(r->l);
  scp_scenario_free(r->s);
}

/* Call i's profile (status in *rc). */
static scp_profile *run_call(run *r, size_t i, int *rc) {
  scp_soroban_opts o;
  scp_sor_session sess = {.ledger = r->l};
  scp_scenario_opts(r->s, i, &o, &sess);
  scp_profile *p = NULL;
  scp_error err = {0};
  *rc = scp_soroban_profile(&o, &p, &err);
  if (*rc) print_message("calls[%zu]: %s\n", i, err.msg);
  assert_non_null(p);
  return p;
}

/* The self cost (metric m) of the nodes named name. */
static uint64_t self_of(const scp_profile *p, const char *name, unsigned m) {
  uint64_t sum = 0;
  for (size_t i = 0; i < p->nnodes; i++)
    if (!strcmp(scp_prof_str(p, p->frames[p->nodes[i].frame].name), name)) sum += p->nodes[i].self[m];
  return sum;
}

static void key_of(const char *g, uint8_t k[32]) { assert_true(scp_account_strkey(g, k)); }

/* The ids are the host's: deployer and salt (an account, or an earlier
 * contract by name), derived with the ledger's network id; a constructor
 * runs with its arguments typed by the spec, and what it stored is there
 * for the first call; "addr:NAME" names a contract. */
static void test_constructor_deployer_salt(void **state) {
  (void)state;
  run r;
  run_open(&r, "{\"contracts\": ["
           "{\"name\": \"c\", \"wasm\": \"@tests/fixtures/wasm/ctor.wasm@\", \"deployer\": \"" ISSUER "\","
           " \"salt\": \"0x0000000000000000000000000000000000000000000000000000000000000007\","
           " \"constructor_args\": {\"owner\": \"" FROM "\", \"start\": 41}},"
           "{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\", \"deployer\": \"c\"}],"
           " \"calls\": [{\"contract\": \"c\", \"function\": \"get\"},"
           " {\"contract\": \"k\", \"function\": \"increment\", \"args\": [\"addr:c\", \"u32:2\"]}]}");
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  scp_host *h;
  assert_int_equal(scp_host_create(&b, NULL, &h), SCP_OK);
  uint8_t dep[32], salt[32] = {0}, id0[32], id1[32];
  key_of(ISSUER, dep);
  salt[31] = 7;
  scp_host_contract_id(h, false, dep, salt, id0);
  memset(salt, 0, 32);
  salt[31] = 1;   /* the default salt: the contract's index */
  scp_host_contract_id(h, true, id0, salt, id1);
  scp_host_destroy(h);
  assert_memory_equal(r.s->ids[0], id0, 32);
  assert_memory_equal(r.s->ids[1], id1, 32);
  assert_true(r.s->deploys[0].construct);
  assert_int_equal(r.s->deploys[0].nctor, 2);
  assert_false(r.s->deploys[1].construct);
  int rc;
  scp_profile *p = run_call(&r, 0, &rc);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta(p, "result"), "u32:41");
  char sk[57], want[128];
  scp_host_contract_strkey(id0, sk);
  snprintf(want, sizeof want, "ctor.wasm = %s", sk);
  assert_string_equal(meta(p, "contract id 0"), want);
  scp_profile_destroy(p);
  p = run_call(&r, 1, &rc);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta(p, "result"), "u32:2");
  assert_non_null(strstr(meta(p, "auth 1"), sk));   /* the contract named "c" authorized */
  scp_profile_destroy(p);
  run_close(&r);

  /* "type:value" constructor arguments; the default deployer and salt
   * give the command line's id */
  run_open(&r, "{\"contracts\": [{\"name\": \"c\", \"wasm\": \"@tests/fixtures/wasm/ctor.wasm@\","
           " \"constructor_args\": [\"addr:" FROM "\", \"u32:5\"]}],"
           " \"calls\": [{\"function\": \"get\"}]}");
  p = run_call(&r, 0, &rc);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta(p, "result"), "u32:5");
  scp_profile_destroy(p);
  run_close(&r);
}

typedef struct bad_case {
  const char *json;
  int code;
  const char *msg;
} bad_case;

/* Every mistake: one line, the file, the JSON path, the exit status's
 * code. */
static void test_ledger_key_errors(void **state) {
  (void)state;
#define C0 "{\"name\": \"c\", \"wasm\": \"@tests/fixtures/wasm/ctor.wasm@\""
#define K0 "{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\""
#define CALL "\"calls\": [{\"contract\": \"c\", \"function\": \"get\"}]"
  static const bad_case cases[] = {
    {"{\"contracts\": [" C0 ", \"id\": \"C\"}], " CALL "}", SCP_ERR_UNSUPPORTED,
     "contracts[0]: \"id\" is not supported: a contract's id is derived from its \"deployer\" and \"salt\""},
    {"{\"contracts\": [" C0 ", \"salt\": \"07\"}], " CALL "}", SCP_ERR_MALFORMED,
     "contracts[0]: \"salt\" is 32 bytes as 64 hex digits"},
    {"{\"contracts\": [" C0 ", \"deployer\": \"k\"}, " K0 "}], " CALL "}", SCP_ERR_MALFORMED,
     "contracts[0]: \"deployer\" must be an account strkey (G...) or the name of an earlier contract"},
    {"{\"contracts\": [" C0 "}, " K0 ", \"deployer\": \"" ZERO_G "\", \"salt\": \""
     "0000000000000000000000000000000000000000000000000000000000000000\"}], " CALL "}",
     SCP_ERR_MALFORMED, "contracts[1]: the same deployer and salt as an earlier contract"},
    {"{\"contracts\": [" K0 ", \"constructor_args\": []}], \"calls\": [{\"function\": \"fail\"}]}",
     SCP_ERR_ARG, "contracts[0]: \"constructor_args\" given, but "},
    {"{\"contracts\": [" C0 ", \"constructor_args\": {\"start\": 1}}], " CALL "}", SCP_ERR_ARG,
     "contracts[0]: constructor_args: __constructor: missing argument owner"},
    {"{\"contracts\": [" C0 "}], " CALL "}", SCP_ERR_ARG,
     "contracts[0]: constructor_args: __constructor: missing argument owner"},
    {"{\"contracts\": [" C0 ", \"constructor_args\": {\"owner\": \"G\", \"start\": 1}}], " CALL "}",
     SCP_ERR_ARG, "contracts[0]: constructor_args: argument --owner"},
    {"{\"accounts\": [{\"id\": \"C\"}], \"contracts\": [" K0 "}], " CALL "}", SCP_ERR_MALFORMED,
     "accounts[0]: \"id\" must be an account strkey (G...)"},
    {"{\"accounts\": [{\"id\": \"" ZERO_G "\", \"balance\": -1}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_ARG, "accounts[0]: \"balance\" must be stroops from 0 to 2^63-1"},
    {"{\"accounts\": [{\"id\": \"" ZERO_G "\", \"balance\": \"9223372036854775808\"}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_ARG, "accounts[0]: \"balance\" must be stroops from 0 to 2^63-1"},
    {"{\"accounts\": [{\"id\": \"" ZERO_G "\", \"thresholds\": [1, 2, 3]}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_MALFORMED, "accounts[0]: \"thresholds\" is [master, low, medium, high], each 0 to 255"},
    {"{\"accounts\": [{\"id\": \"" ZERO_G "\", \"flags\": 16}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_ARG, "accounts[0]: \"flags\" must be an integer from 0 to 15"},
    {"{\"accounts\": [{\"id\": \"" ZERO_G "\", \"signers\": [{\"key\": \"" FROM "\", \"weight\": 0}]}],"
     " \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_MALFORMED, "accounts[0]: signers[0]: \"weight\" must be an integer from 1 to 255"},
    {"{\"accounts\": [{\"id\": \"" ZERO_G "\", \"signers\": [{\"key\": \"" FROM "\", \"weight\": 1},"
     " {\"key\": \"" FROM "\", \"weight\": 2}]}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_MALFORMED, "accounts[0]: signers[1]: the same signer twice"},
    {"{\"accounts\": [{\"id\": \"" ZERO_G "\"}, {\"id\": \"" ZERO_G "\"}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_MALFORMED, "accounts[1]: this account is already in \"accounts\""},
    {"{\"assets\": [{\"name\": \"usdc\", \"asset\": \"USDC\"}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_ARG, "assets[0]: asset USDC: expected native or CODE:ISSUER"},
    {"{\"assets\": [{\"name\": \"k\", \"asset\": \"native\"}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_MALFORMED, "contracts[0]: two contracts or assets have this name"},
    {"{\"assets\": [{\"name\": \"a\", \"asset\": \"native\"}, {\"name\": \"b\", \"asset\": \"native\"}],"
     " \"contracts\": [" K0 "}], " CALL "}", SCP_ERR_MALFORMED, "assets[1]: this asset is already in \"assets\""},
    {"{\"trustlines\": [{\"account\": \"" FROM "\", \"asset\": \"native\"}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_ARG, "trustlines[0]: asset native: the native asset has no trustlines"},
    {"{\"trustlines\": [{\"account\": \"" ISSUER "\", \"asset\": \"USDC:" ISSUER "\"}], \"contracts\": [" K0 "}], " CALL "}",
     SCP_ERR_ARG, "trustlines[0]: asset USDC:" ISSUER ": an issuer holds no trustline to its own asset"},
    {"{\"trustlines\": [{\"account\": \"" FROM "\", \"asset\": \"USDC:" ISSUER "\", \"balance\": 5, \"limit\": 4}],"
     " \"contracts\": [" K0 "}], " CALL "}", SCP_ERR_ARG, "trustlines[0]: \"balance\" is over the \"limit\""},
    {"{\"trustlines\": [{\"account\": \"" FROM "\", \"asset\": \"USDC:" ISSUER "\"}, {\"account\": \"" FROM "\","
     " \"asset\": \"USDC:" ISSUER "\"}], \"contracts\": [" K0 "}], " CALL "}", SCP_ERR_MALFORMED,
     "trustlines[1]: this account already has this trustline"},
    {"{\"trustlines\": [{\"account\": \"" FROM "\", \"asset\": \"USDC:" ISSUER "\", \"authorized\": 1}],"
     " \"contracts\": [" K0 "}], " CALL "}", SCP_ERR_MALFORMED, "trustlines[0]: \"authorized\" is true or false"},
    {"{\"contracts\": [" K0 "}], \"calls\": [{\"function\": \"fail\", \"source\": \"C\"}]}", SCP_ERR_MALFORMED,
     "calls[0]: \"source\" must be an account strkey (G..., 56 characters)"},
    {"{\"contracts\": [" K0 "}], \"calls\": [{\"function\": \"fail\", \"auth\": []}]}", SCP_ERR_MALFORMED,
     "calls[0]: \"auth\" is \"record\", \"enforce\", \"mock\" or \"mock-non-root\""},
    {"{\"assets\": [{\"name\": \"xlm\", \"asset\": \"native\"}], \"calls\": [{\"function\": \"name\"}]}",
     SCP_ERR_MALFORMED, "calls[0]: \"contract\" names the asset contract to call"},
    {"{\"assets\": [{\"name\": \"xlm\", \"asset\": \"native\"}], \"calls\": [{\"contract\": \"xlm\","
     " \"function\": \"name\", \"args\": {\"a\": 1}}]}",
     SCP_ERR_ARG, "calls[0]: an asset contract has no contractspecv0 section to name arguments by"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    scp_scenario *s = NULL;
    scp_error err = {0};
    int rc = load_text(with_paths(cases[i].json), &s, &err);
    if (rc != cases[i].code || !strstr(err.msg, cases[i].msg))
      print_message("case %zu: %d %s\n", i, rc, err.msg);
    assert_int_equal(rc, cases[i].code);
    assert_non_null(strstr(err.msg, cases[i].msg));
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(strncmp(err.msg, "/tmp/scp_scenario_", 18), 0);   /* the file first */
    assert_null(s);
  }
  /* a constructor that fails to run: the set-up names the contract */
  run r;
  run_open(&r, "{\"contracts\": [" C0 ", \"constructor_args\": [\"u32:1\"]}], " CALL "}");
  scp_soroban_opts o;
  scp_sor_session sess = {.ledger = r.l};
  scp_scenario_opts(r.s, 0, &o, &sess);
  scp_error err = {0};
  assert_int_equal(scp_ledger_setup(r.l, &o, &err), SCP_ERR_ARG);
  assert_non_null(strstr(err.msg, "contracts[0]: deploying "));
  assert_non_null(strstr(err.msg, "ctor.wasm failed: contract:ctor.wasm: function '__constructor' takes 2 arguments, 1 given"));
  run_close(&r);
#undef C0
#undef K0
#undef CALL
}

/* The ledger entries a scenario writes: an AccountEntry (80 + 40 n bytes,
 * signers sorted by key, numSubEntries = signers + trustlines) and a
 * TrustLineEntry (accountID, the asset, balance, limit, flags). */
static void test_classic_entries(void **state) {
  (void)state;
  run r;
  run_open(&r, "{\"accounts\": [{\"id\": \"" FROM "\", \"balance\": \"100000000\", \"seq_num\": 7,"
           " \"thresholds\": [2, 1, 2, 3], \"flags\": 2, \"signers\": [{\"key\": \"" TO "\", \"weight\": 5},"
           " {\"key\": \"" ISSUER "\", \"weight\": 9}]}],"
           " \"trustlines\": [{\"account\": \"" FROM "\", \"asset\": \"ABCDE:" ISSUER "\", \"balance\": 12,"
           " \"limit\": \"1000\", \"authorized\": false}],"
           " \"contracts\": [{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\"}],"
           " \"calls\": [{\"function\": \"fail\"}]}");
  scp_soroban_opts o;
  scp_sor_session sess = {.ledger = r.l};
  scp_scenario_opts(r.s, 0, &o, &sess);
  scp_error err = {0};
  assert_int_equal(scp_ledger_setup(r.l, &o, &err), SCP_OK);
  uint8_t from[32], to[32], iss[32];
  key_of(FROM, from);
  key_of(TO, to);
  key_of(ISSUER, iss);
  const scp_sentry *acct = NULL, *tl = NULL;
  for (size_t i = 0; i < r.l->nents; i++) {
    if (r.l->ents[i].k.type == SCP_LK_ACCOUNT) acct = &r.l->ents[i];
    if (r.l->ents[i].k.type == SCP_LK_TRUSTLINE) tl = &r.l->ents[i];
  }
  assert_non_null(acct);
  assert_non_null(tl);
  const uint8_t *a = acct->val;
  assert_int_equal(acct->vallen, 80 + 2 * 40);
  assert_memory_equal(a + 4, from, 32);
  assert_int_equal(scp_be32(a + 40), 100000000);   /* balance's low word */
  assert_int_equal(scp_be32(a + 48), 7);           /* seqNum */
  assert_int_equal(scp_be32(a + 52), 3);           /* 2 signers + 1 trustline */
  assert_int_equal(scp_be32(a + 60), 2);           /* flags */
  static const uint8_t th[4] = {2, 1, 2, 3};
  assert_memory_equal(a + 68, th, 4);
  assert_int_equal(scp_be32(a + 72), 2);
  /* GBBD47... sorts before GDRXE2... */
  assert_memory_equal(a + 80, iss, 32);
  assert_int_equal(scp_be32(a + 112), 9);
  assert_memory_equal(a + 120, to, 32);
  assert_int_equal(scp_be32(a + 152), 5);
  assert_int_equal(scp_be32(a + 156), 0);          /* ext v0 */
  /* AlphaNum12 "ABCDE": type 2, 12 code bytes, the issuer */
  assert_int_equal(tl->k.keylen, 4 + 12 + 36);
  assert_int_equal(tl->vallen, 36 + 52 + 24);
  assert_memory_equal(tl->val + 36, tl->k.key, 52);
  assert_int_equal(scp_be32(tl->val + 36), 2);
  assert_memory_equal(tl->val + 40, "ABCDE\0\0\0\0\0\0\0", 12);
  assert_int_equal(scp_be32(tl->val + 92), 12);    /* balance */
  assert_int_equal(scp_be32(tl->val + 100), 1000); /* limit */
  assert_int_equal(scp_be32(tl->val + 104), 0);    /* not authorized */
  run_close(&r);
}

/* The ledger's classic side as the scenario and the command line give it:
 * the file's asset contracts, then the command line's (--asset), one id
 * each, zeroed until set-up deploys them; set again, the ids follow. */
static void test_ledger_classic(void **state) {
  (void)state;
  scp_scenario *sc = NULL;
  scp_error err = {0};
  assert_int_equal(load_text(with_paths("{\"assets\": [{\"name\": \"x\", \"asset\": \"native\"}],"
                                        " \"contracts\": [{\"name\": \"k\", \"wasm\":"
                                        " \"@examples/counter.wasm@\"}], \"calls\": [{\"function\":"
                                        " \"get\"}]}"), &sc, &err), SCP_OK);
  const char *extra[1] = {"ABC:" ISSUER};
  scp_ledger *l = scp_scenario_ledger(sc, extra, 1);
  assert_non_null(l);
  assert_int_equal(l->nassets, 2);
  assert_string_equal(l->assets[0], "native");
  assert_string_equal(l->assets[1], extra[0]);
  static const uint8_t zero[3][32];
  assert_memory_equal(l->asset_ids, zero, sizeof zero);   /* nassets + 1 */
  scp_ledger_account acct[1] = {{.balance = 5}};
  assert_true(scp_ledger_classic(l, acct, 1, NULL, 0, extra, 1));
  assert_ptr_equal(l->accounts, acct);
  assert_int_equal(l->naccounts, 1);
  assert_int_equal(l->ntrustlines, 0);
  assert_ptr_equal(l->assets, extra);
  assert_memory_equal(l->asset_ids, zero, 2 * 32);
  scp_ledger_free(l);
  scp_scenario_free(sc);
}

/* Recording mode's emulated signature check with and without the
 * account's entry.  Without one, load_account fails and the reference
 * drops the error: counter.wasm increment(ZERO_G, 1)'s auth:emulate is
 * 35,310 CPU / 7,961 B.  With one, the AccountEntry's clone, the
 * signature's unpacking and the ed25519 verification follow (the zero
 * signature fails; the all-zero key is a small-order point that
 * ed25519-dalek decompresses, so VerifyEd25519Sig is charged): 421,062
 * CPU / 32 B more, the same for any authorized tree (payer.wasm's
 * transfer below). */
static void test_account_entry_emulation(void **state) {
  (void)state;
  static const char *const tmpl[2] = {
    "{\"contracts\": [{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\"}],"
    " \"calls\": [{\"function\": \"increment\", \"args\": [\"addr:" ZERO_G "\", \"u32:1\"]}]}",
    "{\"accounts\": [{\"id\": \"" ZERO_G "\"}],"
    " \"contracts\": [{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\"}],"
    " \"calls\": [{\"function\": \"increment\", \"args\": [\"addr:" ZERO_G "\", \"u32:1\"]}]}"};
  uint64_t cpu[2], mem[2], total[2];
  for (int k = 0; k < 2; k++) {
    run r;
    int rc;
    run_open(&r, tmpl[k]);
    scp_profile *p = run_call(&r, 0, &rc);
    assert_int_equal(rc, SCP_OK);
    cpu[k] = self_of(p, "auth:emulate", 0);
    mem[k] = self_of(p, "auth:emulate", 1);
    total[k] = scp_profile_total(p, 0);
    scp_profile_destroy(p);
    run_close(&r);
  }
  assert_int_equal(cpu[0], 35310);
  assert_int_equal(mem[0], 7961);
  assert_int_equal(total[0], 219053);   /* the command line's profile */
  /* + the account entry's decoding on load_account's first get (92
   * bytes: ValDeser 3,471 / 276, MemAlloc(288) 470 / 304, MemCpy(32) 46,
   * MemCmp(32) 48) */
  assert_int_equal(cpu[1], 35310 + 421062 + 4035);
  assert_int_equal(mem[1], 7961 + 32 + 580);
  assert_int_equal(total[1] - total[0], 421062 + 4035);
}

/* The asset contract's mint, called by name, authorized by the admin (the
 * issuer, one signer: its own key, weight 100, as create_account leaves
 * it): test_recording_auth_for_stellar_asset_contract.json's emulation is
 * 455,270 CPU / 7,580 B (test_auth.c), with the issuer's entry already in
 * the storage map.  Here the entry is in the ledger and its first read
 * goes through the recording storage (the footprint entry and the map
 * insert of load_account's get): 1,184 CPU / 404 B more, and, read through
 * encoded, its decoding on that first get: its 132 bytes (the signer's 40
 * included) ValDeser 4,836 / 396, MemAlloc(288) 470 / 304, MemCpy(32) 46,
 * MemCmp(32) 48: 5,400 CPU / 700 B.  Without its signer, the AccountEntry
 * clone allocates and copies no Signer: 18 CPU / 72 B less, and the entry
 * is 92 bytes: ValDeser 3,471 / 276, 1,365 CPU / 120 B less; without the
 * issuer's entry, no verification at all. */
static void test_mint_emulation_trace(void **state) {
  (void)state;
  static const char *const accounts[3] = {
    "[{\"id\": \"" ISSUER "\", \"signers\": [{\"key\": \"" ISSUER "\", \"weight\": 100}]}, {\"id\": \"" FROM "\"}]",
    "[{\"id\": \"" ISSUER "\"}, {\"id\": \"" FROM "\"}]",
    "[{\"id\": \"" FROM "\"}]"};
  uint64_t cpu[3], mem[3];
  for (int k = 0; k < 3; k++) {
    char json[2048];
    snprintf(json, sizeof json, "{\"assets\": [{\"name\": \"aaaa\", \"asset\": \"aaaa:" ISSUER "\"}],"
             " \"accounts\": %s, \"trustlines\": [{\"account\": \"" FROM "\", \"asset\": \"aaaa\"}],"
             " \"calls\": [{\"contract\": \"aaaa\", \"function\": \"mint\","
             " \"args\": [\"addr:" FROM "\", \"i128:100\"]}]}", accounts[k]);
    run r;
    int rc;
    run_open(&r, json);
    scp_profile *p = run_call(&r, 0, &rc);
    assert_int_equal(rc, SCP_OK);
    assert_string_equal(meta(p, "result"), "void");
    cpu[k] = self_of(p, "auth:emulate", 0);
    mem[k] = self_of(p, "auth:emulate", 1);
    scp_profile_destroy(p);
    run_close(&r);
  }
  assert_int_equal(cpu[0], 455270 + 1184 + 5400);
  assert_int_equal(mem[0], 7580 + 404 + 700);
  assert_int_equal(cpu[1], cpu[0] - 18 - 1365);
  assert_int_equal(mem[1], mem[0] - 72 - 120);
  assert_true(cpu[2] < 40000);
}

/* payer.wasm pay(usdc, FROM, TO, 250) between two accounts with
 * trustlines: the transfer moves the balances in the trustline entries
 * the ledger keeps; the emulation of FROM's authorization verifies. */
static void test_pay_between_trustlines(void **state) {
  (void)state;
  run r;
  run_open(&r, "{\"ledger\": {\"sequence\": 100, \"network_passphrase\": \"Test SDF Network ; September 2015\"},"
           " \"contracts\": [{\"name\": \"payer\", \"wasm\": \"@examples/payer.wasm@\"}],"
           " \"assets\": [{\"name\": \"usdc\", \"asset\": \"USDC:" ISSUER "\"}],"
           " \"accounts\": [{\"id\": \"" ISSUER "\"}, {\"id\": \"" FROM "\", \"balance\": \"100000000\"},"
           " {\"id\": \"" TO "\", \"balance\": \"50000000\"}],"
           " \"trustlines\": [{\"account\": \"" FROM "\", \"asset\": \"usdc\", \"balance\": \"1000\"},"
           " {\"account\": \"" TO "\", \"asset\": \"usdc\"}],"
           " \"calls\": [{\"contract\": \"payer\", \"function\": \"pay\","
           " \"args\": [\"addr:usdc\", \"addr:" FROM "\", \"addr:" TO "\", \"i128:250\"]}]}");
  int rc;
  scp_profile *p = run_call(&r, 0, &rc);
  assert_int_equal(rc, SCP_OK);
  assert_int_equal(scp_profile_total(p, 0), 708379);
  assert_int_equal(scp_profile_total(p, 1), 235115);
  assert_int_equal(self_of(p, "auth:emulate", 0), 39425 + 421062 + 4035);   /* + the account decoded */
  char sk[57], want[160];
  scp_host_contract_strkey(r.s->ids[1], sk);
  snprintf(want, sizeof want, "SAC(USDC:%s) = %s", ISSUER, sk);
  assert_string_equal(meta(p, "asset contract 0"), want);
  scp_profile_destroy(p);
  uint8_t from[32], to[32];
  key_of(FROM, from);
  key_of(TO, to);
  int seen = 0;
  for (size_t i = 0; i < r.l->nents; i++) {
    const scp_sentry *e = &r.l->ents[i];
    if (e->k.type != SCP_LK_TRUSTLINE) continue;
    uint32_t bal = scp_be32(e->val + 36 + 44 + 4);
    if (!memcmp(e->k.id, from, 32)) assert_int_equal(bal, 750);
    else assert_int_equal(bal, 250);
    seen++;
  }
  assert_int_equal(seen, 2);
  run_close(&r);
}

/* ---- a token flow: examples/token.c as a soroban-sdk user runs it ---- */

/* Deployed by the admin with its constructor (instance storage: Admin and
 * METADATA), the admin and the two holders in the ledger (so each
 * require_auth's emulated signature check verifies, as on a network), then
 * mint, mint, transfer, balance, balance, approve, allowance, name.  %s is
 * the contract's extra keys. */
#define TOKEN_SCENARIO \
  "{\"ledger\": {\"sequence\": 100, \"network_passphrase\": \"Test SDF Network ; September 2015\"}," \
  " \"accounts\": [{\"id\": \"" ISSUER "\"}, {\"id\": \"" FROM "\"}, {\"id\": \"" TO "\"}]," \
  " \"contracts\": [{\"name\": \"token\", \"wasm\": \"@examples/token.wasm@\", \"deployer\": \"" ISSUER "\"," \
  " \"constructor_args\": {\"admin\": \"" ISSUER "\", \"decimal\": 7, \"name\": \"Example Token\", \"symbol\": \"EXT\"}%s}]," \
  " \"calls\": [{\"function\": \"mint\", \"args\": {\"to\": \"" FROM "\", \"amount\": 1000}}," \
  " {\"function\": \"mint\", \"args\": {\"to\": \"" TO "\", \"amount\": 500}}," \
  " {\"function\": \"transfer\", \"args\": {\"from\": \"" FROM "\", \"to\": \"" TO "\", \"amount\": 300}}," \
  " {\"function\": \"balance\", \"args\": {\"id\": \"" FROM "\"}}," \
  " {\"function\": \"balance\", \"args\": {\"id\": \"" TO "\"}}," \
  " {\"function\": \"approve\", \"args\": {\"from\": \"" FROM "\", \"spender\": \"" TO "\", \"amount\": 100, \"expiration_ledger\": 1000}}," \
  " {\"function\": \"allowance\", \"args\": {\"from\": \"" FROM "\", \"spender\": \"" TO "\"}}," \
  " {\"function\": \"name\"}]}"
#define TOKEN_CALLS 8

/* The scenario, its contract's instance and code living until lu (0: the
 * default TTL). */
static void token_open(run *r, uint32_t lu) {
  char extra[48] = "", json[4096];
  if (lu) snprintf(extra, sizeof extra, ", \"live_until\": %u", lu);
  snprintf(json, sizeof json, TOKEN_SCENARIO, extra);
  run_open(r, json);
}

/* The contract-data entries of l (the instance aside) as "storage" seeds
 * of contract 0: key and value as the ScVal XDR the ledger holds, with
 * their durability and TTL; and the instance's TTL. */
typedef struct token_state {
  scp_ledger_seed seeds[16];
  uint8_t *bytes[32];
  size_t nseeds, nbytes;
  uint32_t instance_lu;
} token_state;

static const uint8_t *dup_bytes(token_state *st, const uint8_t *b, size_t n) {
  assert_true(st->nbytes < 32);
  uint8_t *c = malloc(n ? n : 1);
  assert_non_null(c);
  memcpy(c, b, n);
  return st->bytes[st->nbytes++] = c;
}

static bool is_instance_key(const scp_lkey *k) {
  return k->type == SCP_LK_CONTRACT_DATA && k->keylen == 4 && !memcmp(k->key, "\0\0\0\x14", 4);
}

static void token_state_take(token_state *st, const scp_ledger *l) {
  memset(st, 0, sizeof *st);
  for (size_t i = 0; i < l->nents; i++) {
    const scp_sentry *e = &l->ents[i];
    if (is_instance_key(&e->k)) st->instance_lu = e->live_until;
    if (e->k.type != SCP_LK_CONTRACT_DATA || is_instance_key(&e->k)) continue;
    assert_true(st->nseeds < 16);
    scp_ledger_seed *sd = &st->seeds[st->nseeds++];
    *sd = (scp_ledger_seed){.contract = 0, .dur = e->k.dur, .has_live_until = true, .live_until = e->live_until};
    sd->key = (scp_arg){.kind = SCP_ARG_SCVAL, .data = dup_bytes(st, e->k.key, e->k.keylen), .len = e->k.keylen};
    sd->val = (scp_arg){.kind = SCP_ARG_SCVAL, .data = dup_bytes(st, e->val, e->vallen), .len = e->vallen};
  }
}

static void token_state_free(token_state *st) {
  for (size_t i = 0; i < st->nbytes; i++) free(st->bytes[i]);
}

/* The same profile: totals and every node's name and self costs. */
static void assert_same_profile(const scp_profile *a, const scp_profile *b) {
  assert_int_equal(scp_profile_total(a, 0), scp_profile_total(b, 0));
  assert_int_equal(scp_profile_total(a, 1), scp_profile_total(b, 1));
  assert_int_equal(a->nnodes, b->nnodes);
  for (size_t i = 0; i < a->nnodes; i++) {
    assert_string_equal(scp_prof_str(a, a->frames[a->nodes[i].frame].name),
                        scp_prof_str(b, b->frames[b->nodes[i].frame].name));
    for (unsigned m = 0; m < 2; m++) assert_int_equal(a->nodes[i].self[m], b->nodes[i].self[m]);
  }
}

/* Σ self CPU over the nodes: what the folded stacks add up to. */
static uint64_t self_sum(const scp_profile *p) {
  uint64_t sum = 0;
  for (size_t i = 0; i < p->nnodes; i++) sum += p->nodes[i].self[0];
  return sum;
}

/* Exact costs of each call, and the carrying property: call k on the
 * ledger the earlier calls left costs what call k alone costs on a fresh
 * deploy given, up front, the entries it reads: the balances and the
 * allowance as "storage" seeds with their TTLs, the instance's and code's
 * TTL as the contract's "live_until" (what the earlier calls' extend_ttl
 * left; without it the call extends them again: the 1,752 CPU between
 * the two mints), the instance storage the constructor's in both. */
static void test_token_flow(void **state) {
  (void)state;
  static const uint64_t want[TOKEN_CALLS][2] = {
    {741648, 236838}, {739896, 236398}, {800052, 243649}, {253415, 224968},
    {253415, 224968}, {748696, 239950}, {266192, 226838}, {226196, 221312}};
  static const char *const result[TOKEN_CALLS] = {"void", "void", "void", "i128:700", "i128:800",
                                                  "void", "i128:100", "str:\"Example Token\""};
  run a;
  token_open(&a, 0);
  for (size_t k = 0; k < TOKEN_CALLS; k++) {
    token_state st;
    token_state_take(&st, a.l);
    int rc;
    scp_profile *p = run_call(&a, k, &rc);
    assert_int_equal(rc, SCP_OK);
    assert_string_equal(meta(p, "result"), result[k]);
    assert_int_equal(scp_profile_total(p, 0), want[k][0]);
    assert_int_equal(scp_profile_total(p, 1), want[k][1]);
    assert_int_equal(self_sum(p), scp_profile_total(p, 0));
    if (k) {
      run b;
      token_open(&b, st.instance_lu);
      b.l->seeds = st.seeds;
      b.l->nseeds = st.nseeds;
      scp_profile *q = run_call(&b, k, &rc);
      assert_int_equal(rc, SCP_OK);
      assert_string_equal(meta(q, "result"), result[k]);
      assert_same_profile(p, q);
      scp_profile_destroy(q);
      run_close(&b);
    }
    scp_profile_destroy(p);
    token_state_free(&st);
  }
  /* the instance and the code were extended by the first call, to 7 days */
  for (size_t i = 0; i < a.l->nents; i++)
    if (is_instance_key(&a.l->ents[i].k) || a.l->ents[i].k.type == SCP_LK_CONTRACT_CODE)
      assert_int_equal(a.l->ents[i].live_until, 100 + 7 * 17280);
  run_close(&a);
}

/* A contract's "live_until" is its instance's and code's TTL, whether a
 * set-up transaction deployed it (a constructor) or not. */
static void test_contract_live_until(void **state) {
  (void)state;
  run r;
  run_open(&r, "{\"contracts\": [{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\", \"live_until\": 5000},"
           " {\"name\": \"c\", \"wasm\": \"@tests/fixtures/wasm/ctor.wasm@\", \"live_until\": 7000,"
           " \"constructor_args\": [\"addr:" FROM "\", \"u32:5\"]}],"
           " \"calls\": [{\"contract\": \"c\", \"function\": \"get\"}]}");
  scp_soroban_opts o;
  scp_sor_session sess = {.ledger = r.l};
  scp_scenario_opts(r.s, 0, &o, &sess);
  scp_error err = {0};
  assert_int_equal(scp_ledger_setup(r.l, &o, &err), SCP_OK);
  int seen = 0;
  for (size_t i = 0; i < r.l->nents; i++) {
    const scp_sentry *e = &r.l->ents[i];
    bool k = !memcmp(e->k.id, r.s->ids[0], 32), c = !memcmp(e->k.id, r.s->ids[1], 32);
    if (!is_instance_key(&e->k) && e->k.type != SCP_LK_CONTRACT_CODE) continue;
    if (e->k.type == SCP_LK_CONTRACT_CODE) {
      uint8_t hash[32];
      SHA256(r.s->contracts[0].wasm, r.s->contracts[0].len, hash);
      k = !memcmp(e->k.id, hash, 32);
      c = !k;
    }
    assert_int_equal(e->live_until, k ? 5000 : c ? 7000 : 0);
    seen++;
  }
  assert_int_equal(seen, 4);
  run_close(&r);
}

/* "storage" keys and values as {"xdr": BASE64}: the same entry as the
 * type:value form, the same cost (counter's increment with the count at
 * 1: 218,741 CPU, test_seeded_entry_reads_as_carried); the decoder's
 * three paddings. */
static void test_storage_xdr(void **state) {
  (void)state;
  run r;
  run_open(&r, "{\"contracts\": [{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\"}],"
           " \"storage\": [{\"key\": {\"xdr\": \"AAAADwAAAAVjb3VudAAAAA==\"}, \"value\": {\"xdr\": \"AAAAAwAAAAE=\"},"
           " \"live_until\": 10000}, {\"key\": {\"xdr\": \"AAAADwAAAAFjAAAA\"}, \"value\": \"u32:2\"}],"
           " \"calls\": [{\"function\": \"increment\", \"args\": [\"addr:" ZERO_G "\", \"u32:1\"]}]}");
  assert_int_equal(r.s->storage[0].key.kind, SCP_ARG_SCVAL);
  assert_int_equal(r.s->storage[0].key.len, 16);
  assert_memory_equal(r.s->storage[0].key.data, "\0\0\0\x0f\0\0\0\x05" "count\0\0\0", 16);
  assert_int_equal(r.s->storage[0].val.len, 8);
  assert_int_equal(r.s->storage[1].key.len, 12);
  assert_memory_equal(r.s->storage[1].key.data, "\0\0\0\x0f\0\0\0\x01" "c\0\0\0", 12);
  int rc;
  scp_profile *p = run_call(&r, 0, &rc);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta(p, "result"), "u32:2");
  assert_int_equal(scp_profile_total(p, 0), 227534);
  scp_profile_destroy(p);
  run_close(&r);
  scp_scenario *s;
  scp_error err;
  static const char *const bad[] = {"AAAADw", "AAAA=AAA", "AAA*", "", "A==="};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char json[2048];
    snprintf(json, sizeof json, "{\"contracts\": [{\"name\": \"k\", \"wasm\": \"@examples/counter.wasm@\"}],"
             " \"storage\": [{\"key\": {\"xdr\": \"%s\"}, \"value\": \"u32:1\"}],"
             " \"calls\": [{\"function\": \"increment\", \"args\": [\"addr:" ZERO_G "\", \"u32:1\"]}]}",
             bad[i]);
    rc = load_text(with_paths(json), &s, &err);
    if (rc != SCP_ERR_MALFORMED) print_message("%s: %d %s\n", bad[i], rc, err.msg);
    assert_int_equal(rc, SCP_ERR_MALFORMED);
    assert_non_null(strstr(err.msg, "storage[0]: key: \"xdr\" is not base64"));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_state_carries),
    cmocka_unit_test(test_failed_call_changes_nothing),
    cmocka_unit_test(test_seeded_entry_reads_as_carried),
    cmocka_unit_test(test_instance_storage_carries),
    cmocka_unit_test(test_seeded_instance_reads_as_carried),
    cmocka_unit_test(test_ledger_info_and_protocol),
    cmocka_unit_test(test_scenario_ledger_keys),
    cmocka_unit_test(test_constructor_deployer_salt),
    cmocka_unit_test(test_ledger_key_errors),
    cmocka_unit_test(test_classic_entries),
    cmocka_unit_test(test_ledger_classic),
    cmocka_unit_test(test_account_entry_emulation),
    cmocka_unit_test(test_mint_emulation_trace),
    cmocka_unit_test(test_pay_between_trustlines),
    cmocka_unit_test(test_token_flow),
    cmocka_unit_test(test_contract_live_until),
    cmocka_unit_test(test_storage_xdr),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
