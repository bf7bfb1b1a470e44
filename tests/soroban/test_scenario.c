/*
 * test_scenario.c — the ledger a scenario's calls share (scp_ledger):
 * a later call sees what an earlier successful one stored, a failed call
 * leaves the ledger as it was, initial entries read as carried ones; the
 * ledger info (sequence, protocol range) and the "ledger" / "storage"
 * keys of a scenario file.
 *
 * Numbers: examples/counter.wasm increment(G..., 1) on an empty ledger is
 * 214,507 CPU / 222,732 bytes (the command line's profile, checked in
 * tests/e2e/scenario.sh); with the count entry already in the ledger,
 * 218,741 CPU / 222,921 bytes.  Both include the recording auth
 * manager's require_auth (a nonce written through the storage: 7,781 CPU
 * / 1,174 B in host:require_auth) and the storage map's extra entry in
 * the calls after it, and the emulated authentication when the last frame
 * pops (auth:emulate, 35,310 CPU / 7,961 B: the account has no ledger
 * entry, so it stops at load_account); the nonce is not carried to the
 * next call.
 *
 * examples/vault.wasm carries instance storage from call to call in its
 * instance entry: deposit(G..., 5) on an empty ledger 215,971 CPU / 223,393
 * bytes (its frame's write-back of {total: 5} included), then total()
 * 143,985 / 211,158, then deposit(G..., 7) 222,824 / 224,075; the same
 * numbers when the entries are given up front.
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
#include "soroban/scp_host.h"
#include "soroban/scp_scenario.h"
#include "util/scp_util.h"

#define ZERO_G "GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF"

static char *fixture(const char *rel) {
  static char path[1024];
  const char *b = getenv("SCP_BUILD");
  snprintf(path, sizeof path, "%s/%s", b ? b : "build", rel);
  return path;
}

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
  assert_int_equal(scp_read_file(fixture("examples/counter.wasm"), &c->wasm, &len, &err), SCP_OK);
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
  scp_soroban_opts o = {.wasm_path = "counter.wasm", .wasm = c->file.wasm, .wasm_len = c->file.len,
                        .function = "increment", .args = a, .nargs = 2, .cpu_limit = cpu_limit,
                        .ledger = c->ledger, .ledger_main = 0};
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
  assert_int_equal(cpu, 214507);
  assert_int_equal(mem, 222732);
  assert_int_equal(increment(&c, "u32:1", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:2");
  assert_int_equal(cpu, 218741);
  assert_int_equal(mem, 222921);
  /* the same starting state, the same costs */
  assert_int_equal(increment(&c, "u32:4", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:6");
  assert_int_equal(cpu, 218741);
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
  assert_int_equal(cpu, 214507);   /* as on the empty ledger */
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
  assert_int_equal(cpu, 218741);
  assert_int_equal(mem, 222921);
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
  scp_soroban_opts o = {.wasm_path = "vault.wasm", .wasm = c->file.wasm, .wasm_len = c->file.len,
                        .function = fn, .args = a, .nargs = n, .cpu_limit = cpu_limit,
                        .ledger = c->ledger, .ledger_main = 0};
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
  assert_int_equal(scp_read_file(fixture("examples/vault.wasm"), &c->wasm, &len, &err), SCP_OK);
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
  assert_int_equal(cpu, 215971);
  assert_int_equal(mem, 223393);
  /* total() loads {total: 5} (from_instance_xdr of 1 entry: 578 CPU, 56
   * bytes, test_instance.c) and, the key being there, reads it */
  assert_int_equal(vault_call(&c, "total", NULL, 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:5");
  assert_int_equal(cpu, 143985);
  assert_int_equal(mem, 211158);
  assert_int_equal(vault_call(&c, "deposit", "u32:7", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:12");
  assert_int_equal(cpu, 222824);
  assert_int_equal(mem, 224075);
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
  assert_int_equal(cpu, 143985);
  assert_int_equal(mem, 211158);
  assert_int_equal(vault_call(&c, "deposit", "u32:7", 0, &cpu, &mem, res), SCP_OK);
  assert_string_equal(res, "u32:12");
  assert_int_equal(cpu, 222824);
  assert_int_equal(mem, 224075);
  counter_close(&c);
}

/* exact.wat's seq returns get_ledger_sequence. */
static int seq_run(uint32_t protocol, uint32_t seq, char *result, uint64_t *cpu) {
  uint8_t *wasm;
  size_t len;
  scp_error err;
  assert_int_equal(scp_read_file(fixture("tests/fixtures/wat/exact.wasm"), &wasm, &len, &err), SCP_OK);
  scp_arg a;
  assert_int_equal(scp_arg_parse("void", &a, &err), SCP_OK);
  scp_soroban_opts o = {.wasm_path = "exact.wasm", .wasm = wasm, .wasm_len = len, .function = "seq",
                        .args = &a, .nargs = 1, .protocol = protocol, .ledger_sequence = seq};
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
  char *abs = realpath(fixture("examples/counter.wasm"), NULL);
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
  scp_scenario_opts(s, 0, &o);
  assert_int_equal(o.protocol, 23);
  assert_int_equal(o.ledger_sequence, 7);
  assert_int_equal(o.ledger_timestamp, 1700000000);
  assert_true(o.has_network_id);
  /* SHA-256 of the testnet passphrase: the testnet's network id */
  static const uint8_t testnet[32] = {
    0xce, 0xe0, 0x30, 0x2d, 0x59, 0x84, 0x4d, 0x32, 0xbd, 0xca, 0x91, 0x5c, 0x82, 0x03, 0xdd, 0x44,
    0xb3, 0x3f, 0xbb, 0x7e, 0xdc, 0x19, 0x05, 0x1e, 0xa3, 0x7a, 0xbe, 0xdf, 0x28, 0xec, 0xd4, 0x72};
  assert_memory_equal(o.network_id, testnet, 32);
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
  };
  for (size_t i = 0; i < 3; i++) {
    snprintf(json, sizeof json, "{\"ledger\": %s, \"contracts\": [{\"name\": \"c\", \"wasm\": \"x.wasm\"}],"
             " \"calls\": [{\"function\": \"f\"}]}", bad[i][0]);
    assert_int_equal(load_text(json, &s, &err), SCP_ERR_MALFORMED);
    assert_non_null(strstr(err.msg, bad[i][1]));
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
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
