/*
 * test_spec.c — the contractspecv0 decoder (src/soroban/run/spec.c) on
 * hand-built XDR: every SCSpecTypeDef, function entries after UDT and
 * event entries that must be skipped, truncation at every byte, hostile
 * counts and nesting; typing user text by a spec type; and the new
 * argument kinds (timepoint, duration, u256, i256, address) through
 * scp_arg_parse and the host conversion.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_private.h"
#include "soroban/run/scp_spec.h"

/* ---- an XDR writer for the tests ---------------------------------------- */

typedef struct xw {
  uint8_t b[8192];
  size_t n;
} xw;

static void w32(xw *w, uint32_t x) {
  assert_true(w->n + 4 <= sizeof w->b);
  w->b[w->n++] = (uint8_t)(x >> 24);
  w->b[w->n++] = (uint8_t)(x >> 16);
  w->b[w->n++] = (uint8_t)(x >> 8);
  w->b[w->n++] = (uint8_t)x;
}

static void wstr(xw *w, const char *s) {
  size_t n = strlen(s);
  w32(w, (uint32_t)n);
  assert_true(w->n + n + 3 <= sizeof w->b);
  memcpy(w->b + w->n, s, n);
  w->n += n;
  while (w->n % 4) w->b[w->n++] = 0;
}

/* Entry boundaries, so truncation tests know where a prefix is whole. */
typedef struct marks {
  size_t at[64];
  size_t n;
} marks;

static void mark(marks *m, const xw *w) { m->at[m->n++] = w->n; }

/* A function entry with the given inputs; each input's type is written by
 * the callback. */
typedef void (*type_writer)(xw *w, int k);

static void wfn(xw *w, const char *doc, const char *name, int ninputs, const char *const *names,
                type_writer types, int has_output, uint32_t output) {
  w32(w, SCP_SPEC_ENTRY_FUNCTION);
  wstr(w, doc);
  wstr(w, name);
  w32(w, (uint32_t)ninputs);
  for (int k = 0; k < ninputs; k++) {
    wstr(w, "");
    wstr(w, names[k]);
    types(w, k);
  }
  w32(w, has_output ? 1 : 0);
  if (has_output) w32(w, output);
}

/* ---- every type definition ------------------------------------------------ */

static const uint32_t simple_kinds[] = {
  SCP_SPEC_VAL, SCP_SPEC_BOOL, SCP_SPEC_VOID, SCP_SPEC_ERROR, SCP_SPEC_U32, SCP_SPEC_I32,
  SCP_SPEC_U64, SCP_SPEC_I64, SCP_SPEC_TIMEPOINT, SCP_SPEC_DURATION, SCP_SPEC_U128,
  SCP_SPEC_I128, SCP_SPEC_U256, SCP_SPEC_I256, SCP_SPEC_BYTES, SCP_SPEC_STRING,
  SCP_SPEC_SYMBOL, SCP_SPEC_ADDRESS, SCP_SPEC_MUXED_ADDRESS
};
static const char *const simple_names[] = {
  "val", "bool", "void", "error", "u32", "i32", "u64", "i64", "timepoint", "duration", "u128",
  "i128", "u256", "i256", "bytes", "string", "symbol", "address", "muxed_address"
};
static const char *const in_names[] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"};

static int simple_base;
static void simple_types(xw *w, int k) { w32(w, simple_kinds[simple_base + k]); }

/* option<u32>, result<i128, error>, vec<vec<address>>, map<symbol, bytesn<32>>,
 * tuple<u32, bool, string>, bytesn<4>, udt Pair, tuple<> */
static void compound_types(xw *w, int k) {
  switch (k) {
  case 0: w32(w, SCP_SPEC_OPTION); w32(w, SCP_SPEC_U32); break;
  case 1: w32(w, SCP_SPEC_RESULT); w32(w, SCP_SPEC_I128); w32(w, SCP_SPEC_ERROR); break;
  case 2: w32(w, SCP_SPEC_VEC); w32(w, SCP_SPEC_VEC); w32(w, SCP_SPEC_ADDRESS); break;
  case 3: w32(w, SCP_SPEC_MAP); w32(w, SCP_SPEC_SYMBOL); w32(w, SCP_SPEC_BYTES_N); w32(w, 32); break;
  case 4:
    w32(w, SCP_SPEC_TUPLE); w32(w, 3);
    w32(w, SCP_SPEC_U32); w32(w, SCP_SPEC_BOOL); w32(w, SCP_SPEC_STRING);
    break;
  case 5: w32(w, SCP_SPEC_BYTES_N); w32(w, 4); break;
  case 6: w32(w, SCP_SPEC_UDT); wstr(w, "Pair"); break;
  default: w32(w, SCP_SPEC_TUPLE); w32(w, 0); break;
  }
}
static const char *const compound_formats[] = {
  "option<u32>", "result<i128, error>", "vec<vec<address>>", "map<symbol, bytesn<32>>",
  "tuple<u32, bool, string>", "bytesn<4>", "Pair", "tuple<>"
};

static char *fmt_type(const scp_spec_type *t) {
  scp_buf b = {0};
  scp_spec_type_format(t, &b);
  assert_false(b.oom);
  scp_buf_putc(&b, 0);
  return b.data;
}

static void test_every_type(void **state) {
  (void)state;
  xw w = {0};
  /* the 19 parameterless kinds, in two functions (inputs<10>) */
  simple_base = 0;
  wfn(&w, "", "simple_a", 10, in_names, simple_types, 1, SCP_SPEC_U32);
  xw w2 = w;
  simple_base = 10;
  wfn(&w2, "", "simple_b", 9, in_names, simple_types, 0, 0);
  wfn(&w2, "Docs\nsecond line", "compound", 8, in_names, compound_types, 1, SCP_SPEC_VOID);

  scp_spec *s;
  scp_error err = {0};
  assert_int_equal(scp_spec_parse(w2.b, w2.n, 0, "t.wasm", &s, &err), SCP_OK);
  assert_int_equal(s->nfns, 3);
  assert_int_equal(s->count[SCP_SPEC_ENTRY_FUNCTION], 3);
  for (int k = 0; k < 19; k++) {
    const scp_spec_fn *f = &s->fns[k < 10 ? 0 : 1];
    const scp_spec_input *in = &f->inputs[k < 10 ? k : k - 10];
    assert_int_equal(in->type.kind, simple_kinds[k]);
    char *t = fmt_type(&in->type);
    assert_string_equal(t, simple_names[k]);
    free(t);
  }
  assert_int_equal(s->fns[0].noutputs, 1);
  assert_int_equal(s->fns[0].outputs[0].kind, SCP_SPEC_U32);
  assert_int_equal(s->fns[1].noutputs, 0);

  const scp_spec_fn *c = scp_spec_find(s, "compound");
  assert_non_null(c);
  assert_string_equal(c->doc, "Docs\nsecond line");
  assert_int_equal(c->ninputs, 8);
  for (int k = 0; k < 8; k++) {
    char *t = fmt_type(&c->inputs[k].type);
    assert_string_equal(t, compound_formats[k]);
    free(t);
  }
  assert_int_equal(c->inputs[3].type.sub[1].n, 32);
  assert_string_equal(c->inputs[6].type.name, "Pair");
  assert_int_equal(c->inputs[4].type.nsub, 3);
  assert_null(scp_spec_find(s, "nope"));

  scp_buf b = {0};
  scp_spec_fn_format(c, &b);
  scp_buf_putc(&b, 0);
  assert_string_equal(b.data, "compound --p0 <option<u32>> --p1 <result<i128, error>> "
                      "--p2 <vec<vec<address>>> --p3 <map<symbol, bytesn<32>>> "
                      "--p4 <tuple<u32, bool, string>> --p5 <bytesn<4>> --p6 <Pair> "
                      "--p7 <tuple<>> -> void");
  scp_buf_free(&b);
  scp_spec_free(s);
}

/* ---- entries that are skipped ------------------------------------------- */

static void one_input_u32(xw *w, int k) { (void)k; w32(w, SCP_SPEC_U32); }

/* One of each kind, a function between them, and one at the end. */
static void build_mixed(xw *w, marks *m) {
  mark(m, w);
  /* struct Pair { a: u32, b: vec<option<i128>> } */
  w32(w, SCP_SPEC_ENTRY_STRUCT); wstr(w, "A pair."); wstr(w, "lib"); wstr(w, "Pair"); w32(w, 2);
  wstr(w, ""); wstr(w, "a"); w32(w, SCP_SPEC_U32);
  wstr(w, "doc"); wstr(w, "b"); w32(w, SCP_SPEC_VEC); w32(w, SCP_SPEC_OPTION); w32(w, SCP_SPEC_I128);
  mark(m, w);
  /* union Choice { None, Some(u32, bytesn<32>) } */
  w32(w, SCP_SPEC_ENTRY_UNION); wstr(w, ""); wstr(w, ""); wstr(w, "Choice"); w32(w, 2);
  w32(w, 0); wstr(w, ""); wstr(w, "None");
  w32(w, 1); wstr(w, ""); wstr(w, "Some"); w32(w, 2); w32(w, SCP_SPEC_U32);
  w32(w, SCP_SPEC_BYTES_N); w32(w, 32);
  mark(m, w);
  const char *names[] = {"x"};
  wfn(w, "first", "first", 1, names, one_input_u32, 1, SCP_SPEC_U32);
  mark(m, w);
  /* enum Color { Red = 0, Green = 1 } */
  w32(w, SCP_SPEC_ENTRY_ENUM); wstr(w, ""); wstr(w, ""); wstr(w, "Color"); w32(w, 2);
  wstr(w, ""); wstr(w, "Red"); w32(w, 0);
  wstr(w, ""); wstr(w, "Green"); w32(w, 1);
  mark(m, w);
  /* error enum Err { Bad = 7 } */
  w32(w, SCP_SPEC_ENTRY_ERROR_ENUM); wstr(w, ""); wstr(w, ""); wstr(w, "Err"); w32(w, 1);
  wstr(w, "bad"); wstr(w, "Bad"); w32(w, 7);
  mark(m, w);
  /* event Moved: prefix ["moved", "x"], params from (topic), amount (data), map */
  w32(w, SCP_SPEC_ENTRY_EVENT); wstr(w, ""); wstr(w, ""); wstr(w, "Moved"); w32(w, 2);
  wstr(w, "moved"); wstr(w, "x"); w32(w, 2);
  wstr(w, ""); wstr(w, "from"); w32(w, SCP_SPEC_ADDRESS); w32(w, 1);
  wstr(w, ""); wstr(w, "amount"); w32(w, SCP_SPEC_I128); w32(w, 0);
  w32(w, 2);
  mark(m, w);
  wfn(w, "", "last", 1, names, one_input_u32, 0, 0);
  mark(m, w);
}

static void test_skips_udt_and_event_entries(void **state) {
  (void)state;
  xw w = {0};
  marks m = {0};
  build_mixed(&w, &m);
  scp_spec *s;
  scp_error err = {0};
  assert_int_equal(scp_spec_parse(w.b, w.n, 0, "t.wasm", &s, &err), SCP_OK);
  assert_int_equal(s->nfns, 2);
  assert_string_equal(s->fns[0].name, "first");
  assert_string_equal(s->fns[1].name, "last");
  assert_int_equal(s->count[SCP_SPEC_ENTRY_STRUCT], 1);
  assert_int_equal(s->count[SCP_SPEC_ENTRY_UNION], 1);
  assert_int_equal(s->count[SCP_SPEC_ENTRY_ENUM], 1);
  assert_int_equal(s->count[SCP_SPEC_ENTRY_ERROR_ENUM], 1);
  assert_int_equal(s->count[SCP_SPEC_ENTRY_EVENT], 1);
  scp_spec_free(s);
}

/* Every prefix of a valid section either ends on an entry boundary (and
 * decodes) or is an error naming an offset inside the input: never a
 * crash, a leak (ASan in `make check`) or a success. */
static void test_truncation_at_every_byte(void **state) {
  (void)state;
  xw w = {0};
  marks m = {0};
  build_mixed(&w, &m);
  simple_base = 0;
  wfn(&w, "", "simple_a", 10, in_names, simple_types, 1, SCP_SPEC_U32);
  mark(&m, &w);
  wfn(&w, "", "compound", 8, in_names, compound_types, 0, 0);
  mark(&m, &w);
  for (size_t len = 0; len < w.n; len++) {
    bool boundary = false;
    for (size_t k = 0; k < m.n; k++) boundary |= m.at[k] == len;
    /* a copy of exactly len bytes, so ASan sees any read past the end */
    uint8_t *p = malloc(len ? len : 1);
    memcpy(p, w.b, len);
    scp_spec *s = NULL;
    scp_error err = {0};
    int rc = scp_spec_parse(p, len, 100, "t.wasm", &s, &err);
    if (boundary) {
      assert_int_equal(rc, SCP_OK);
      scp_spec_free(s);
    } else {
      assert_int_equal(rc, SCP_ERR_MALFORMED);
      assert_null(s);
      assert_non_null(strstr(err.msg, "t.wasm: contractspecv0: malformed XDR at byte "));
      size_t off = strtoul(strstr(err.msg, "at byte ") + 8, NULL, 10);
      assert_true(off >= 100 && off <= 100 + len);
      assert_null(strchr(err.msg, '\n'));
    }
    free(p);
  }
}

static void expect_malformed(const xw *w, size_t offset, const char *what) {
  scp_spec *s = NULL;
  scp_error err = {0};
  assert_int_equal(scp_spec_parse(w->b, w->n, 0, "c.wasm", &s, &err), SCP_ERR_MALFORMED);
  assert_null(s);
  char want[160];
  snprintf(want, sizeof want, "c.wasm: contractspecv0: malformed XDR at byte %zu (%s)", offset,
           what);
  assert_string_equal(err.msg, want);
}

static void test_malformed_inputs(void **state) {
  (void)state;
  const char *names[] = {"x"};
  xw w = {0};
  /* unknown entry kind */
  w32(&w, 9);
  expect_malformed(&w, 0, "unknown entry kind");
  /* unknown type, after a good function */
  w = (xw){0};
  wfn(&w, "", "ok", 1, names, one_input_u32, 0, 0);
  size_t at = w.n;
  w32(&w, SCP_SPEC_ENTRY_FUNCTION); wstr(&w, ""); wstr(&w, "f"); w32(&w, 1);
  wstr(&w, ""); wstr(&w, "x");
  size_t type_at = w.n;
  w32(&w, 15);   /* a hole in SCSpecType */
  w32(&w, 0);
  (void)at;
  expect_malformed(&w, type_at, "unknown type");
  /* a parameter name over string<30> */
  w = (xw){0};
  w32(&w, SCP_SPEC_ENTRY_FUNCTION); wstr(&w, ""); wstr(&w, "f"); w32(&w, 1); wstr(&w, "");
  size_t name_at = w.n;
  wstr(&w, "abcdefghijklmnopqrstuvwxyz01234");   /* 31 */
  w32(&w, SCP_SPEC_U32); w32(&w, 0);
  expect_malformed(&w, name_at, "input name");
  /* more than inputs<10> */
  w = (xw){0};
  w32(&w, SCP_SPEC_ENTRY_FUNCTION); wstr(&w, ""); wstr(&w, "f");
  size_t count_at = w.n;
  w32(&w, 11);
  for (int k = 0; k < 11; k++) { wstr(&w, ""); wstr(&w, "x"); w32(&w, SCP_SPEC_U32); }
  w32(&w, 0);
  expect_malformed(&w, count_at, "function input count");
  /* a count the bytes left cannot hold (no huge allocation) */
  w = (xw){0};
  w32(&w, SCP_SPEC_ENTRY_EVENT); wstr(&w, ""); wstr(&w, ""); wstr(&w, "E"); w32(&w, 0);
  count_at = w.n;
  w32(&w, 0x7fffffff);
  expect_malformed(&w, count_at, "event parameter count");
  /* non-zero padding */
  w = (xw){0};
  w32(&w, SCP_SPEC_ENTRY_FUNCTION); wstr(&w, "");
  w32(&w, 1);
  w.b[w.n++] = 'f'; w.b[w.n++] = 0; w.b[w.n++] = 1; w.b[w.n++] = 0;
  expect_malformed(&w, 14, "non-zero padding");
  /* a bad enum value in an event */
  w = (xw){0};
  w32(&w, SCP_SPEC_ENTRY_EVENT); wstr(&w, ""); wstr(&w, ""); wstr(&w, "E"); w32(&w, 0); w32(&w, 0);
  size_t fmt_at = w.n;
  w32(&w, 3);
  expect_malformed(&w, fmt_at, "event data format");
  /* union case kind out of range */
  w = (xw){0};
  w32(&w, SCP_SPEC_ENTRY_UNION); wstr(&w, ""); wstr(&w, ""); wstr(&w, "U"); w32(&w, 1);
  size_t case_at = w.n;
  w32(&w, 2); wstr(&w, ""); wstr(&w, "C");
  expect_malformed(&w, case_at, "union case kind");
}

/* option<option<...<u32>>> nested deeper than the limit is an error, not
 * a stack overflow; at the limit it decodes. */
static void nest(xw *w, int depth) {
  w32(w, SCP_SPEC_ENTRY_FUNCTION); wstr(w, ""); wstr(w, "deep"); w32(w, 1);
  wstr(w, ""); wstr(w, "x");
  for (int k = 0; k < depth; k++) w32(w, SCP_SPEC_OPTION);
  w32(w, SCP_SPEC_U32);
  w32(w, 0);
}

static void test_depth_limit(void **state) {
  (void)state;
  xw w = {0};
  nest(&w, SCP_SPEC_MAX_DEPTH);
  scp_spec *s;
  scp_error err = {0};
  assert_int_equal(scp_spec_parse(w.b, w.n, 0, "c.wasm", &s, &err), SCP_OK);
  scp_spec_free(s);
  w = (xw){0};
  nest(&w, 1000);
  assert_int_equal(scp_spec_parse(w.b, w.n, 0, "c.wasm", &s, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "nested too deep"));
}

/* ---- finding the section in a module ------------------------------------ */

static size_t wasm_with(uint8_t *out, const char *secname, const xw *payload) {
  static const uint8_t head[] = {0, 'a', 's', 'm', 1, 0, 0, 0};
  size_t n = 0;
  memcpy(out, head, sizeof head);
  n += sizeof head;
  /* a type section first: the decoder skips known sections */
  out[n++] = 1; out[n++] = 1; out[n++] = 0;
  size_t nl = strlen(secname), size = 1 + nl + payload->n;
  assert_true(size < 128 * 128);
  out[n++] = 0;
  out[n++] = (uint8_t)(0x80 | (size & 0x7f));
  out[n++] = (uint8_t)(size >> 7);
  out[n++] = (uint8_t)nl;
  memcpy(out + n, secname, nl);
  n += nl;
  memcpy(out + n, payload->b, payload->n);
  return n + payload->n;
}

static void test_from_wasm(void **state) {
  (void)state;
  xw w = {0};
  const char *names[] = {"x"};
  wfn(&w, "", "f", 1, names, one_input_u32, 0, 0);
  static uint8_t mod[9000];
  size_t n = wasm_with(mod, "contractspecv0", &w);
  scp_spec *s;
  scp_error err = {0};
  assert_int_equal(scp_spec_from_wasm(mod, n, "m.wasm", &s, &err), SCP_OK);
  assert_non_null(s);
  assert_int_equal(s->nfns, 1);
  scp_spec_free(s);
  /* no such section: no spec, no error */
  n = wasm_with(mod, "contractspecv1", &w);
  assert_int_equal(scp_spec_from_wasm(mod, n, "m.wasm", &s, &err), SCP_OK);
  assert_null(s);
  /* an error inside the section names the file offset */
  w.b[w.n - 1] = 9;   /* the output count's last byte */
  n = wasm_with(mod, "contractspecv0", &w);
  assert_int_equal(scp_spec_from_wasm(mod, n, "m.wasm", &s, &err), SCP_ERR_MALFORMED);
  char want[100];
  snprintf(want, sizeof want, "m.wasm: contractspecv0: malformed XDR at byte %zu", n - 4);
  assert_non_null(strstr(err.msg, want));
  /* a section running past the end, or no module at all: no spec (the
   * WASM loader reports those) */
  assert_int_equal(scp_spec_from_wasm(mod, n - 1, "m.wasm", &s, &err), SCP_OK);
  assert_null(s);
  assert_int_equal(scp_spec_from_wasm((const uint8_t *)"junk", 4, "m.wasm", &s, &err), SCP_OK);
  assert_null(s);
}

/* ---- typing text by a spec type ------------------------------------------- */

#define G_ZERO "GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF"
#define G_SEQ  "GAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB7JZX"
#define C_SEVENS "CADQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQP5KR"

static int typed(uint32_t kind, uint32_t n, const char *text, scp_arg *a, scp_error *err) {
  scp_spec_type sub = {.kind = kind, .n = n};
  return scp_spec_arg_parse(&sub, "p", text, a, err);
}

static void test_spec_arg_parse(void **state) {
  (void)state;
  scp_arg a;
  scp_error err = {0};
  assert_int_equal(typed(SCP_SPEC_U32, 0, "7", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_U32);
  assert_int_equal(a.lo, 7);
  assert_int_equal(typed(SCP_SPEC_U32, 0, "4294967296", &a, &err), SCP_ERR_ARG);
  assert_string_equal(err.msg, "argument --p: not a u32");
  assert_int_equal(typed(SCP_SPEC_I128, 0, "-1", &a, &err), SCP_OK);
  assert_int_equal(a.hi, UINT64_MAX);
  assert_int_equal(typed(SCP_SPEC_TIMEPOINT, 0, "18446744073709551615", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_TIMEPOINT);
  assert_int_equal(typed(SCP_SPEC_DURATION, 0, "-1", &a, &err), SCP_ERR_ARG);
  assert_int_equal(typed(SCP_SPEC_U256, 0,
      "115792089237316195423570985008687907853269984665640564039457584007913129639935", &a, &err),
      SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_U256);
  assert_int_equal(typed(SCP_SPEC_U256, 0,
      "115792089237316195423570985008687907853269984665640564039457584007913129639936", &a, &err),
      SCP_ERR_ARG);
  assert_int_equal(typed(SCP_SPEC_I256, 0,
      "-57896044618658097711785492504343953926634992332820282019728792003956564819968", &a, &err),
      SCP_OK);
  assert_int_equal(typed(SCP_SPEC_I256, 0,
      "57896044618658097711785492504343953926634992332820282019728792003956564819968", &a, &err),
      SCP_ERR_ARG);
  assert_int_equal(typed(SCP_SPEC_BOOL, 0, "true", &a, &err), SCP_OK);
  assert_int_equal(a.lo, 1);
  assert_int_equal(typed(SCP_SPEC_BYTES_N, 4, "0xdeadbeef", &a, &err), SCP_OK);
  assert_int_equal(typed(SCP_SPEC_BYTES_N, 4, "dead", &a, &err), SCP_ERR_ARG);
  assert_int_equal(typed(SCP_SPEC_SYMBOL, 0, "hello_World9", &a, &err), SCP_OK);
  assert_int_equal(typed(SCP_SPEC_SYMBOL, 0, "no spaces", &a, &err), SCP_ERR_ARG);
  assert_int_equal(typed(SCP_SPEC_STRING, 0, "any text", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_STRING);
  assert_int_equal(typed(SCP_SPEC_ADDRESS, 0, G_SEQ, &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_ADDRESS);
  assert_int_equal(typed(SCP_SPEC_ADDRESS, 0, C_SEVENS, &a, &err), SCP_OK);
  /* one character changed: the checksum catches it */
  char bad[] = G_SEQ;
  bad[10] = bad[10] == 'A' ? 'B' : 'A';
  assert_int_equal(typed(SCP_SPEC_ADDRESS, 0, bad, &a, &err), SCP_ERR_ARG);
  assert_int_equal(typed(SCP_SPEC_VOID, 0, "void", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_VOID);
  /* option<u32>: none or a u32 */
  scp_spec_type u32t = {.kind = SCP_SPEC_U32};
  scp_spec_type opt = {.kind = SCP_SPEC_OPTION, .sub = &u32t, .nsub = 1};
  assert_int_equal(scp_spec_arg_parse(&opt, "o", "none", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_VOID);
  assert_int_equal(scp_spec_arg_parse(&opt, "o", "5", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_U32);
  /* not given as text yet: an error naming the argument and the type */
  scp_spec_type vec = {.kind = SCP_SPEC_VEC, .sub = &u32t, .nsub = 1};
  assert_int_equal(scp_spec_arg_parse(&vec, "list", "[1]", &a, &err), SCP_ERR_ARG);
  assert_non_null(strstr(err.msg, "argument --list: type vec<u32> cannot be given"));
  assert_int_equal(typed(SCP_SPEC_MUXED_ADDRESS, 0, G_SEQ, &a, &err), SCP_ERR_ARG);
}

static void test_arg_parse_new_kinds(void **state) {
  (void)state;
  scp_arg a;
  scp_error err = {0};
  assert_int_equal(scp_arg_parse("timepoint:5", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_TIMEPOINT);
  assert_int_equal(scp_arg_parse("duration:6", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_DURATION);
  assert_int_equal(scp_arg_parse("u256:1", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_U256);
  assert_int_equal(scp_arg_parse("i256:-1", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_I256);
  assert_int_equal(scp_arg_parse("u256:-1", &a, &err), SCP_ERR_ARG);
  assert_int_equal(scp_arg_parse("addr:" G_ZERO, &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_ADDRESS);
  assert_int_equal(scp_arg_parse("addr:G123", &a, &err), SCP_ERR_ARG);
  assert_string_equal(err.msg, "argument 'addr:G123': not an address strkey (G... account or "
                      "C... contract, 56 characters)");
  /* the old spellings keep their messages */
  assert_int_equal(scp_arg_parse("u32:banana", &a, &err), SCP_ERR_ARG);
  assert_string_equal(err.msg, "argument 'u32:banana': not a u32");
  assert_int_equal(scp_arg_parse("void", &a, &err), SCP_OK);
}

/* ---- the host conversion of the new kinds ------------------------------- */

static void test_host_conversion(void **state) {
  (void)state;
  scp_budget b;
  scp_host *h;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  assert_int_equal(scp_host_create(&b, NULL, &h), SCP_OK);
  scp_arg a;
  scp_error err = {0};
  uint64_t v;

  /* small forms: no charge */
  uint64_t cpu = b.cpu;
  assert_int_equal(scp_arg_parse("timepoint:5", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(v, (5ull << 8) | SCP_TAG_TIMEPOINT_SMALL);
  assert_int_equal(scp_arg_parse("duration:7", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(v, (7ull << 8) | SCP_TAG_DURATION_SMALL);
  assert_int_equal(scp_arg_parse("i256:-1", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(v & 0xff, SCP_TAG_I256_SMALL);
  assert_int_equal(b.cpu, cpu);

  /* objects: charged, with the value intact */
  assert_int_equal(scp_arg_parse(
      "u256:115792089237316195423570985008687907853269984665640564039457584007913129639935", &a,
      &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(v & 0xff, SCP_TAG_U256_OBJ);
  const scp_hobj *o = scp_host_obj(h, v);
  assert_non_null(o);
  for (int k = 0; k < 4; k++) assert_int_equal(o->u.w[k], UINT64_MAX);
  assert_true(b.cpu > cpu);

  /* 2^64 as an i256: words hi_hi, hi_lo, lo_hi, lo_lo = 0, 0, 1, 0 */
  assert_int_equal(scp_arg_parse("i256:18446744073709551616", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  o = scp_host_obj(h, v);
  assert_non_null(o);
  assert_int_equal(o->u.w[0], 0);
  assert_int_equal(o->u.w[1], 0);
  assert_int_equal(o->u.w[2], 1);
  assert_int_equal(o->u.w[3], 0);

  assert_int_equal(scp_arg_parse("addr:" G_SEQ, &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(v & 0xff, SCP_TAG_ADDRESS_OBJ);
  o = scp_host_obj(h, v);
  assert_non_null(o);
  assert_int_equal(o->len, 33);
  assert_int_equal(o->u.bytes[0], 0);   /* account */
  for (int k = 0; k < 32; k++) assert_int_equal(o->u.bytes[1 + k], k);
  char sk[57];
  scp_host_address_strkey(o->u.bytes, sk);
  assert_string_equal(sk, G_SEQ);

  assert_int_equal(scp_arg_parse("addr:" C_SEVENS, &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  o = scp_host_obj(h, v);
  assert_non_null(o);
  assert_int_equal(o->u.bytes[0], 1);   /* contract */
  scp_host_address_strkey(o->u.bytes, sk);
  assert_string_equal(sk, C_SEVENS);

  /* raw 32-byte form of a u256 (hi == 0) */
  uint8_t raw[32] = {0};
  raw[31] = 9;
  a = (scp_arg){.kind = SCP_ARG_U256, .data = raw, .len = 32};
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(v, (9ull << 8) | SCP_TAG_U256_SMALL);
  scp_host_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_type),
    cmocka_unit_test(test_skips_udt_and_event_entries),
    cmocka_unit_test(test_truncation_at_every_byte),
    cmocka_unit_test(test_malformed_inputs),
    cmocka_unit_test(test_depth_limit),
    cmocka_unit_test(test_from_wasm),
    cmocka_unit_test(test_spec_arg_parse),
    cmocka_unit_test(test_arg_parse_new_kinds),
    cmocka_unit_test(test_host_conversion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
