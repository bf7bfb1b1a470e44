/*
 * test_auth.c — authorization host functions (host_auth.c), exact charges
 * worked out from cost-params.txt:
 *   VisitObject 60; MemCpy(x) 42 + 16x/128; MemCmp(x) 44 + 16x/128;
 *   MemAlloc(x) 434 + 16x/128 CPU, 16 + x bytes.
 * So MemCpy(8) 43, MemCpy(16) 44, MemCpy(24) 45, MemCmp(9) 45, MemCmp(12)
 * 45, MemCmp(48) 50, and an empty Vec bulk init (MemCpy(24) + MemAlloc(0)
 * + MemCpy(0)) 521 CPU and 16 bytes.
 * An AddressObject compare (checked Env::obj_cmp: 2 argument visits, 2
 * visits in obj_cmp, MemCmp(48)) is 290 CPU, as the reference records for
 * obj_cmp(Address, Address) in
 * test_v_new_gets_contract_code_cost_inputs_upload.json steps 8 -> 9.
 * scp_host_call does no DispatchHostFunction; each object argument is
 * visited by the argument check (60).
 * The reference's trace test__hostile_opt__test_deep_stack_call_succeeds_
 * near_limit.json checks the enforcing path up to the invoker compare:
 * step 10077 require_auth_for_args(Address, Vec of 0) -> step 10078 (the
 * invoker's obj_cmp) is 1,039 CPU and 16 bytes = dispatch 295 + 2 argument
 * visits + the args visit + the empty Vec clone 521 + the Symbol clone 43;
 * the obj_cmp (10078 -> 10079) is 290.
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

static int open_enforcing(void **state) {
  scp_host_opts o = { .auth_enforcing = true };
  return fixture_open(state, 0, 0, &o, 64);
}

/* Recording with the base PRNG seeded (the nonce PRNG comes from it), as
 * every reference host that records auth. */
static int open_recording(void **state) {
  static const uint8_t zero[32];
  int rc = fixture_open(state, 0, 0, NULL, 64);
  if (rc == 0) rc = scp_host_set_base_prng_seed(((fixture *)*state)->h, zero);
  return rc;
}

/* Recording with a source account (key 0x09...): its own trackers write
 * no nonce. */
static int open_recording_source(void **state) {
  static const uint8_t zero[32];
  scp_host_opts o = { .has_source_account = true };
  memset(o.source_account, 9, 32);
  int rc = fixture_open(state, 0, 0, &o, 64);
  if (rc == 0) rc = scp_host_set_base_prng_seed(((fixture *)*state)->h, zero);
  return rc;
}

static int open_p26(void **state) {
  scp_host_opts o = { .protocol = 26 };
  return fixture_open(state, 0, 0, &o, 64);
}

static uint64_t address(fixture *f, unsigned kind, uint8_t fill) {
  uint8_t enc[33];
  enc[0] = (uint8_t)kind;
  memset(enc + 1, fill, 32);
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = malloc(33);
  assert_non_null(o.u.bytes);
  memcpy(o.u.bytes, enc, 33);
  uint64_t v;
  assert_int_equal(scp_host_add_obj(f->h, &o, &v), SCP_OK);
  return v;
}

/* An ed25519 public key that decodes (RFC 8032 test 1), for accounts
 * whose signature checks get as far as the verification. */
static const uint8_t ADMIN_KEY[32] = {
  0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a, 0xb7, 0xd5, 0x4b, 0xfe, 0xd3, 0xc9, 0x64, 0x07, 0x3a,
  0x0e, 0xe1, 0x72, 0xf3, 0xda, 0xa6, 0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07, 0x51, 0x1a
};

static uint64_t address_key(fixture *f, const uint8_t key[32]) {
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = calloc(1, 33);
  assert_non_null(o.u.bytes);
  memcpy(o.u.bytes + 1, key, 32);
  uint64_t v;
  assert_int_equal(scp_host_add_obj(f->h, &o, &v), SCP_OK);
  return v;
}

static void frame(fixture *f, uint8_t fill, const char *name, bool auth_push) {
  uint8_t id[32];
  memset(id, fill, 32);
  if (auth_push) assert_int_equal(scp_host_charge_push_context(f->h, id), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, id), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, name), SCP_OK);
}

/* A frame called with two U32 arguments (what require_auth authorizes). */
static void frame_args(fixture *f, uint8_t fill, const char *name) {
  frame(f, fill, name, true);
  uint64_t args[2] = { scp_val_u32(1), scp_val_u32(2) };
  assert_int_equal(scp_host_set_frame_args(f->h, args, 2), SCP_OK);
}

typedef struct delta { uint64_t cpu, mem; int rc; uint64_t ret; } delta;

static delta call(fixture *f, const char *name, const uint64_t *args) {
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_error err;
  delta d = { 0 };
  d.rc = scp_host_call(f->h, fn(name), args, &f->mem, &d.ret, &err);
  d.cpu = f->b.cpu - c0;
  d.mem = f->b.mem - m0;
  return d;
}

static void assert_error(delta d, unsigned type, unsigned code) {
  assert_int_equal(d.rc, SCP_ERR_HOST);
  assert_int_equal(d.ret, scp_val_error(type, code));
}

/* ensure_check_auth_frame: Symbol clone, then symbol_matches against
 * "__check_auth": a small symbol (<= 9 chars) compares directly (MemCmp of
 * the shorter length), an object one is visited first. */
static void test_delegated_signers_outside_check_auth(void **state) {
  fixture *f = *state;
  frame(f, 1, "increment", false);
  delta d = call(f, "get_delegated_signers_for_current_auth_check", NULL);
  assert_error(d, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 43 + 45);
  assert_int_equal(d.mem, 0);
  frame(f, 2, "transfer_from_x", false);
  d = call(f, "get_delegated_signers_for_current_auth_check", NULL);
  assert_error(d, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 43 + 60 + 45);
  assert_int_equal(d.mem, 0);
}

static void test_delegate_account_auth(void **state) {
  fixture *f = *state;
  uint64_t a = address(f, 0, 9);
  /* no contract frame: Error(Context, InternalError) after the check */
  delta d = call(f, "delegate_account_auth", &a);
  assert_error(d, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR);
  assert_int_equal(d.cpu, 60);
  frame(f, 1, "increment", false);
  d = call(f, "delegate_account_auth", &a);
  assert_error(d, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 43 + 45);
  assert_int_equal(d.mem, 0);
}

/* Both delegation functions exist from protocol 27 on. */
static void test_delegation_protocol_gate(void **state) {
  fixture *f = *state;
  frame(f, 1, "increment", false);
  delta d = call(f, "get_delegated_signers_for_current_auth_check", NULL);
  assert_error(d, SCP_ET_CONTEXT, SCP_EC_INDEX_BOUNDS);
  assert_int_equal(d.cpu, 0);
}

/* An empty entry list: to_vec of the entries, the tracker Vec, nothing
 * else. */
static void test_authorize_as_curr_contract(void **state) {
  fixture *f = *state;
  frame(f, 1, "increment", false);
  uint64_t v;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &v), SCP_OK);
  delta d = call(f, "authorize_as_curr_contract", &v);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.ret, SCP_VAL_VOID);
  assert_int_equal(d.cpu, 60 + 60 + 521 + 521);
  assert_int_equal(d.mem, 16 + 16);
  /* an entry that is not an InvokerContractAuthEntry: the to_vec of 1
   * (523 / 24 B), the tracker Vec of 1 (MemCpy(24) 45, MemAlloc(264) 467 /
   * 280 B, MemCpy(264) 75), the contract id's clone 46, then the
   * conversion fails: Error(Value, UnexpectedType) (test_auth_enf.c has
   * real entries) */
  uint64_t one = scp_val_u32(1);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &one, 1, &v), SCP_OK);
  d = call(f, "authorize_as_curr_contract", &v);
  assert_error(d, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE);
  assert_int_equal(d.cpu, 60 + 60 + 523 + 45 + 467 + 75 + 46);
  assert_int_equal(d.mem, 24 + 280);
}

/* Enforcing, no entries, the top frame: the args Vec clone (2 Vals:
 * MemCpy(24), MemAlloc(16), MemCpy(16) = 525 CPU, 32 bytes), the function
 * name's clone, no invoker, no tracker: Error(Auth, InvalidAction). */
static void test_require_auth_for_args_top_frame(void **state) {
  fixture *f = *state;
  frame(f, 1, "transfer", true);
  uint64_t a = address(f, 0, 9), v, vals[2] = { scp_val_u32(1), scp_val_u32(2) };
  assert_int_equal(scp_host_vec_new_from_slice(f->h, vals, 2, &v), SCP_OK);
  uint64_t args[2] = { a, v };
  delta d = call(f, "require_auth_for_args", args);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 60 + 60 + 525 + 43);
  assert_int_equal(d.mem, 32);
  assert_int_equal(scp_host_auth_count(f->h), 0);
}

/* The direct invoker is authorized: contract 1 calls contract 2, which
 * asks for contract 1's auth -- the invoker's address compared (290). */
static void test_require_auth_for_args_invoker(void **state) {
  fixture *f = *state;
  frame(f, 1, "outer", true);
  frame(f, 2, "inner", true);
  uint64_t inv = address(f, 1, 1), other = address(f, 1, 3), v;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &v), SCP_OK);
  uint64_t args[2] = { inv, v };
  delta d = call(f, "require_auth_for_args", args);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.ret, SCP_VAL_VOID);
  assert_int_equal(d.cpu, 60 + 60 + 60 + 521 + 43 + 290);
  assert_int_equal(d.mem, 16);
  args[0] = other;
  d = call(f, "require_auth_for_args", args);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 60 + 60 + 521 + 43 + 290);
}

/* A constructor's invoker is create_contract's host-function auth frame
 * (pushed by the deploying contract's create, a self-deploy here): even
 * the deploying contract's address is not compared, and fails. */
static void test_require_auth_for_args_constructor(void **state) {
  fixture *f = *state;
  frame(f, 1, "deploy", true);
  uint64_t inv = address(f, 1, 1), v;
  uint8_t enc[33] = { 1 };
  memset(enc + 1, 1, 32);
  scp_executable ex = { .kind = SCP_EXEC_WASM };
  bool pushed;
  assert_int_equal(scp_auth_push_create(f->h, inv, enc, enc + 1, NULL, 0, &ex, &pushed), SCP_OK);
  assert_true(pushed);
  frame(f, 2, "__constructor", true);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &v), SCP_OK);
  uint64_t args[2] = { inv, v };
  delta d = call(f, "require_auth_for_args", args);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 60 + 60 + 521 + 43);
  scp_host_pop_frame(f->h);
  scp_auth_pop_create(f->h);
}

/* require_auth (the frame's own args, enforcing): the args' Vec<Val>
 * clone (2 Vals: 525 CPU / 32 B), the Symbol clone 43, then no invoker:
 * Error(Auth, InvalidAction); under a calling contract whose address it
 * is, the invoker compare (290) passes. */
static void test_require_auth_enforcing(void **state) {
  fixture *f = *state;
  frame_args(f, 1, "transfer");
  uint64_t a = address(f, 0, 9), inv = address(f, 1, 1);
  delta d = call(f, "require_auth", &a);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 525 + 43);
  assert_int_equal(d.mem, 32);
  frame_args(f, 2, "inner");
  d = call(f, "require_auth", &inv);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60 + 525 + 43 + 290);
  assert_int_equal(d.mem, 32);
  d = call(f, "require_auth", &a);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 525 + 43 + 290);
  assert_int_equal(scp_host_auth_count(f->h), 0);
}

/* Outside any contract frame (both modes): the args clone, then
 * Error(Auth, InternalError) -- the auth manager's call stack is empty. */
static void test_require_auth_for_args_no_frame(void **state) {
  fixture *f = *state;
  uint64_t a = address(f, 0, 9), v;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &v), SCP_OK);
  uint64_t args[2] = { a, v };
  delta d = call(f, "require_auth_for_args", args);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR);
  assert_int_equal(d.cpu, 60 + 60 + 60 + 521);
  assert_int_equal(d.mem, 16);
  assert_int_equal(scp_host_auth_count(f->h), 0);
}

/* Recording, the first require_auth of an account in the top frame, on
 * an empty storage map and footprint (MemCpy(x) = 42 + x/8, MemAlloc(x)
 * = 434 + x/8 CPU and 16 + x B, MemCmp(x) = 44 + x/8):
 *   the argument check's visit                                   60
 *   the frame args' Vec<Val> clone (2)                  525 / 32 B
 *   the Symbol clone                                             43
 *   new_recording: no source account, so a nonce; consume_nonce:
 *     scaddress_from_address (visit 60, MemCpy(48) 48), its clone 48,
 *     the LedgerKeyNonce ScVal clone (MemCpy(96)) 54, Rc<LedgerKey>
 *     (MemAlloc(152)) 453 / 168 B                        663 / 168 B
 *     storage has: footprint insert (read-only) 707 / 41 B, map find 50,
 *     map insert (None) 687 / 84 B, footprint get 235, expiry check
 *     251, map get 251                                 2,181 / 125 B
 *     Rc<LedgerEntry> (MemAlloc(288))                      470 / 304 B
 *     storage put: expiry check 251, footprint get 235 + insert
 *     (read-write) 807 / 41 B, LazyLedgerEntry (MemAlloc(32)) 438 /
 *     48 B, map insert 838 / 84 B                        2,569 / 173 B
 * = 6,511 CPU / 802 B.  The bytes are the reference's: the SAC's
 * require_auth in test__stellar_asset_contract__test_recording_auth_for_
 * stellar_asset_contract.json (steps 124 -> 126, 2 args, 4 entries in the
 * map and footprint) records 1,546 B = 32 + 168 + 304 + 48 + 2 x 141
 * (footprint Vec of 5) + 2 x 356 (map Vec of 5). */
static void test_recording_first_require_auth(void **state) {
  fixture *f = *state;
  frame_args(f, 1, "transfer");
  uint64_t a = address(f, 0, 9);
  delta d = call(f, "require_auth", &a);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60 + 525 + 43 + 663 + 2181 + 470 + 2569);
  assert_int_equal(d.cpu, 6511);
  assert_int_equal(d.mem, 32 + 168 + 125 + 304 + 173);
  assert_int_equal(d.mem, 802);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  /* the nonce entry: temporary, owned by the account, value Void */
  assert_int_equal(f->h->nstore, 1);
  assert_int_equal(f->h->nfoot, 1);
  assert_true(f->h->store[0].k.account);
  assert_int_equal(f->h->store[0].k.dur, SCP_DUR_TEMPORARY);
  assert_int_equal(f->h->foot[0].rw, 1);
  assert_int_equal(f->h->store[0].live_until, f->h->opts.ledger_sequence + 3110400 - 1);
  assert_int_equal(scp_host_auth_count(f->h), 1);
  /* the same object again in the same frame: its tracker already matched
   * this frame -- Error(Auth, ExistingValue) after the clones */
  d = call(f, "require_auth", &a);
  assert_error(d, SCP_ET_AUTH, SCP_EC_EXISTING_VALUE);
  assert_int_equal(d.cpu, 60 + 525 + 43);
  assert_int_equal(d.mem, 32);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  assert_int_equal(scp_host_auth_count(f->h), 1);
}

/* The trustline of the account whose key is 32 bytes `owner`, seeded as
 * a 4-byte entry: its TrustLineAsset is the asset's type alone. */
static void seed_trustline(fixture *f, uint8_t owner) {
  enum { LK_TRUSTLINE = 1 };
  static uint8_t asset[4] = { 0, 0, 0, 1 };
  uint8_t v[4] = { 0 };
  scp_lkey k = { .type = LK_TRUSTLINE, .key = asset, .keylen = 4 };
  memset(k.id, owner, 32);
  assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
}

/* The reference's own numbers: the SAC's mint calls require_auth(admin)
 * in recording mode in test__stellar_asset_contract__test_recording_auth_
 * for_stellar_asset_contract.json, steps 124 -> 126: 7,885 CPU / 1,546 B.
 * Its storage map and footprint then hold the issuer's and the user's
 * accounts, the user's trustline and the SAC's instance; the frame has 2
 * args.  The same state here gives the same charges (the nonce key sorts
 * between the trustline and the instance: its compares with the instance
 * cost MemCmp(48); the adjacent-key compares of each of the 4 inserts
 * include the two accounts' MemCmp(32)). */
static void test_recording_matches_sac_trace(void **state) {
  fixture *f = *state;
  uint8_t v[4] = { 0 }, kb[4], id[32];
  seed_trustline(f, 0x30);
  scp_lkey k;
  for (int i = 0; i < 2; i++) {
    k = (scp_lkey){ .type = SCP_LK_ACCOUNT };
    memset(k.id, 0x10 + i, 32);
    assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
  }
  memset(id, 0x40, 32);
  scp_lc_instance_key(id, &k, kb);
  assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
  frame_args(f, 0x40, "mint");
  uint64_t admin = address(f, 0, 9);
  delta d = call(f, "require_auth", &admin);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 7885);
  assert_int_equal(d.mem, 1546);
  assert_int_equal(f->h->nstore, 5);
  assert_int_equal(f->h->nfoot, 5);
}

/* The SAC trace's state for the mint: the issuer's (admin's, ADMIN_KEY)
 * and the user's (0xee) accounts, the user's trustline, the SAC's
 * instance -- the user's key sorts after the issuer's, as in the trace
 * (the other order costs 240 CPU less: the storage get's key compares); the
 * frame mint(Address(user), I128(100)) whose require_auth(admin) made the
 * tracker.  A seeded account image: accountID, balance, seqNum,
 * numSubEntries, no inflation destination, flags, an empty home domain,
 * thresholds, no signers, ext V0. */
static uint64_t sac_mint_state(fixture *f) {
  uint8_t v[4] = { 0 }, kb[4], id[32], acct[120] = { 0 };
  seed_trustline(f, 0xee);
  scp_lkey k;
  for (int i = 0; i < 2; i++) {
    k = (scp_lkey){ .type = SCP_LK_ACCOUNT };
    if (i) memset(k.id, 0xee, 32);
    else memcpy(k.id, ADMIN_KEY, 32);
    memcpy(acct + 4, k.id, 32);
    acct[68] = 1;   /* thresholds: master weight 1 */
    /* the issuer: one signer, its own key, weight 100 (create_account) */
    uint32_t alen = 80;
    if (!i) {
      acct[75] = 1;
      memcpy(acct + 80, k.id, 32);
      acct[115] = 100;
      alen = 120;
    }
    assert_int_equal(scp_storage_seed(f->h, &k, acct, alen, 0, true), SCP_OK);
  }
  memset(id, 0x2e, 32);
  scp_lc_instance_key(id, &k, kb);
  assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
  frame(f, 0x2e, "mint", true);
  uint64_t args[2] = { address(f, 0, 0xee), scp_val_small_i(100, SCP_TAG_I128_SMALL) };
  assert_int_equal(scp_host_set_frame_args(f->h, args, 2), SCP_OK);
  uint64_t admin = address_key(f, ADMIN_KEY);
  delta d = call(f, "require_auth", &admin);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 7885);   /* the trace's steps 124 -> 126 */
  assert_int_equal(d.mem, 1546);
  return admin;
}

/* maybe_emulate_authentication when the last frame pops: the reference's
 * numbers in test__stellar_asset_contract__test_recording_auth_for_
 * stellar_asset_contract.json, from the mint's pop (step 186: 166,870 CPU,
 * 25,693 B) to the end of the call (step 224: 622,140 CPU; memory 33,273
 * from step 214 on): 455,270 CPU and 7,580 B.  The parts, as the trace
 * shows them: the address (108), the two BytesN (971 + 979), the
 * signature struct's map (2,318 / 250 B), its Vec (1,025 / 104 B), the
 * payload (21,280 / 5,962 B up to its Bytes), the context Vals, the
 * account's load, the signature's unpacking and the failing
 * verify_sig_ed25519 (419,231), the AccountId clone (46). */
static void test_emulation_matches_sac_trace(void **state) {
  fixture *f = *state;
  sac_mint_state(f);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_host_pop_frame(f->h);
  assert_int_equal(scp_host_take_auth_emulation_rc(f->h, NULL), SCP_OK);
  assert_int_equal(f->b.cpu - c0, 455270);
  assert_int_equal(f->b.mem - m0, 7580);
}

/* A tree: mint's frame calls inner(7) of contract 0x33, which requires
 * the admin's auth for [U32(7)] -- a sub-invocation of the admin's tree.
 * Over the root-only 455,270 CPU / 7,580 B:
 *  - the child's to_xdr: its address 108, vals_to_scval_vec of 1 (MemCpy
 *    40 47, MemAlloc(112) 448 / 128 B, MemCpy(112) 56), its empty
 *    sub-invocations' collect (47 + 434 / 16 B + 42): 1,182 / 144 B; the
 *    root's collect now of 1 (MemAlloc(216) and MemCpy(216) 27 more
 *    each, 216 B more): 54 / 216 B;
 *  - the child's XDR: 10 writes of 68 bytes (seven of 4 at 221, 32 at
 *    227, "inner" 222, its padding 221): 2,217 CPU, 10 x 242 + 3 x 68 =
 *    2,624 B; SHA-256 of 280 bytes instead of 212: 18,976 - 15,251 =
 *    3,725;
 *  - the child's context: vec_new_from_slice(1) of a small value 965 /
 *    104 B, the map of 3 1,152 / 168 B and the enum's Vec of 2 1,027 /
 *    112 B (the trace's steps 15, 206 and 208), vec_push_back onto a Vec
 *    of 1 1,207 / 112 B (steps 210's 1,205 / 104 B, 8 bytes more to
 *    allocate and copy).
 * 466,799 CPU / 11,060 B in all. */
static void test_emulation_subinvocation(void **state) {
  fixture *f = *state;
  uint64_t admin = sac_mint_state(f);
  uint8_t id[32];
  memset(id, 0x33, 32);
  assert_int_equal(scp_host_charge_push_context(f->h, id), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, id), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, "inner"), SCP_OK);
  uint64_t seven = scp_val_u32(7), v;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &seven, 1, &v), SCP_OK);
  uint64_t args[2] = { admin, v };
  assert_int_equal(call(f, "require_auth_for_args", args).rc, SCP_OK);
  scp_host_pop_frame(f->h);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_host_pop_frame(f->h);
  assert_int_equal(scp_host_take_auth_emulation_rc(f->h, NULL), SCP_OK);
  assert_int_equal(f->b.cpu - c0, 455270 + 1182 + 54 + 2217 + 3725 + 965 + 1152 + 1027 + 1207);
  assert_int_equal(f->b.cpu - c0, 466799);
  assert_int_equal(f->b.mem - m0, 7580 + 144 + 216 + 2624 + 104 + 168 + 112 + 112);
  assert_int_equal(f->b.mem - m0, 11060);
}

/* The tracker of the transaction's source account is not emulated
 * (emulate_authentication returns first for SourceAccount credentials). */
static void test_emulation_source_account(void **state) {
  fixture *f = *state;
  frame_args(f, 0x2e, "mint");
  uint64_t src = address(f, 0, 9);   /* open_recording_source's key */
  assert_int_equal(call(f, "require_auth", &src).rc, SCP_OK);
  uint64_t c0 = f->b.cpu;
  scp_host_pop_frame(f->h);
  assert_int_equal(scp_host_take_auth_emulation_rc(f->h, NULL), SCP_OK);
  assert_int_equal(f->b.cpu - c0, 0);
}

/* The nonce is the recording PRNG's first gen_range(0..=i64::MAX): with
 * the base seed all zeros, two hosts draw the same value, and it lands
 * in the key's XDR (ScVal::LedgerKeyNonce, big-endian). */
static void test_recording_nonce_deterministic(void **state) {
  fixture *f = *state, *twin;
  void *ts = NULL;
  assert_int_equal(open_recording(&ts), 0);
  twin = ts;
  frame_args(f, 1, "transfer");
  frame_args(twin, 1, "transfer");
  uint64_t a = address(f, 0, 9), b = address(twin, 0, 9);
  assert_int_equal(call(f, "require_auth", &a).rc, SCP_OK);
  assert_int_equal(call(twin, "require_auth", &b).rc, SCP_OK);
  const scp_lkey *k = &f->h->store[0].k, *l = &twin->h->store[0].k;
  assert_int_equal(k->keylen, 12);
  assert_memory_equal(k->key, "\0\0\0\x15", 4);
  assert_memory_equal(k->key, l->key, 12);
  assert_int_equal(k->key[4] & 0x80, 0);   /* 0..=i64::MAX */
  fixture_close(&ts);
}

/* The transaction's source account authorizes without a nonce:
 * source_account_address (AccountId clone 46, the ScAddress object 442 /
 * 80 B), its compare 290 -- equal, so SourceAccount credentials; another
 * account pays the same, after the compare with the source's tracker
 * (290), and then its nonce (5,883 CPU / 770 B, as above). */
static void test_recording_source_account(void **state) {
  fixture *f = *state;
  frame_args(f, 1, "transfer");
  uint64_t src = address(f, 0, 9), other = address(f, 0, 8);
  delta d = call(f, "require_auth", &src);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60 + 525 + 43 + 46 + 442 + 290);
  assert_int_equal(d.mem, 32 + 80);
  assert_int_equal(f->h->nstore, 0);
  d = call(f, "require_auth", &other);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60 + 525 + 43 + 290 + 46 + 442 + 290 + 5883);
  assert_int_equal(d.mem, 32 + 80 + 770);
  assert_int_equal(f->h->nstore, 1);
}

/* A tracker makes every later contract-frame push dearer by its
 * match-stack entry (Vec<usize> bulk init of 1: MemCpy(24) 45 +
 * MemAlloc(8) 435 / 24 B + MemCpy(8) 43 = 523 / 24 B); the same
 * account's require_auth_for_args in the nested frame is recorded in that
 * tracker (record_invocation):
 *   the arguments' visits 60 + 60, the Vec's visit 60 and clone (1 Val)
 *   523 / 24 B, the Symbol clone 43, the invoker compare 290 (contract 1
 *   is not the account), then to_xdr: the ScAddress (visit 60, MemCpy(48)
 *   48), the args' metered_collect into Result<Vec<ScVal>> (MemCpy(40) 47,
 *   MemAlloc(112) 448 / 128 B, MemCpy(112) 56); from_xdr: the ScAddress
 *   object 442 / 80 B, scvals_to_val_vec (MemCpy(40) 47, MemAlloc(24) 437
 *   / 40 B, MemCpy(24) 45); the compare of the two addresses 290 (the
 *   small symbols and the U32s compare free)
 * = 2,956 CPU / 272 B, and no second nonce. */
static void test_recording_nested_frame(void **state) {
  fixture *f = *state;
  frame_args(f, 1, "outer");
  uint64_t a = address(f, 0, 9), v, one = scp_val_u32(7);
  assert_int_equal(call(f, "require_auth", &a).rc, SCP_OK);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  assert_int_equal(scp_host_charge_push_context(f->h, NULL), SCP_OK);
  uint64_t hf_cpu = f->b.cpu - c0, hf_mem = f->b.mem - m0;
  c0 = f->b.cpu;
  m0 = f->b.mem;
  uint8_t id[32];
  memset(id, 2, 32);
  assert_int_equal(scp_host_charge_push_context(f->h, id), SCP_OK);
  /* over a host-function frame's push: the id clone 46, the ScAddress
   * object 442 / 80 B, the ContractInvocation entry (bulk init of 16:
   * 525 / 32 B), then the tracker's frame 523 / 24 B */
  assert_int_equal(f->b.cpu - c0 - hf_cpu, 46 + 442 + 525 + 523);
  assert_int_equal(f->b.mem - m0 - hf_mem, 80 + 32 + 24);
  assert_int_equal(scp_host_push_contract_frame(f->h, id), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, "inner"), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &one, 1, &v), SCP_OK);
  uint64_t args[2] = { a, v };
  size_t nstore = f->h->nstore;
  delta d = call(f, "require_auth_for_args", args);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60 + 60 + 60 + 523 + 43 + 290 + 60 + 48 + 47 + 448 + 56 + 442 + 47 +
                              437 + 45 + 290);
  assert_int_equal(d.cpu, 2956);
  assert_int_equal(d.mem, 24 + 128 + 80 + 40);
  assert_int_equal(f->h->nstore, nstore);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  /* popping both frames ends the tracker's root (and runs the emulated
   * authentication of its tree, outer -> inner: the account has no
   * entry, so load_account's storage get leaves the key, absent, in the
   * map); a require_auth in a new top frame makes a second tracker, with
   * its own nonce */
  scp_host_pop_frame(f->h);
  scp_host_pop_frame(f->h);
  assert_int_equal(scp_host_take_auth_emulation_rc(f->h, NULL), SCP_OK);
  assert_int_equal(f->h->nstore, nstore + 1);
  frame_args(f, 3, "again");
  assert_int_equal(call(f, "require_auth", &a).rc, SCP_OK);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 2);
  assert_int_equal(f->h->nstore, nstore + 2);
}

/* disable_non_root_auth (simulation's "record" mode): a new tree in a
 * nested frame fails after the invoker compare (290) and
 * is_invoker_contract's compare with the frame below (290); in the root
 * frame it records as usual. */
static void test_recording_non_root_disabled(void **state) {
  fixture *f = *state;
  frame_args(f, 1, "outer");
  frame_args(f, 2, "inner");
  uint64_t a = address(f, 0, 9);
  delta d = call(f, "require_auth", &a);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 525 + 43 + 290 + 290);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 0);
  scp_host_pop_frame(f->h);
  d = call(f, "require_auth", &a);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 6511);
}

static int open_recording_root_only(void **state) {
  static const uint8_t zero[32];
  scp_host_opts o = { .auth_disable_non_root = true };
  int rc = fixture_open(state, 0, 0, &o, 64);
  if (rc == 0) rc = scp_host_set_base_prng_seed(((fixture *)*state)->h, zero);
  return rc;
}

/* The native entry point (the SAC's): the same charges without the
 * dispatch-level argument visit -- 6,511 - 60 for require_auth; with an
 * args Vec of 1, its visit and clone (60 + 523 / 24 B) instead of the
 * frame args' clone (525 / 32 B), then the repeat's error. */
static void test_native_require(void **state) {
  fixture *f = *state;
  frame_args(f, 1, "transfer");
  uint64_t a = address(f, 0, 9), v, one = scp_val_u32(7);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  assert_int_equal(scp_auth_require(f->h, a, SCP_VAL_VOID), SCP_OK);
  assert_int_equal(f->b.cpu - c0, 6511 - 60);
  assert_int_equal(f->b.mem - m0, 802);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &one, 1, &v), SCP_OK);
  c0 = f->b.cpu;
  assert_int_equal(scp_auth_require(f->h, a, v), SCP_ERR_HOST);
  assert_int_equal(f->h->errval, scp_val_error(SCP_ET_AUTH, SCP_EC_EXISTING_VALUE));
  assert_int_equal(f->b.cpu - c0, 60 + 523 + 43);
}

/* A failing frame rolls the trackers back (scp_auth_mgr_save before its push,
 * scp_auth_mgr_restore after its pop; uncharged): the tracker made inside is
 * gone. */
static void test_recording_rollback(void **state) {
  fixture *f = *state;
  frame_args(f, 1, "outer");
  scp_auth_mgr_snap *s;
  assert_int_equal(scp_auth_mgr_save(f->h, &s), SCP_OK);
  frame_args(f, 2, "inner");
  uint64_t a = address(f, 0, 9);
  assert_int_equal(call(f, "require_auth", &a).rc, SCP_OK);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  scp_host_pop_frame(f->h);
  uint64_t c0 = f->b.cpu;
  scp_auth_mgr_restore(f->h, s);
  assert_int_equal(f->b.cpu, c0);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 0);
}

/* create_contract's deployer auth (scp_auth_push_create), a contract
 * deploying with its own address: CreateContractArgsV2 clone (MemCpy(176)
 * 64 + the empty constructor args' MemAlloc(0) 434 / 16 B + MemCpy(0) 42
 * = 540 / 16 B), the frame push (Vec bulk init of one 176-byte item:
 * MemCpy(24) 45 + MemAlloc(176) 456 / 192 B + MemCpy(176) 64 = 565 /
 * 192 B; no tracker), the second clone (540 / 16 B), the invoker compare
 * (290): 1,935 CPU / 224 B, in both modes.  The clone and push pieces sum
 * with source_account_address (46 + 442 / 80 B) to the 2,133 CPU / 304 B
 * the reference records before the obj_cmp in
 * test__storage__test_large_instance_key.json steps 6 -> 8. */
static delta create_auth(fixture *f, uint64_t dep, const uint64_t *ctor, uint32_t nctor,
                         bool *pushed) {
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  const scp_hobj *o;
  assert_int_equal(scp_host_visit(f->h, dep, &o), SCP_OK);   /* VisitObject 60 */
  c0 += 60;
  uint8_t addr[33];
  memcpy(addr, o->u.bytes, 33);
  scp_executable ex = { .kind = SCP_EXEC_WASM };
  delta d = { 0 };
  d.rc = scp_auth_push_create(f->h, dep, addr, addr + 1, ctor, nctor, &ex, pushed);
  d.cpu = f->b.cpu - c0;
  d.mem = f->b.mem - m0;
  return d;
}

static void test_create_auth_self_deploy(void **state) {
  fixture *f = *state;
  frame(f, 7, "deploy", true);
  uint64_t dep = address(f, 1, 7);
  bool pushed;
  delta d = create_auth(f, dep, NULL, 0, &pushed);
  assert_int_equal(d.rc, SCP_OK);
  assert_true(pushed);
  assert_int_equal(d.cpu, 540 + 565 + 540 + 290);
  assert_int_equal(d.cpu, 1935);
  assert_int_equal(d.mem, 16 + 192 + 16);
  assert_int_equal(scp_auth_mgr_depth(f->h), 2);
  scp_auth_pop_create(f->h);
  assert_int_equal(scp_auth_mgr_depth(f->h), 1);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 0);
}

/* An account deployer, recording, no source account: the same pieces
 * (the invoker compare fails), then a new tracker with its nonce (5,883
 * CPU / 770 B, as test_recording_first_require_auth): 7,818 CPU / 994 B.
 * With one constructor argument (a U32) each args clone is MemCpy(176)
 * 64 + MemAlloc(96) 446 / 112 B + MemCpy(96) 54 = 564 / 112 B. */
static void test_create_auth_account_deployer(void **state) {
  fixture *f = *state;
  frame(f, 7, "deploy", true);
  uint64_t acc = address(f, 0, 9), acc2 = address(f, 0, 8);
  bool pushed;
  delta d = create_auth(f, acc, NULL, 0, &pushed);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 540 + 565 + 540 + 290 + 5883);
  assert_int_equal(d.mem, 16 + 192 + 16 + 770);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  scp_auth_pop_create(f->h);
  /* a second deployer with a constructor argument: the first tracker is
   * still active (its root is the deploy frame): one tracker frame at the
   * push (523 / 24 B), its address compared (290) before the new tracker;
   * the storage now holds one nonce, so the new nonce's storage work is
   * the one-entry case -- checked as a whole against a twin below */
  uint64_t one = scp_val_u32(5);
  d = create_auth(f, acc2, &one, 1, &pushed);
  assert_int_equal(d.rc, SCP_OK);
  assert_true(pushed);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 2);
  scp_auth_pop_create(f->h);
  /* the twin: the same second creation on a fresh host */
  void *ts = NULL;
  assert_int_equal(open_recording(&ts), 0);
  fixture *t = ts;
  frame(t, 7, "deploy", true);
  uint64_t tacc2 = address(t, 0, 8);
  delta e = create_auth(t, tacc2, &one, 1, &pushed);
  assert_int_equal(e.rc, SCP_OK);
  assert_int_equal(e.cpu, 564 + 565 + 564 + 290 + 5883);
  assert_int_equal(e.mem, 112 + 192 + 112 + 770);
  scp_auth_pop_create(t->h);
  fixture_close(&ts);
}

/* The deployer is the source account: no nonce -- source_account_address
 * (46 + 442 / 80 B) and its compare (290): 2,713 CPU / 304 B.  Without
 * the invoker compare (a top-level CreateContract has no calling
 * contract) that is 2,423 CPU / 304 B, what the reference's traces record
 * per creation (test__lifecycle__test_create_contract_from_source_account
 * _recording_auth.json and the deep-stack traces: from the frame push to
 * the source account's obj_cmp, 2,133 CPU / 304 B, then that obj_cmp
 * 290). */
static void test_create_auth_source_deployer(void **state) {
  fixture *f = *state;
  frame(f, 7, "deploy", true);
  uint64_t src = address(f, 0, 9);
  bool pushed;
  delta d = create_auth(f, src, NULL, 0, &pushed);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 540 + 565 + 540 + 290 + 46 + 442 + 290);
  assert_int_equal(d.cpu - 290, 2423);
  assert_int_equal(d.mem, 304);
  assert_int_equal(f->h->nstore, 0);
  scp_auth_pop_create(f->h);
}

/* Enforcing: an account deployer is not authorized (no entries). */
static void test_create_auth_enforcing_account(void **state) {
  fixture *f = *state;
  frame(f, 7, "deploy", true);
  uint64_t acc = address(f, 0, 9);
  bool pushed;
  delta d = create_auth(f, acc, NULL, 0, &pushed);
  assert_int_equal(d.rc, SCP_ERR_HOST);
  assert_int_equal(f->h->errval, scp_val_error(SCP_ET_AUTH, SCP_EC_INVALID_ACTION));
  assert_int_equal(d.cpu, 540 + 565 + 540 + 290);
  assert_true(pushed);
  scp_auth_pop_create(f->h);
}

/* A recorded tracker adds its frame to the create push (523 / 24 B). */
static void test_create_auth_after_require_auth(void **state) {
  fixture *f = *state;
  frame(f, 7, "deploy", true);
  uint64_t self = address(f, 1, 7), acc = address(f, 0, 9);
  assert_int_equal(call(f, "require_auth", &acc).rc, SCP_OK);
  bool pushed;
  delta d = create_auth(f, self, NULL, 0, &pushed);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 1935 + 523);
  assert_int_equal(d.mem, 224 + 24);
  scp_auth_pop_create(f->h);
}

/* The deployer authorized the deploying call itself (deployer.require_auth()
 * then a deploy with the deployer's address): the create's require_auth
 * is recorded in that tracker -- the push's tracker frame (523 / 24 B),
 * the invoker compare (290), then record_invocation: the args' clone for
 * to_xdr (540 / 16 B) and Compare<CreateContractArgsV2> (the preimage
 * MemCmp(80) 54, the executable MemCmp(72) 53): 3,105 CPU / 264 B, no
 * second nonce. */
static void test_create_auth_under_tracker(void **state) {
  fixture *f = *state;
  frame_args(f, 7, "deploy");
  uint64_t acc = address(f, 0, 9);
  assert_int_equal(call(f, "require_auth", &acc).rc, SCP_OK);
  size_t nstore = f->h->nstore;
  bool pushed;
  delta d = create_auth(f, acc, NULL, 0, &pushed);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 540 + 565 + 523 + 540 + 290 + 540 + 54 + 53);
  assert_int_equal(d.cpu, 3105);
  assert_int_equal(d.mem, 16 + 192 + 24 + 16 + 16);
  assert_int_equal(f->h->nstore, nstore);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  scp_auth_pop_create(f->h);
  /* with one constructor arg, U32(1), in a deeper frame: each args clone
   * also copies the Vec<ScVal> of 1 (MemAlloc(96) 446 / 112 B, MemCpy(96)
   * 54: 564 CPU), and the compare goes on to the constructor args:
   * Compare<ScVal> of two U32 is MemCmp(4), 44 */
  frame_args(f, 8, "deploy2");
  uint64_t one = scp_val_u32(1);
  d = create_auth(f, acc, &one, 1, &pushed);
  assert_int_equal(d.rc, SCP_OK);
  assert_true(pushed);
  assert_int_equal(d.cpu, 564 + 565 + 523 + 564 + 290 + 564 + 54 + 53 + 44);
  assert_int_equal(d.cpu, 3221);
  assert_int_equal(d.mem, 112 + 192 + 24 + 112 + 112);
  assert_int_equal(f->h->nstore, nstore);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  scp_auth_pop_create(f->h);
}

/* A calling frame pushed without the auth manager's push (unit tests
 * only) leaves the auth uncharged, as before. */
static void test_create_auth_unmodelled(void **state) {
  fixture *f = *state;
  uint64_t acc = address(f, 0, 7);
  bool pushed = true;
  delta d = create_auth(f, acc, NULL, 0, &pushed);   /* no frame */
  assert_int_equal(d.cpu, 0);
  assert_false(pushed);
  frame(f, 7, "deploy", false);
  d = create_auth(f, acc, NULL, 0, &pushed);
  assert_int_equal(d.cpu, 0);
  assert_int_equal(d.mem, 0);
  assert_false(pushed);
}

/* Through the create_contract host function (unknown Wasm hash, so it
 * stops at verify_wasm_exists with Error(Storage, MissingValue), after the
 * auth): a self-deploy costs exactly 1,935 CPU / 224 B more than on a twin
 * host whose deploy frame has no auth-manager push, and leaves the
 * manager's stack as it found it. */
static delta create_from_self(fixture *f, bool auth_push) {
  frame(f, 7, "deploy", auth_push);
  uint64_t dep = address(f, 1, 7);
  uint8_t hash[32], salt[32];
  memset(hash, 5, 32);
  memset(salt, 3, 32);
  uint64_t args[3] = { dep };
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_BYTES_OBJ, hash, 32, &args[1]),
                   SCP_OK);
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_BYTES_OBJ, salt, 32, &args[2]),
                   SCP_OK);
  delta d = call(f, "create_contract", args);
  assert_error(d, SCP_ET_STORAGE, SCP_EC_MISSING_VALUE);
  assert_int_equal(scp_auth_mgr_depth(f->h), auth_push ? 1 : 0);
  return d;
}

static void test_create_contract_self_deploy_auth(void **state) {
  fixture *f = *state, *twin;
  void *ts = NULL;
  assert_int_equal(open_recording(&ts), 0);
  twin = ts;
  delta d = create_from_self(f, true), t = create_from_self(twin, false);
  assert_int_equal(d.cpu - t.cpu, 1935);
  assert_int_equal(d.mem - t.mem, 224);
  fixture_close(&ts);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_delegated_signers_outside_check_auth, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_delegate_account_auth, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_delegation_protocol_gate, open_p26, fixture_close),
    cmocka_unit_test_setup_teardown(test_authorize_as_curr_contract, open_enforcing, fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_for_args_top_frame, open_enforcing,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_for_args_invoker, open_enforcing,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_for_args_constructor, open_enforcing,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_enforcing, open_enforcing, fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_for_args_no_frame, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_for_args_no_frame, open_enforcing,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_first_require_auth, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_nonce_deterministic, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_matches_sac_trace, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_emulation_matches_sac_trace, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_emulation_subinvocation, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_emulation_source_account, open_recording_source,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_source_account, open_recording_source,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_nested_frame, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_rollback, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_native_require, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_non_root_disabled, open_recording_root_only,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_self_deploy, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_self_deploy, open_enforcing, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_account_deployer, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_source_deployer, open_recording_source,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_enforcing_account, open_enforcing,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_after_require_auth, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_under_tracker, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_unmodelled, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_contract_self_deploy_auth, open_recording,
                                    fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
