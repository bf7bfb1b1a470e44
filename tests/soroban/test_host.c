/*
 * test_host.c — host function results (not only costs): crypto against
 * known vectors and freshly made signatures, 256-bit arithmetic edge
 * cases, linear-memory maps and vectors through dispatch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>

#include "soroban/core/host_private.h"
#include "host_fixture.h"

static int setup(void **state) {
  return fixture_open(state, UINT64_MAX, UINT64_MAX, NULL, 0);
}

static void test_ed25519(void **state) {
  fixture *f = *state;
  /* RFC 8032 section 7.1, test 1 */
  uint8_t pk[32], sig[64];
  hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", pk);
  hex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39"
      "701cf9b46bd25bf5f0595bbe24655141438e7a100b", sig);
  uint64_t args[3] = { bytes_obj(f->h, pk, 32), bytes_obj(f->h, NULL, 0), bytes_obj(f->h, sig, 64) };
  uint64_t ret;
  scp_error err;
  uint64_t before = f->b.cpu;
  assert_int_equal(scp_host_call(f->h, fn("verify_sig_ed25519"), args, NULL, &ret, &err), SCP_OK);
  /* 3 argument checks, visit key + ComputeEd25519PubKey, visit sig +
   * MemCpy(64), visit message + VerifyEd25519Sig(0) */
  assert_int_equal(f->b.cpu - before, 3 * 60 + 60 + 40256 + 60 + 50 + 60 + 377551);
  sig[0] ^= 1;
  args[2] = bytes_obj(f->h, sig, 64);
  assert_int_equal(scp_host_call(f->h, fn("verify_sig_ed25519"), args, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT));
  args[2] = bytes_obj(f->h, sig, 63);
  assert_int_equal(scp_host_call(f->h, fn("verify_sig_ed25519"), args, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE));
  /* keys as ed25519-dalek decompresses them: all zeros (small order), y = p + 1
   * (non-canonical), x = 0 with the sign bit pass; y = 2 is off the curve */
  uint8_t key[32] = {0};
  assert_true(scp_host_ed25519_key_ok(key));
  hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", key);
  assert_true(scp_host_ed25519_key_ok(key));
  hex("0100000000000000000000000000000000000000000000000000000000000080", key);
  assert_true(scp_host_ed25519_key_ok(key));
  hex("0200000000000000000000000000000000000000000000000000000000000000", key);
  assert_false(scp_host_ed25519_key_ok(key));
}

static void test_secp256k1_recover(void **state) {
  fixture *f = *state;
  secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  uint8_t sk[32], msg[32], sig[64], want[65], got[65];
  memset(sk, 7, sizeof sk);
  memset(msg, 0x42, sizeof msg);
  secp256k1_ecdsa_recoverable_signature rs;
  secp256k1_pubkey pk;
  int recid;
  size_t n = 65;
  assert_true(secp256k1_ecdsa_sign_recoverable(ctx, &rs, msg, sk, NULL, NULL));
  assert_true(secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, sig, &recid, &rs));
  assert_true(secp256k1_ec_pubkey_create(ctx, &pk, sk));
  assert_true(secp256k1_ec_pubkey_serialize(ctx, want, &n, &pk, SECP256K1_EC_UNCOMPRESSED));
  secp256k1_context_destroy(ctx);

  uint64_t args[3] = { bytes_obj(f->h, msg, 32), bytes_obj(f->h, sig, 64),
                       scp_val_u32((uint32_t)recid) };
  uint64_t ret;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("recover_key_ecdsa_secp256k1"), args, NULL, &ret, &err),
                   SCP_OK);
  const scp_hobj *o = scp_host_obj(f->h, ret);
  assert_int_equal(o->len, 65);
  memcpy(got, o->u.bytes, 65);
  assert_memory_equal(got, want, 65);
  args[2] = scp_val_u32(4);
  assert_int_equal(scp_host_call(f->h, fn("recover_key_ecdsa_secp256k1"), args, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT));
  /* a high s is rejected */
  assert_int_equal(scp_host_ecdsa_sig_check(sig, 64, true), 0);
  memset(sig + 32, 0xff, 16);
  assert_int_equal(scp_host_ecdsa_sig_check(sig, 64, true), 1);   /* s >= n */
  memset(sig + 32, 0x7f, 1);
  assert_int_equal(scp_host_ecdsa_sig_check(sig, 64, true), 2);
}

static void test_int256(void **state) {
  (void)state;
  uint64_t r[4];
  const uint64_t max[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
  const uint64_t one[4] = { 0, 0, 0, 1 }, two[4] = { 0, 0, 0, 2 };
  const uint64_t minus_one[4] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
  const uint64_t min[4] = { 0x8000000000000000ULL, 0, 0, 0 };
  const uint64_t seven[4] = { 0, 0, 0, 7 }, minus_seven[4] = { UINT64_MAX, UINT64_MAX,
                                                               UINT64_MAX, (uint64_t)-7 };
  assert_false(scp_int256_op(SCP_I256_ADD, false, max, one, 0, r));
  assert_true(scp_int256_op(SCP_I256_ADD, true, max, one, 0, r));   /* -1 + 1 */
  assert_true(r[0] == 0 && r[3] == 0);
  assert_false(scp_int256_op(SCP_I256_SUB, false, one, two, 0, r));
  assert_false(scp_int256_op(SCP_I256_SUB, true, min, one, 0, r));
  assert_false(scp_int256_op(SCP_I256_MUL, false, max, two, 0, r));
  assert_true(scp_int256_op(SCP_I256_MUL, true, min, one, 0, r));
  assert_false(scp_int256_op(SCP_I256_MUL, true, min, minus_one, 0, r));
  assert_false(scp_int256_op(SCP_I256_DIV, true, min, minus_one, 0, r));
  assert_false(scp_int256_op(SCP_I256_DIV, false, one, (const uint64_t[4]){ 0 }, 0, r));
  /* -7 / 2 = -3 (truncating), -7 rem_euclid 2 = 1 */
  assert_true(scp_int256_op(SCP_I256_DIV, true, minus_seven, two, 0, r));
  assert_true(r[0] == UINT64_MAX && r[3] == (uint64_t)-3);
  assert_true(scp_int256_op(SCP_I256_REM_EUCLID, true, minus_seven, two, 0, r));
  assert_true(r[0] == 0 && r[3] == 1);
  assert_true(scp_int256_op(SCP_I256_REM_EUCLID, false, seven, two, 0, r));
  assert_int_equal(r[3], 1);
  /* 2^255 fits u256, 2^256 does not; 2^255 does not fit i256 */
  assert_true(scp_int256_op(SCP_I256_POW, false, two, NULL, 255, r));
  assert_true(r[0] == 0x8000000000000000ULL && !r[1] && !r[2] && !r[3]);
  assert_false(scp_int256_op(SCP_I256_POW, false, two, NULL, 256, r));
  assert_false(scp_int256_op(SCP_I256_POW, true, two, NULL, 255, r));
  assert_true(scp_int256_op(SCP_I256_POW, true, minus_one, NULL, 3, r));
  assert_true(r[0] == UINT64_MAX && r[3] == UINT64_MAX);
  /* shifts */
  assert_true(scp_int256_op(SCP_I256_SHL, false, one, NULL, 200, r));
  assert_true(r[0] == ((uint64_t)1 << 8) && !r[3]);
  assert_true(scp_int256_op(SCP_I256_SHR, true, min, NULL, 255, r));
  assert_true(r[0] == UINT64_MAX && r[3] == UINT64_MAX);   /* arithmetic */
  assert_true(scp_int256_op(SCP_I256_SHR, false, min, NULL, 255, r));
  assert_true(!r[0] && r[3] == 1);
  assert_false(scp_int256_op(SCP_I256_SHL, false, one, NULL, 256, r));
  /* small forms */
  const uint64_t small[4] = { 0, 0, 0, ((uint64_t)1 << 56) - 1 };
  assert_true(scp_int256_fits_small(small, false));
  assert_false(scp_int256_fits_small(small, true));
  assert_true(scp_int256_fits_small(minus_seven, true));
  scp_int256_from_small(scp_val_small_u(5, SCP_TAG_U256_SMALL), false, r);
  assert_true(!r[0] && !r[1] && !r[2] && r[3] == 5);
  scp_int256_from_small(scp_val_small_i(-7, SCP_TAG_I256_SMALL), true, r);
  assert_memory_equal(r, minus_seven, sizeof r);
  /* modular product: (2^254)^2 mod 2^255 - 19 = 3 * 2^253 + 76 */
  const uint64_t p25519[4] = { 0x7fffffffffffffffULL, UINT64_MAX, UINT64_MAX, 0xffffffffffffffedULL };
  const uint64_t x254[4] = { 0x4000000000000000ULL, 0, 0, 0 };
  scp_fr_mul(x254, x254, p25519, r);
  assert_true(r[0] == 0x6000000000000000ULL && !r[1] && !r[2] && r[3] == 76);
}

/* A map through linear memory: keys are (ptr, len) slices, values Vals. */
static void test_map_linear_memory(void **state) {
  fixture *f = *state;
  uint8_t mem[256] = { 0 };
  scp_hostmem m = { mem, sizeof mem };
  /* keys "a" at 100, "bb" at 104; slices at 0; values at 32 */
  memcpy(mem + 100, "a", 1);
  memcpy(mem + 104, "bb", 2);
  uint32_t slices[4] = { 100, 1, 104, 2 };
  memcpy(mem, slices, sizeof slices);
  uint64_t vals[2] = { scp_val_u32(1), scp_val_u32(2) };
  memcpy(mem + 32, vals, sizeof vals);
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  uint64_t args[4] = { scp_val_u32(0), scp_val_u32(32), scp_val_u32(2) }, ret;
  scp_error err;
  assert_int_equal(scp_host_dispatch(f->h, fn("map_new_from_linear_memory"), args, &m, &ret, &err),
                   SCP_OK);
  uint64_t map = ret;
  args[0] = map;
  assert_int_equal(scp_host_dispatch(f->h, fn("map_len"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(ret, scp_val_u32(2));
  /* unpack into 64.. */
  args[1] = scp_val_u32(0);
  args[2] = scp_val_u32(64);
  args[3] = scp_val_u32(2);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_unpack_to_linear_memory"), args, &m, &ret,
                                     &err), SCP_OK);
  uint64_t out[2];
  memcpy(out, mem + 64, sizeof out);
  assert_int_equal(out[0], scp_val_u32(1));
  assert_int_equal(out[1], scp_val_u32(2));
  /* keys out of order are rejected when creating the map */
  uint32_t swapped[4] = { 104, 2, 100, 1 };
  memcpy(mem, swapped, sizeof swapped);
  args[0] = scp_val_u32(0);
  args[1] = scp_val_u32(32);
  args[2] = scp_val_u32(2);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_new_from_linear_memory"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_OBJECT, SCP_EC_INVALID_INPUT));
  /* a slice past the end of memory */
  uint32_t bad[2] = { 250, 10 };
  memcpy(mem, bad, sizeof bad);
  args[2] = scp_val_u32(1);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_new_from_linear_memory"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS));
  /* symbol_index_in_linear_memory finds "bb" at index 1 */
  memcpy(mem, slices, sizeof slices);
  uint64_t sym = 0;
  assert_true(scp_val_symbol_small((const uint8_t *)"bb", 2, &sym));
  args[0] = sym;
  args[1] = scp_val_u32(0);
  args[2] = scp_val_u32(2);
  assert_int_equal(scp_host_dispatch(f->h, fn("symbol_index_in_linear_memory"), args, &m, &ret,
                                     &err), SCP_OK);
  assert_int_equal(ret, scp_val_u32(1));
  scp_host_pop_frame(f->h);
}

/* map_get and map_del on a key the map lacks: Error(Object, MissingValue)
 * naming the function; map_has says false; a present key is found. */
static void test_map_missing_key(void **state) {
  fixture *f = *state;
  scp_hostmem m = { NULL, 0 };
  uint64_t args[3], ret, map;
  scp_error err;
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_new"), args, &m, &map, &err), SCP_OK);
  args[0] = map, args[1] = scp_val_u32(1), args[2] = scp_val_u32(10);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_put"), args, &m, &map, &err), SCP_OK);
  args[0] = map, args[1] = scp_val_u32(1);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_get"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(ret, scp_val_u32(10));
  args[1] = scp_val_u32(2);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_has"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(ret, scp_val_bool(false));
  static const char *const names[2] = { "map_get", "map_del" };
  for (int i = 0; i < 2; i++) {
    assert_int_equal(scp_host_dispatch(f->h, fn(names[i]), args, &m, &ret, &err), SCP_ERR_HOST);
    assert_int_equal(ret, scp_val_error(SCP_ET_OBJECT, SCP_EC_MISSING_VALUE));
    char want[64];
    snprintf(want, sizeof want, "map key not found in %s", names[i]);
    assert_non_null(strstr(err.msg, want));
  }
  args[1] = scp_val_u32(1);
  assert_int_equal(scp_host_dispatch(f->h, fn("map_del"), args, &m, &ret, &err), SCP_OK);
  args[0] = ret;
  assert_int_equal(scp_host_dispatch(f->h, fn("map_len"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(ret, scp_val_u32(0));
  scp_host_pop_frame(f->h);
}

/* A direct call (scp_host_call) with no linear memory while a frame is
 * pushed: the map functions' slice and value ranges were read through the
 * NULL memory (fuzz_host).  They now fail as on an empty memory, with the
 * same error and the same charges. */
/* Vm::get_memory (vm.rs): no `memory` export (mem NULL) is
 * Error(WasmVm, MissingValue), raised after the charges before it; a
 * 0-page memory ({NULL, 0}) exists, so zero-length accesses succeed and
 * others are Error(WasmVm, IndexBounds).  Costs from cost-params.txt:
 * MemAlloc(n) = 434 + 16n/128 cpu, 16 + n mem; MemCpy(n) = 42 + 16n/128;
 * Vec::with_metered_capacity(n) = MemCpy(24) MemAlloc(8n) MemCpy(8n). */
static void test_map_linear_memory_none(void **state) {
  fixture *f = *state;
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  scp_hostmem empty = { NULL, 0 };
  uint64_t args[4] = { scp_val_u32(0), scp_val_u32(0), scp_val_u32(1) }, ret;
  scp_error err;
  /* 0 pages, one key: with_metered_capacity (45 + 435 + 43), the scan's
   * MemCpy(8), then the first slice is out of bounds */
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("map_new_from_linear_memory"), args, &empty, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS));
  assert_int_equal(f->b.cpu - cpu, 45 + 435 + 43 + 43);
  assert_int_equal(f->b.mem - mem, 24);
  /* no memory: get_memory fails before the scan's MemCpy */
  cpu = f->b.cpu;
  mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("map_new_from_linear_memory"), args, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_MISSING_VALUE));
  assert_int_equal(f->b.cpu - cpu, 45 + 435 + 43);
  assert_int_equal(f->b.mem - mem, 24);
  /* len 0 on no memory: still MissingValue, after with_metered_capacity(0) */
  args[1] = scp_val_u32(8);
  args[2] = scp_val_u32(0);
  cpu = f->b.cpu;
  mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("map_new_from_linear_memory"), args, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_MISSING_VALUE));
  assert_int_equal(f->b.cpu - cpu, 45 + 434 + 42);
  assert_int_equal(f->b.mem - mem, 16);
  /* len 0 on a 0-page memory at pos 0: an empty map */
  args[1] = scp_val_u32(0);
  assert_int_equal(scp_host_call(f->h, fn("map_new_from_linear_memory"), args, &empty, &ret, &err),
                   SCP_OK);
  uint64_t none[2] = { scp_val_u32(0), scp_val_u32(0) }, b;
  /* bytes: MemAlloc(0), MemCpy(0), then get_memory */
  cpu = f->b.cpu;
  mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("bytes_new_from_linear_memory"), none, NULL, &b, &err),
                   SCP_ERR_HOST);
  assert_int_equal(b, scp_val_error(SCP_ET_WASM_VM, SCP_EC_MISSING_VALUE));
  assert_int_equal(f->b.cpu - cpu, 434 + 42);
  assert_int_equal(f->b.mem - mem, 16);
  assert_int_equal(scp_host_call(f->h, fn("bytes_new_from_linear_memory"), none, &empty, &b, &err),
                   SCP_OK);
  /* unpacking an empty map into no memory */
  assert_int_equal(scp_host_call(f->h, fn("map_new"), args, NULL, &ret, &err), SCP_OK);
  uint64_t unpack[4] = { ret, scp_val_u32(0), scp_val_u32(8), scp_val_u32(0) };
  assert_int_equal(scp_host_call(f->h, fn("map_unpack_to_linear_memory"), unpack, NULL, &ret,
                                 &err), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_MISSING_VALUE));
  /* ... and into a 0-page memory at pos 0: nothing to write */
  unpack[2] = scp_val_u32(0);
  assert_int_equal(scp_host_call(f->h, fn("map_unpack_to_linear_memory"), unpack, &empty, &ret,
                                 &err), SCP_OK);
  /* symbol_index_in_linear_memory: get_memory before the scan's charge */
  uint64_t si[3] = { 0, scp_val_u32(0), scp_val_u32(1) };
  assert_true(scp_val_symbol_small((const uint8_t *)"a", 1, &si[0]));
  cpu = f->b.cpu;
  assert_int_equal(scp_host_call(f->h, fn("symbol_index_in_linear_memory"), si, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_MISSING_VALUE));
  assert_int_equal(f->b.cpu - cpu, 0);
  scp_host_pop_frame(f->h);
}

/* metered_vm_{read,write}_vals_*_linear_memory: pos + 8*len overflowing
 * u32 is Error(Value, ArithDomain), checked before the bounds, so with
 * the same charges as an ordinary out-of-bounds range. */
static void test_map_linear_memory_overflow(void **state) {
  fixture *f = *state;
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  uint8_t buf[64] = { 0 };
  buf[0] = 16;   /* slice 0: ptr 16, len 1 -> "a" */
  buf[4] = 1;
  buf[16] = 'a';
  scp_hostmem m = { buf, sizeof buf };
  uint64_t args[3] = { scp_val_u32(0), scp_val_u32(64), scp_val_u32(1) }, ret;
  scp_error err;
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("map_new_from_linear_memory"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS));
  uint64_t dcpu = f->b.cpu - cpu, dmem = f->b.mem - mem;
  assert_true(dcpu >= 45 + 435 + 43 + 43);
  args[1] = scp_val_u32(0xfffffffcu);
  cpu = f->b.cpu;
  mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("map_new_from_linear_memory"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN));
  assert_int_equal(f->b.cpu - cpu, dcpu);
  assert_int_equal(f->b.mem - mem, dmem);
  /* map_unpack_to_linear_memory: {a: false} unpacked at 0xfffffffc */
  uint64_t map;
  assert_int_equal(scp_host_call(f->h, fn("map_new_from_linear_memory"),
                                 (uint64_t[]){ scp_val_u32(0), scp_val_u32(32), scp_val_u32(1) },
                                 &m, &map, &err), SCP_OK);
  uint64_t unpack[4] = { map, scp_val_u32(0), scp_val_u32(64), scp_val_u32(1) };
  cpu = f->b.cpu;
  assert_int_equal(scp_host_call(f->h, fn("map_unpack_to_linear_memory"), unpack, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS));
  dcpu = f->b.cpu - cpu;
  unpack[2] = scp_val_u32(0xfffffffcu);
  cpu = f->b.cpu;
  assert_int_equal(scp_host_call(f->h, fn("map_unpack_to_linear_memory"), unpack, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN));
  assert_int_equal(f->b.cpu - cpu, dcpu);
  /* scan_linear_memory_slice: a slice's ptr + len overflowing u32 is
   * Value/ArithDomain, a slice pair past the end WasmVm/IndexBounds, both
   * after the scan's MemCpy(8) (43 cpu, 0 mem) */
  uint64_t si[3] = { 0, scp_val_u32(40), scp_val_u32(1) };
  assert_true(scp_val_symbol_small((const uint8_t *)"a", 1, &si[0]));
  buf[40] = buf[41] = buf[42] = buf[43] = 0xff;
  buf[44] = 1;
  cpu = f->b.cpu;
  mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("symbol_index_in_linear_memory"), si, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN));
  assert_int_equal(f->b.cpu - cpu, 43);
  assert_int_equal(f->b.mem - mem, 0);
  si[1] = scp_val_u32(60);
  cpu = f->b.cpu;
  assert_int_equal(scp_host_call(f->h, fn("symbol_index_in_linear_memory"), si, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS));
  assert_int_equal(f->b.cpu - cpu, 43);
  scp_host_pop_frame(f->h);
}

/* A result of shared sub-vectors, 32 wide and 8 deep, is a few hundred
 * bytes of host objects; rendering it in full (scp_host_val_format, the
 * CLI's result line and auth records) would be 32^8 elements.  The
 * rendering stops at a bounded size. */
static void test_format_shared_nesting(void **state) {
  fixture *f = *state;
  uint64_t words[32];
  uint8_t mem[sizeof words];
  scp_hostmem m = { mem, sizeof mem };
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  uint64_t v = scp_val_u32(7), args[2] = { scp_val_u32(0), scp_val_u32(32) };
  scp_error err;
  for (int level = 0; level < 9; level++) {
    for (size_t i = 0; i < 32; i++) words[i] = v;
    memcpy(mem, words, sizeof words);
    assert_int_equal(scp_host_dispatch(f->h, fn("vec_new_from_linear_memory"), args, &m, &v, &err),
                     SCP_OK);
  }
  scp_buf b = { 0 };
  scp_host_val_format(f->h, v, &b);
  assert_false(b.oom);
  assert_true(b.len > 0 && b.len <= 8192);
  assert_memory_equal(b.data, "Vec[Vec[Vec[", 12);
  scp_buf_free(&b);
  scp_host_pop_frame(f->h);
}

/* Vectors through linear memory keep objects relative in the guest. */
static void test_vec_linear_memory(void **state) {
  fixture *f = *state;
  uint8_t mem[128] = { 0 };
  scp_hostmem m = { mem, sizeof mem };
  scp_error err;
  uint64_t ret, args[3];
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_new"), NULL, &m, &ret, &err), SCP_OK);
  uint64_t inner = ret;   /* relative handle 0 */
  uint64_t vals[2] = { inner, scp_val_u32(9) };
  memcpy(mem, vals, sizeof vals);
  args[0] = scp_val_u32(0);
  args[1] = scp_val_u32(2);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_new_from_linear_memory"), args, &m, &ret, &err),
                   SCP_OK);
  args[0] = ret;
  args[1] = scp_val_u32(16);
  args[2] = scp_val_u32(2);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_unpack_to_linear_memory"), args, &m, &ret,
                                     &err), SCP_OK);
  uint64_t out[2];
  memcpy(out, mem + 16, sizeof out);
  /* the inner vec comes back under a new relative handle */
  assert_int_equal(scp_val_tag_of(out[0]), SCP_TAG_VEC_OBJ);
  assert_true(scp_val_handle_is_relative(scp_val_handle(out[0])));
  assert_int_equal(out[1], scp_val_u32(9));
  args[2] = scp_val_u32(3);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_unpack_to_linear_memory"), args, &m, &ret,
                                     &err), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE));
  scp_host_pop_frame(f->h);
}

/* Instance storage: a map per contract kept in the frame's context. */
static void test_instance_storage(void **state) {
  fixture *f = *state;
  uint8_t mem[8];
  scp_hostmem m = { mem, sizeof mem };
  scp_error err;
  uint64_t ret, key = 0, args[3];
  assert_true(scp_val_symbol_small((const uint8_t *)"k", 1, &key));
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  args[0] = key;
  args[1] = scp_val_u32(5);
  args[2] = 2;   /* StorageType::Instance */
  uint64_t before = f->b.cpu;
  assert_int_equal(scp_host_dispatch(f->h, fn("put_contract_data"), args, &m, &ret, &err), SCP_OK);
  /* 295 + first access MemCpy(0) 42 + insert access MemCpy(24) 45 + find
   * in 0 entries MemCpy(24) 45 + the new map's deep clone 45 + 437 + 45 +
   * from_map scan 45 */
  assert_int_equal(f->b.cpu - before, 295 + 42 + 45 + 45 + 45 + 437 + 45 + 45);
  args[1] = 2;
  before = f->b.cpu;
  assert_int_equal(scp_host_dispatch(f->h, fn("get_contract_data"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(ret, scp_val_u32(5));
  /* 295 + find in 1 entry MemCpy(48) 48 + the hit's MemCpy(24) 45 */
  assert_int_equal(f->b.cpu - before, 295 + 48 + 45);
  assert_int_equal(scp_host_dispatch(f->h, fn("has_contract_data"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(ret, SCP_VAL_TRUE);
  assert_int_equal(scp_host_dispatch(f->h, fn("del_contract_data"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(scp_host_dispatch(f->h, fn("has_contract_data"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(ret, SCP_VAL_FALSE);
  assert_int_equal(scp_host_dispatch(f->h, fn("get_contract_data"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE));
  args[1] = 1;   /* persistent: missing (test_storage.c has the rest) */
  assert_int_equal(scp_host_dispatch(f->h, fn("get_contract_data"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE));
  args[1] = 7;   /* not a StorageType */
  assert_int_equal(scp_host_dispatch(f->h, fn("get_contract_data"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
  scp_host_pop_frame(f->h);
}

/* serialize_to_bytes / deserialize_from_bytes against the reference's
 * trace test__bytes__bytes_xdr_roundtrip.json (steps 1-4, 21-24, 31-34,
 * 47-50): the cpu and memory each call added. */
static void roundtrip(fixture *f, uint64_t v, uint64_t ser_cpu, uint64_t ser_mem,
                      uint64_t de_cpu, uint64_t de_mem) {
  uint64_t bytes, back, cpu = f->b.cpu, mem = f->b.mem;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("serialize_to_bytes"), &v, NULL, &bytes, &err), SCP_OK);
  assert_int_equal(f->b.cpu - cpu, ser_cpu);
  assert_int_equal(f->b.mem - mem, ser_mem);
  cpu = f->b.cpu;
  mem = f->b.mem;
  assert_int_equal(scp_host_call(f->h, fn("deserialize_from_bytes"), &bytes, NULL, &back, &err),
                   SCP_OK);
  assert_int_equal(f->b.cpu - cpu, de_cpu);
  assert_int_equal(f->b.mem - mem, de_mem);
  int ord;
  assert_int_equal(scp_host_compare(f->h, v, back, &ord), SCP_OK);
  assert_int_equal(ord, 0);
}

static void test_xdr_roundtrip(void **state) {
  fixture *f = *state;
  roundtrip(f, scp_val_small_u(5, SCP_TAG_U64_SMALL), 945, 600, 860, 36);
  roundtrip(f, scp_val_u32(23), 944, 588, 724, 24);
  roundtrip(f, SCP_VAL_VOID, 723, 334, 587, 12);
  uint64_t sym = 0, v = 0;
  assert_true(scp_val_symbol_small((const uint8_t *)"abc", 3, &sym));
  uint64_t elems[3] = { scp_val_error(SCP_ET_CONTRACT, 123), scp_val_u32(UINT32_MAX), sym };
  assert_int_equal(scp_host_vec_new_from_slice(f->h, elems, 3, &v), SCP_OK);
  roundtrip(f, v, 3867, 3420, 2981, 252);
  uint64_t kv[6] = { SCP_VAL_VOID, scp_val_u32(123), scp_val_small_u(222, SCP_TAG_U64_SMALL),
                     scp_val_u32(123), scp_val_small_u(333, SCP_TAG_U64_SMALL), scp_val_u32(123) };
  assert_int_equal(scp_host_map_from_pairs(f->h, kv, 3, &v), SCP_OK);
  roundtrip(f, v, 4434, 4252, 3727, 360);
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_SYMBOL_OBJ,
                                                  (const uint8_t *)"_a_B_Z_d123456", 14, &v),
                   SCP_OK);
  roundtrip(f, v, 2031, 1150, 2295, 182);

  /* a bad character in a symbol: Error(Value, InvalidInput) after ValDeser */
  uint8_t x[12] = { 0, 0, 0, 15, 0, 0, 0, 2, 'a', ' ', 0, 0 };
  uint64_t b = bytes_obj(f->h, x, sizeof x), r;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("deserialize_from_bytes"), &b, NULL, &r, &err),
                   SCP_ERR_HOST);
  assert_int_equal(r, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
  /* ScVal::Map(None): valid XDR, not a Val */
  uint8_t none[8] = { 0, 0, 0, 17, 0, 0, 0, 0 };
  b = bytes_obj(f->h, none, sizeof none);
  uint64_t cpu = f->b.cpu;
  assert_int_equal(scp_host_call(f->h, fn("deserialize_from_bytes"), &b, NULL, &r, &err),
                   SCP_ERR_HOST);
  assert_int_equal(r, scp_val_error(SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE));
  assert_int_equal(f->b.cpu - cpu, 724);   /* trace steps 27-28 */
}

/* The PRNG against test__prng__base_prng_seed_0.json: base seed all
 * zero, the first frame's u64_in_inclusive_range(0, 90) is 33, and the
 * first use in a frame costs the sub-PRNG draw (trace prng_test steps
 * 15-16: prng_bytes_new(32) = 3445 cpu). */
static void test_prng(void **state) {
  fixture *f = *state;
  uint8_t seed[32] = { 0 }, mem[8];
  scp_hostmem m = { mem, sizeof mem };
  scp_error err;
  uint64_t before = f->b.cpu, ret, args[2] = { 0, 90 };
  assert_int_equal(scp_host_set_base_prng_seed(f->h, seed), SCP_OK);
  assert_int_equal(f->b.cpu - before, 14285);
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  assert_int_equal(scp_host_call(f->h, fn("prng_u64_in_inclusive_range"), args, &m, &ret, &err),
                   SCP_OK);
  assert_int_equal(ret, 33);
  scp_host_pop_frame(f->h);

  scp_host *h2;
  scp_budget b2;
  scp_budget_init(&b2, 0, 0);
  assert_int_equal(scp_host_create(&b2, NULL, &h2), SCP_OK);
  assert_int_equal(scp_host_set_base_prng_seed(h2, seed), SCP_OK);
  assert_int_equal(scp_host_push_frame(h2), SCP_OK);
  args[0] = scp_val_u32(32);
  before = b2.cpu;
  assert_int_equal(scp_host_call(h2, fn("prng_bytes_new"), args, &m, &ret, &err), SCP_OK);
  assert_int_equal(b2.cpu - before, 3445);
  args[0] = 5;
  args[1] = 4;
  assert_int_equal(scp_host_call(h2, fn("prng_u64_in_inclusive_range"), args, &m, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
  scp_host_pop_frame(h2);
  scp_host_destroy(h2);

  /* base seed [2; 32]: 81 (test__prng__base_prng_seed_2.json) */
  memset(seed, 2, sizeof seed);
  scp_budget_init(&b2, 0, 0);
  assert_int_equal(scp_host_create(&b2, NULL, &h2), SCP_OK);
  assert_int_equal(scp_host_set_base_prng_seed(h2, seed), SCP_OK);
  assert_int_equal(scp_host_push_frame(h2), SCP_OK);
  args[0] = 0;
  args[1] = 90;
  assert_int_equal(scp_host_call(h2, fn("prng_u64_in_inclusive_range"), args, &m, &ret, &err),
                   SCP_OK);
  assert_int_equal(ret, 81);
  scp_host_pop_frame(h2);
  scp_host_destroy(h2);

  /* test__prng__prng_test.json: two frames draw 32 bytes each, then two
   * frames draw u64s in [12345, 78910]: 19133 and 64200 */
  memset(seed, 0, sizeof seed);
  scp_budget_init(&b2, 0, 0);
  assert_int_equal(scp_host_create(&b2, NULL, &h2), SCP_OK);
  assert_int_equal(scp_host_set_base_prng_seed(h2, seed), SCP_OK);
  static const uint64_t want[2] = { 19133, 64200 };
  for (int frame = 0; frame < 4; frame++) {
    assert_int_equal(scp_host_push_frame(h2), SCP_OK);
    if (frame < 2) {
      args[0] = scp_val_u32(32);
      assert_int_equal(scp_host_call(h2, fn("prng_bytes_new"), args, &m, &ret, &err), SCP_OK);
    } else {
      args[0] = 12345;
      args[1] = 78910;
      assert_int_equal(scp_host_call(h2, fn("prng_u64_in_inclusive_range"), args, &m, &ret, &err),
                       SCP_OK);
      assert_int_equal(ret, want[frame - 2]);
    }
    scp_host_pop_frame(h2);
  }
  scp_host_destroy(h2);
}

/* Arbitrary guest arguments through dispatch never crash the host and
 * give only documented statuses; results are good Vals. */
static void test_dispatch_garbage(void **state) {
  fixture *f = *state;
  uint8_t mem[4096];
  for (size_t i = 0; i < sizeof mem; i++) mem[i] = (uint8_t)(i * 7 + 3);
  scp_hostmem m = { mem, sizeof mem };
  uint8_t seed[32] = { 1 };
  assert_int_equal(scp_host_set_base_prng_seed(f->h, seed), SCP_OK);
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  uint64_t pool[64];
  size_t npool = 0;
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  const uint64_t smalls[] = { SCP_VAL_VOID, SCP_VAL_TRUE, scp_val_u32(0), scp_val_u32(3),
                              scp_val_u32(100), scp_val_u32(5000), scp_val_i32(-2),
                              scp_val_small_u(7, SCP_TAG_U64_SMALL),
                              scp_val_small_u(9, SCP_TAG_U256_SMALL),
                              scp_val_error(SCP_ET_CONTRACT, 4), 0xffffffffffffffffULL, 0x7f,
                              scp_val_object(SCP_TAG_VEC_OBJ, 1000) };
  for (int iter = 0; iter < 5000; iter++) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned id = (unsigned)(rng >> 33) % scp_hostfn_count();
    if (!scp_hostfn_implemented(id)) continue;
    uint64_t args[SCP_HOST_MAX_ARGS];
    for (int k = 0; k < SCP_HOST_MAX_ARGS; k++) {
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      unsigned pick = (unsigned)(rng >> 40);
      if (npool && pick % 2) args[k] = pool[pick % npool];
      else args[k] = smalls[pick % SCP_ARRAY_LEN(smalls)];
    }
    uint64_t ret = 0;
    scp_error err;
    int rc = scp_host_dispatch(f->h, id, args, &m, &ret, &err);
    assert_true(rc == SCP_OK || rc == SCP_ERR_HOST || rc == SCP_ERR_BUDGET ||
                rc == SCP_ERR_UNSUPPORTED);
    if (rc == SCP_ERR_HOST) assert_int_equal(scp_val_tag_of(ret), SCP_TAG_ERROR);
    if (rc == SCP_OK && scp_val_is_object(ret) && npool < SCP_ARRAY_LEN(pool)) pool[npool++] = ret;
  }
  assert_true(npool > 10);
  scp_host_pop_frame(f->h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_ed25519, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_secp256k1_recover, setup, fixture_close),
    cmocka_unit_test(test_int256),
    cmocka_unit_test_setup_teardown(test_map_linear_memory, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_map_missing_key, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_map_linear_memory_none, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_map_linear_memory_overflow, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_vec_linear_memory, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_format_shared_nesting, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_instance_storage, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_xdr_roundtrip, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_prng, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_dispatch_garbage, setup, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
