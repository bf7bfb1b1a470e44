/*
 * test_sol_input.c — the input region byte for byte (aligned and unaligned
 * layouts, duplicates, realloc space, rent_epoch masked, r2's offset), the
 * write-back with each of the runtime's checks, instruction errors from r0,
 * and base58 keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "solana/scp_sol_input.h"

static const uint8_t PROG[32] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                                 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

static void account(scp_sol_account *a, uint8_t key, const uint8_t *owner, uint64_t lamports,
                    const char *data) {
  memset(a, 0, sizeof *a);
  memset(a->key, key, 32);
  memcpy(a->owner, owner, 32);
  a->lamports = lamports;
  a->len = strlen(data);
  a->data = malloc(a->len + 1);
  memcpy(a->data, data, a->len);
}

static uint64_t get64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* Two accounts, the first passed twice: the exact aligned layout. */
static void test_aligned_layout(void **state) {
  (void)state;
  scp_sol_account a[2];
  account(&a[0], 1, PROG, 1000, "abc");          /* 3 bytes: 5 bytes of alignment */
  account(&a[1], 2, (uint8_t[32]){0}, 7, "");
  scp_sol_ixacct x[3] = {{0, true, true}, {1, false, false}, {0, true, true}};
  scp_sol_ix ix = {x, 3, (const uint8_t *)"\x07\x08", 2, PROG, SCP_SOL_LOADER_V3};
  scp_sol_input in;
  scp_sol_ierr ie = {0};
  assert_int_equal(scp_sol_input_serialize(a, 2, &ix, &in, &ie, NULL), SCP_OK);
  const uint8_t *b = in.buf;
  /* count, account 0 (88-byte header, data, realloc space, padding, rent
   * epoch), account 1, the duplicate, data length, data, program id */
  assert_int_equal(in.len, 8 + (88 + 3 + 10240 + 5 + 8) + (88 + 10240 + 8) + 8 + 8 + 2 + 32);
  assert_int_equal(get64(b), 3);
  /* account 0 */
  assert_int_equal(b[8], 0xff);
  assert_int_equal(b[9], 1);   /* signer */
  assert_int_equal(b[10], 1);  /* writable */
  assert_int_equal(b[11], 0);  /* executable */
  assert_true(memcmp(b + 12, "\0\0\0\0", 4) == 0);
  assert_int_equal(b[16], 1);  /* key */
  assert_int_equal(b[48], 9);  /* owner */
  assert_int_equal(get64(b + 80), 1000);
  assert_int_equal(get64(b + 88), 3);
  assert_memory_equal(b + 96, "abc", 3);
  for (size_t i = 99; i < 99 + 10240 + 5; i++) assert_int_equal(b[i], 0);
  size_t r0 = 96 + 3 + 10240 + 5;
  assert_int_equal(r0 % 8, 0);
  assert_int_equal(get64(b + r0), UINT64_MAX);   /* rent_epoch masked */
  /* account 1 */
  size_t s1 = r0 + 8;
  assert_int_equal(b[s1], 0xff);
  assert_int_equal(b[s1 + 1], 0);
  assert_int_equal(b[s1 + 2], 0);
  assert_int_equal(b[s1 + 8], 2);
  assert_int_equal(get64(b + s1 + 72), 7);
  assert_int_equal(get64(b + s1 + 80), 0);
  assert_int_equal(get64(b + s1 + 88 + 10240), UINT64_MAX);
  /* the duplicate: the index of its first occurrence and 7 zeros */
  size_t d = s1 + 88 + 10240 + 8;
  assert_memory_equal(b + d, "\0\0\0\0\0\0\0\0", 8);
  /* instruction data and its offset (r2), then the program id */
  assert_int_equal(get64(b + d + 8), 2);
  assert_int_equal(in.ixdata_off, d + 16);
  assert_memory_equal(b + in.ixdata_off, "\x07\x08", 2);
  assert_memory_equal(b + in.ixdata_off + 2, PROG, 32);
  assert_int_equal(in.ixdata_off + 34, in.len);
  scp_sol_input_free(&in);
  scp_sol_account_free(&a[0]);
  scp_sol_account_free(&a[1]);
}

/* The deprecated loader's layout: no padding, owner after the data, a
 * duplicate is one byte. */
static void test_unaligned_layout(void **state) {
  (void)state;
  scp_sol_account a[1];
  account(&a[0], 1, PROG, 5, "xy");
  a[0].executable = true;
  scp_sol_ixacct x[2] = {{0, false, true}, {0, false, true}};
  scp_sol_ix ix = {x, 2, (const uint8_t *)"h", 1, PROG, SCP_SOL_LOADER_V1};
  scp_sol_input in;
  scp_sol_ierr ie = {0};
  assert_int_equal(scp_sol_input_serialize(a, 1, &ix, &in, &ie, NULL), SCP_OK);
  const uint8_t *b = in.buf;
  assert_int_equal(in.len, 8 + (3 + 32 + 8 + 8 + 2 + 32 + 1 + 8) + 1 + 8 + 1 + 32);
  assert_int_equal(b[8], 0xff);
  assert_int_equal(b[9], 0);
  assert_int_equal(b[10], 1);
  assert_int_equal(b[11], 1);                /* key starts right away */
  assert_int_equal(get64(b + 43), 5);        /* unaligned lamports */
  assert_int_equal(get64(b + 51), 2);
  assert_memory_equal(b + 59, "xy", 2);
  assert_int_equal(b[61], 9);                /* owner */
  assert_int_equal(b[93], 1);                /* executable */
  assert_int_equal(get64(b + 94), UINT64_MAX);
  assert_int_equal(b[102], 0);               /* duplicate of account 0 */
  assert_int_equal(get64(b + 103), 1);
  assert_int_equal(in.ixdata_off, 111);
  assert_int_equal(b[111], 'h');
  scp_sol_input_free(&in);
  scp_sol_account_free(&a[0]);
}

/* A run that changes the serialized bytes; returns the deserialize status. */
typedef void (*mutate_fn)(uint8_t *buf, const scp_sol_input *in);

static int run(scp_sol_account *a, size_t n, scp_sol_ixacct *x, size_t nx, scp_sol_loader l,
               mutate_fn m, scp_sol_ierr *ie) {
  scp_sol_ix ix = {x, nx, NULL, 0, PROG, l};
  scp_sol_input in;
  assert_int_equal(scp_sol_input_serialize(a, n, &ix, &in, ie, NULL), SCP_OK);
  m(in.buf, &in);
  int rc = scp_sol_input_deserialize(&in, a, &ix, ie);
  scp_sol_input_free(&in);
  return rc;
}

/* aligned offsets of the first account (right after the count) */
#define OWNER0 (8 + 40)
#define LAMPORTS0 (8 + 72)
#define LEN0 (8 + 80)
#define DATA0 (8 + 88)
static size_t acct_size(size_t len) { return 88 + len + 10240 + (8 - len % 8) % 8 + 8; }

static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static void move_one_lamport(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  size_t s1 = 8 + acct_size(3);
  put64(b + LAMPORTS0, get64(b + LAMPORTS0) - 1);
  put64(b + s1 + 72, get64(b + s1 + 72) + 1);
}
static void grow_by_limit(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  put64(b + LEN0, 3 + 10240);
  b[DATA0 + 3 + 10239] = 0x5a;
}
static void grow_past_limit(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  put64(b + LEN0, 3 + 10241);
}
static void write_data(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  b[DATA0] = 'z';
}
static void mint_lamport(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  put64(b + LAMPORTS0, get64(b + LAMPORTS0) + 1);
}
static void new_owner(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  memset(b + OWNER0, 7, 32);
}
static void new_owner_zeroed(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  memset(b + OWNER0, 7, 32);
  memset(b + DATA0, 0, 3);
}
static void nothing(uint8_t *b, const scp_sol_input *in) {
  (void)b;
  (void)in;
}

static scp_sol_ierr_kind outcome(const char *data0, const uint8_t *owner0, bool writable0,
                                 mutate_fn m, scp_sol_account *out0) {
  scp_sol_account a[2];
  account(&a[0], 1, owner0, 1000, data0);
  account(&a[1], 2, PROG, 50, "");
  scp_sol_ixacct x[2] = {{0, false, writable0}, {1, false, true}};
  scp_sol_ierr ie = {0};
  int rc = run(a, 2, x, 2, SCP_SOL_LOADER_V2, m, &ie);
  assert_int_equal(rc, ie.kind ? SCP_ERR_TRAP : SCP_OK);
  if (out0) *out0 = a[0];
  else scp_sol_account_free(&a[0]);
  scp_sol_account_free(&a[1]);
  return ie.kind;
}

static void test_write_back_checks(void **state) {
  (void)state;
  static const uint8_t OTHER[32] = {5};
  scp_sol_account out;
  /* owned + writable: lamports move, data grows by exactly 10 KiB */
  assert_int_equal(outcome("abc", PROG, true, move_one_lamport, &out), SCP_SOL_IERR_NONE);
  assert_int_equal(out.lamports, 999);
  scp_sol_account_free(&out);
  assert_int_equal(outcome("abc", PROG, true, grow_by_limit, &out), SCP_SOL_IERR_NONE);
  assert_int_equal(out.len, 3 + 10240);
  assert_int_equal(out.data[3 + 10239], 0x5a);
  scp_sol_account_free(&out);
  assert_int_equal(outcome("abc", PROG, true, grow_past_limit, NULL), SCP_SOL_IERR_INVALID_REALLOC);
  /* read-only: data and lamports may not change */
  assert_int_equal(outcome("abc", PROG, false, write_data, NULL), SCP_SOL_IERR_READONLY_DATA_MODIFIED);
  assert_int_equal(outcome("abc", PROG, false, mint_lamport, NULL), SCP_SOL_IERR_READONLY_LAMPORT_CHANGE);
  assert_int_equal(outcome("abc", PROG, false, nothing, NULL), SCP_SOL_IERR_NONE);
  /* not owned: no spending, no data change, no resize, no new owner */
  assert_int_equal(outcome("abc", OTHER, true, move_one_lamport, NULL),
                   SCP_SOL_IERR_EXTERNAL_ACCOUNT_LAMPORT_SPEND);
  assert_int_equal(outcome("abc", OTHER, true, write_data, NULL),
                   SCP_SOL_IERR_EXTERNAL_ACCOUNT_DATA_MODIFIED);
  /* litesvm 1.5.0: "may the data change" is asked before "may it resize" */
  assert_int_equal(outcome("abc", OTHER, true, grow_by_limit, NULL),
                   SCP_SOL_IERR_EXTERNAL_ACCOUNT_DATA_MODIFIED);
  assert_int_equal(outcome("", OTHER, true, new_owner, NULL), SCP_SOL_IERR_MODIFIED_PROGRAM_ID);
  /* lamports created: the write-back takes them, the balance check (after
   * the program's success line) refuses them */
  scp_sol_account pre = {0}, post;
  account(&pre, 1, PROG, 1000, "abc");
  assert_int_equal(outcome("abc", PROG, true, mint_lamport, &post), SCP_SOL_IERR_NONE);
  scp_sol_ixacct x1 = {0, false, true};
  scp_sol_ix ix1 = {&x1, 1, NULL, 0, PROG, SCP_SOL_LOADER_V2};
  assert_false(scp_sol_input_balanced(&pre, &post, &ix1));
  assert_true(scp_sol_input_balanced(&pre, &pre, &ix1));
  scp_sol_account_free(&pre);
  scp_sol_account_free(&post);
  /* the owner may hand over a zeroed account, not one holding data */
  assert_int_equal(outcome("abc", PROG, true, new_owner, NULL), SCP_SOL_IERR_MODIFIED_PROGRAM_ID);
  assert_int_equal(outcome("abc", PROG, true, new_owner_zeroed, &out), SCP_SOL_IERR_NONE);
  assert_int_equal(out.owner[0], 7);
  scp_sol_account_free(&out);
}

/* The deprecated loader reads lamports and data back, never the owner. */
static void unaligned_owner(uint8_t *b, const scp_sol_input *in) {
  (void)in;
  memset(b + 8 + 3 + 32 + 16 + 3, 7, 32);
  b[8 + 3 + 32 + 16] = 'q';
}
static void test_unaligned_write_back(void **state) {
  (void)state;
  scp_sol_account a[1];
  account(&a[0], 1, PROG, 5, "abc");
  scp_sol_ixacct x[1] = {{0, false, true}};
  scp_sol_ierr ie = {0};
  assert_int_equal(run(a, 1, x, 1, SCP_SOL_LOADER_V1, unaligned_owner, &ie), SCP_OK);
  assert_int_equal(a[0].data[0], 'q');
  assert_int_equal(a[0].owner[0], 9);
  scp_sol_account_free(&a[0]);
}

static void test_ierr(void **state) {
  (void)state;
  char b[128];
  scp_sol_ierr e = scp_sol_ierr_from_u64(1);
  scp_sol_ierr_name(e, b, sizeof b);
  assert_string_equal(b, "Custom(1)");
  scp_sol_ierr_text(e, b, sizeof b);
  assert_string_equal(b, "custom program error: 0x1");
  e = scp_sol_ierr_from_u64(1ull << 32);
  assert_int_equal(e.kind, SCP_SOL_IERR_CUSTOM);
  scp_sol_ierr_text(e, b, sizeof b);
  assert_string_equal(b, "custom program error: 0x0");
  e = scp_sol_ierr_from_u64(8ull << 32);
  scp_sol_ierr_name(e, b, sizeof b);
  assert_string_equal(b, "MissingRequiredSignature");
  scp_sol_ierr_text(e, b, sizeof b);
  assert_string_equal(b, "missing required signature for instruction");
  assert_int_equal(scp_sol_ierr_from_u64(20ull << 32).kind, SCP_SOL_IERR_INVALID_REALLOC);
  assert_int_equal(scp_sol_ierr_from_u64(26ull << 32).kind, SCP_SOL_IERR_INCORRECT_AUTHORITY);
  assert_int_equal(scp_sol_ierr_from_u64(99ull << 32).kind, SCP_SOL_IERR_INVALID_ERROR);
  assert_int_equal(scp_sol_ierr_from_u64((8ull << 32) | 1).kind, SCP_SOL_IERR_INVALID_ERROR);
}

static void test_base58(void **state) {
  (void)state;
  uint8_t k[32], z[32] = {0};
  char s[SCP_SOL_B58_KEY_MAX];
  const char *tok = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
  assert_true(scp_sol_key_parse(tok, strlen(tok), k));
  assert_int_equal(k[0], 0x06);
  assert_int_equal(k[31], 0xa9);
  scp_sol_key_str(k, s);
  assert_string_equal(s, tok);
  scp_sol_key_str(z, s);
  assert_string_equal(s, "11111111111111111111111111111111");
  assert_true(scp_sol_key_parse(s, strlen(s), k));
  assert_memory_equal(k, z, 32);
  memset(k, 1, 32);
  scp_sol_key_str(k, s);
  assert_string_equal(s, "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi");
  assert_false(scp_sol_key_parse("0OIl", 4, k));                 /* not base58 */
  assert_false(scp_sol_key_parse("111", 3, k));                  /* 3 bytes */
  assert_false(scp_sol_key_parse("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", 44, k)); /* > 32 */
  /* the largest key, and one more: 2^256 */
  assert_true(scp_sol_key_parse("JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG", 44, k));
  for (int i = 0; i < 32; i++) assert_int_equal(k[i], 0xff);
  assert_false(scp_sol_key_parse("JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFH", 44, k));
  /* every count of leading zero bytes round-trips, and a '1' too many or
   * too few is refused */
  for (int zeros = 0; zeros <= 32; zeros++) {
    uint8_t key[32], back[32];
    for (int i = 0; i < 32; i++) key[i] = i < zeros ? 0 : (uint8_t)(0x80 + i);
    scp_sol_key_str(key, s);
    size_t n = strlen(s);
    assert_true(scp_sol_key_parse(s, n, back));
    assert_memory_equal(back, key, 32);
    char more[SCP_SOL_B58_KEY_MAX + 1] = "1";
    memcpy(more + 1, s, n + 1);
    assert_false(n < 44 && scp_sol_key_parse(more, n + 1, back));
    if (zeros) assert_false(scp_sol_key_parse(s + 1, n - 1, back));
  }
  assert_false(scp_sol_key_parse("4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLK\0", 44, k));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_aligned_layout),
    cmocka_unit_test(test_unaligned_layout),
    cmocka_unit_test(test_write_back_checks),
    cmocka_unit_test(test_unaligned_write_back),
    cmocka_unit_test(test_ierr),
    cmocka_unit_test(test_base58),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
