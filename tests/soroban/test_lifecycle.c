/*
 * test_lifecycle.c — the lifecycle host functions of host_lifecycle.c:
 * get_address_executable against the reference's traces, get_contract_id,
 * update_current_contract_wasm / _executable_ref, executable-reference
 * storage keys, create_external_ref_contract and
 * extend_contract_instance_and_code_ttl_v2, with exact charges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <openssl/sha.h>

#include "profile/scp_prof.h"
#include "soroban/core/host_lifecycle.h"
#include "util/scp_util.h"
#include "build_dir.h"

static scp_host *new_host(scp_budget *b, const scp_host_opts *o) {
  scp_host *h;
  scp_budget_init(b, UINT64_MAX, UINT64_MAX);
  assert_int_equal(scp_host_create(b, o, &h), SCP_OK);
  return h;
}

static uint64_t address(scp_host *h, unsigned kind, const uint8_t id[32]) {
  uint8_t enc[33];
  uint64_t v;
  enc[0] = (uint8_t)kind;
  memcpy(enc + 1, id, 32);
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &v), SCP_OK);
  return v;
}

static int call(scp_host *h, const char *name, const uint64_t *args, uint64_t *ret) {
  scp_error err;
  int fn = scp_hostfn_find_name(name);
  assert_true(fn >= 0);
  return scp_host_call(h, (unsigned)fn, args, NULL, ret, &err);
}

/* A call from the running contract's VM: relative handles in and out
 * (the conversion before the measurement), DispatchHostFunction charged. */
static int vmcall(scp_host *h, const char *name, const uint64_t *args, unsigned n,
                  uint64_t *ret, uint64_t *cpu, uint64_t *mem, const scp_budget *b) {
  uint64_t rel[8];
  for (unsigned i = 0; i < n; i++) assert_int_equal(scp_host_to_relative(h, args[i], &rel[i]), SCP_OK);
  scp_error err;
  uint8_t lm[16] = { 0 };
  scp_hostmem m = { lm, sizeof lm };
  int fn = scp_hostfn_find_name(name);
  assert_true(fn >= 0);
  *cpu = b->cpu;
  *mem = b->mem;
  return scp_host_dispatch(h, (unsigned)fn, rel, &m, ret, &err);
}

/* test__lifecycle__cap_68_executable_getter__get_non_existent_executable
 * .json: a contract address with no instance, then an account with no
 * entry, both Void: steps 1 -> 2 (cpu +2,704, mem +293) and 3 -> 4 (cpu
 * +2,599, mem +386). */
static void test_get_non_existent_executable(void **state) {
  (void)state;
  scp_budget b;
  scp_host *h = new_host(&b, NULL);
  uint8_t zero[32] = { 0 };
  uint64_t c = address(h, 1, zero), acc = address(h, 0, zero), ret;
  uint64_t cpu = b.cpu, mem = b.mem;
  assert_int_equal(call(h, "get_address_executable", &c, &ret), SCP_OK);
  assert_int_equal(ret, SCP_VAL_VOID);
  assert_int_equal(b.cpu - cpu, 2704);
  assert_int_equal(b.mem - mem, 293);
  cpu = b.cpu;
  mem = b.mem;
  assert_int_equal(call(h, "get_address_executable", &acc, &ret), SCP_OK);
  assert_int_equal(ret, SCP_VAL_VOID);
  assert_int_equal(b.cpu - cpu, 2599);
  assert_int_equal(b.mem - mem, 386);
  scp_host_destroy(h);
}


/* A deployed contract (instance + code) already read into the storage map
 * and footprint, as after the call that runs it; the contract's frame
 * pushed.  Returns the contract id in id. */
static const uint8_t wasm1[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
static const uint8_t wasm2[9] = { 0, 'a', 's', 'm', 1, 0, 0, 0, 0 };

static void seed_contract(scp_host *h, const uint8_t *wasm, size_t n, uint8_t id[32],
                          uint8_t hash[32]) {
  scp_executable e = { .kind = SCP_EXEC_WASM };
  SHA256(wasm, n, hash);
  memcpy(e.hash, hash, 32);
  uint8_t *img, kb[4];
  uint32_t len;
  scp_lkey ik, ck;
  assert_int_equal(scp_lc_instance_image(&e, &img, &len), SCP_OK);
  assert_int_equal(len, 44);
  scp_lc_instance_key(id, &ik, kb);
  scp_lc_code_key(hash, &ck);
  assert_int_equal(scp_storage_seed(h, &ik, img, len, 1000, true), SCP_OK);
  assert_int_equal(scp_storage_seed(h, &ck, wasm, (uint32_t)n, 1000, true), SCP_OK);
  free(img);
}

/* test__lifecycle__test_contract_wasm_update.json steps 25 -> 26: inside
 * the contract, update to a Wasm hash not uploaded yet: the hash read,
 * the code key, the storage's has (a footprint and map insert of the
 * missing key), then Error(Storage, MissingValue): cpu +3,281, mem +479. */
static void test_update_wasm_missing(void **state) {
  (void)state;
  scp_budget b;
  scp_host *h = new_host(&b, NULL);
  uint8_t id[32] = { 9 }, hash1[32], hash2[32];
  seed_contract(h, wasm1, sizeof wasm1, id, hash1);
  SHA256(wasm2, sizeof wasm2, hash2);
  assert_int_equal(scp_host_push_contract_frame(h, id), SCP_OK);
  uint64_t hobj, ret;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, hash2, 32, &hobj), SCP_OK);
  uint64_t cpu, mem;
  assert_int_equal(vmcall(h, "update_current_contract_wasm", &hobj, 1, &ret, &cpu, &mem, &b),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE));
  assert_int_equal(b.cpu - cpu, 3281);
  assert_int_equal(b.mem - mem, 479);
  scp_host_pop_frame(h);
  scp_host_destroy(h);
}

/* The same trace, steps 38 -> 56: the update with the new Wasm uploaded
 * (code of both hashes and the instance in the map): the checks, the
 * instance read, the "executable_update" system event (the topic Symbol,
 * old and new executables as [Symbol("Wasm"), Bytes] vecs, topics, an
 * empty data vec, the contract id Bytes, the event push), then the
 * instance rewritten: cpu +16,163, mem +1,910. */
static void test_update_wasm(void **state) {
  (void)state;
  scp_budget b;
  scp_host *h = new_host(&b, NULL);
  uint8_t id[32] = { 9 }, hash1[32], hash2[32];
  seed_contract(h, wasm1, sizeof wasm1, id, hash1);
  SHA256(wasm2, sizeof wasm2, hash2);
  scp_lkey ck2;
  scp_lc_code_key(hash2, &ck2);
  assert_int_equal(scp_storage_seed(h, &ck2, wasm2, sizeof wasm2, 1000, true), SCP_OK);
  /* the trace's footprint has a fourth key the map no longer holds (the
   * map was rolled back after the failed call, the footprint is not): a
   * key of another type, so it sorts apart and compares free; only the
   * footprint's size shows, in each find's MemCpy */
  assert_true(scp_grow(&h->foot, &h->capfoot, h->nfoot + 1, sizeof *h->foot));
  memmove(h->foot + 1, h->foot, h->nfoot * sizeof *h->foot);
  h->foot[0] = (scp_fentry){ .k = { .type = SCP_LK_ACCOUNT } };
  h->nfoot++;
  assert_int_equal(scp_host_push_contract_frame(h, id), SCP_OK);
  uint64_t hobj, ret, cpu, mem;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, hash2, 32, &hobj), SCP_OK);
  size_t nev = scp_host_event_count(h);
  assert_int_equal(vmcall(h, "update_current_contract_wasm", &hobj, 1, &ret, &cpu, &mem, &b),
                   SCP_OK);
  assert_int_equal(ret, SCP_VAL_VOID);
  assert_int_equal(b.cpu - cpu, 16163);
  assert_int_equal(b.mem - mem, 1910);
  assert_int_equal(scp_host_event_count(h), nev + 1);
  /* the instance now names the new code, its live-until kept */
  uint8_t kb[4];
  scp_lkey ik;
  const scp_sentry *e;
  scp_executable ex;
  scp_lc_instance_key(id, &ik, kb);
  assert_int_equal(scp_storage_get(h, &ik, &e), SCP_OK);
  assert_true(scp_lc_parse_instance(e->val, e->vallen, &ex));
  assert_int_equal(ex.kind, SCP_EXEC_WASM);
  assert_memory_equal(ex.hash, hash2, 32);
  assert_int_equal(e->live_until, 1000);
  scp_host_pop_frame(h);
  scp_host_destroy(h);
}

/* CAP-85: the owner contract stores an executable reference (a persistent
 * entry keyed by an ExecutableTag, checked to hold the hash of existing
 * Wasm), another contract switches to it; its instance then names the
 * reference, get_address_executable resolves it to the Wasm, and the
 * code-scope TTL extension moves both the reference entry and the code. */
static void test_executable_reference(void **state) {
  (void)state;
  scp_budget b;
  scp_host_opts o = { .max_entry_ttl = 100000 };
  scp_host *h = new_host(&b, &o);
  uint8_t owner[32] = { 1 }, user[32] = { 2 }, hash1[32], hash2[32], bad[32] = { 0 };
  seed_contract(h, wasm1, sizeof wasm1, owner, hash1);
  seed_contract(h, wasm2, sizeof wasm2, user, hash2);
  uint64_t tagstr, tag, hobj, badobj, ret, v;
  static const char tagtext[] = "token-v1";
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_STRING_OBJ, (const uint8_t *)tagtext,
                                                  sizeof tagtext - 1, &tagstr), SCP_OK);
  assert_int_equal(call(h, "create_executable_tag", &tagstr, &tag), SCP_OK);
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, hash1, 32, &hobj), SCP_OK);
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, bad, 32, &badobj), SCP_OK);
  /* in the owner: only persistent, only a hash of existing Wasm, never deleted */
  assert_int_equal(scp_host_push_contract_frame(h, owner), SCP_OK);
  uint64_t put[3] = { tag, hobj, scp_val_u32(0) };
  put[2] = 0;   /* StorageType::Temporary */
  assert_int_equal(call(h, "put_contract_data", put, &ret), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_INVALID_INPUT));
  put[2] = 1;   /* Persistent */
  put[1] = scp_val_u32(5);
  assert_int_equal(call(h, "put_contract_data", put, &ret), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_INVALID_INPUT));
  put[1] = badobj;
  assert_int_equal(call(h, "put_contract_data", put, &ret), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE));
  put[1] = hobj;
  assert_int_equal(call(h, "put_contract_data", put, &ret), SCP_OK);
  uint64_t get[2] = { tag, 1 };
  assert_int_equal(call(h, "get_contract_data", get, &v), SCP_OK);
  assert_int_equal(scp_host_obj(h, v)->len, 32);
  assert_memory_equal(scp_host_obj(h, v)->u.bytes, hash1, 32);
  assert_int_equal(call(h, "del_contract_data", get, &ret), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_INVALID_ACTION));
  scp_host_pop_frame(h);
  /* the user contract switches to the reference */
  uint64_t oaddr = address(h, 1, owner), uaddr = address(h, 1, user);
  assert_int_equal(scp_host_push_contract_frame(h, user), SCP_OK);
  size_t nev = scp_host_event_count(h);
  uint64_t upd[2] = { oaddr, tag };
  assert_int_equal(call(h, "update_current_contract_executable_ref", upd, &ret), SCP_OK);
  assert_int_equal(scp_host_event_count(h), nev + 1);
  scp_host_pop_frame(h);
  uint8_t kb[4];
  scp_lkey ik;
  const scp_sentry *e;
  scp_executable ex;
  scp_lc_instance_key(user, &ik, kb);
  assert_int_equal(scp_storage_get(h, &ik, &e), SCP_OK);
  assert_true(scp_lc_parse_instance(e->val, e->vallen, &ex));
  assert_int_equal(ex.kind, SCP_EXEC_EXTERNAL_REF);
  assert_memory_equal(ex.owner + 1, owner, 32);
  assert_int_equal(ex.taglen, sizeof tagtext - 1);
  /* the executable reads as the Wasm it resolves to */
  assert_int_equal(call(h, "get_address_executable", &uaddr, &v), SCP_OK);
  const scp_hobj *vec = scp_host_obj(h, v);
  assert_non_null(vec);
  assert_int_equal(vec->len, 2);
  assert_memory_equal(scp_host_obj(h, vec->u.vals[1])->u.bytes, hash1, 32);
  /* extend v2, Code scope: the reference entry and the Wasm move, the
   * instance does not */
  uint64_t ext[5] = { uaddr, 2 /* Code */, scp_val_u32(5000), scp_val_u32(0), scp_val_u32(100000) };
  assert_int_equal(call(h, "extend_contract_instance_and_code_ttl_v2", ext, &ret), SCP_OK);
  scp_lkey ck1;
  scp_lc_code_key(hash1, &ck1);
  assert_int_equal(scp_storage_get(h, &ck1, &e), SCP_OK);
  assert_int_equal(e->live_until, 5000);
  assert_int_equal(scp_storage_get(h, &ik, &e), SCP_OK);
  assert_int_equal(e->live_until, 1000);
  scp_lkey rk;
  assert_int_equal(scp_lc_exec_ref_key(h, &ex, &rk), SCP_OK);
  assert_int_equal(scp_storage_get(h, &rk, &e), SCP_OK);
  assert_int_equal(e->live_until, 5000);
  scp_lkey_free(&rk);
  /* Instance scope: only the instance */
  ext[1] = 1;   /* Instance */
  ext[2] = scp_val_u32(7000);
  assert_int_equal(call(h, "extend_contract_instance_and_code_ttl_v2", ext, &ret), SCP_OK);
  assert_int_equal(scp_storage_get(h, &ik, &e), SCP_OK);
  assert_int_equal(e->live_until, 7000);
  assert_int_equal(scp_storage_get(h, &ck1, &e), SCP_OK);
  assert_int_equal(e->live_until, 5000);
  /* a reference that does not exist */
  uint64_t tag2, s2;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_STRING_OBJ, (const uint8_t *)"x", 1, &s2),
                   SCP_OK);
  assert_int_equal(call(h, "create_executable_tag", &s2, &tag2), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(h, user), SCP_OK);
  upd[1] = tag2;
  assert_int_equal(call(h, "update_current_contract_executable_ref", upd, &ret), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE));
  scp_host_pop_frame(h);
  scp_host_destroy(h);
}

/* get_contract_id: the same id as a deployment from that deployer and
 * salt; charges from the cost parameters, in the reference's order: the
 * checked arguments (2 x VisitObject), the deployer's ScAddress clone,
 * the salt read as a Uint256, the ContractIdPreimage clone, the network id
 * Bytes object (get_ledger_network_id through Env: its body, 971 CPU, and
 * its result's CheckedEnvArg, 60 -- the 1,031 CPU between the nested call
 * and ret of get_ledger_network_id inside create_contract in
 * test_v_new_gets_contract_code_cost_inputs_upload.json steps 10-11) read
 * back as a Hash, the preimage's XDR written one ValSer
 * per write (contract deployer: 4, 32, 4, 4, 32, 32 bytes), SHA-256 of the
 * 108 bytes, the Address object, the result's check (VisitObject, as
 * the 60 CPU between the last nested ret and the outer ret of
 * test__lifecycle__cap_68_executable_getter__get_account_executable.json). */
static void test_get_contract_id(void **state) {
  (void)state;
  scp_budget b, want;
  scp_host *h = new_host(&b, NULL);
  scp_budget_init(&want, UINT64_MAX, UINT64_MAX);
  uint8_t dep[32] = { 5 }, salt[32] = { 6 }, id[32];
  uint64_t args[2], ret;
  args[0] = address(h, 1, dep);
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, salt, 32, &args[1]), SCP_OK);
  uint64_t cpu = b.cpu, mem = b.mem;
  assert_int_equal(call(h, "get_contract_id", args, &ret), SCP_OK);
  const struct { scp_cost_type t; int64_t n; } c[] = {
    { SCP_COST_VisitObject, -1 }, { SCP_COST_VisitObject, -1 },
    { SCP_COST_VisitObject, -1 }, { SCP_COST_MemCpy, 48 },
    { SCP_COST_VisitObject, -1 }, { SCP_COST_MemCpy, 32 },
    { SCP_COST_MemCpy, 80 },
    { SCP_COST_MemCpy, 24 }, { SCP_COST_MemAlloc, 32 }, { SCP_COST_MemCpy, 32 },
    { SCP_COST_MemAlloc, 64 }, { SCP_COST_VisitObject, -1 },
    { SCP_COST_VisitObject, -1 }, { SCP_COST_MemCpy, 32 },
    { SCP_COST_ValSer, 4 }, { SCP_COST_ValSer, 32 }, { SCP_COST_ValSer, 4 },
    { SCP_COST_ValSer, 4 }, { SCP_COST_ValSer, 32 }, { SCP_COST_ValSer, 32 },
    { SCP_COST_ComputeSha256Hash, 108 },
    { SCP_COST_MemAlloc, 64 },
    { SCP_COST_VisitObject, -1 },   /* the result's check */
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
    assert_int_equal(scp_budget_charge(&want, c[i].t, 1, c[i].n), SCP_OK);
  assert_int_equal(b.cpu - cpu, want.cpu);
  assert_int_equal(b.mem - mem, want.mem);
  scp_host_contract_id(h, true, dep, salt, id);
  const scp_hobj *o = scp_host_obj(h, ret);
  assert_non_null(o);
  assert_int_equal(o->u.bytes[0], 1);
  assert_memory_equal(o->u.bytes + 1, id, 32);
  /* a salt of the wrong size */
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, salt, 31, &args[1]), SCP_OK);
  assert_int_equal(call(h, "get_contract_id", args, &ret), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE));
  scp_host_destroy(h);
}

/* test__lifecycle__cap_68_executable_getter__get_account_executable.json
 * steps 1 -> 4: an account whose entry exists (written by the test's
 * create_account: in the map and the footprint) reads as
 * [Symbol("Account")]: cpu +2,349, mem +272. */
static void test_get_account_executable(void **state) {
  (void)state;
  scp_budget b;
  scp_host *h = new_host(&b, NULL);
  uint8_t zero[32] = { 0 }, entry[4] = { 0 };
  scp_lkey ak = { .type = SCP_LK_ACCOUNT };
  assert_int_equal(scp_storage_seed(h, &ak, entry, sizeof entry, UINT32_MAX, true), SCP_OK);
  uint64_t acc = address(h, 0, zero), ret;
  uint64_t cpu = b.cpu, mem = b.mem;
  assert_int_equal(call(h, "get_address_executable", &acc, &ret), SCP_OK);
  assert_int_equal(b.cpu - cpu, 2349);
  assert_int_equal(b.mem - mem, 272);
  const scp_hobj *o = scp_host_obj(h, ret);
  assert_non_null(o);
  assert_int_equal(o->tag, SCP_TAG_VEC_OBJ);
  assert_int_equal(o->len, 1);
  uint64_t sym;
  assert_true(scp_val_symbol_small((const uint8_t *)"Account", 7, &sym));
  assert_int_equal(o->u.vals[0], sym);
  scp_host_destroy(h);
}

/* End to end: a C contract (tests/fixtures/wasm/upgrader.c) replaces its
 * own code with the counter example's, which is in the ledger; the host
 * call shows in the profile with the event it emitted.  Then the same with
 * a hash nobody uploaded: Error(Storage, MissingValue). */
static void test_upgrade_e2e(void **state) {
  (void)state;
  uint8_t *wasm, *counter;
  size_t len, clen;
  scp_error err;
  assert_int_equal(scp_read_file(build_path("tests/fixtures/wasm/upgrader.wasm"), &wasm, &len, &err),
                   SCP_OK);
  assert_int_equal(scp_read_file(build_path("examples/counter.wasm"), &counter, &clen, &err), SCP_OK);
  uint8_t hash[32];
  SHA256(counter, clen, hash);
  for (int pass = 0; pass < 2; pass++) {
    char text[80] = "bytes:";
    if (pass) hash[0] ^= 1;   /* no such code */
    for (int i = 0; i < 32; i++) snprintf(text + 6 + 2 * i, 3, "%02x", hash[i]);
    scp_arg arg;
    assert_int_equal(scp_arg_parse(text, &arg, &err), SCP_OK);
    scp_contract_file cf = { "examples/counter.wasm", counter, clen };
    scp_soroban_opts o = { .wasm_path = "upgrader.wasm", .wasm = wasm, .wasm_len = len,
                           .function = "upgrade", .args = &arg, .nargs = 1, .ledger = {.contracts = &cf,
                           .ncontracts = 1} };
    scp_profile *p = NULL;
    int rc = scp_soroban_profile(&o, &p, &err);
    int node = -1;
    for (size_t i = 0; p && i < p->nnodes; i++)
      if (!strcmp(scp_prof_str(p, p->frames[p->nodes[i].frame].name),
                  "host:update_current_contract_wasm"))
        node = (int)i;
    if (!pass) {
      assert_int_equal(rc, SCP_OK);
      assert_true(node >= 0);
      assert_int_equal(p->nodes[node].calls, 1);
      assert_true(p->nodes[node].self[0] > 0);
    } else {
      assert_int_not_equal(rc, SCP_OK);
      assert_non_null(strstr(err.msg, "update_current_contract_wasm: Wasm does not exist"));
    }
    scp_profile_destroy(p);
  }
  free(wasm);
  free(counter);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_get_non_existent_executable),
    cmocka_unit_test(test_get_account_executable),
    cmocka_unit_test(test_update_wasm_missing),
    cmocka_unit_test(test_update_wasm),
    cmocka_unit_test(test_executable_reference),
    cmocka_unit_test(test_get_contract_id),
    cmocka_unit_test(test_upgrade_e2e),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
