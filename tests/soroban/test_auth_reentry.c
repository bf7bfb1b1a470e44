/*
 * test_auth_reentry.c — the one contract re-entry the reference allows: a
 * custom account's __check_auth called (check_account_contract_auth, an
 * internal call in ContractReentryMode::SelfAllowed) while the account is
 * the last contract frame (host_contract.c's call_contract).
 *
 * rs-soroban-env v28.0.2 host/frame.rs call_n_internal: reentry_distance
 * is the position of the callee among the contract frames, nearest first;
 * Some(0) in SelfAllowed mode persists the current frame's instance
 * storage (persist_instance_storage) before the call, anything else is
 * Error(Context, InvalidAction) "Contract re-entry is not allowed".  The
 * re-entered frame's own write-back then reloads the running frame's map
 * (maybe_reload_instance_storage_on_frame_pop).  examples/keeper.c does
 * this with a real __check_auth (tests/e2e/auth_enforce.sh).
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
#include "soroban/fns/host_fns_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_instance.h"
#include "host_fixture.h"

/* The invoker stands in for the VM: it pushes the callee's frame, reads
 * instance key "k" (when asked), writes "m" = 7 (when asked), ends the
 * frame as sor_vm.c does and pops it. */
typedef struct stub {
  int calls;
  bool read, write;
  int has_rc;
  uint64_t seen;     /* has_contract_data(k, instance) in the callee */
  uint64_t got;      /* get_contract_data(k, instance), when there */
} stub;

static int stub_invoke(void *ctx, scp_host *h, const scp_invocation *inv, uint64_t *ret,
                       scp_error *err) {
  stub *s = ctx;
  s->calls++;
  *ret = SCP_VAL_VOID;
  int rc = scp_host_push_contract_frame(h, inv->id);
  if (rc != SCP_OK) return rc;
  if (s->read) {
    uint64_t k[2] = { sym("k"), 2 };
    rc = scp_host_call(h, fn("has_contract_data"), k, NULL, &s->seen, err);
    if (rc == SCP_OK && s->seen == SCP_VAL_TRUE)
      rc = scp_host_call(h, fn("get_contract_data"), k, NULL, &s->got, err);
  }
  if (rc == SCP_OK && s->write) {
    uint64_t p[3] = { sym("m"), scp_val_u32(7), 2 }, r;
    rc = scp_host_call(h, fn("put_contract_data"), p, NULL, &r, err);
  }
  if (rc == SCP_OK) rc = scp_inst_frame_end(h);
  scp_host_pop_frame(h);
  return rc;
}

typedef struct world {
  fixture *f;
  stub st;
  uint8_t a[32], b[32];
} world;

/* Two contracts A and B (a dummy code each), the stub as the invoker. */
static int setup(void **state) {
  static const uint8_t code[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 }, zero[32];
  world *w = calloc(1, sizeof *w);
  if (!w || fixture_open((void **)&w->f, UINT64_MAX, UINT64_MAX, NULL, 64)) return -1;
  uint8_t sa[32] = { 1 }, sb[32] = { 2 };
  if (scp_host_deploy(w->f->h, code, sizeof code, zero, sa, w->a) != SCP_OK) return -1;
  if (scp_host_deploy(w->f->h, code, sizeof code, zero, sb, w->b) != SCP_OK) return -1;
  scp_host_set_invoker(w->f->h, stub_invoke, &w->st);
  *state = w;
  return 0;
}

static int teardown(void **state) {
  world *w = *state;
  void *f = w->f;
  fixture_close(&f);
  free(w);
  return 0;
}

/* A's frame writes k = 5 to its instance storage. */
static void a_frame_writes_k(world *w) {
  assert_int_equal(scp_host_push_contract_frame(w->f->h, w->a), SCP_OK);
  uint64_t p[3] = { sym("k"), scp_val_u32(5), 2 }, r;
  scp_error err;
  assert_int_equal(scp_host_call(w->f->h, fn("put_contract_data"), p, NULL, &r, &err), SCP_OK);
  assert_true(w->f->h->frames[w->f->h->nframes - 1].instance_modified);
}

typedef struct delta {
  int rc;
  uint64_t cpu, mem;
} delta;

static delta check_auth_of(world *w, const uint8_t id[32]) {
  uint64_t args[3] = { SCP_VAL_VOID, SCP_VAL_VOID, SCP_VAL_VOID }, ret;
  uint64_t c = w->f->b.cpu, m = w->f->b.mem;
  delta d;
  d.rc = scp_host_call_internal(w->f->h, id, "__check_auth", args, 3, &ret);
  d.cpu = w->f->b.cpu - c;
  d.mem = w->f->b.mem - m;
  return d;
}

/* __check_auth of A while A runs sees the k A wrote: the instance storage
 * was persisted before the call, and the callee's frame read it. */
static void test_reentry_sees_instance_storage(void **state) {
  world *w = *state;
  w->st.read = true;
  a_frame_writes_k(w);
  delta d = check_auth_of(w, w->a);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(w->st.calls, 1);
  assert_int_equal(w->st.seen, SCP_VAL_TRUE);
  assert_int_equal(w->st.got, scp_val_u32(5));
  /* persist_instance_storage leaves is_modified set: A writes again at
   * its end */
  assert_true(w->f->h->frames[w->f->h->nframes - 1].instance_modified);
}

/* The callee's own write-back reloads A's map: A reads m, and is no
 * longer modified (nothing more to write at its end). */
static void test_reentry_write_reloads_caller(void **state) {
  world *w = *state;
  w->st.write = true;
  a_frame_writes_k(w);
  assert_int_equal(check_auth_of(w, w->a).rc, SCP_OK);
  scp_frame *top = &w->f->h->frames[w->f->h->nframes - 1];
  assert_false(top->instance_modified);
  assert_int_equal(top->storage.n, 2);   /* k and m, in key order */
  assert_int_equal(top->storage.kv[0], sym("k"));
  assert_int_equal(top->storage.kv[1], scp_val_u32(5));
  assert_int_equal(top->storage.kv[2], sym("m"));
  assert_int_equal(top->storage.kv[3], scp_val_u32(7));
}

/* The re-entry costs exactly persist_instance_storage of {k: 5} plus the
 * same internal call made from another contract on the state the persist
 * left (the instance the call reads then carries the map, and the
 * storage map holds the entry written): three fresh worlds, the same
 * set-up.  The numbers, pinned: the call with nothing to persist 3,163
 * CPU / 333 B; the persist 7,054 / 978; the call after it 3,059 / 433
 * (its instance clone copies the map: one allocation 100 bytes larger);
 * the re-entry 10,113 / 1,411. */
static void test_reentry_charges(void **state) {
  (void)state;
  void *s1, *s2, *s3;
  assert_int_equal(setup(&s1), 0);
  assert_int_equal(setup(&s2), 0);
  assert_int_equal(setup(&s3), 0);
  world *w1 = s1, *w2 = s2, *w3 = s3;
  /* nothing modified: the call alone */
  a_frame_writes_k(w1);
  w1->f->h->frames[w1->f->h->nframes - 1].instance_modified = false;
  delta plain = check_auth_of(w1, w1->a);
  assert_int_equal(plain.rc, SCP_OK);
  assert_int_equal(plain.cpu, 3163);
  assert_int_equal(plain.mem, 333);
  /* the persist, then the call from B (no re-entry) */
  a_frame_writes_k(w2);
  uint64_t c = w2->f->b.cpu, m = w2->f->b.mem;
  assert_int_equal(scp_inst_persist_top(w2->f->h), SCP_OK);
  uint64_t pcpu = w2->f->b.cpu - c, pmem = w2->f->b.mem - m;
  assert_int_equal(pcpu, 7054);
  assert_int_equal(pmem, 978);
  scp_host_pop_frame(w2->f->h);
  assert_int_equal(scp_host_push_contract_frame(w2->f->h, w2->b), SCP_OK);
  delta after = check_auth_of(w2, w2->a);
  assert_int_equal(after.rc, SCP_OK);
  assert_int_equal(after.cpu, 3059);
  assert_int_equal(after.mem, 433);
  /* the re-entry */
  a_frame_writes_k(w3);
  delta d = check_auth_of(w3, w3->a);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, pcpu + after.cpu);
  assert_int_equal(d.mem, pmem + after.mem);
  assert_int_equal(d.cpu, 10113);
  assert_int_equal(d.mem, 1411);
  teardown(&s1);
  teardown(&s2);
  teardown(&s3);
}

/* Not the last contract frame (A called B, B's require_auth(A) would call
 * A's __check_auth): Error(Context, InvalidAction), before anything is
 * read or persisted. */
static void test_reentry_deeper_refused(void **state) {
  world *w = *state;
  a_frame_writes_k(w);
  assert_int_equal(scp_host_push_contract_frame(w->f->h, w->b), SCP_OK);
  delta d = check_auth_of(w, w->a);
  assert_int_equal(d.rc, SCP_ERR_HOST);
  assert_int_equal(w->f->h->errval, scp_val_error(SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION));
  assert_string_equal(w->f->h->errmsg, "Contract re-entry is not allowed");
  assert_int_equal(d.cpu, 0);
  assert_int_equal(d.mem, 0);
  assert_int_equal(w->st.calls, 0);
}

/* Nearest first: A -> B -> A (re-entered once already) -> __check_auth(A)
 * is distance 0 and allowed, although A is also the first frame. */
static void test_reentry_nearest_frame(void **state) {
  world *w = *state;
  a_frame_writes_k(w);
  assert_int_equal(scp_host_push_contract_frame(w->f->h, w->b), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(w->f->h, w->a), SCP_OK);
  assert_int_equal(check_auth_of(w, w->a).rc, SCP_OK);
  assert_int_equal(w->st.calls, 1);
}

/* An ordinary call (call / try_call: Prohibited) into a contract on the
 * stack is refused even at distance 0. */
static void test_call_reentry_refused(void **state) {
  world *w = *state;
  assert_int_equal(scp_host_push_contract_frame(w->f->h, w->a), SCP_OK);
  uint8_t enc[33] = { 1 };
  memcpy(enc + 1, w->a, 32);
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = malloc(33);
  memcpy(o.u.bytes, enc, 33);
  uint64_t addr, args, r;
  assert_int_equal(scp_host_add_obj(w->f->h, &o, &addr), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(w->f->h, NULL, 0, &args), SCP_OK);
  uint64_t a[3] = { addr, sym("f"), args };
  scp_error err;
  assert_int_equal(scp_host_call(w->f->h, fn("call"), a, NULL, &r, &err), SCP_ERR_HOST);
  assert_int_equal(w->f->h->errval, scp_val_error(SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION));
  assert_int_equal(w->st.calls, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_reentry_sees_instance_storage, setup, teardown),
    cmocka_unit_test_setup_teardown(test_reentry_write_reloads_caller, setup, teardown),
    cmocka_unit_test_setup_teardown(test_reentry_charges, setup, teardown),
    cmocka_unit_test_setup_teardown(test_reentry_deeper_refused, setup, teardown),
    cmocka_unit_test_setup_teardown(test_reentry_nearest_frame, setup, teardown),
    cmocka_unit_test_setup_teardown(test_call_reentry_refused, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
