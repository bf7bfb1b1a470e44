/*
 * test_auth_deleg.c — AddressWithDelegates credentials (host_auth_deleg.c):
 * a custom account (contract W) whose entry carries a delegated signer
 * (contract D); W's __check_auth lists its delegated signers and delegates
 * to D, whose __check_auth gets W's payload and context with D's own
 * signature.  The invoker stands in for the VM.
 *
 * No reference trace covers delegation; the charges are worked out from
 * the reference's rules (auth.rs, see host_auth_deleg.c) and cost-params:
 *   MemCpy(x) = 42 + x/8, MemAlloc(x) = 434 + x/8 (memory 16 + x),
 *   MemCmp(x) = 44 + x/8, a host object = MemAlloc(64) 442 / 80 B.
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
#include "soroban/core/host_lifecycle.h"
#include "host_fixture.h"
#include "xdr_hand.h"

/* ---- XDR by hand ------------------------------------------------------------------- */

enum { TARGET = 0x2e };

/* An entry of W (contract) authorizing target.poke() (no args, no
 * sub-invocations): cred 2 (AddressV2) or 3 (AddressWithDelegates with
 * the delegates given as raw XDR). */
static void entry(xb *e, int cred, const uint8_t w[32], const xb *delegates) {
  uint8_t target[32];
  memset(target, TARGET, 32);
  e->n = 0;
  x32(e, (uint32_t)cred);
  xaddr(e, 1, w);
  x32(e, 0);
  x32(e, 99);    /* nonce */
  x32(e, 200);   /* expiration */
  x32(e, 1);     /* SCV_VOID signature */
  if (cred == 3) xbytes(e, delegates->p, delegates->n);
  x32(e, 0);     /* CONTRACT_FN */
  xaddr(e, 1, target);
  x32(e, 4);
  xbytes(e, "poke", 4);
  x32(e, 0);     /* no args */
  x32(e, 0);     /* no sub-invocations */
}

/* One SorobanDelegateSignature: the address, U32(sig), no nested ones. */
static void delegate(xb *b, unsigned kind, const uint8_t id[32], uint32_t sig) {
  xaddr(b, kind, id);
  x32(b, 3);   /* SCV_U32 */
  x32(b, sig);
  x32(b, 0);
}

static int set_entry(fixture *f, xb *e, scp_error *err) {
  const uint8_t *p[1] = { e->p };
  size_t l[1] = { e->n };
  return scp_host_set_auth_entries(f->h, p, l, 1, err);
}

/* ---- the stub VM ------------------------------------------------------------------ */

typedef struct stub {
  uint8_t w[32], d[32];
  int wcalls, dcalls;
  bool list, delegate_twice, delegate_other;
  int list_rc, del_rc, del2_rc;
  uint64_t list_ret, list_cpu, list_mem;
  uint64_t wpayload, wctx, dpayload, dsig, dctx;
  int danswer;
} stub;

static uint64_t address_of(scp_host *h, unsigned kind, const uint8_t key[32]) {
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = calloc(1, 33);
  o.u.bytes[0] = (uint8_t)kind;
  memcpy(o.u.bytes + 1, key, 32);
  uint64_t v = 0;
  scp_host_add_obj(h, &o, &v);
  return v;
}

static int stub_invoke(void *ctx, scp_host *h, const scp_invocation *inv, uint64_t *ret,
                       scp_error *err) {
  stub *s = ctx;
  *ret = SCP_VAL_VOID;
  if (!memcmp(inv->id, s->d, 32)) {
    s->dcalls++;
    s->dpayload = inv->args[0];
    s->dsig = inv->args[1];
    s->dctx = inv->args[2];
    return s->danswer ? scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)s->danswer, "no") : SCP_OK;
  }
  s->wcalls++;
  s->wpayload = inv->args[0];
  s->wctx = inv->args[2];
  scp_host_push_contract_frame(h, inv->id);
  scp_host_set_frame_fn(h, inv->fn);
  uint64_t c0 = h->budget->cpu, m0 = h->budget->mem, r;
  s->list_rc = scp_host_call(h, fn("get_delegated_signers_for_current_auth_check"), NULL, NULL,
                             &s->list_ret, err);
  s->list_cpu = h->budget->cpu - c0;
  s->list_mem = h->budget->mem - m0;
  uint64_t who = address_of(h, 1, s->delegate_other ? s->w : s->d);
  s->del_rc = scp_host_call(h, fn("delegate_account_auth"), &who, NULL, &r, err);
  if (s->delegate_twice)
    s->del2_rc = scp_host_call(h, fn("delegate_account_auth"), &who, NULL, &r, err);
  scp_host_pop_frame(h);
  return s->del_rc;
}

/* W and D deployed (a dummy code each); W's entry set; target.poke's
 * frame pushed; then W's require_auth. */
static int run(fixture *f, stub *s, int cred, const xb *delegates) {
  static const uint8_t code[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 }, zero[32];
  uint8_t sw[32] = { 7 }, sd[32] = { 8 }, target[32];
  memset(target, TARGET, 32);
  assert_int_equal(scp_host_deploy(f->h, code, sizeof code, zero, sw, s->w), SCP_OK);
  assert_int_equal(scp_host_deploy(f->h, code, sizeof code, zero, sd, s->d), SCP_OK);
  scp_host_set_invoker(f->h, stub_invoke, s);
  xb e, dl = { .n = 0 };
  if (!delegates) {
    x32(&dl, 1);
    delegate(&dl, 1, s->d, 7);
    delegates = &dl;
  }
  entry(&e, cred, s->w, delegates);
  scp_error err;
  int rc = set_entry(f, &e, &err);
  if (rc) return rc;
  assert_int_equal(scp_host_charge_push_context(f->h, target), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, target), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, "poke"), SCP_OK);
  uint64_t who = address_of(f->h, 1, s->w), r;
  return scp_host_call(f->h, fn("require_auth"), &who, NULL, &r, &err);
}

/* W's __check_auth lists D and delegates to it: D's __check_auth gets W's
 * payload and context, and its own signature U32(7). */
static void test_delegation(void **state) {
  fixture *f = *state;
  stub s = { 0 };
  assert_int_equal(run(f, &s, 3, NULL), SCP_OK);
  assert_int_equal(s.wcalls, 1);
  assert_int_equal(s.list_rc, SCP_OK);
  const scp_hobj *v = scp_host_obj(f->h, s.list_ret);
  assert_non_null(v);
  assert_int_equal(v->tag, SCP_TAG_VEC_OBJ);
  assert_int_equal(v->len, 1);
  const scp_hobj *a = scp_host_obj(f->h, v->u.vals[0]);
  assert_memory_equal(a->u.bytes + 1, s.d, 32);
  assert_int_equal(s.del_rc, SCP_OK);
  assert_int_equal(s.dcalls, 1);
  assert_int_equal(s.dpayload, s.wpayload);
  assert_int_equal(s.dctx, s.wctx);
  assert_int_equal(s.dsig, scp_val_u32(7));
}

/* The list costs what the reference's HostVec push_back and object cost:
 * the new Vec of 1 (MemCpy(24) 45, MemAlloc(8) 435 / 24 B, MemCpy(8) 43)
 * and its object (442 / 80 B): 965 CPU / 104 B; without delegates (AddressV2)
 * it is Env vec_new, 502 / 80 B (test_auth_create.c's trace, steps 72 ->
 * 73): the rest (ensure_check_auth_frame, the dispatch) is the same. */
static void test_signers_list_charges(void **state) {
  fixture *f = *state;
  stub s = { 0 }, s2 = { 0 };
  assert_int_equal(run(f, &s, 3, NULL), SCP_OK);
  fixture *g = NULL;
  assert_int_equal(fixture_open_ledger((void **)&g), 0);
  assert_int_not_equal(run(g, &s2, 2, NULL), SCP_OK);   /* no delegates: the delegation fails */
  assert_int_equal(s2.list_rc, SCP_OK);
  assert_int_equal(scp_host_obj(g->h, s2.list_ret)->len, 0);
  assert_int_equal(s.list_cpu - s2.list_cpu, 965 - 502);
  assert_int_equal(s.list_mem - s2.list_mem, 104 - 80);
  void *gs = g;
  fixture_close(&gs);
}

/* The tree's conversion in set_authorization_entries: the root's
 * delegates' collect (MemCpy(40) 47, MemAlloc(64) 442 / 80 B, MemCpy(64)
 * 50), D's address object (442 / 80 B) and signature (a U32: free), D's
 * empty collect (47, MemAlloc(0) 434 / 16 B, MemCpy(0) 42): 1,504 CPU /
 * 176 B more than the same entry with AddressV2 credentials. */
static void test_entry_conversion_charges(void **state) {
  fixture *f = *state;
  static const uint8_t code[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 }, zero[32];
  uint8_t w[32], d[32], sw[32] = { 7 }, sd[32] = { 8 };
  assert_int_equal(scp_host_deploy(f->h, code, sizeof code, zero, sw, w), SCP_OK);
  assert_int_equal(scp_host_deploy(f->h, code, sizeof code, zero, sd, d), SCP_OK);
  xb dl = { .n = 0 }, e2, e3;
  x32(&dl, 1);
  delegate(&dl, 1, d, 7);
  entry(&e2, 2, w, NULL);
  entry(&e3, 3, w, &dl);
  scp_error err;
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  assert_int_equal(set_entry(f, &e2, &err), SCP_OK);
  uint64_t c2 = f->b.cpu - c0, m2 = f->b.mem - m0;
  c0 = f->b.cpu;
  m0 = f->b.mem;
  assert_int_equal(set_entry(f, &e3, &err), SCP_OK);
  assert_int_equal(f->b.cpu - c0 - c2, 47 + 442 + 50 + 442 + 47 + 434 + 42);
  assert_int_equal(f->b.mem - m0 - m2, 80 + 80 + 16);
}

/* A frame pushed while the tracker is alive snapshots the delegates too:
 * the root's collect of 1 (47, MemAlloc(48) 440 / 64 B, MemCpy(48) 48),
 * D's of 0 (47, 434 / 16 B, 42), the empty match stack's clone (MemCpy(24)
 * 45, MemAlloc(0) 434 / 16 B, MemCpy(0) 42): 1,579 CPU / 96 B. */
static void test_snapshot_charges(void **state) {
  fixture *f = *state;
  uint64_t cost[2][2];
  for (int cred = 2; cred <= 3; cred++) {
    stub s = { 0 };
    static const uint8_t code[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 }, zero[32];
    uint8_t sw[32] = { 7 }, sd[32] = { 8 }, target[32];
    memset(target, TARGET, 32);
    fixture *g = NULL;
    assert_int_equal(fixture_open_ledger((void **)&g), 0);
    assert_int_equal(scp_host_deploy(g->h, code, sizeof code, zero, sw, s.w), SCP_OK);
    assert_int_equal(scp_host_deploy(g->h, code, sizeof code, zero, sd, s.d), SCP_OK);
    xb dl = { .n = 0 }, e;
    x32(&dl, 1);
    delegate(&dl, 1, s.d, 7);
    entry(&e, cred, s.w, &dl);
    scp_error err;
    assert_int_equal(set_entry(g, &e, &err), SCP_OK);
    uint64_t c0 = g->b.cpu, m0 = g->b.mem;
    assert_int_equal(scp_host_charge_push_context(g->h, target), SCP_OK);
    cost[cred - 2][0] = g->b.cpu - c0;
    cost[cred - 2][1] = g->b.mem - m0;
    void *gs = g;
    fixture_close(&gs);
  }
  (void)f;
  assert_int_equal(cost[1][0] - cost[0][0], 535 + 523 + 521);
  assert_int_equal(cost[1][1] - cost[0][1], 64 + 16 + 16);
}

/* delegate_account_auth twice for D: Error(Auth, InvalidInput) "already
 * been called"; for an address with no delegate signature: Error(Auth,
 * InvalidInput) "has not provided a signature" (the require_auth fails
 * with Error(Auth, InvalidAction) from W's failing __check_auth). */
static void test_delegation_errors(void **state) {
  fixture *f = *state;
  stub s = { .delegate_twice = true };
  int rc = run(f, &s, 3, NULL);
  assert_int_equal(s.del_rc, SCP_OK);
  assert_int_equal(s.del2_rc, SCP_ERR_HOST);
  assert_int_equal(rc, SCP_OK);   /* the stub returns the first one's result */
  fixture *g = NULL;
  assert_int_equal(fixture_open_ledger((void **)&g), 0);
  stub s2 = { .delegate_other = true };
  rc = run(g, &s2, 3, NULL);
  assert_int_equal(s2.del_rc, SCP_ERR_HOST);
  assert_int_equal(rc, SCP_ERR_HOST);
  assert_int_equal(s2.dcalls, 0);
  void *gs = g;
  fixture_close(&gs);
}

/* A delegate whose signature ScVal is cut short (a Vec of 1,000 that ends
 * after its count) is malformed XDR, found without reading past the
 * entry: the entry sits in a heap block of exactly its length, so the
 * sanitized build would catch an over-read. */
static void test_truncated_delegate_signature(void **state) {
  fixture *f = *state;
  uint8_t w[32], d[32];
  memset(w, 0x77, 32);
  memset(d, 0x55, 32);
  xb e;
  uint8_t target[32];
  memset(target, TARGET, 32);
  e.n = 0;
  x32(&e, 3);    /* AddressWithDelegates */
  xaddr(&e, 1, w);
  x32(&e, 0);
  x32(&e, 99);
  x32(&e, 200);
  x32(&e, 1);    /* SCV_VOID signature */
  x32(&e, 1);    /* one delegate */
  xaddr(&e, 1, d);
  x32(&e, 16);   /* SCV_VEC */
  x32(&e, 1);    /* Some */
  x32(&e, 1000); /* ... and the entry ends here */
  uint8_t *heap = malloc(e.n);
  assert_non_null(heap);
  memcpy(heap, e.p, e.n);
  const uint8_t *p[1] = { heap };
  size_t l[1] = { e.n };
  scp_error err;
  assert_int_equal(scp_host_set_auth_entries(f->h, p, l, 1, &err), SCP_ERR_MALFORMED);
  free(heap);
}

/* D refusing fails W's delegation, and so W's authentication. */
static void test_delegate_refuses(void **state) {
  fixture *f = *state;
  stub s = { .danswer = 3 };
  int rc = run(f, &s, 3, NULL);
  assert_int_equal(s.dcalls, 1);
  assert_int_equal(s.del_rc, SCP_ERR_HOST);
  assert_int_equal(rc, SCP_ERR_HOST);
}

/* The delegates' addresses must be strictly increasing: a duplicate and an
 * unsorted pair are Error(Auth, InvalidInput) when the entries are set. */
static void test_delegates_order(void **state) {
  fixture *f = *state;
  uint8_t w[32], a[32], b[32];
  memset(w, 0x11, 32);
  memset(a, 0x22, 32);
  memset(b, 0x33, 32);
  xb dl = { .n = 0 }, e;
  x32(&dl, 2);
  delegate(&dl, 1, b, 1);
  delegate(&dl, 1, a, 2);
  entry(&e, 3, w, &dl);
  scp_error err;
  assert_int_equal(set_entry(f, &e, &err), SCP_ERR_HOST);
  assert_non_null(strstr(err.msg, "not in sorted order"));
  dl.n = 0;
  x32(&dl, 2);
  delegate(&dl, 1, a, 1);
  delegate(&dl, 1, a, 2);
  entry(&e, 3, w, &dl);
  assert_int_equal(set_entry(f, &e, &err), SCP_ERR_HOST);
  assert_non_null(strstr(err.msg, "duplicate"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_delegation, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_signers_list_charges, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_entry_conversion_charges, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_snapshot_charges, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_delegation_errors, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_truncated_delegate_signature, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_delegate_refuses, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_delegates_order, fixture_open_ledger, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
