/*
 * test_lazy_decode.c — recording mode stores an entry it reads through
 * from the snapshot source encoded, and its first get decodes it with
 * charges (rs-soroban-env v28 storage.rs try_get_full_helper,
 * ledger_entry.rs LazyLedgerEntry::decoded; the rules in host_lazy.c).
 *
 * Derived by hand from the cost parameters (cost_types.def), for the
 * contract data entry below: contract address, key U32 (8 bytes of XDR),
 * persistent, value U64 (12 bytes).  Its LedgerEntry is
 * 4 (lastModifiedLedgerSeq) + 4 (the data arm) + 4 (ContractDataEntry ext)
 * + 36 (ScAddress::Contract) + 8 (key) + 4 (durability) + 12 (value)
 * + 4 (LedgerEntryExt v0) = 76 bytes.  The decoding charges
 *   ValDeser(76)   cpu 331 + 4369*76/128 = 331 + 2594 = 2925, mem 384*76/128 = 228
 *   MemAlloc(288)  cpu 434 + 16*288/128 = 470, mem 16 + 128*288/128 = 304
 *                  (Rc::metered_new of the LedgerEntry)
 *   ledger_entry_to_ledger_key: MemCpy(48) the ScAddress: cpu 42 + 6 = 48;
 *                  MemCpy(96) the ScVal: cpu 42 + 12 = 54 (a U32 has no
 *                  substructure)
 *   the key compare: MemCmp(48) the address: cpu 44 + 6 = 50; MemCmp(4)
 *                  the U32: 44; MemCmp(4) the durability: 44
 * = cpu 3,635, mem 532.  The tests take it as the difference between a
 * first get and a second one (the same map accesses, the second without
 * the decoding): independent of scprof's other storage charges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_private.h"
#include "host_fixture.h"

enum { DECODE_CPU = 2925 + 470 + 48 + 54 + 50 + 44 + 44, DECODE_MEM = 228 + 304 };

static const uint8_t key_u32[8] = { 0, 0, 0, 3, 0, 0, 0, 7 };            /* ScVal::U32(7) */
static const uint8_t val_u64[12] = { 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 9 };  /* ScVal::U64(9) */

static scp_lkey data_key(void) {
  scp_lkey k = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = (uint8_t *)key_u32,
                 .keylen = 8 };
  memset(k.id, 0xc0, 32);
  return k;
}

static int setup(void **state) {
  scp_host_opts o = { .ledger_sequence = 100, .min_persistent_entry_ttl = 4096, .min_temp_entry_ttl = 16,
                      .max_entry_ttl = 6312000, .lazy_read_through = true };
  if (fixture_open(state, UINT64_MAX, UINT64_MAX, &o, 8)) return -1;
  fixture *f = *state;
  scp_lkey k = data_key();
  return scp_storage_seed(f->h, &k, val_u64, sizeof val_u64, 1000, false) ? -1 : 0;
}

/* The charges of one get of the entry. */
static void get_charges(fixture *f, uint64_t *cpu, uint64_t *mem) {
  scp_lkey k = data_key();
  const scp_sentry *e = NULL;
  uint64_t c = f->b.cpu, m = f->b.mem;
  assert_int_equal(scp_storage_get(f->h, &k, &e), SCP_OK);
  assert_non_null(e);
  assert_int_equal(e->vallen, sizeof val_u64);
  *cpu = f->b.cpu - c;
  *mem = f->b.mem - m;
}

static void has_entry(fixture *f) {
  scp_lkey k = data_key();
  bool found = false;
  assert_int_equal(scp_storage_has(f->h, &k, &found), SCP_OK);
  assert_true(found);
}

static void test_encoded_length(void **state) {
  fixture *f = *state;
  has_entry(f);   /* the read-through */
  const scp_sentry *e = NULL;
  for (size_t i = 0; i < f->h->nstore; i++)
    if (f->h->store[i].k.type == SCP_LK_CONTRACT_DATA) e = &f->h->store[i];
  assert_non_null(e);
  assert_int_equal(e->enc_len, 76);
  assert_int_not_equal(e->lazy, 0);
}

/* has reads through without decoding; the first get decodes, the second
 * does not. */
static void test_first_get_decodes(void **state) {
  fixture *f = *state;
  has_entry(f);
  uint64_t c1, m1, c2, m2, c3, m3;
  get_charges(f, &c1, &m1);
  get_charges(f, &c2, &m2);
  get_charges(f, &c3, &m3);
  assert_int_equal(c1 - c2, DECODE_CPU);
  assert_int_equal(m1 - m2, DECODE_MEM);
  assert_int_equal(c2, c3);
  assert_int_equal(m2, m3);
}

/* extend_ttl does not decode (prepare_extend_ttl), and re-inserts the same
 * entry: the get after it still decodes, once. */
static void test_extend_does_not_decode(void **state) {
  fixture *f = *state;
  scp_lkey k = data_key();
  has_entry(f);
  assert_int_equal(scp_storage_extend_ttl(f->h, &k, 5000, 5000), SCP_OK);
  uint64_t c1, m1, c2, m2;
  get_charges(f, &c1, &m1);
  get_charges(f, &c2, &m2);
  assert_int_equal(c1 - c2, DECODE_CPU);
  assert_int_equal(m1 - m2, DECODE_MEM);
}

/* A put replaces the encoded entry with a decoded one. */
static void test_put_is_decoded(void **state) {
  fixture *f = *state;
  scp_lkey k = data_key();
  has_entry(f);
  assert_int_equal(scp_storage_put(f->h, &k, val_u64, sizeof val_u64, 1000), SCP_OK);
  uint64_t c1, m1, c2, m2;
  get_charges(f, &c1, &m1);
  get_charges(f, &c2, &m2);
  assert_int_equal(c1, c2);
  assert_int_equal(m1, m2);
}

/* The memo is the entry's, shared by the map's rollback copies.  An entry
 * read through inside a frame that rolls back is gone with it: read
 * through again after, it is a new encoded entry and decodes again. */
static void test_rollback_drops_inner_read(void **state) {
  fixture *f = *state;
  scp_sentry *snap = NULL;
  size_t nsnap = 0;
  uint64_t c1, m1, c2, m2, c3, m3;
  assert_int_equal(scp_storage_snapshot(f->h, &snap, &nsnap), SCP_OK);
  has_entry(f);
  get_charges(f, &c1, &m1);
  scp_storage_frame_end(f->h, true, snap, nsnap, f->h->nevents);
  has_entry(f);
  get_charges(f, &c2, &m2);
  get_charges(f, &c3, &m3);
  assert_int_equal(c1, c2);
  assert_int_equal(m1, m2);
  assert_int_equal(c2 - c3, DECODE_CPU);
  assert_int_equal(m2 - m3, DECODE_MEM);
}

/* Read through before the frame, decoded inside it: the rollback keeps
 * the memo (the map before the frame held the same Rc). */
static void test_rollback_keeps_memo(void **state) {
  fixture *f = *state;
  scp_sentry *snap = NULL;
  size_t nsnap = 0;
  uint64_t c1, m1, c2, m2;
  has_entry(f);
  assert_int_equal(scp_storage_snapshot(f->h, &snap, &nsnap), SCP_OK);
  get_charges(f, &c1, &m1);
  scp_storage_frame_end(f->h, true, snap, nsnap, f->h->nevents);
  get_charges(f, &c2, &m2);
  assert_int_equal(c1 - c2, DECODE_CPU);
  assert_int_equal(m1 - m2, DECODE_MEM);
}

/* The snapshot file's length, when the ledger came from one, wins over
 * our encoding's: an entry with LedgerEntryExt v1 (a sponsor: 4 + 4 + 33
 * more bytes) decodes by its 117 bytes. */
static void test_file_length(void **state) {
  fixture *f = *state;
  scp_host_destroy(f->h);
  scp_host_opts o = { .ledger_sequence = 100, .max_entry_ttl = 6312000, .lazy_read_through = true };
  scp_budget_init(&f->b, UINT64_MAX, UINT64_MAX);
  assert_int_equal(scp_host_create(&f->b, &o, &f->h), SCP_OK);
  scp_sentry src = { .k = data_key(), .present = true, .val = (uint8_t *)val_u64, .vallen = sizeof val_u64,
                     .live_until = 1000, .enc_len = 117 };
  assert_int_equal(scp_storage_seed_entry(f->h, &src), SCP_OK);
  has_entry(f);
  uint64_t c1, m1, c2, m2;
  get_charges(f, &c1, &m1);
  get_charges(f, &c2, &m2);
  /* ValDeser(117): cpu 331 + 4369*117/128 = 331 + 3993, mem 384*117/128 = 351 */
  assert_int_equal(c1 - c2, DECODE_CPU - 2925 + 331 + 3993);
  assert_int_equal(m1 - m2, DECODE_MEM - 228 + 351);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_encoded_length, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_first_get_decodes, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_extend_does_not_decode, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_put_is_decoded, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_rollback_drops_inner_read, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_rollback_keeps_memo, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_file_length, setup, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
