/*
 * test_disasm.c — scp_wasm_disasm, the operator text annotate lists for
 * code without source lines.  The module is written out byte by byte
 * below, so each expected text is read off the bytes by hand (the text
 * format's spelling: the WebAssembly spec's text-format chapter).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "wasm/scp_wasm.h"

/* One imported function x.1 and one defined function with two i64
 * locals; pcs are code-section payload offsets: the function count at 0,
 * the body size at 1, the body (its locals declaration) from 2. */
static const uint8_t module[] = {
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00,                 /* type 0: () -> () */
  0x02, 0x07, 0x01, 0x01, 'x', 0x01, '1', 0x00, 0x00, /* import x.1, func type 0 */
  0x03, 0x02, 0x01, 0x00,                             /* function 1: type 0 */
  0x05, 0x03, 0x01, 0x00, 0x01,                       /* memory: 1 page */
  0x0a, 0x2a, 0x01, 0x28,                             /* code: 1 body of 40 bytes */
  0x01, 0x02, 0x7e,                                   /*  2: 2 locals i64 */
  0x41, 0x7f,                                         /*  5: i32.const -1 */
  0x1a,                                               /*  7: drop */
  0x41, 0x00,                                         /*  8: i32.const 0 */
  0x29, 0x03, 0x08,                                   /* 10: i64.load (align 8) offset 8 */
  0x1a,                                               /* 13: drop */
  0x41, 0x00,                                         /* 14: i32.const 0 */
  0x28, 0x00, 0x04,                                   /* 16: i32.load (align 1) offset 4 */
  0x1a,                                               /* 19: drop */
  0x10, 0x00,                                         /* 20: call 0 (the import) */
  0x02, 0x40,                                         /* 22: block */
  0x41, 0x00,                                         /* 24: i32.const 0 */
  0x0e, 0x02, 0x00, 0x00, 0x00,                       /* 26: br_table 0 0 0 */
  0x0b,                                               /* 31: end */
  0x41, 0x00, 0x41, 0x00, 0x41, 0x00,                 /* 32: 3 x i32.const 0 */
  0xfc, 0x0b, 0x00,                                   /* 38: memory.fill */
  0x0b,                                               /* 41: end */
};

static scp_wasm_module *load(void) {
  scp_wasm_module *m = NULL;
  scp_error err;
  memset(&err, 0, sizeof err);
  int rc = scp_wasm_load(module, sizeof module, &m, &err);
  if (rc) print_error("%s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  return m;
}

static void expect(const scp_wasm_module *m, uint64_t pc, const char *text) {
  char buf[96];
  size_t n = scp_wasm_disasm(m, pc, NULL, NULL, buf, sizeof buf);
  assert_string_equal(buf, text);
  assert_int_equal(n, strlen(text));
}

static void test_operators(void **state) {
  (void)state;
  scp_wasm_module *m = load();
  expect(m, 2, "(function entry, 2 locals)");
  expect(m, 5, "i32.const -1");
  expect(m, 7, "drop");
  expect(m, 10, "i64.load offset=8");
  expect(m, 16, "i32.load offset=4 align=1");
  expect(m, 20, "call 0 (import x.1)");
  expect(m, 22, "block");
  expect(m, 26, "br_table 0 0 0");
  expect(m, 31, "end");
  expect(m, 38, "memory.fill");
  expect(m, 41, "end");
  scp_wasm_module_free(m);
}

/* Outside every body: no text, and a short buffer cuts the text. */
static void test_outside_and_cut(void **state) {
  (void)state;
  scp_wasm_module *m = load();
  expect(m, 0, "");
  expect(m, 1, "");
  expect(m, 42, "");
  expect(m, 1u << 20, "");
  char buf[8];
  assert_int_equal(scp_wasm_disasm(m, 20, NULL, NULL, buf, sizeof buf), 7);
  assert_string_equal(buf, "call 0 ");
  assert_int_equal(scp_wasm_disasm(m, 20, NULL, NULL, buf, 0), 0);
  assert_int_equal(scp_wasm_disasm(NULL, 20, NULL, NULL, buf, sizeof buf), 0);
  assert_string_equal(buf, "");
  scp_wasm_module_free(m);
}

/* The embedder names an import, or declines (NULL) and module.field
 * stands. */
static const char *name_x1(void *ctx, const scp_wasm_import *im) {
  (void)ctx;
  return !strcmp(im->module, "x") && !strcmp(im->field, "1") ? "host:named" : NULL;
}

static const char *name_none(void *ctx, const scp_wasm_import *im) {
  (void)ctx;
  (void)im;
  return NULL;
}

static void test_import_names(void **state) {
  (void)state;
  scp_wasm_module *m = load();
  char buf[96];
  scp_wasm_disasm(m, 20, name_x1, NULL, buf, sizeof buf);
  assert_string_equal(buf, "call 0 (host:named)");
  scp_wasm_disasm(m, 20, name_none, NULL, buf, sizeof buf);
  assert_string_equal(buf, "call 0 (import x.1)");
  scp_wasm_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_operators),
    cmocka_unit_test(test_outside_and_cut),
    cmocka_unit_test(test_import_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
