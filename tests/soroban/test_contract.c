/*
 * test_contract.c — cross-contract `call` up to the callee's VM frame,
 * checked to the unit against the reference's trace
 * test__storage__test_persistent_storage.json, steps 18 -> 24:
 *
 *   19 call call(Address(obj#13), Symbol(obj#17), Vec(obj#19))
 *   ...  (the name read as a SymbolStr: symbol_len, symbol_copy_to_slice)
 *   24 push VM                    cpu +833,006   mem +1,215,057
 *
 * That span holds: the checked arguments (3 x VisitObject), the args Vec,
 * the ScAddress clone, the reserved-name check's read of the Symbol
 * object, the instance key and its storage read, the args Vec<Val>, the
 * id clone, the code key, its storage read and clone (code written in the
 * same run: not from the snapshot), the VM (ParseWasm* + the linker's
 * import symbols + InstantiateWasm* + the import check's symbols + 16 pages
 * of linear memory), and push_context (the auth manager's frame push and
 * snapshot in enforcing mode, the storage map's clone, the Context).
 * The contract is the reference's own example_contract_data.wasm (see
 * ref_wasm.h: skipped unless SCP_REF_WASMS has it); the state is the
 * trace's after
 * create_contract: code and instance entries in the map and footprint.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ref_wasm.h"
#include <openssl/sha.h>

#include "soroban/host_private.h"
#include "wasm/scp_wasm.h"

typedef struct probe {
  scp_budget *b;
  uint64_t cpu, mem;     /* at the frame push */
  bool called;
  uint32_t nargs;
} probe;

/* The invoker's part up to the frame push, as sor_vm.c does it. */
static int invoker(void *ctx, scp_host *h, const scp_invocation *inv, uint64_t *ret,
                   scp_error *err) {
  probe *p = ctx;
  scp_wasm_module *m;
  assert_int_equal(scp_wasm_load(inv->wasm, inv->len, &m, err), SCP_OK);
  assert_true(inv->parse);
  assert_int_equal(scp_soroban_vm_charges(p->b, m, inv->parse), SCP_OK);
  assert_int_equal(scp_budget_charge(p->b, SCP_COST_MemAlloc, 1,
                                     (int64_t)scp_wasm_initial_pages(m) * 65536), SCP_OK);
  assert_int_equal(scp_host_charge_push_context(h, inv->id), SCP_OK);
  p->cpu = p->b->cpu;
  p->mem = p->b->mem;
  p->called = true;
  p->nargs = inv->nargs;
  scp_wasm_module_free(m);
  *ret = SCP_VAL_VOID;
  return SCP_OK;
}

static void test_call_to_vm_push(void **state) {
  (void)state;
  uint8_t *w;
  size_t n;
  scp_error err;
  if (!ref_wasm("example_contract_data.wasm", &w, &n)) skip();
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  scp_host_opts o = { .auth_enforcing = true };
  scp_host *h;
  assert_int_equal(scp_host_create(&b, &o, &h), SCP_OK);
  probe p = { .b = &b };
  scp_host_set_invoker(h, invoker, &p);
  /* the state after upload_wasm + create_contract */
  uint8_t id[32] = { 7 }, hash[32], img[44] = { 0, 0, 0, 19 };
  SHA256(w, n, hash);
  memcpy(img + 8, hash, 32);
  scp_lkey ck = { .type = SCP_LK_CONTRACT_CODE };
  memcpy(ck.id, hash, 32);
  uint8_t kb[4] = { 0, 0, 0, 20 };
  scp_lkey ik = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = kb, .keylen = 4 };
  memcpy(ik.id, id, 32);
  assert_int_equal(scp_storage_seed(h, &ck, w, (uint32_t)n, 4095, true), SCP_OK);
  assert_int_equal(scp_storage_seed(h, &ik, img, sizeof img, 4095, true), SCP_OK);
  /* the call's arguments */
  uint8_t enc[33] = { 1 };
  memcpy(enc + 1, id, 32);
  uint64_t addr, sym, vec, key;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &addr), SCP_OK);
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ,
                                                  (const uint8_t *)"has_persistent", 14, &sym), SCP_OK);
  assert_true(scp_val_symbol_small((const uint8_t *)"key_1", 5, &key));
  assert_int_equal(scp_host_vec_new_from_slice(h, &key, 1, &vec), SCP_OK);
  uint64_t cpu = b.cpu, mem = b.mem, args[3] = { addr, sym, vec }, ret;
  int id_call = scp_hostfn_find_name("call");
  assert_true(id_call >= 0);
  assert_int_equal(scp_host_call(h, (unsigned)id_call, args, NULL, &ret, &err), SCP_OK);
  assert_true(p.called);
  assert_int_equal(p.nargs, 1);
  assert_int_equal(p.cpu - cpu, 833006);
  assert_int_equal(p.mem - mem, 1215057);
  scp_host_destroy(h);
  free(w);
}

static void test_contract_id_and_deploy(void **state) {
  (void)state;
  scp_budget b;
  scp_budget_init(&b, 0, 0);
  scp_host *h;
  assert_int_equal(scp_host_create(&b, NULL, &h), SCP_OK);
  uint8_t zero[32] = { 0 }, salt[32] = { 0 }, a[32], c[32];
  salt[31] = 1;
  scp_host_contract_id(h, false, zero, salt, a);
  scp_host_contract_id(h, true, zero, salt, c);
  assert_memory_not_equal(a, c, 32);   /* the deployer's kind is in the preimage */
  char sk[57];
  scp_host_contract_strkey(a, sk);
  assert_int_equal(strlen(sk), 56);
  assert_int_equal(sk[0], 'C');
  /* the examples' callee id (tests/e2e/cross_contract.sh) */
  assert_string_equal(sk, "CCPLZZHAPQQN32L6WKKJN45KLHUTUFSCECQWX42DSULQ7RMO72ZAMIRJ");
  /* deploying charges nothing */
  static const uint8_t wasm[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
  uint64_t cpu = b.cpu;
  assert_int_equal(scp_host_deploy(h, wasm, sizeof wasm, zero, salt, c), SCP_OK);
  assert_memory_equal(a, c, 32);
  assert_int_equal(b.cpu, cpu);
  scp_host_destroy(h);
}

/* extend_*_ttl of a contract's instance and code: the entries' live-until
 * ledgers move, an account address is refused. */
static void test_instance_and_code_ttl(void **state) {
  (void)state;
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  scp_host_opts o = { .max_entry_ttl = 100000 };
  scp_host *h;
  assert_int_equal(scp_host_create(&b, &o, &h), SCP_OK);
  static const uint8_t wasm[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
  uint8_t zero[32] = { 0 }, id[32];
  assert_int_equal(scp_host_deploy(h, wasm, sizeof wasm, zero, zero, id), SCP_OK);
  uint8_t enc[33] = { 1 }, acc[33] = { 0 };
  memcpy(enc + 1, id, 32);
  uint64_t addr, account, ret;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &addr), SCP_OK);
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_ADDRESS_OBJ, acc, 33, &account), SCP_OK);
  scp_error err;
  int fn = scp_hostfn_find_name("extend_contract_instance_and_code_ttl");
  assert_true(fn >= 0);
  uint64_t args[3] = { addr, scp_val_u32(5000), scp_val_u32(50000) };
  assert_int_equal(scp_host_call(h, (unsigned)fn, args, NULL, &ret, &err), SCP_OK);
  for (size_t i = 0; i < h->nstore; i++) {
    assert_true(h->store[i].present);
    assert_int_equal(h->store[i].live_until, 50000);
  }
  assert_int_equal(h->nstore, 2);   /* instance and code, read through */
  args[0] = account;
  assert_int_equal(scp_host_call(h, (unsigned)fn, args, NULL, &ret, &err), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_OBJECT, SCP_EC_INVALID_INPUT));
  scp_host_destroy(h);
}

/* A host-function frame push on an empty storage map, enforcing auth:
 * test__lifecycle__test_invalid_contract.json step 0 -> 1 (cpu 14,285 ->
 * 16,509, mem 0 -> 616). */
static void test_host_function_frame_push(void **state) {
  (void)state;
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  scp_host_opts o = { .auth_enforcing = true };
  scp_host *h;
  assert_int_equal(scp_host_create(&b, &o, &h), SCP_OK);
  assert_int_equal(scp_host_charge_push_context(h, NULL), SCP_OK);
  assert_int_equal(b.cpu, 16509 - 14285);
  assert_int_equal(b.mem, 616);
  scp_host_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_call_to_vm_push),
    cmocka_unit_test(test_contract_id_and_deploy),
    cmocka_unit_test(test_instance_and_code_ttl),
    cmocka_unit_test(test_host_function_frame_push),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
