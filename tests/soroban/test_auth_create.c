/*
 * test_auth_create.c — create-contract authorized functions in the
 * authorization code (host_auth_create.c): the context a custom account's
 * __check_auth gets, the signature payload, the compare, against the
 * reference's trace.
 *
 * test__lifecycle__cap_85_executable_reference__test_custom_account_gets_
 * executable_reference_in_auth_context.json runs a CreateContractV2 host
 * function whose deployer is a custom account; its entry's root is
 * CreateContractV2HostFn with an ExternalRef executable (a contract owner,
 * the 8-byte tag of step 33), no constructor args.  After the tracker's
 * two address compares (steps 66 -> 69), 69 -> 93 is the function's
 * compare (the preimage MemCmp(80) 54, the executable MemCmp(72) 53),
 * authenticate's scaddress_from_address (VisitObject 60, MemCpy(48) 48),
 * then the payload, its Bytes (70 -> 71: 971 / 128 B), the contexts' Vec
 * (72 -> 73: 502 / 80 B), the context (73 -> 91: 10,035 / 1,153 B) and
 * its push (91 -> 93: 1,205 / 104 B): 31,794 CPU / 5,945 B in all.
 * The context's parts: the owner's Address and the tag's String (73 -> 74:
 * 1,407 / 184 B), the salt's BytesN (971 / 128 B), "CreateContractHostFn"
 * (1,013 / 116 B), "ExternalRef" (1,010 / 107 B), {owner, tag} (1,143 /
 * 144 B), [ExternalRef, map] (1,087 / 112 B), {executable, salt} with the
 * "executable" Symbol and the keys' compare (2,317 / 250 B), the pair
 * (1,087 / 112 B).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_lifecycle.h"
#include "host_fixture.h"

static int setup(void **state) { return fixture_open(state, 0, 0, NULL, 64); }

static scp_create_args external_ref(void) {
  scp_create_args c = { .deployer = { 1, 0xaa }, .salt = { 0x5a } };
  c.ex.kind = SCP_EXEC_EXTERNAL_REF;
  c.ex.owner[0] = 1;
  memset(c.ex.owner + 1, 0xbb, 32);
  memcpy(c.ex.tag, "test_tag", 8);
  c.ex.taglen = 8;
  return c;
}

typedef struct delta {
  int rc;
  uint64_t cpu, mem;
} delta;

static delta context_of(fixture *f, const scp_create_args *c, uint64_t *ctx) {
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  delta d;
  d.rc = scp_auth_create_context(f->h, c, ctx);
  d.cpu = f->b.cpu - c0;
  d.mem = f->b.mem - m0;
  return d;
}

static void test_context_external_ref(void **state) {
  fixture *f = *state;
  scp_create_args c = external_ref();
  uint64_t ctx = 0;
  delta d = context_of(f, &c, &ctx);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 1407 + 971 + 1013 + 1010 + 1143 + 1087 + 2317 + 1087);
  assert_int_equal(d.cpu, 10035);
  assert_int_equal(d.mem, 1153);
  /* [CreateContractHostFn, {executable: [ExternalRef, {owner, tag}], salt}] */
  const scp_hobj *v = scp_host_obj(f->h, ctx);
  assert_non_null(v);
  assert_int_equal(v->tag, SCP_TAG_VEC_OBJ);
  assert_int_equal(v->len, 2);
  const scp_hobj *name = scp_host_obj(f->h, v->u.vals[0]), *map = scp_host_obj(f->h, v->u.vals[1]);
  assert_int_equal(name->len, 20);
  assert_memory_equal(name->u.bytes, "CreateContractHostFn", 20);
  assert_int_equal(map->tag, SCP_TAG_MAP_OBJ);
  assert_int_equal(map->len, 2);
  const scp_hobj *salt = scp_host_obj(f->h, map->u.vals[3]);
  assert_int_equal(salt->tag, SCP_TAG_BYTES_OBJ);
  assert_int_equal(salt->u.bytes[0], 0x5a);
}

/* A Wasm executable: its BytesN<32> (971 / 128 B) instead of the owner and
 * tag, the small Symbol "Wasm" (free), no {owner, tag} map, and the pair
 * [Wasm, bytes] holds one object fewer to check (VisitObject 60): 10,035 -
 * 1,407 + 971 - 1,010 - 1,143 - 60 = 7,386 CPU, 1,153 - 184 + 128 - 107 -
 * 144 = 846 B. */
static void test_context_wasm(void **state) {
  fixture *f = *state;
  scp_create_args c = external_ref();
  c.ex.kind = SCP_EXEC_WASM;
  memset(c.ex.hash, 0xcc, 32);
  uint64_t ctx = 0;
  delta d = context_of(f, &c, &ctx);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 7386);
  assert_int_equal(d.mem, 846);
}

/* With constructor args (one U32): scvals_to_val_vec (MemCpy(40) 47,
 * MemAlloc(24) 437 / 40 B, MemCpy(24) 45; a U32 converts free), the
 * HostVec of it, the variant "CreateContractWithCtorHostFn" (a 28-byte
 * Symbol) and the three-key map {constructor_args, executable, salt} (two
 * Symbol objects, two key compares) instead of the two-key one.  No trace
 * covers it; built by the same helpers as above, pinned: 10,250 CPU /
 * 1,134 B (the Wasm case's 7,386 less its map 2,317 and variant 1,013,
 * plus the conversion 529, then 5,665 for the Vec, the variant and the
 * map). */
static void test_context_with_constructor(void **state) {
  fixture *f = *state;
  scp_create_args c = external_ref();
  c.ex.kind = SCP_EXEC_WASM;
  uint64_t one = scp_val_u32(1);
  c.ctor = &one;
  c.nctor = 1;
  uint64_t ctx = 0;
  delta d = context_of(f, &c, &ctx);
  assert_int_equal(d.rc, SCP_OK);
  const scp_hobj *v = scp_host_obj(f->h, ctx);
  const scp_hobj *name = scp_host_obj(f->h, v->u.vals[0]), *map = scp_host_obj(f->h, v->u.vals[1]);
  assert_int_equal(name->len, 28);
  assert_memory_equal(name->u.bytes, "CreateContractWithCtorHostFn", 28);
  assert_int_equal(map->len, 3);
  const scp_hobj *args = scp_host_obj(f->h, map->u.vals[1]);
  assert_int_equal(args->tag, SCP_TAG_VEC_OBJ);
  assert_int_equal(args->len, 1);
  assert_int_equal(args->u.vals[0], one);
  assert_int_equal(d.cpu, 7386 - 2317 - 1013 + 47 + 437 + 45 + 5665);
  assert_int_equal(d.cpu, 10250);
  assert_int_equal(d.mem, 1134);
}

/* A StellarAsset executable has no context: Error(Auth, InvalidInput),
 * before anything is charged. */
static void test_context_stellar_asset(void **state) {
  fixture *f = *state;
  scp_create_args c = external_ref();
  c.ex.kind = SCP_EXEC_STELLAR_ASSET;
  uint64_t ctx = 0;
  delta d = context_of(f, &c, &ctx);
  assert_int_equal(d.rc, SCP_ERR_HOST);
  assert_int_equal(f->h->errval, scp_val_error(SCP_ET_AUTH, SCP_EC_INVALID_INPUT));
  assert_int_equal(d.cpu, 0);
}

/* scp_auth_emul_inputs of the one-node tree: the payload (the network id's
 * clone, to_xdr -- the args' clone --, the preimage's XDR writes, SHA-256),
 * its Bytes, the contexts: the trace's 69 -> 93 less the compare and
 * authenticate's scaddress_from_address (54 + 53 + 60 + 48).  The trace's
 * entry has legacy Address credentials (the test picks them at random):
 * the SorobanAuthorization preimage, without the address (with it the
 * same tree costs 2,528 more: the address's clone and two writes, 36 more
 * bytes hashed). */
static void test_auth_inputs_external_ref(void **state) {
  fixture *f = *state;
  scp_create_args c = external_ref();
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = malloc(33);
  memcpy(o.u.bytes, c.deployer, 33);
  uint64_t addr;
  assert_int_equal(scp_host_add_obj(f->h, &o, &addr), SCP_OK);
  scp_auth_mgr_tnode node = { .is_contract_fn = false, .fn = "", .create = &c };
  scp_auth_emul_in a = { .address = addr, .nonce = 1234567890123, .live_until = 1000,
                    .with_address = false, .nodes = &node, .nnodes = 1 };
  uint64_t payload, ctx, c0 = f->b.cpu, m0 = f->b.mem;
  uint8_t hash[32];
  assert_int_equal(scp_auth_emul_inputs(f->h, &a, &payload, &ctx, hash), SCP_OK);
  assert_int_equal(f->b.cpu - c0, 31794 - 54 - 53 - 60 - 48);
  assert_int_equal(f->b.mem - m0, 5945);
}

/* Compare<CreateContractArgsV2>: the preimage first (MemCmp(80) 54; a
 * different salt stops there), the executable (MemCmp(72) 53), then the
 * constructor args one by one. */
static void test_compare(void **state) {
  fixture *f = *state;
  scp_create_args a = external_ref(), b = external_ref();
  int ord = 9;
  uint64_t c0 = f->b.cpu;
  assert_int_equal(scp_auth_create_compare(f->h, &a, &b, &ord), SCP_OK);
  assert_int_equal(ord, 0);
  assert_int_equal(f->b.cpu - c0, 54 + 53);
  b.salt[31] = 1;
  c0 = f->b.cpu;
  assert_int_equal(scp_auth_create_compare(f->h, &a, &b, &ord), SCP_OK);
  assert_int_equal(ord, -1);
  assert_int_equal(f->b.cpu - c0, 54);
  b = external_ref();
  b.ex.tag[0] = 'u';
  c0 = f->b.cpu;
  assert_int_equal(scp_auth_create_compare(f->h, &a, &b, &ord), SCP_OK);
  assert_int_equal(ord, -1);
  assert_int_equal(f->b.cpu - c0, 54 + 53);
  b = external_ref();
  uint64_t one = scp_val_u32(1);
  b.ctor = &one;
  b.nctor = 1;
  assert_int_equal(scp_auth_create_compare(f->h, &a, &b, &ord), SCP_OK);
  assert_int_equal(ord, -1);   /* a shorter list sorts first */
}

/* The XDR an entry carries (CreateContractV2HostFn), written by hand. */
static void test_xdr(void **state) {
  fixture *f = *state;
  scp_create_args c = external_ref();
  uint8_t *img = NULL;
  size_t len = 0;
  assert_int_equal(scp_auth_create_xdr(f->h, &c, false, &img, &len), SCP_OK);
  uint8_t want[4 + 4 + 36 + 32 + 4 + 36 + 4 + 8 + 4] = { 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1 };
  size_t at = 12;
  memcpy(want + at, c.deployer + 1, 32);
  at += 32;
  memcpy(want + at, c.salt, 32);
  at += 32;
  want[at + 3] = 2;   /* CONTRACT_EXECUTABLE_EXTERNAL_REF */
  at += 4;
  want[at + 3] = 1;   /* SC_ADDRESS_TYPE_CONTRACT */
  at += 4;
  memcpy(want + at, c.ex.owner + 1, 32);
  at += 32;
  want[at + 3] = 8;
  at += 4;
  memcpy(want + at, "test_tag", 8);
  at += 8;
  at += 4;   /* no constructor args */
  assert_int_equal(len, at);
  assert_memory_equal(img, want, at);
  free(img);
}

/* ---- recording mode: a contract address with an external-reference executable ---- */

static int open_recording(void **state) {
  static const uint8_t zero[32];
  int rc = fixture_open(state, 0, 0, NULL, 64);
  if (rc == 0) rc = scp_host_set_base_prng_seed(((fixture *)*state)->h, zero);
  return rc;
}

static bool in_footprint(fixture *f, uint8_t type, const uint8_t id[32]) {
  for (size_t i = 0; i < f->h->nfoot; i++)
    if (f->h->foot[i].k.type == type && !memcmp(f->h->foot[i].k.id, id, 32)) return true;
  return false;
}

/* Contract 0xa1 requires contract C's auth (recording); when the frame
 * pops, the emulation reads C's instance, and for an ExternalRef
 * executable the reference entry (executable_ref_ledger_key: the owner's
 * clone 48, the tag's 45 + 434 / 18 B + 42, the key's Rc 453 / 168 B;
 * try_get) whose Bytes(32) value is the Wasm hash (MemCpy(32) 46), then
 * the code entry -- all three join the footprint.  The cost is pinned
 * against a Wasm executable's (the instance's clone copies the tag too):
 * 10,613 CPU / 1,473 B against 5,859 / 865 B; no reference trace shows
 * it. */
static uint64_t emulate_contract_with(fixture *f, bool ext, uint64_t *mem) {
  uint8_t cid[32], owner[32], hash[32], a1[32], kb[4];
  memset(cid, 0xc1, 32);
  memset(owner, 0x0f, 32);
  memset(hash, 0x77, 32);
  memset(a1, 0xa1, 32);
  scp_executable ex = { .kind = ext ? SCP_EXEC_EXTERNAL_REF : SCP_EXEC_WASM };
  memcpy(ex.hash, hash, 32);
  ex.owner[0] = 1;
  memcpy(ex.owner + 1, owner, 32);
  memcpy(ex.tag, "t1", 2);
  ex.taglen = 2;
  uint8_t *img;
  uint32_t len;
  assert_int_equal(scp_lc_instance_image(&ex, &img, &len), SCP_OK);
  scp_lkey ik;
  scp_lc_instance_key(cid, &ik, kb);
  assert_int_equal(scp_storage_seed(f->h, &ik, img, len, 1000, false), SCP_OK);
  free(img);
  if (ext) {
    scp_lkey rk;
    assert_int_equal(scp_lc_exec_ref_key(f->h, &ex, &rk), SCP_OK);
    uint8_t val[40] = { 0, 0, 0, 13, 0, 0, 0, 32 };
    memcpy(val + 8, hash, 32);
    assert_int_equal(scp_storage_seed(f->h, &rk, val, sizeof val, 1000, false), SCP_OK);
    scp_lkey_free(&rk);
  }
  static const uint8_t code[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
  scp_lkey ck;
  scp_lc_code_key(hash, &ck);
  assert_int_equal(scp_storage_seed(f->h, &ck, code, sizeof code, 1000, false), SCP_OK);
  assert_int_equal(scp_host_charge_push_context(f->h, a1), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, a1), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, "run"), SCP_OK);
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = calloc(1, 33);
  o.u.bytes[0] = 1;
  memcpy(o.u.bytes + 1, cid, 32);
  uint64_t c, r;
  assert_int_equal(scp_host_add_obj(f->h, &o, &c), SCP_OK);
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("require_auth"), &c, NULL, &r, &err), SCP_OK);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_host_pop_frame(f->h);
  assert_int_equal(scp_host_take_auth_emulation_rc(f->h, &err), SCP_OK);
  assert_true(in_footprint(f, SCP_LK_CONTRACT_CODE, hash));
  assert_int_equal(in_footprint(f, SCP_LK_CONTRACT_DATA, owner), ext);
  *mem = f->b.mem - m0;
  return f->b.cpu - c0;
}

static void test_emulation_external_ref(void **state) {
  fixture *f = *state, *g = NULL;
  assert_int_equal(open_recording((void **)&g), 0);
  uint64_t me, mw;
  uint64_t ce = emulate_contract_with(f, true, &me), cw = emulate_contract_with(g, false, &mw);
  print_message("emulation: external ref %llu / %llu, wasm %llu / %llu\n", (unsigned long long)ce,
                (unsigned long long)me, (unsigned long long)cw, (unsigned long long)mw);
  /* the tag in the instance's clone 434 / 18 B + 42; the key 1,022 /
   * 186 B; the hash 46; the reference entry's read through the recording
   * storage (its footprint and map insert, the entry) and the code's read
   * in a larger map: 3,210 / 404 B (measured) */
  assert_int_equal(ce - cw, 476 + 1022 + 46 + 3210);
  assert_int_equal(me - mw, 18 + 186 + 404);
  void *gs = g;
  fixture_close(&gs);
}

/* An account deployer's tree is one create-contract function (recording
 * mode); its emulated check when the deploying frame pops hashes the
 * function and builds its context (the account has no entry: the check
 * stops at its load, as in the reference).  With one constructor argument
 * (U32(5)) it costs more by: the args' clone in to_xdr (MemCpy(176) 64 +
 * MemAlloc(96) 446 / 112 B + MemCpy(96) 54, against 540 / 16 B: 24 CPU /
 * 96 B), the argument's two XDR writes (ValSer(4) 221 / 254 B each), 8
 * more bytes hashed (SHA-256: 438 CPU), and the context with constructor
 * args (10,250 - 7,386 = 2,864 CPU, 1,134 - 846 = 288 B, above). */
static uint64_t emulate_create(fixture *f, const uint64_t *ctor, uint32_t nctor, uint64_t *mem) {
  uint8_t a7[32], acc[33] = { 0 };
  memset(a7, 7, 32);
  memset(acc + 1, 9, 32);
  assert_int_equal(scp_host_charge_push_context(f->h, a7), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, a7), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, "deploy"), SCP_OK);
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = malloc(33);
  memcpy(o.u.bytes, acc, 33);
  uint64_t dep;
  assert_int_equal(scp_host_add_obj(f->h, &o, &dep), SCP_OK);
  scp_executable ex = { .kind = SCP_EXEC_WASM };
  memset(ex.hash, 0x44, 32);
  uint8_t salt[32] = { 3 };
  bool pushed = false;
  assert_int_equal(scp_auth_push_create(f->h, dep, acc, salt, ctor, nctor, &ex, &pushed), SCP_OK);
  assert_true(pushed);
  scp_auth_pop_create(f->h);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_host_pop_frame(f->h);
  scp_error err;
  assert_int_equal(scp_host_take_auth_emulation_rc(f->h, &err), SCP_OK);
  *mem = f->b.mem - m0;
  return f->b.cpu - c0;
}

static void test_emulation_create_with_constructor(void **state) {
  fixture *f = *state, *g = NULL;
  assert_int_equal(open_recording((void **)&g), 0);
  uint64_t five = scp_val_u32(5), m0, m1;
  uint64_t c0 = emulate_create(f, NULL, 0, &m0), c1 = emulate_create(g, &five, 1, &m1);
  print_message("emulated create: %llu / %llu, with a constructor arg %llu / %llu\n",
                (unsigned long long)c0, (unsigned long long)m0, (unsigned long long)c1,
                (unsigned long long)m1);
  assert_int_equal(c1 - c0, 24 + 221 + 221 + 438 + 2864);
  assert_int_equal(m1 - m0, 96 + 254 + 254 + 288);
  void *gs = g;
  fixture_close(&gs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_context_external_ref, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_context_wasm, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_context_with_constructor, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_context_stellar_asset, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_auth_inputs_external_ref, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_compare, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_xdr, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_emulation_external_ref, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_emulation_create_with_constructor, open_recording,
                                    fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
