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
#include <string.h>
#include <cmocka.h>

#include "soroban/host_private.h"
#include "host_fixture.h"

static int open_enforcing(void **state) {
  scp_host_opts o = { .auth_enforcing = true };
  return fixture_open(state, 0, 0, &o, 64);
}

static int open_recording(void **state) { return fixture_open(state, 0, 0, NULL, 64); }

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

static void frame(fixture *f, uint8_t fill, const char *name, bool auth_push) {
  uint8_t id[32];
  memset(id, fill, 32);
  if (auth_push) assert_int_equal(scp_host_charge_push_context(f->h, id), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, id), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, name), SCP_OK);
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
 * else; entries are not supported yet. */
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
  uint64_t one = scp_val_u32(1);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &one, 1, &v), SCP_OK);
  d = call(f, "authorize_as_curr_contract", &v);
  assert_int_equal(d.rc, SCP_ERR_UNSUPPORTED);
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

/* A constructor's invoker is create_contract's host-function auth frame:
 * even the deploying contract's address is not compared, and fails. */
static void test_require_auth_for_args_constructor(void **state) {
  fixture *f = *state;
  frame(f, 1, "deploy", true);
  frame(f, 2, "__constructor", true);
  uint64_t inv = address(f, 1, 1), v;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, NULL, 0, &v), SCP_OK);
  uint64_t args[2] = { inv, v };
  delta d = call(f, "require_auth_for_args", args);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, 60 + 60 + 60 + 521 + 43);
}

/* require_auth (the frame's own args) is not supported in enforcing mode
 * yet: a clean failure, nothing charged by the body. */
static void test_require_auth_enforcing_unsupported(void **state) {
  fixture *f = *state;
  frame(f, 1, "transfer", true);
  uint64_t a = address(f, 0, 9);
  delta d = call(f, "require_auth", &a);
  assert_int_equal(d.rc, SCP_ERR_UNSUPPORTED);
  assert_int_equal(d.cpu, 60);
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

/* Recording ("mock all auths"): accepted and recorded, no body charge. */
static void test_recording_records(void **state) {
  fixture *f = *state;
  frame(f, 1, "transfer", false);
  uint64_t a = address(f, 0, 9), v, one = scp_val_u32(7);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &one, 1, &v), SCP_OK);
  delta d = call(f, "require_auth", &a);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60);
  uint64_t args[2] = { a, v };
  d = call(f, "require_auth_for_args", args);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 120);
  assert_int_equal(scp_host_auth_count(f->h), 2);
  scp_buf b = { 0 };
  scp_host_auth_format(f->h, 1, &b);
  assert_non_null(b.data);
  assert_non_null(strstr(b.data, " authorized transfer("));
  assert_null(strstr(b.data, "all args"));
  scp_buf_free(&b);
}

/* create_contract's deployer auth for a contract deploying with its own
 * address (scp_auth_create_frame): CreateContractArgsV2 clone (MemCpy(176)
 * 64 + the empty constructor args' MemAlloc(0) 434 / 16 B + MemCpy(0) 42
 * = 540 / 16 B), the frame push (Vec bulk init of one 176-byte item:
 * MemCpy(24) 45 + MemAlloc(176) 456 / 192 B + MemCpy(176) 64 = 565 /
 * 192 B), the second clone (540 / 16 B), the invoker compare (290):
 * 1,935 CPU / 224 B.  The clone and push pieces sum with
 * source_account_address (46 + 442 / 80 B) to the 2,133 CPU / 304 B the
 * reference records before the obj_cmp in
 * test__storage__test_large_instance_key.json steps 6 -> 8. */
static delta create_auth(fixture *f, uint64_t dep, uint32_t nctor, bool wasm) {
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  const scp_hobj *o;
  assert_int_equal(scp_host_visit(f->h, dep, &o), SCP_OK);   /* VisitObject 60 */
  c0 += 60;
  uint8_t addr[33];
  memcpy(addr, o->u.bytes, 33);
  delta d = { 0 };
  d.rc = scp_auth_create_frame(f->h, dep, addr, nctor, wasm);
  d.cpu = f->b.cpu - c0;
  d.mem = f->b.mem - m0;
  return d;
}

static void test_create_auth_self_deploy(void **state) {
  fixture *f = *state;
  frame(f, 7, "deploy", true);
  uint64_t dep = address(f, 1, 7);
  delta d = create_auth(f, dep, 0, true);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 540 + 565 + 540 + 290);
  assert_int_equal(d.cpu, 1935);
  assert_int_equal(d.mem, 16 + 192 + 16);
}

/* Not modelled (a recording tracker with its nonce, constructor args'
 * ScVal clones, external refs, top-level account deployers): uncharged. */
static void test_create_auth_unmodelled(void **state) {
  fixture *f = *state;
  uint64_t acc = address(f, 0, 7);
  delta d = create_auth(f, acc, 0, true);   /* no frame */
  assert_int_equal(d.cpu, 0);
  frame(f, 7, "deploy", true);
  uint64_t other = address(f, 1, 8), self = address(f, 1, 7);
  assert_int_equal(create_auth(f, acc, 0, true).cpu, 0);
  assert_int_equal(create_auth(f, other, 0, true).cpu, 0);
  assert_int_equal(create_auth(f, self, 1, true).cpu, 0);
  assert_int_equal(create_auth(f, self, 0, false).cpu, 0);
  /* a recorded require_auth may have made a tracker (recording mode) */
  assert_int_equal(call(f, "require_auth", &acc).rc, SCP_OK);
  d = create_auth(f, self, 0, true);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 0);
  assert_int_equal(d.mem, 0);
}

/* Through the create_contract host function (unknown Wasm hash, so it
 * stops at verify_wasm_exists with Error(Storage, MissingValue), after the
 * auth): a self-deploy costs exactly 1,935 CPU / 224 B more than on a twin
 * host where a recorded require_auth leaves the auth uncharged. */
static delta create_from_self(fixture *f, bool prior_auth) {
  frame(f, 7, "deploy", true);
  uint64_t dep = address(f, 1, 7), acc = address(f, 0, 9);
  if (prior_auth) assert_int_equal(call(f, "require_auth", &acc).rc, SCP_OK);
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
  return d;
}

static void test_create_contract_self_deploy_auth(void **state) {
  fixture *f = *state, *twin;
  void *ts = NULL;
  assert_int_equal(fixture_open(&ts, 0, 0, NULL, 64), 0);
  twin = ts;
  delta d = create_from_self(f, false), t = create_from_self(twin, true);
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
    cmocka_unit_test_setup_teardown(test_require_auth_enforcing_unsupported, open_enforcing,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_for_args_no_frame, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_require_auth_for_args_no_frame, open_enforcing,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_recording_records, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_self_deploy, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_self_deploy, open_enforcing, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_auth_unmodelled, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_contract_self_deploy_auth, open_recording,
                                    fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
