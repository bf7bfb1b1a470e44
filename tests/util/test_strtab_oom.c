/*
 * test_strtab_oom.c — a string table that runs out of memory while it
 * grows stays valid: realloc is wrapped (the Makefile links this test
 * with -Wl,--wrap=realloc) to fail on a chosen call, then the table must
 * still hold what its capacity says in both arrays, give back every
 * string it had, and take more once memory is there again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/scp_util.h"

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

/* The call of realloc that fails, counted from 1 after arming; 0: none. */
static unsigned fail_in;

void *__wrap_realloc(void *p, size_t n) {
  if (fail_in && --fail_in == 0) return NULL;
  return __real_realloc(p, n);
}

/* Both arrays hold cap entries (what the next interns write into). */
static void assert_room(const scp_strtab *t) {
  assert_true(t->n <= t->cap);
  assert_true(malloc_usable_size(t->strs) >= t->cap * sizeof *t->strs);
  assert_true(malloc_usable_size(t->hash) >= t->cap * sizeof *t->hash);
}

static void name(char *buf, size_t size, unsigned i) { snprintf(buf, size, "s%u", i); }

/* "" and s1..s7: the table is full at its first capacity, 8. */
static void fill8(scp_strtab *t) {
  char b[16];
  for (unsigned i = 1; i < 8; i++) {
    name(b, sizeof b, i);
    assert_int_equal(scp_strtab_intern(t, b), i);
  }
  assert_int_equal(t->n, 8);
  assert_int_equal(t->cap, 8);
}

/* After the failure: every string still there, 200 more taken. */
static void assert_recovers(scp_strtab *t) {
  char b[16];
  assert_room(t);
  for (unsigned i = 1; i < 208; i++) {
    name(b, sizeof b, i);
    assert_int_equal(scp_strtab_intern(t, b), i);
    assert_room(t);
  }
  for (unsigned i = 1; i < 208; i++) {
    name(b, sizeof b, i);
    assert_string_equal(scp_strtab_get(t, i), b);
  }
  scp_strtab_free(t);
}

/* The growth's first and second reallocations fail in turn. */
static void test_intern_growth_fails(void **state) {
  (void)state;
  for (unsigned which = 1; which <= 2; which++) {
    scp_strtab t = {0};
    fill8(&t);
    fail_in = which;
    assert_int_equal(scp_strtab_intern(&t, "s8"), UINT32_MAX);
    assert_int_equal(fail_in, 0);
    assert_int_equal(t.n, 8);
    assert_recovers(&t);
  }
}

static void test_reserve_fails(void **state) {
  (void)state;
  for (unsigned which = 1; which <= 2; which++) {
    scp_strtab t = {0};
    fill8(&t);
    fail_in = which;
    assert_false(scp_strtab_reserve(&t, 100));
    assert_int_equal(fail_in, 0);
    assert_recovers(&t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_intern_growth_fails),
      cmocka_unit_test(test_reserve_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
