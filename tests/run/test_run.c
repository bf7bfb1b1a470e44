/*
 * test_run.c — the chain-neutral run core driven by a fake meter: every
 * unit booked to exactly one node (exact numbers), guest work skipped and
 * booked by the "engine", the node stack, the invariant, and the profile's
 * metadata.  The fake chain looks like Solana's: one compute-unit metric
 * plus a byte counter, syscalls and program entries as nodes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "run/scp_run.h"

enum { CU, BYTES, NM };

typedef struct fake {
  uint64_t now[NM];        /* the meter */
  unsigned reads;          /* times the core read it */
} fake;

static void read_fake(void *ctx, uint64_t *now) {
  fake *f = ctx;
  f->reads++;
  memcpy(now, f->now, sizeof f->now);
}

static const scp_metric metrics[NM] = {
  {"CU", "units", 200000},
  {"Bytes", "bytes", 0},
};

static scp_run *make(fake *f) {
  scp_run_opts o = {NM, metrics, read_fake, f, NULL};
  scp_run *r = NULL;
  scp_error err = {0};
  assert_int_equal(scp_run_create(&o, &r, &err), SCP_OK);
  assert_non_null(r);
  return r;
}

static const uint64_t *self_of(scp_run *r, uint32_t node) {
  return scp_tree_at(scp_run_tree(r), node)->self;
}

/* Every unit is on one node, then the run goes. */
static void check_and_destroy(scp_run *r) {
  scp_error err = {0};
  assert_int_equal(scp_run_check(r, &err), SCP_OK);
  scp_run_destroy(r);
}

/* program:A (entered) and its guest function: `cu` units the engine
 * counted at pc, which the chain then flushes into the meter.  Returns
 * the function's node. */
static uint32_t guest_work(scp_run *r, fake *f, uint32_t *prog, uint64_t pc, uint64_t cu) {
  scp_tree *t = scp_run_tree(r);
  *prog = scp_run_enter(r, 0, 0, SCP_KIND_CONTRACT, 1, 1);
  uint32_t fn = scp_tree_enter(t, *prog, 0, SCP_KIND_GUEST, 1, 3);
  uint64_t work[SCP_MAX_METRICS] = {cu, 0};
  assert_true(scp_tree_add_pc(t, fn, pc, work));
  f->now[CU] += cu;
  return fn;
}

/* Charges before the first boundary go to the root; each enter books the
 * caller's part so far to the caller, each leave the callee's part to it. */
static void test_book_exact(void **state) {
  (void)state;
  fake f = {{10, 3}, 0};
  scp_run *r = make(&f);
  assert_int_equal(scp_run_top(r), 0);
  uint32_t sys = scp_run_enter(r, 0, 0, SCP_KIND_HOST, 0, 7);   /* syscall:sol_log_ */
  assert_int_not_equal(sys, SCP_NODE_NONE);
  assert_int_equal(scp_run_top(r), sys);
  assert_int_equal(scp_run_depth(r), 1);
  f.now[CU] += 100, f.now[BYTES] += 5;
  scp_run_leave(r);
  assert_int_equal(scp_run_top(r), 0);
  assert_int_equal(scp_run_depth(r), 0);
  f.now[CU] += 7;
  scp_run_book(r, 0);
  assert_int_equal(self_of(r, 0)[CU], 17);
  assert_int_equal(self_of(r, 0)[BYTES], 3);
  assert_int_equal(self_of(r, sys)[CU], 100);
  assert_int_equal(self_of(r, sys)[BYTES], 5);
  assert_int_equal(scp_tree_at(scp_run_tree(r), sys)->calls, 1);
  /* the same key again: the same node, two calls */
  assert_int_equal(scp_run_enter(r, 0, 0, SCP_KIND_HOST, 0, 7), sys);
  f.now[CU] += 1;
  scp_run_leave(r);
  assert_int_equal(scp_tree_at(scp_run_tree(r), sys)->calls, 2);
  assert_int_equal(self_of(r, sys)[CU], 101);
  scp_error err = {0};
  assert_int_equal(scp_run_check(r, &err), SCP_OK);
  assert_int_equal(scp_run_total(r, CU), 118);
  assert_int_equal(scp_run_total(r, BYTES), 8);
  scp_run_destroy(r);
}

/* Guest work: the engine books it per pc, the chain flushes it into the
 * meter and skips it; the syscall under the guest node gets only its own. */
static void test_skip_guest_work(void **state) {
  (void)state;
  fake f = {{0, 0}, 0};
  scp_run *r = make(&f);
  scp_tree *t = scp_run_tree(r);
  uint32_t prog, fn = guest_work(r, &f, &prog, 0x18, 42);   /* flushed before the syscall */
  scp_run_skip(r);
  uint32_t sys = scp_run_enter(r, fn, 0x20, SCP_KIND_HOST, 1, 9);
  f.now[CU] += 100;
  scp_run_leave(r);
  /* a memory grow at a pc: booked to the guest node's pc */
  f.now[BYTES] += 32768;
  assert_true(scp_run_book_pc(r, fn, 0x28));
  scp_run_leave(r);
  assert_int_equal(self_of(r, fn)[CU], 42);
  assert_int_equal(self_of(r, fn)[BYTES], 32768);
  assert_int_equal(self_of(r, sys)[CU], 100);
  assert_int_equal(self_of(r, prog)[CU], 0);
  assert_int_equal(self_of(r, 0)[CU], 0);
  assert_int_equal(scp_tree_at(t, sys)->callsite, 0x20);
  assert_int_equal(scp_tree_at(t, fn)->npcs, 2);
  check_and_destroy(r);
}

/* A syscall out of guest code: the pending units are the guest's (charged
 * by the chain just before), skipped in the same reading; a trap inside a
 * nested call leaves calls open, and unwinding books the rest to the
 * innermost and closes them all. */
static void test_from_guest_and_unwind(void **state) {
  (void)state;
  fake f = {{0, 0}, 0};
  scp_run *r = make(&f);
  uint32_t prog, fn = guest_work(r, &f, &prog, 0x8, 30);    /* the guest's, flushed */
  unsigned reads = f.reads;
  uint32_t sys = scp_run_enter_from_guest(r, fn, 0x10, SCP_KIND_HOST, 1, 4);
  assert_int_equal(f.reads, reads + 1);
  assert_int_equal(scp_run_top(r), sys);
  f.now[CU] += 1000;
  uint32_t b = scp_run_enter(r, sys, 0, SCP_KIND_CONTRACT, 2, 2);
  f.now[CU] += 7;                                    /* then the callee traps */
  assert_int_equal(scp_run_depth(r), 3);
  scp_run_unwind(r);
  assert_int_equal(scp_run_depth(r), 0);
  assert_int_equal(self_of(r, b)[CU], 7);
  assert_int_equal(self_of(r, sys)[CU], 1000);
  assert_int_equal(self_of(r, fn)[CU], 30);
  assert_int_equal(self_of(r, prog)[CU], 0);
  check_and_destroy(r);
}

/* A cross-program invocation: syscall -> program -> syscall, each level's
 * units on its own node, the stack unwinding in order. */
static void test_nested_calls(void **state) {
  (void)state;
  fake f = {{0, 0}, 0};
  scp_run *r = make(&f);
  uint32_t a = scp_run_enter(r, 0, 0, SCP_KIND_CONTRACT, 0, 0);
  f.now[CU] += 1;
  uint32_t invoke = scp_run_enter(r, a, 0x40, SCP_KIND_HOST, 0, 1);
  f.now[CU] += 1000;                                  /* the invoke units */
  uint32_t b = scp_run_enter(r, invoke, 0, SCP_KIND_CONTRACT, 1, 1);
  f.now[CU] += 20;
  uint32_t log = scp_run_enter(r, b, 0x8, SCP_KIND_HOST, 1, 2);
  assert_int_equal(scp_run_depth(r), 4);
  f.now[CU] += 100;
  scp_run_leave(r);
  assert_int_equal(scp_run_top(r), b);
  f.now[CU] += 3;
  scp_run_leave(r);
  assert_int_equal(scp_run_top(r), invoke);
  f.now[CU] += 5;                                     /* after the callee returned */
  scp_run_leave(r);
  scp_run_leave(r);
  assert_int_equal(scp_run_depth(r), 0);
  assert_int_equal(self_of(r, a)[CU], 1);
  assert_int_equal(self_of(r, invoke)[CU], 1005);
  assert_int_equal(self_of(r, b)[CU], 23);
  assert_int_equal(self_of(r, log)[CU], 100);
  assert_int_equal(self_of(r, 0)[CU], 0);
  /* leaving at the root only books */
  f.now[CU] += 9;
  scp_run_leave(r);
  assert_int_equal(scp_run_depth(r), 0);
  assert_int_equal(self_of(r, 0)[CU], 9);
  check_and_destroy(r);
}

/* take hands the delta to the chain (a node made only when it is not
 * zero); the meter may be a plain vector instead of a callback. */
static void test_take_and_totals_vector(void **state) {
  (void)state;
  uint64_t live[NM] = {5, 0};
  scp_run_opts o = {NM, metrics, NULL, NULL, live};
  scp_run *r = NULL;
  scp_error err = {0};
  assert_int_equal(scp_run_create(&o, &r, &err), SCP_OK);
  uint64_t d[NM];
  assert_true(scp_run_take(r, d));
  assert_int_equal(d[CU], 5);
  assert_false(scp_run_take(r, d));
  assert_int_equal(d[CU], 0);
  live[BYTES] = 64;
  assert_true(scp_run_take(r, d));
  uint32_t n = scp_tree_enter(scp_run_tree(r), 0, 0, SCP_KIND_HOST, 0, 99);
  scp_run_add(r, n, d);
  /* the 5 taken first were dropped: the invariant says so */
  assert_int_equal(scp_run_check(r, &err), SCP_ERR_INTERNAL);
  assert_string_equal(err.msg, "internal error: the profile's CU sums to 0 units, the meter counted 5");
  scp_run_add(r, 0, (uint64_t[]){5, 0});
  assert_int_equal(scp_run_check(r, &err), SCP_OK);
  assert_int_equal(self_of(r, n)[BYTES], 64);
  scp_run_destroy(r);
}

/* A unit skipped but never booked by the engine breaks the invariant, and
 * the profile is refused. */
static void test_broken_invariant(void **state) {
  (void)state;
  fake f = {{0, 0}, 0};
  scp_run *r = make(&f);
  f.now[BYTES] += 3;
  scp_run_book(r, 0);
  f.now[CU] += 11;
  scp_run_skip(r);                                    /* nobody books these 11 */
  scp_error err = {0};
  assert_int_equal(scp_run_check(r, &err), SCP_ERR_INTERNAL);
  assert_string_equal(err.msg, "internal error: the profile's CU sums to 0 units, the meter counted 11");
  scp_run_report rep = {0};
  scp_profile *p = (scp_profile *)&rep;
  assert_int_equal(scp_run_build(r, &rep, &p, &err), SCP_ERR_INTERNAL);
  assert_null(p);
  scp_run_destroy(r);
}

static const char *frame_names[] = {"root", "program:A", "syscall:sol_log_"};

static int name_node(void *ctx, const scp_tree_node *n, scp_frame_info *out) {
  (void)ctx;
  out->name = frame_names[n->kind == SCP_KIND_ROOT ? 0 : n->kind == SCP_KIND_CONTRACT ? 1 : 2];
  out->source = SCP_SRC_HOST;
  return SCP_OK;
}

static int add_two(void *ctx, scp_profile *p, scp_error *err) {
  int *called = ctx;
  (*called)++;
  int rc = scp_prof_meta(p, "program", "A");
  if (!rc) rc = scp_prof_meta(p, "status", "trap: out of compute units");
  return rc;
}

static const char *meta_key(const scp_profile *p, size_t i) { return scp_prof_str(p, p->meta[i].key); }

/* The profile: the metrics kept, limits, totals, title, the chain's
 * metadata in order, the status and its text. */
static void test_build_metadata(void **state) {
  (void)state;
  fake f = {{0, 0}, 0};
  scp_run *r = make(&f);
  uint32_t a = scp_run_enter(r, 0, 0, SCP_KIND_CONTRACT, 0, 0);
  f.now[CU] += 300;
  scp_run_enter(r, a, 0x10, SCP_KIND_HOST, 0, 1);
  f.now[CU] += 700;
  f.now[BYTES] += 1;
  scp_run_leave(r);
  scp_run_leave(r);
  f.now[CU] += 2;                                     /* pending: build books it to the root */
  scp_resolver res = {.node_frame = name_node};
  int called = 0;
  scp_run_report rep = {1, "A run()", SCP_ERR_BUDGET, "trap: out of compute units", &res, add_two, &called};
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_run_build(r, &rep, &p, &err), SCP_OK);
  assert_int_equal(called, 1);
  assert_int_equal(p->nmetrics, 1);
  assert_string_equal(p->metrics[0].name, "CU");
  assert_int_equal(p->metrics[0].limit, 200000);
  assert_int_equal(p->nodes[0].self[0], 2);
  assert_int_equal(p->nodes[0].total[0], 1002);
  assert_string_equal(scp_prof_str(p, p->title), "A run()");
  assert_int_equal(p->status, SCP_ERR_BUDGET);
  assert_string_equal(scp_prof_str(p, p->status_msg), "trap: out of compute units");
  assert_int_equal(p->nmeta, 2);
  assert_string_equal(meta_key(p, 0), "program");
  assert_string_equal(meta_key(p, 1), "status");
  assert_int_equal(p->nnodes, 3);
  uint32_t child = p->nodes[0].first_child;
  assert_string_equal(scp_prof_str(p, p->frames[p->nodes[child].frame].name), "program:A");
  assert_int_equal(p->nodes[child].self[0], 300);
  assert_int_equal(p->nodes[child].total[0], 1000);
  /* the second metric was checked though not kept */
  assert_int_equal(scp_run_total(r, BYTES), 1);
  scp_profile_destroy(p);
  scp_run_destroy(r);
}

/* A node budget of 3: the second syscall's path is merged into a
 * [truncated] frame (under the root: 1.5 x 3 leaves no room for a marker
 * under the program and its child), its units still booked once, and the
 * profile says so after the chain's lines; folding is said too. */
static void test_build_shape(void **state) {
  (void)state;
  fake f = {{0, 0}, 0};
  scp_run *r = make(&f);
  scp_tree_opts shape = {3, true};
  scp_run_set_shape(r, &shape);
  uint32_t a = scp_run_enter(r, 0, 0, SCP_KIND_CONTRACT, 0, 0);
  f.now[CU] += 10;
  uint32_t s1 = scp_run_enter(r, a, 0x10, SCP_KIND_HOST, 0, 1);
  assert_int_equal(scp_tree_at(scp_run_tree(r), s1)->kind, SCP_KIND_HOST);
  f.now[CU] += 20;
  scp_run_leave(r);
  uint32_t s2 = scp_run_enter(r, a, 0x20, SCP_KIND_HOST, 0, 2);
  assert_int_equal(scp_tree_at(scp_run_tree(r), s2)->marker, scp_run_tree(r)->root_marker);
  assert_int_equal(scp_tree_at(scp_run_tree(r), s2)->parent, scp_run_tree(r)->root_marker);
  f.now[CU] += 40;
  scp_run_leave(r);
  scp_run_leave(r);
  scp_resolver res = {.node_frame = name_node};
  int called = 0;
  scp_run_report rep = {1, "A run()", SCP_OK, NULL, &res, add_two, &called};
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_run_build(r, &rep, &p, &err), SCP_OK);
  assert_int_equal(p->nodes[0].total[0], 70);
  assert_int_equal(p->nmeta, 4);
  assert_string_equal(meta_key(p, 2), "call tree");
  assert_string_equal(scp_prof_str(p, p->meta[2].value),
                      "node budget of 3 reached: 1 call on paths past it merged into 1 "
                      "[truncated] frame (costs exact; raise --max-nodes to see them)");
  assert_string_equal(meta_key(p, 3), "recursion");
  bool found = false;
  for (size_t i = 0; i < p->nnodes; i++) {
    const scp_prof_frame *fr = &p->frames[p->nodes[i].frame];
    if (strcmp(scp_prof_str(p, fr->name), "[truncated]")) continue;
    found = true;
    assert_int_equal(fr->kind, SCP_KIND_TRUNCATED);
    assert_int_equal(p->nodes[i].self[0], 0);
    assert_int_equal(p->nodes[i].total[0], 40);
  }
  assert_true(found);
  scp_profile_destroy(p);
  scp_run_destroy(r);
}

static int fail_meta(void *ctx, scp_profile *p, scp_error *err) {
  (void)ctx, (void)p;
  return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
}

/* A failing metadata step: its error, no profile; an OK status has no text. */
static void test_build_failure_and_ok_status(void **state) {
  (void)state;
  fake f = {{4, 0}, 0};
  scp_run *r = make(&f);
  scp_resolver res = {.node_frame = name_node};
  scp_run_report rep = {0, NULL, SCP_OK, NULL, &res, fail_meta, NULL};
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_run_build(r, &rep, &p, &err), SCP_ERR_NOMEM);
  assert_null(p);
  rep.add_meta = NULL;
  assert_int_equal(scp_run_build(r, &rep, &p, &err), SCP_OK);
  assert_int_equal(p->nmetrics, NM);
  assert_int_equal(p->status, SCP_OK);
  assert_string_equal(scp_prof_str(p, p->title), "");
  assert_int_equal(p->nodes[0].total[0], 4);
  scp_profile_destroy(p);
  scp_run_destroy(r);
}

static void test_create_refuses(void **state) {
  (void)state;
  scp_run *r = (scp_run *)&r;
  scp_error err = {0};
  scp_run_opts none = {0, metrics, read_fake, NULL, NULL};
  assert_int_equal(scp_run_create(&none, &r, &err), SCP_ERR_ARG);
  assert_null(r);
  scp_run_opts many = {SCP_MAX_METRICS + 1, metrics, read_fake, NULL, NULL};
  assert_int_equal(scp_run_create(&many, &r, &err), SCP_ERR_ARG);
  scp_run_opts nometer = {NM, metrics, NULL, NULL, NULL};
  assert_int_equal(scp_run_create(&nometer, &r, &err), SCP_ERR_ARG);
  assert_null(r);
  scp_run_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_book_exact),
    cmocka_unit_test(test_skip_guest_work),
    cmocka_unit_test(test_nested_calls),
    cmocka_unit_test(test_from_guest_and_unwind),
    cmocka_unit_test(test_take_and_totals_vector),
    cmocka_unit_test(test_broken_invariant),
    cmocka_unit_test(test_build_metadata),
    cmocka_unit_test(test_build_shape),
    cmocka_unit_test(test_build_failure_and_ok_status),
    cmocka_unit_test(test_create_refuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
