/*
 * test_sol_sys.c — the syscall bodies on a plain memory map: every cost
 * pinned to agave's formula, the log lines as the runtime prints them,
 * hash and PDA vectors (PDAs and bumps from @solana/kit's
 * getProgramDerivedAddress), translation and overlap errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>

#include "solana/sol_sys.h"

#define RO 0x100000000ULL
#define HEAP 0x300000000ULL
#define IN 0x400000000ULL

typedef struct fake {
  uint8_t ro[256], heap[32768], in[8192];
  uint64_t meter;
} fake;

static int xlate(void *vm, uint64_t va, uint64_t len, bool write, uint8_t **host, scp_error *err) {
  fake *f = vm;
  struct { uint64_t base; uint8_t *p; uint64_t n; bool w; const char *name; } r[3] = {
    {RO, f->ro, sizeof f->ro, false, "program"},
    {HEAP, f->heap, sizeof f->heap, true, "heap"},
    {IN, f->in, sizeof f->in, true, "input"}};
  for (int i = 0; i < 3; i++)
    if (va >= r[i].base && va - r[i].base <= r[i].n && len <= r[i].n - (va - r[i].base) &&
        (!write || r[i].w)) {
      *host = r[i].p + (va - r[i].base);
      return SCP_OK;
    }
  *host = NULL;
  return scp_fail(err, SCP_ERR_TRAP, "Access violation at address %#llx of size %llu",
                  (unsigned long long)va, (unsigned long long)len);
}
static uint64_t remaining(void *vm) { return ((fake *)vm)->meter; }
static int consume(void *vm, uint64_t n) {
  fake *f = vm;
  bool short_ = f->meter < n;
  f->meter = short_ ? 0 : f->meter - n;
  return short_ ? SCP_ERR_BUDGET : SCP_OK;
}

static fake F;
static sol_ctx C;
static scp_sol_sysvars SV;
static sol_io IO = {&F, xlate, remaining, consume};

static int setup(void **state) {
  (void)state;
  memset(&F, 0, sizeof F);
  memset(&C, 0, sizeof C);
  F.meter = 200000;
  C.check_aligned = true;
  C.stack_height = 1;
  C.heap_size = 32768;
  memset(C.program_id, 9, 32);
  scp_sol_sysvars_free(&SV);
  if (scp_sol_sysvars_init(&SV)) return -1;
  C.sysvars = &SV;
  return 0;
}
static int teardown(void **state) {
  (void)state;
  sol_ctx_free(&C);
  return 0;
}

/* call a body; return the CU it charged */
static uint64_t call(sol_sys_fn fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                     uint64_t a4, uint64_t *r0, int want) {
  uint64_t a[5] = {a0, a1, a2, a3, a4}, before = F.meter, r = 0xdead;
  scp_error err = {0};
  assert_int_equal(fn(&C, &IO, a, &r, &err), want);
  if (r0) *r0 = r;
  return before - F.meter;
}

static scp_error last_err;
static uint64_t call_err(sol_sys_fn fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3) {
  uint64_t a[5] = {a0, a1, a2, a3, 0}, before = F.meter, r;
  memset(&last_err, 0, sizeof last_err);
  assert_int_not_equal(fn(&C, &IO, a, &r, &last_err), SCP_OK);
  return before - F.meter;
}

static void put(uint64_t va, const void *p, size_t n) {
  uint8_t *h;
  scp_error e;
  assert_int_equal(xlate(&F, va, n, false, &h, &e), SCP_OK);
  memcpy(h, p, n);
}
static void slice(uint64_t at, uint64_t ptr, uint64_t len) {
  uint8_t b[16];
  sol_put_le64(b, ptr);
  sol_put_le64(b + 8, len);
  put(at, b, 16);
}

static void test_logging(void **state) {
  (void)state;
  uint64_t r0;
  put(IN, "hello", 5);
  assert_int_equal(call(sol_sys_log, IN, 5, 0, 0, 0, &r0, SCP_OK), 100);   /* max(100, 5) */
  char long_text[150];
  memset(long_text, 'x', sizeof long_text);
  put(IN + 16, long_text, 150);
  assert_int_equal(call(sol_sys_log, IN + 16, 150, 0, 0, 0, NULL, SCP_OK), 150);
  assert_int_equal(call(sol_sys_log_64, 1, 2, 0xff, 0, UINT64_MAX, NULL, SCP_OK), 100);
  assert_int_equal(call(sol_sys_log_compute_units, 0, 0, 0, 0, 0, NULL, SCP_OK), 100);
  uint8_t key[32];
  memset(key, 1, 32);
  put(IN + 512, key, 32);
  assert_int_equal(call(sol_sys_log_pubkey, IN + 512, 0, 0, 0, 0, NULL, SCP_OK), 100);
  /* two fields "ab" and "c": base + 2 * base + 3 bytes */
  put(IN + 600, "abc", 3);
  slice(IN + 608, IN + 600, 2);
  slice(IN + 624, IN + 602, 1);
  assert_int_equal(call(sol_sys_log_data, IN + 608, 2, 0, 0, 0, NULL, SCP_OK), 303);
  assert_int_equal(C.nlogs, 6);
  assert_string_equal(C.logs[0], "Program log: hello");
  assert_int_equal(strlen(C.logs[1]), 13 + 150);
  assert_string_equal(C.logs[2], "Program log: 0x1, 0x2, 0xff, 0x0, 0xffffffffffffffff");
  /* the meter after this syscall's own charge: 200000 - 100 - 150 - 100 - 100 */
  assert_string_equal(C.logs[3], "Program consumption: 199550 units remaining");
  assert_string_equal(C.logs[4], "Program log: 4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi");
  assert_string_equal(C.logs[5], "Program data: YWI= Yw==");
}

static void test_log_errors(void **state) {
  (void)state;
  /* not UTF-8: charged, then Rust's Utf8Error and the bytes (as litesvm
   * prints for Memo 4.0.0 with 68 ff 69) */
  put(IN, "h\xffi", 3);
  assert_int_equal(call_err(sol_sys_log, IN, 3, 0, 0), 100);
  assert_string_equal(last_err.msg, "invalid utf-8 sequence of 1 bytes from index 1: [104, 255, 105]");
  put(IN, "a\xe2\x82", 3);
  call_err(sol_sys_log, IN, 3, 0, 0);
  assert_string_equal(last_err.msg, "incomplete utf-8 byte sequence from index 1: [97, 226, 130]");
  /* out of the map: charged first, then the access violation */
  assert_int_equal(call_err(sol_sys_log, IN + 8190, 5, 0, 0), 100);
  assert_non_null(strstr(last_err.msg, "Access violation"));
  /* panic: len CU, then the message */
  put(IN, "src/lib.rs", 10);
  assert_int_equal(call_err(sol_sys_panic, IN, 10, 12, 5), 10);
  assert_string_equal(last_err.msg, "SBF program Panicked in src/lib.rs at 12:5");
  assert_int_equal(call_err(sol_sys_abort, 0, 0, 0, 0), 0);
  assert_string_equal(last_err.msg, "SBF program panicked");
  /* a meter short of the cost: ComputationalBudgetExceeded, meter at 0 */
  F.meter = 50;
  assert_int_equal(call_err(sol_sys_log_64, 0, 0, 0, 0), 50);
  assert_int_equal(F.meter, 0);
  assert_int_equal(C.ierr.kind, SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED);
  assert_string_equal(last_err.msg, "Computational budget exceeded");
}

static void test_log_limit(void **state) {
  (void)state;
  char text[5000];
  memset(text, 'y', sizeof text);
  put(IN, text, 4987);   /* "Program log: " + 4987 = 5000 bytes */
  call(sol_sys_log, IN, 4987, 0, 0, 0, NULL, SCP_OK);
  call(sol_sys_log, IN, 4986, 0, 0, 0, NULL, SCP_OK);   /* 9999 in all */
  call(sol_sys_log, IN, 1, 0, 0, 0, NULL, SCP_OK);      /* would reach 10000 */
  call(sol_sys_log, IN, 1, 0, 0, 0, NULL, SCP_OK);
  assert_int_equal(C.nlogs, 3);
  assert_string_equal(C.logs[2], "Log truncated");
}

static void test_mem_ops(void **state) {
  (void)state;
  uint64_t r0;
  put(IN, "abcdef", 6);
  assert_int_equal(call(sol_sys_memcpy, IN + 100, IN, 6, 0, 0, &r0, SCP_OK), 10);
  assert_memory_equal(F.in + 100, "abcdef", 6);
  /* n / 250 once above the base: 5000 bytes cost 20 */
  assert_int_equal(call(sol_sys_memset, IN + 1000, 0x41, 5000, 0, 0, NULL, SCP_OK), 20);
  assert_int_equal(F.in[5999], 0x41);
  assert_int_equal(call(sol_sys_memmove, IN + 1, IN, 6, 0, 0, NULL, SCP_OK), 10);
  assert_memory_equal(F.in + 1, "abcdef", 6);
  /* memcpy refuses overlapping ranges, after charging */
  assert_int_equal(call_err(sol_sys_memcpy, IN + 1, IN, 6, 0), 10);
  assert_string_equal(last_err.msg, "Overlapping copy");
  /* memcmp: s1[i] - s2[i] of the first difference, as an i32 */
  put(IN + 200, "abc", 3);
  put(IN + 300, "abe", 3);
  assert_int_equal(call(sol_sys_memcmp, IN + 200, IN + 300, 3, IN + 400, 0, NULL, SCP_OK), 10);
  int32_t d;
  memcpy(&d, F.in + 400, 4);
  assert_int_equal(d, -2);
  /* the i32 must be 4-byte aligned in an aligned program */
  call_err(sol_sys_memcmp, IN + 200, IN + 300, 3, IN + 401);
  assert_string_equal(last_err.msg, "Unaligned pointer");
  /* a store into read-only memory */
  call_err(sol_sys_memset, RO, 0, 4, 0);
  assert_non_null(strstr(last_err.msg, "Access violation"));
}

static void test_alloc_free(void **state) {
  (void)state;
  uint64_t r0;
  assert_int_equal(call(sol_sys_alloc_free, 10, 0, 0, 0, 0, &r0, SCP_OK), 0);
  assert_int_equal(r0, HEAP);
  call(sol_sys_alloc_free, 3, 0, 0, 0, 0, &r0, SCP_OK);
  assert_int_equal(r0, HEAP + 16);                 /* 8-byte aligned */
  call(sol_sys_alloc_free, 40000, 0, 0, 0, 0, &r0, SCP_OK);
  assert_int_equal(r0, 0);                         /* does not fit */
  call(sol_sys_alloc_free, 8, HEAP, 0, 0, 0, &r0, SCP_OK);
  assert_int_equal(r0, 0);                         /* free: nothing */
  call(sol_sys_alloc_free, 32768 - 24, 0, 0, 0, 0, &r0, SCP_OK);
  assert_int_equal(r0, HEAP + 24);                 /* the rest, exactly */
}

static const char *hex(const uint8_t *p, size_t n) {
  static char s[129];
  for (size_t i = 0; i < n; i++) sprintf(s + 2 * i, "%02x", p[i]);
  return s;
}

static void test_hashes(void **state) {
  (void)state;
  put(IN, "abc", 3);
  slice(IN + 16, IN, 3);
  /* base 85 + max(10, 3/2) */
  assert_int_equal(call(sol_sys_sha256, IN + 16, 1, IN + 64, 0, 0, NULL, SCP_OK), 95);
  assert_string_equal(hex(F.in + 64, 32), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  char big[100];
  memset(big, 'q', sizeof big);
  put(IN + 200, big, 100);
  slice(IN + 16, IN + 200, 100);
  assert_int_equal(call(sol_sys_sha256, IN + 16, 1, IN + 64, 0, 0, NULL, SCP_OK), 85 + 50);
  /* no slices: the base only */
  assert_int_equal(call(sol_sys_keccak256, 0, 0, IN + 64, 0, 0, NULL, SCP_OK), 85);
  assert_string_equal(hex(F.in + 64, 32), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  slice(IN + 16, IN, 3);
  call(sol_sys_keccak256, IN + 16, 1, IN + 64, 0, 0, NULL, SCP_OK);
  assert_string_equal(hex(F.in + 64, 32), "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  /* 136 bytes: one full block, then the padding block */
  char blk[136];
  memset(blk, 0, sizeof blk);
  put(IN + 400, blk, 136);
  slice(IN + 16, IN + 400, 136);
  call(sol_sys_keccak256, IN + 16, 1, IN + 64, 0, 0, NULL, SCP_OK);
  assert_string_equal(hex(F.in + 64, 32), "3a5912a7c5faa06ee4fe906253e339467a9ce87d533c65be3c15cb231cdb25f9");
  call_err(sol_sys_sha256, IN + 16, 20001, IN + 64, 0);
  assert_string_equal(last_err.msg, "Hashing too many sequences");
}

static void pda_case(const char *seed, const char *addr_hex, uint8_t bump, uint64_t cost) {
  uint8_t prog[32];
  uint64_t r0;
  memset(prog, 1, 32);
  put(IN + 1000, prog, 32);
  size_t n = strlen(seed);
  put(IN, seed, n);
  slice(IN + 64, IN, n);
  assert_int_equal(call(sol_sys_find_pda, IN + 64, n ? 1 : 0, IN + 1000, IN + 2000, IN + 2100, &r0, SCP_OK),
                   cost);
  assert_int_equal(r0, 0);
  assert_string_equal(hex(F.in + 2000, 32), addr_hex);
  assert_int_equal(F.in[2100], bump);
}

static void test_pda(void **state) {
  (void)state;
  /* @solana/kit: program [1; 32], seeds "y" (bump 255), "vault" (252), none (253) */
  pda_case("y", "1561727b651b0179a2c048d6c1c7f22cb6fa20b0d996786d7c6cf9e703533f21", 255, 1500);
  pda_case("vault", "5fd58b29e4b4a377caffd9401e7ceb81e5077580cda9587d24d911e521f596c6", 252, 4 * 1500);
  pda_case("", "350b911dea415c063088b4b6fd5dfe7fc79c47fc56bddc597feddbce6568a101", 253, 3 * 1500);
  /* create_program_address with the bump found: 1500, the same address */
  uint8_t b = 252;
  uint64_t r0;
  put(IN, "vault", 5);
  put(IN + 8, &b, 1);
  slice(IN + 64, IN, 5);
  slice(IN + 80, IN + 8, 1);
  assert_int_equal(call(sol_sys_create_pda, IN + 64, 2, IN + 1000, IN + 3000, 0, &r0, SCP_OK), 1500);
  assert_int_equal(r0, 0);
  assert_string_equal(hex(F.in + 3000, 32), "5fd58b29e4b4a377caffd9401e7ceb81e5077580cda9587d24d911e521f596c6");
  /* bump 255 of "vault" lies on the curve: r0 1 */
  b = 255;
  put(IN + 8, &b, 1);
  call(sol_sys_create_pda, IN + 64, 2, IN + 1000, IN + 3000, 0, &r0, SCP_OK);
  assert_int_equal(r0, 1);
  /* a 33-byte seed */
  slice(IN + 64, IN, 33);
  call_err(sol_sys_create_pda, IN + 64, 1, IN + 1000, IN + 3000);
  assert_string_equal(last_err.msg, "Could not create program address with signer seeds: "
                                    "Length of the seed is too long for address generation");
}

static void test_secp256k1(void **state) {
  (void)state;
  secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  uint8_t sk[32], msg[32], sig[64], pub[65];
  memset(sk, 7, 32);
  memset(msg, 3, 32);
  secp256k1_ecdsa_recoverable_signature rs;
  int recid;
  secp256k1_pubkey pk;
  size_t pl = 65;
  assert_true(secp256k1_ecdsa_sign_recoverable(ctx, &rs, msg, sk, NULL, NULL));
  secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, sig, &recid, &rs);
  assert_true(secp256k1_ec_pubkey_create(ctx, &pk, sk));
  secp256k1_ec_pubkey_serialize(ctx, pub, &pl, &pk, SECP256K1_EC_UNCOMPRESSED);
  secp256k1_context_destroy(ctx);
  put(IN, msg, 32);
  put(IN + 32, sig, 64);
  uint64_t r0;
  assert_int_equal(call(sol_sys_secp256k1_recover, IN, (uint64_t)recid, IN + 32, IN + 200, 0, &r0, SCP_OK),
                   25000);
  assert_int_equal(r0, 0);
  assert_memory_equal(F.in + 200, pub + 1, 64);
  call(sol_sys_secp256k1_recover, IN, 4, IN + 32, IN + 200, 0, &r0, SCP_OK);
  assert_int_equal(r0, 2);   /* InvalidRecoveryId */
  memset(sig, 0xff, 32);     /* r >= n */
  put(IN + 32, sig, 64);
  call(sol_sys_secp256k1_recover, IN, 0, IN + 32, IN + 200, 0, &r0, SCP_OK);
  assert_int_equal(r0, 3);   /* InvalidSignature */
}

static void test_sysvars(void **state) {
  (void)state;
  uint64_t r0;
  assert_int_equal(call(sol_sys_clock, IN, 0, 0, 0, 0, &r0, SCP_OK), 140);
  assert_int_equal(sol_le64(F.in), 447552000);
  assert_int_equal(call(sol_sys_rent, IN + 64, 0, 0, 0, 0, NULL, SCP_OK), 124);
  assert_int_equal(call(sol_sys_epoch_schedule, IN + 128, 0, 0, 0, 0, NULL, SCP_OK), 140);
  assert_int_equal(sol_le64(F.in + 128 + 24), 14);
  assert_int_equal(call(sol_sys_epoch_rewards, IN + 256, 0, 0, 0, 0, NULL, SCP_OK), 196);
  assert_int_equal(call(sol_sys_last_restart_slot, IN + 512, 0, 0, 0, 0, NULL, SCP_OK), 108);
  call_err(sol_sys_epoch_rewards, IN + 8, 0, 0, 0);   /* EpochRewards is 16-aligned */
  assert_string_equal(last_err.msg, "Unaligned pointer");
  /* sol_get_sysvar: the account's bytes (litesvm's rent account) */
  uint8_t id[32];
  scp_sol_key_parse("SysvarRent111111111111111111111111111111111", 43, id);
  put(IN + 1000, id, 32);
  assert_int_equal(call(sol_sys_get_sysvar, IN + 1000, IN + 1100, 0, 17, 0, &r0, SCP_OK), 110);
  assert_int_equal(r0, 0);
  assert_string_equal(hex(F.in + 1100, 17), "301b000000000000000000000000f03f32");
  call(sol_sys_get_sysvar, IN + 1000, IN + 1100, 10, 10, 0, &r0, SCP_OK);
  assert_int_equal(r0, 1);
  memset(id, 0x42, 32);
  put(IN + 1000, id, 32);
  call(sol_sys_get_sysvar, IN + 1000, IN + 1100, 0, 1, 0, &r0, SCP_OK);
  assert_int_equal(r0, 2);
  /* 5000 bytes asked: 5000/250 = 20 beats the mem-op base */
  assert_int_equal(call(sol_sys_get_sysvar, IN + 1000, IN + 1100, 0, 5000, 0, &r0, SCP_OK), 120);
}

static void test_return_data(void **state) {
  (void)state;
  uint64_t r0;
  uint8_t d[300];
  for (int i = 0; i < 300; i++) d[i] = (uint8_t)i;
  put(IN, d, 300);
  assert_int_equal(call(sol_sys_set_return_data, IN, 300, 0, 0, 0, &r0, SCP_OK), 101);
  assert_int_equal(call(sol_sys_get_return_data, IN + 1000, 1024, IN + 2000, 0, 0, &r0, SCP_OK),
                   100 + (300 + 32) / 250);
  assert_int_equal(r0, 300);
  assert_memory_equal(F.in + 1000, d, 300);
  assert_int_equal(F.in[2000], 9);
  /* asking for none: base only, still the stored length */
  assert_int_equal(call(sol_sys_get_return_data, IN + 1000, 0, IN + 2000, 0, 0, &r0, SCP_OK), 100);
  assert_int_equal(r0, 300);
  assert_int_equal(call_err(sol_sys_set_return_data, IN, 1025, 0, 0), 104);
  assert_string_equal(last_err.msg, "Return data too large (1025 > 1024)");
  assert_int_equal(call(sol_sys_stack_height, 0, 0, 0, 0, 0, &r0, SCP_OK), 100);
  assert_int_equal(r0, 1);
  /* epoch stake: the total for a null address, a vote account's otherwise */
  assert_int_equal(call(sol_sys_epoch_stake, 0, 0, 0, 0, 0, &r0, SCP_OK), 100);
  assert_int_equal(r0, 0);
  assert_int_equal(call(sol_sys_epoch_stake, IN, 0, 0, 0, 0, &r0, SCP_OK), 110);
  assert_int_equal(call_err(sol_sys_epoch_stake, 8, 0, 0, 0), 110);
  assert_non_null(strstr(last_err.msg, "Access violation"));
}

static void test_table(void **state) {
  (void)state;
  size_t n;
  const sol_syscall *t = sol_syscalls(&n);
  assert_int_equal(n, 39);
  assert_string_equal(t[0].name, "abort");
  assert_string_equal(t[n - 1].name, "sol_log_data");
  size_t gated = 0;
  for (size_t i = 0; i < n; i++) {
    assert_null(strstr(t[i].name, "blake3"));
    assert_null(strstr(t[i].name, "fees"));
    assert_null(strstr(t[i].name, "big_mod_exp"));
    /* in the table, registered only with its gate on (litesvm: off) */
    if (!scp_sol_features_syscall(NULL, t[i].name)) {
      assert_string_equal(t[i].name, "sol_remaining_compute_units");
      gated++;
    }
  }
  assert_int_equal(gated, 1);
}

/* sol_remaining_compute_units: 100, then r0 is what is left */
static void test_remaining_cu(void **state) {
  (void)state;
  uint64_t r0;
  F.meter = 5000;
  assert_int_equal(call(sol_sys_remaining_cu, 0, 0, 0, 0, 0, &r0, SCP_OK), 100);
  assert_int_equal(r0, 4900);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_logging, setup, teardown),
    cmocka_unit_test_setup_teardown(test_log_errors, setup, teardown),
    cmocka_unit_test_setup_teardown(test_log_limit, setup, teardown),
    cmocka_unit_test_setup_teardown(test_mem_ops, setup, teardown),
    cmocka_unit_test_setup_teardown(test_alloc_free, setup, teardown),
    cmocka_unit_test_setup_teardown(test_hashes, setup, teardown),
    cmocka_unit_test_setup_teardown(test_pda, setup, teardown),
    cmocka_unit_test_setup_teardown(test_secp256k1, setup, teardown),
    cmocka_unit_test_setup_teardown(test_sysvars, setup, teardown),
    cmocka_unit_test_setup_teardown(test_remaining_cu, setup, teardown),
    cmocka_unit_test_setup_teardown(test_return_data, setup, teardown),
    cmocka_unit_test(test_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
