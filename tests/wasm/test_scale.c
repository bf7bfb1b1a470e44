/*
 * test_scale.c — the parsers stay linear: a module with 100,000 exports,
 * imports, function names or custom sections decodes (engine and source
 * mapper) within a second even under the sanitizers, and a duplicate
 * export name is still found when it is the last of 100,000.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "symbols/scp_sym.h"
#include "wasm/scp_wasm.h"

#define N 100000

static void uleb(scp_buf *b, uint64_t v) {
  do {
    uint8_t c = v & 0x7f;
    v >>= 7;
    scp_buf_putc(b, (char)(c | (v ? 0x80 : 0)));
  } while (v);
}

static void name(scp_buf *b, const char *s) {
  uleb(b, strlen(s));
  scp_buf_put(b, s, strlen(s));
}

static void section(scp_buf *m, uint8_t id, const scp_buf *s) {
  scp_buf_putc(m, (char)id);
  uleb(m, s->len);
  scp_buf_put(m, s->data, s->len);
}

enum { EXPORTS, IMPORTS, NAMES, CUSTOMS };

/* One function () -> () and N of the thing measured; dup: the last export
 * repeats the first's name. */
static void build(scp_buf *m, int what, bool dup) {
  scp_buf s = {0};
  scp_buf_put(m, "\0asm\1\0\0\0", 8);
  scp_buf_put(&s, "\1\x60\0\0", 4);
  section(m, 1, &s);
  s.len = 0;
  if (what == IMPORTS || what == NAMES) {   /* names need functions to name */
    uleb(&s, N);
    char nm[32];
    for (unsigned i = 0; i < N; i++) {
      snprintf(nm, sizeof nm, "f%u", i);
      name(&s, "env");
      name(&s, nm);
      scp_buf_put(&s, "\0\0", 2);
    }
    section(m, 2, &s);
    s.len = 0;
  }
  scp_buf_put(&s, "\1\0", 2);
  section(m, 3, &s);
  s.len = 0;
  if (what == EXPORTS) {
    uleb(&s, N);
    char nm[32];
    for (unsigned i = 0; i < N; i++) {
      snprintf(nm, sizeof nm, "e%u", dup && i == N - 1 ? 0 : i);
      name(&s, nm);
      scp_buf_put(&s, "\0\0", 2);
    }
    section(m, 7, &s);
    s.len = 0;
  }
  scp_buf_put(&s, "\1\2\0\x0b", 4);
  section(m, 10, &s);
  s.len = 0;
  if (what == NAMES) {   /* "name" section, function-name subsection */
    scp_buf sub = {0};
    uleb(&sub, N);
    char nm[32];
    for (unsigned i = 0; i < N; i++) {
      snprintf(nm, sizeof nm, "fn_%u", i);
      uleb(&sub, i);
      name(&sub, nm);
    }
    name(&s, "name");
    scp_buf_putc(&s, 1);
    uleb(&s, sub.len);
    scp_buf_put(&s, sub.data, sub.len);
    section(m, 0, &s);
    scp_buf_free(&sub);
  }
  if (what == CUSTOMS)
    for (unsigned i = 0; i < N; i++) {
      s.len = 0;
      name(&s, i % 2 ? "c" : "producers");
      section(m, 0, &s);
    }
  scp_buf_free(&s);
  assert_false(m->oom);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void decode_within_a_second(int what) {
  scp_buf m = {0};
  build(&m, what, false);
  scp_error err;
  scp_wasm_module *mod = NULL;
  scp_sym *s = NULL;
  double t0 = now();
  assert_int_equal(scp_wasm_load((const uint8_t *)m.data, m.len, &mod, &err), SCP_OK);
  assert_int_equal(scp_sym_open_wasm((const uint8_t *)m.data, m.len, NULL, &s, &err), SCP_OK);
  double dt = now() - t0;
  printf("# %d: %zu bytes decoded in %.3f s\n", what, m.len, dt);
  assert_true(dt < 1.0);
  scp_sym_destroy(s);
  scp_wasm_module_free(mod);
  scp_buf_free(&m);
}

static void test_exports(void **state) { (void)state; decode_within_a_second(EXPORTS); }
static void test_imports(void **state) { (void)state; decode_within_a_second(IMPORTS); }
static void test_names(void **state) { (void)state; decode_within_a_second(NAMES); }
static void test_customs(void **state) { (void)state; decode_within_a_second(CUSTOMS); }

static void test_duplicate_last(void **state) {
  (void)state;
  scp_buf m = {0};
  build(&m, EXPORTS, true);
  scp_error err;
  scp_wasm_module *mod = NULL;
  double t0 = now();
  assert_int_equal(scp_wasm_load((const uint8_t *)m.data, m.len, &mod, &err), SCP_ERR_INVALID);
  assert_true(now() - t0 < 1.0);
  assert_non_null(strstr(err.msg, "duplicate export name"));
  assert_null(mod);
  scp_buf_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_exports),
    cmocka_unit_test(test_imports),
    cmocka_unit_test(test_names),
    cmocka_unit_test(test_customs),
    cmocka_unit_test(test_duplicate_last),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
