/*
 * test_instance.c — a contract frame's instance storage (host_instance.c):
 * the load on a frame's first access, the write-back at the frame's end,
 * the reload of a re-entrant parent frame, with exact charges.
 *
 * The numbers are worked out by hand from the reference's rules
 * (rs-soroban-env v28: frame.rs persist_instance_storage /
 * maybe_init_instance_storage / reload_instance_storage, storage.rs
 * InstanceStorageMap::from_instance_xdr, conversion.rs
 * instance_storage_map_to_scmap, data_helper.rs store_contract_instance)
 * and cost-params.txt:
 *   MemCpy(x)   = 42 + x/8          MemCmp(x) = 44 + x/8
 *   MemAlloc(x) = 434 + x/8, memory 16 + x
 *   bulk init of n T (charge_bulk_init_cpy) = MemCpy(24), MemAlloc(n|T|),
 *   MemCpy(n|T|)
 * The storage map holds one entry, the contract's instance (read-write in
 * the footprint), so each storage access is fixed:
 *   comparing the instance key with itself: MemCmp(48) 50 (ScAddress) +
 *     MemCmp(4) 44 (durability) = 94
 *   find in 1 entry of size s: MemCpy(2s) + 94; get: find + MemCpy(s)
 *   footprint get (s = 25): 48 + 94 + 45 = 187
 *   has / get (get_host_entry): footprint get 187, store find 59 + 94,
 *     footprint get 187, handle_maybe_expired's store get 203, store get
 *     203 = 933
 *   put: handle_maybe_expired 203, footprint get 187, MemAlloc(32) 438
 *     (memory 48), insert: MemCpy(68) 50, find 153, bulk init of 1 store
 *     entry 45 + 442 + 50 (memory 84), from_map scan MemCpy(68) 50
 *     = 1618 CPU, 132 bytes
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_private.h"
#include "soroban/core/host_instance.h"
#include "soroban/core/host_lifecycle.h"
#include "host_fixture.h"

static const uint8_t contract[32] = { 0xc0, 0xff, 0xee };

/* The instance image as created: Wasm(hash 0xaa..), storage None. */
static const uint8_t created[44] = { 0, 0, 0, 19, 0, 0, 0, 0, 0xaa };

static scp_lkey instance_key(uint8_t kb[4]) {
  scp_lkey k;
  scp_lc_instance_key(contract, &k, kb);
  return k;
}

static int setup(void **state) {
  if (fixture_open(state, UINT64_MAX, UINT64_MAX, NULL, 8)) return -1;
  fixture *f = *state;
  uint8_t kb[4];
  scp_lkey k = instance_key(kb);
  /* in the storage map and the footprint (read-write), as after the
   * call read it and a frame wrote it */
  return scp_storage_seed(f->h, &k, created, sizeof created, 4095, true) ? -1 : 0;
}


static int frame_end(fixture *f, uint64_t *cpu, uint64_t *mem) {
  uint64_t c = f->b.cpu, m = f->b.mem;
  int rc = scp_inst_frame_end(f->h);
  *cpu = f->b.cpu - c;
  *mem = f->b.mem - m;
  return rc;
}

static const scp_sentry *entry(fixture *f) {
  for (size_t i = 0; i < f->h->nstore; i++)
    if (f->h->store[i].k.type == SCP_LK_CONTRACT_DATA && !memcmp(f->h->store[i].k.id, contract, 32))
      return &f->h->store[i];
  return NULL;
}

/* A frame writes {k: 5} and ends: persist_instance_storage. */
static void put_k5_and_end(fixture *f) {
  uint64_t ret, cpu, mem;
  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  uint64_t p[3] = { sym("k"), scp_val_u32(5), 2 };
  assert_int_equal(fixture_call(f, "put_contract_data", p, &ret, &cpu, NULL), SCP_OK);
  /* the first access: storage None, from_map of no entries = MemCpy(0) 42
   * (then test_host.c's put: 295 + 45 + 45 + 45 + 437 + 45 + 45) */
  assert_int_equal(cpu, 295 + 42 + 45 + 45 + 45 + 437 + 45 + 45);
  assert_int_equal(frame_end(f, &cpu, &mem), SCP_OK);
  /* instance_storage_map_to_scmap of 1 entry: Vec<ScMapEntry> bulk init
   * 45 + MemAlloc(192) 458 + MemCpy(192) 66 (memory 208), the scan
   * MemCpy(24) 45, small key and value (no charge); the current id 46;
   * the key: 46 + MemAlloc(152) 453 (memory 168); has 933, get 933; the
   * entry's clone MemCpy(288) 78 (storage None: no substructure);
   * Rc::metered_new MemAlloc(288) 470 (memory 304); put 1618 (132) */
  assert_int_equal(cpu, 45 + 458 + 66 + 45 + 46 + 46 + 453 + 933 + 933 + 78 + 470 + 1618);
  assert_int_equal(cpu, 5191);
  assert_int_equal(mem, 208 + 168 + 304 + 132);
  scp_host_pop_frame(f->h);
}

static void test_persist_at_frame_end(void **state) {
  fixture *f = *state;
  put_k5_and_end(f);
  /* the entry holds storage Some({k: 5}), the executable kept */
  static const uint8_t want[] = {
    0, 0, 0, 19, 0, 0, 0, 0, 0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 1, 0, 0, 0, 1,               /* Some, 1 entry */
    0, 0, 0, 15, 0, 0, 0, 1, 'k', 0, 0, 0, /* Symbol "k" */
    0, 0, 0, 3, 0, 0, 0, 5                /* U32 5 */
  };
  const scp_sentry *e = entry(f);
  assert_non_null(e);
  assert_int_equal(e->vallen, sizeof want);
  assert_memory_equal(e->val, want, sizeof want);
  assert_int_equal(e->live_until, 4095);
  /* the write counts in the storage statistics: key 4 + value 64 */
  scp_storage_stats st;
  scp_host_storage_stats(f->h, &st);
  assert_int_equal(st.writes, 1);
  assert_int_equal(st.bytes_written, 4 + sizeof want);
}

static void test_next_frame_loads_the_map(void **state) {
  fixture *f = *state;
  put_k5_and_end(f);
  uint64_t ret, cpu, mem;
  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  uint64_t g[2] = { sym("k"), 2 };
  assert_int_equal(fixture_call(f, "get_contract_data", g, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(ret, scp_val_u32(5));
  /* 295 + from_instance_xdr of 1 entry: the Result<Vec<(Val, Val)>>
   * collect MemCpy(40) 47 + MemAlloc(40) 439 (memory 56) + MemCpy(40) 47,
   * small key and value (no charge), from_map's scan MemCpy(24) 45; then
   * the find in 1 entry MemCpy(48) 48, the hit MemCpy(24) 45 */
  assert_int_equal(cpu, 295 + 47 + 439 + 47 + 45 + 48 + 45);
  assert_int_equal(mem, 56);
  /* only reading: nothing written back */
  assert_int_equal(frame_end(f, &cpu, &mem), SCP_OK);
  assert_int_equal(cpu, 0);
  assert_int_equal(mem, 0);
  scp_host_pop_frame(f->h);
}

static void test_second_write_clones_the_old_map(void **state) {
  fixture *f = *state;
  put_k5_and_end(f);
  uint64_t ret, cpu, mem;
  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  uint64_t p[3] = { sym("m"), scp_val_u32(7), 2 };
  assert_int_equal(fixture_call(f, "put_contract_data", p, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(frame_end(f, &cpu, &mem), SCP_OK);
  /* 2 entries: bulk init 45 + MemAlloc(384) 482 + MemCpy(384) 90 (memory
   * 400), scan MemCpy(48) 48, ids and key 46 + 46 + 453 (168), has 933,
   * get 933, the entry's clone MemCpy(288) 78 + its map's Vec<ScMapEntry>
   * MemAlloc(192) 458 (208) + MemCpy(192) 66 + Symbol "k"'s bytes
   * MemAlloc(1) 434 (17) + MemCpy(1) 42, Rc::metered_new 470 (304), put
   * 1618 (132) */
  assert_int_equal(cpu, 45 + 482 + 90 + 48 + 46 + 46 + 453 + 933 + 933 + 78 + 458 + 66 + 434 + 42 +
                            470 + 1618);
  assert_int_equal(mem, 400 + 168 + 208 + 17 + 304 + 132);
  scp_host_pop_frame(f->h);
  /* keys in order, both there */
  const scp_sentry *e = entry(f);
  assert_int_equal(e->vallen, 40 + 8 + 2 * (12 + 8));
  assert_int_equal(e->val[40 + 8 + 8], 'k');
  assert_int_equal(e->val[40 + 8 + 20 + 8], 'm');
}

/* maybe_reload_instance_storage_on_frame_pop: a parent frame of the same
 * contract (re-entry) reads what its child wrote. */
static void test_reentrant_parent_reloads(void **state) {
  fixture *f = *state;
  uint64_t ret, cpu, mem;
  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  uint64_t h[2] = { sym("k"), 2 };
  assert_int_equal(fixture_call(f, "has_contract_data", h, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, SCP_VAL_FALSE);
  uint64_t p[3] = { sym("k"), scp_val_u32(5), 2 };
  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  assert_int_equal(fixture_call(f, "put_contract_data", p, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(frame_end(f, &cpu, &mem), SCP_OK);
  /* the persist (5191 / 812, as above), then the parent's reload: the key
   * 46 + 453 (168), get 933, the ScContractInstance clone MemCpy(96) 54 +
   * its map MemAlloc(192) 458 (208) + MemCpy(192) 66 + "k" 434 (17) + 42,
   * from_instance_xdr 47 + 439 (56) + 47 + 45 */
  assert_int_equal(cpu, 5191 + 46 + 453 + 933 + 54 + 458 + 66 + 434 + 42 + 47 + 439 + 47 + 45);
  assert_int_equal(mem, 812 + 168 + 208 + 17 + 56);
  scp_host_pop_frame(f->h);
  assert_int_equal(fixture_call(f, "get_contract_data", h, &ret, &cpu, NULL), SCP_OK);
  assert_int_equal(ret, scp_val_u32(5));
  assert_int_equal(cpu, 295 + 48 + 45);   /* loaded already */
  assert_false(f->h->frames[0].instance_modified);
  scp_host_pop_frame(f->h);
}

/* A persist that runs out of budget fails the frame (the caller rolls
 * the storage back); the entry is left as it was. */
static void test_persist_out_of_budget(void **state) {
  fixture *f = *state;
  uint64_t ret;
  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  uint64_t p[3] = { sym("k"), scp_val_u32(5), 2 };
  assert_int_equal(fixture_call(f, "put_contract_data", p, &ret, NULL, NULL), SCP_OK);
  f->b.cpu_limit = f->b.cpu + 5190;   /* one unit short */
  assert_int_equal(scp_inst_frame_end(f->h), SCP_ERR_BUDGET);
  scp_host_pop_frame(f->h);
  const scp_sentry *e = entry(f);
  assert_int_equal(e->vallen, sizeof created);
}

/* A frame without an instance entry (the host-function frame) has
 * nothing to write back into: store_contract_instance's new-entry branch
 * without an executable, Error(Context, InternalError). */
static void test_persist_without_instance_entry(void **state) {
  fixture *f = *state;
  uint64_t ret;
  static const uint8_t other[32] = { 0xbe, 0xef };
  assert_int_equal(scp_host_push_contract_frame(f->h, other), SCP_OK);
  uint64_t p[3] = { sym("k"), scp_val_u32(5), 2 };
  assert_int_equal(fixture_call(f, "put_contract_data", p, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(scp_inst_frame_end(f->h), SCP_ERR_HOST);
  assert_int_equal(f->h->errval, scp_val_error(SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR));
  scp_host_pop_frame(f->h);
}

/* update_current_contract_wasm: store_contract_instance(Some(executable),
 * None) keeps the storage map. */
static void test_new_executable_keeps_the_map(void **state) {
  fixture *f = *state;
  put_k5_and_end(f);
  const scp_sentry *e = entry(f);
  scp_executable nw = { .kind = SCP_EXEC_WASM, .hash = { 0xbb } };
  uint8_t *img;
  uint32_t len;
  assert_int_equal(scp_lc_instance_image_keep(&nw, e->val, e->vallen, &img, &len), SCP_OK);
  assert_int_equal(len, e->vallen);
  assert_int_equal(img[8], 0xbb);
  assert_memory_equal(img + 40, e->val + 40, len - 40);
  free(img);
}

/* An old image with no storage word to keep (cut short), or one that is
 * not an instance at all: the new image is the executable's with
 * storage None -- the out-parameters are always set. */
static void test_new_executable_without_old_storage(void **state) {
  (void)state;
  scp_executable nw = { .kind = SCP_EXEC_WASM, .hash = { 0xcc } };
  uint8_t *want, *img = NULL;
  uint32_t wlen, len = 0;
  assert_int_equal(scp_lc_instance_image(&nw, &want, &wlen), SCP_OK);
  const uint8_t junk[3] = { 1, 2, 3 };
  const struct { const uint8_t *p; uint32_t n; } olds[] = { { want, wlen - 4 }, { junk, 3 } };
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(scp_lc_instance_image_keep(&nw, olds[i].p, olds[i].n, &img, &len), SCP_OK);
    assert_non_null(img);
    assert_int_equal(len, wlen);
    assert_memory_equal(img, want, wlen);
    free(img);
    img = NULL;
  }
  free(want);
}

/* The reference's trace test__prng__commit_reveal.json runs a native test
 * contract (no VM, no DispatchHostFunction: 295 is taken off each
 * dispatch here) whose instance entry and code entry are the storage map's
 * two entries, both in the footprint, the instance read-write.
 *   steps 15-16 has_contract_data(seed, Instance) -> False, a fresh frame:
 *     87 CPU (MemCpy(0) 42 + the find in nothing 45)
 *   steps 29-32 put_contract_data(seed, Bytes(32), Instance): 722 CPU /
 *     40 B; put_contract_data(ledger, U32(1), Instance): 674 / 64
 *   step 30 -> 33 pop of commit (Ok): 5,937 CPU / 1,120 B -- the write-back
 *     of {ledger: 1, seed: Bytes(32)} and nothing else (a pop without
 *     instance changes costs nothing in the trace, steps 10, 17)
 *   steps 77-78, the next frame's has_contract_data(seed, Instance) ->
 *     True: 1,658 CPU / 224 B: from_instance_xdr of the two entries
 *     (collect 47 + 444 + 52, the Bytes object made again: bulk init 45 +
 *     438 + 46 and add_host_object 442, the scan 48), the find in 2
 *     entries 51, and get's access charge 45 for the key found (has is
 *     map.get(k).is_some(): this trace found that charge missing)
 *   steps 79-80 get_contract_data(ledger): 96 (find 51, access 45).
 * (get_contract_data(seed) is not compared: a test contract gets the
 * Bytes object as is, a VM frame through a relative handle.) */
static void test_trace_commit_reveal(void **state) {
  fixture *f = *state;
  uint64_t ret, cpu, mem;
  scp_lkey code = { .type = SCP_LK_CONTRACT_CODE, .id = { 0xaa } };
  static const uint8_t wasm[4] = { 0, 0x61, 0x73, 0x6d };
  assert_int_equal(scp_storage_seed(f->h, &code, wasm, 4, 4095, true), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  uint64_t h[2] = { sym("seed"), 2 };
  assert_int_equal(fixture_call(f, "has_contract_data", h, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(ret, SCP_VAL_FALSE);
  assert_int_equal(cpu - 295, 87);
  uint64_t bytes, rel;
  static const uint8_t raw[32] = { 7 };
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_BYTES_OBJ, raw, 32, &bytes), SCP_OK);
  assert_int_equal(scp_host_to_relative(f->h, bytes, &rel), SCP_OK);
  uint64_t p1[3] = { sym("seed"), rel, 2 }, p2[3] = { sym("ledger"), scp_val_u32(1), 2 };
  assert_int_equal(fixture_call(f, "put_contract_data", p1, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(cpu - 295, 722);
  assert_int_equal(mem, 40);
  assert_int_equal(fixture_call(f, "put_contract_data", p2, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(cpu - 295, 674);
  assert_int_equal(mem, 64);
  assert_int_equal(frame_end(f, &cpu, &mem), SCP_OK);
  assert_int_equal(cpu, 5937);
  assert_int_equal(mem, 1120);
  scp_host_pop_frame(f->h);

  assert_int_equal(scp_host_push_contract_frame(f->h, contract), SCP_OK);
  assert_int_equal(fixture_call(f, "has_contract_data", h, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(ret, SCP_VAL_TRUE);
  assert_int_equal(cpu - 295, 1658);
  assert_int_equal(mem, 224);
  uint64_t g1[2] = { sym("ledger"), 2 };
  assert_int_equal(fixture_call(f, "get_contract_data", g1, &ret, &cpu, NULL), SCP_OK);
  assert_int_equal(ret, scp_val_u32(1));
  assert_int_equal(cpu - 295, 96);
  scp_host_pop_frame(f->h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_persist_at_frame_end, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_next_frame_loads_the_map, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_second_write_clones_the_old_map, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_reentrant_parent_reloads, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_persist_out_of_budget, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_persist_without_instance_entry, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_new_executable_keeps_the_map, setup, fixture_close),
    cmocka_unit_test(test_new_executable_without_old_storage),
    cmocka_unit_test_setup_teardown(test_trace_commit_reveal, setup, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
