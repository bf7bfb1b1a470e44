/*
 * test_json_args.c — JSON arguments typed by a contract's spec
 * (scp_argjson_value, src/soroban/run/arg_json.c): the exact ScVal XDR each
 * stellar-cli convention gives (vec, map sorted by ScVal order, tuple,
 * struct, tuple struct, union, enum, error enum, option, muxed address),
 * the host conversion's charges for one of them worked out from the cost
 * parameters, and the one-line errors with the JSON path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_private.h"
#include "soroban/run/arg_json.h"
#include "soroban/run/args.h"

typedef struct xw {
  uint8_t b[4096];
  size_t n;
} xw;

static void w32(xw *w, uint32_t x) {
  assert_true(w->n + 4 <= sizeof w->b);
  for (int k = 3; k >= 0; k--) w->b[w->n++] = (uint8_t)(x >> (8 * k));
}

static void w64(xw *w, uint64_t x) {
  w32(w, (uint32_t)(x >> 32));
  w32(w, (uint32_t)x);
}

static void wstr(xw *w, const char *s) {
  size_t n = strlen(s);
  w32(w, (uint32_t)n);
  memcpy(w->b + w->n, s, n);
  w->n += n;
  while (w->n % 4) w->b[w->n++] = 0;
}

static void wraw(xw *w, const uint8_t *p, size_t n) {
  memcpy(w->b + w->n, p, n);
  w->n += n;
}

/* The spec: struct Point {x: u32, y: u32}; struct Wrap(u32, symbol);
 * union Choice {None, One(u32), Two(u32, bool)}; enum Color {Red = 1,
 * Green = 2}; error enum Fail {Bad = 7}; and one function f taking one
 * parameter of each type below. */
static const uint32_t T_U32 = 4, T_BOOL = 1, T_I128 = 11, T_SYMBOL = 17, T_MUXED = 20,
                      T_OPTION = 1000, T_VEC = 1002, T_MAP = 1004, T_UDT = 2000;

static void wfield(xw *w, const char *name, uint32_t type) {
  wstr(w, "");
  wstr(w, name);
  w32(w, type);
}

static scp_spec *make_spec(void) {
  xw w = {0};
  w32(&w, SCP_SPEC_ENTRY_STRUCT); wstr(&w, ""); wstr(&w, ""); wstr(&w, "Point"); w32(&w, 2);
  wfield(&w, "x", T_U32); wfield(&w, "y", T_U32);
  w32(&w, SCP_SPEC_ENTRY_STRUCT); wstr(&w, ""); wstr(&w, ""); wstr(&w, "Wrap"); w32(&w, 2);
  wfield(&w, "0", T_U32); wfield(&w, "1", T_SYMBOL);
  w32(&w, SCP_SPEC_ENTRY_UNION); wstr(&w, ""); wstr(&w, ""); wstr(&w, "Choice"); w32(&w, 3);
  w32(&w, 0); wstr(&w, ""); wstr(&w, "None");
  w32(&w, 1); wstr(&w, ""); wstr(&w, "One"); w32(&w, 1); w32(&w, T_U32);
  w32(&w, 1); wstr(&w, ""); wstr(&w, "Two"); w32(&w, 2); w32(&w, T_U32); w32(&w, T_BOOL);
  w32(&w, SCP_SPEC_ENTRY_ENUM); wstr(&w, ""); wstr(&w, ""); wstr(&w, "Color"); w32(&w, 2);
  wstr(&w, ""); wstr(&w, "Red"); w32(&w, 1);
  wstr(&w, ""); wstr(&w, "Green"); w32(&w, 2);
  w32(&w, SCP_SPEC_ENTRY_ERROR_ENUM); wstr(&w, ""); wstr(&w, ""); wstr(&w, "Fail"); w32(&w, 1);
  wstr(&w, ""); wstr(&w, "Bad"); w32(&w, 7);
  /* fn f(v: vec<u32>, m: map<symbol, u32>, p: Point, w: Wrap, c: Choice,
   *      col: Color, e: Fail, o: option<vec<u32>>, mx: muxed_address,
   *      im: map<i128, bool>) */
  w32(&w, SCP_SPEC_ENTRY_FUNCTION); wstr(&w, ""); wstr(&w, "f"); w32(&w, 10);
  wstr(&w, ""); wstr(&w, "v"); w32(&w, T_VEC); w32(&w, T_U32);
  wstr(&w, ""); wstr(&w, "m"); w32(&w, T_MAP); w32(&w, T_SYMBOL); w32(&w, T_U32);
  wstr(&w, ""); wstr(&w, "p"); w32(&w, T_UDT); wstr(&w, "Point");
  wstr(&w, ""); wstr(&w, "w"); w32(&w, T_UDT); wstr(&w, "Wrap");
  wstr(&w, ""); wstr(&w, "c"); w32(&w, T_UDT); wstr(&w, "Choice");
  wstr(&w, ""); wstr(&w, "col"); w32(&w, T_UDT); wstr(&w, "Color");
  wstr(&w, ""); wstr(&w, "e"); w32(&w, T_UDT); wstr(&w, "Fail");
  wstr(&w, ""); wstr(&w, "o"); w32(&w, T_OPTION); w32(&w, T_VEC); w32(&w, T_U32);
  wstr(&w, ""); wstr(&w, "mx"); w32(&w, T_MUXED);
  wstr(&w, ""); wstr(&w, "im"); w32(&w, T_MAP); w32(&w, T_I128); w32(&w, T_BOOL);
  w32(&w, 0);
  scp_spec *s;
  scp_error err = {0};
  assert_int_equal(scp_spec_parse(w.b, w.n, 0, "t.wasm", &s, &err), SCP_OK);
  assert_int_equal(s->nudts, 5);
  return s;
}

static const scp_spec_type *param(const scp_spec *s, const char *name) {
  const scp_spec_fn *f = scp_spec_find(s, "f");
  assert_non_null(f);
  for (uint32_t k = 0; k < f->ninputs; k++)
    if (!strcmp(f->inputs[k].name, name)) return &f->inputs[k].type;
  fail_msg("no parameter %s", name);
  return NULL;
}

/* name's value from text must be exactly the XDR in want. */
static void expect_xdr(scp_spec *s, const char *name, const char *text, const xw *want) {
  scp_arg a;
  scp_error err = {0};
  int rc = scp_argjson_value(s, param(s, name), name, text, &a, &err);
  if (rc != SCP_OK) fail_msg("%s: %s", text, err.msg);
  assert_int_equal(a.kind, SCP_ARG_SCVAL);
  assert_int_equal(a.len, want->n);
  assert_memory_equal(a.data, want->b, want->n);
}

enum { SCV_BOOL = 0, SCV_VOID = 1, SCV_ERROR = 2, SCV_U32 = 3, SCV_I128 = 10, SCV_SYMBOL = 15,
       SCV_VEC = 16, SCV_MAP = 17, SCV_ADDRESS = 18 };

static void sym(xw *w, const char *s) { w32(w, SCV_SYMBOL); wstr(w, s); }
static void u32v(xw *w, uint32_t x) { w32(w, SCV_U32); w32(w, x); }

static void test_xdr_of_each_convention(void **state) {
  (void)state;
  scp_spec *s = make_spec();
  xw w = {0};

  /* vec: Some, count, elements */
  w32(&w, SCV_VEC); w32(&w, 1); w32(&w, 3); u32v(&w, 1); u32v(&w, 20); u32v(&w, 3);
  expect_xdr(s, "v", "[1, \"20\", 3]", &w);

  /* map from an object and from pairs: keys sorted ("a" < "b" < "ba") */
  w = (xw){0};
  w32(&w, SCV_MAP); w32(&w, 1); w32(&w, 3);
  sym(&w, "a"); u32v(&w, 2); sym(&w, "b"); u32v(&w, 1); sym(&w, "ba"); u32v(&w, 3);
  expect_xdr(s, "m", "{\"ba\": 3, \"b\": 1, \"a\": 2}", &w);
  expect_xdr(s, "m", "[[\"b\", 1], [\"ba\", 3], [\"a\", 2]]", &w);

  /* struct: a map keyed by the field names */
  w = (xw){0};
  w32(&w, SCV_MAP); w32(&w, 1); w32(&w, 2); sym(&w, "x"); u32v(&w, 1); sym(&w, "y"); u32v(&w, 2);
  expect_xdr(s, "p", "{\"y\": 2, \"x\": 1}", &w);

  /* tuple struct: a vec of the fields */
  w = (xw){0};
  w32(&w, SCV_VEC); w32(&w, 1); w32(&w, 2); u32v(&w, 5); sym(&w, "hi");
  expect_xdr(s, "w", "[5, \"hi\"]", &w);

  /* union: a vec of the case name and its values */
  w = (xw){0};
  w32(&w, SCV_VEC); w32(&w, 1); w32(&w, 1); sym(&w, "None");
  expect_xdr(s, "c", "None", &w);
  expect_xdr(s, "c", "\"None\"", &w);
  w = (xw){0};
  w32(&w, SCV_VEC); w32(&w, 1); w32(&w, 2); sym(&w, "One"); u32v(&w, 9);
  expect_xdr(s, "c", "{\"One\": 9}", &w);
  w = (xw){0};
  w32(&w, SCV_VEC); w32(&w, 1); w32(&w, 3); sym(&w, "Two"); u32v(&w, 3);
  w32(&w, SCV_BOOL); w32(&w, 1);
  expect_xdr(s, "c", "{\"Two\": [3, true]}", &w);

  /* enum: a U32 by number or name; error enum: Error(Contract, code) */
  w = (xw){0};
  u32v(&w, 2);
  expect_xdr(s, "col", "2", &w);
  expect_xdr(s, "col", "Green", &w);
  w = (xw){0};
  w32(&w, SCV_ERROR); w32(&w, 0); w32(&w, 7);
  expect_xdr(s, "e", "Bad", &w);
  expect_xdr(s, "e", "7", &w);

  /* option: null is Void, otherwise the value */
  scp_arg a;
  scp_error err = {0};
  assert_int_equal(scp_argjson_value(s, param(s, "o"), "o", "null", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_VOID);
  w = (xw){0};
  w32(&w, SCV_VEC); w32(&w, 1); w32(&w, 0);
  expect_xdr(s, "o", "[]", &w);

  /* muxed address M...: ScAddress 2, the id, then the key */
  uint8_t key[32];
  for (int k = 0; k < 32; k++) key[k] = (uint8_t)k;
  w = (xw){0};
  w32(&w, SCV_ADDRESS); w32(&w, 2); w64(&w, 123456789); wraw(&w, key, 32);
  expect_xdr(s, "mx", "MAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6AAAAAAAOW6NCXDEE", &w);
  w = (xw){0};   /* a G... account is a plain account address */
  w32(&w, SCV_ADDRESS); w32(&w, 0); w32(&w, 0); wraw(&w, key, 32);
  expect_xdr(s, "mx", "GAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB7JZX", &w);

  /* i128 keys sort as signed numbers (hi signed, then lo unsigned) */
  w = (xw){0};
  w32(&w, SCV_MAP); w32(&w, 1); w32(&w, 3);
  w32(&w, SCV_I128); w64(&w, UINT64_MAX); w64(&w, UINT64_MAX - 1); w32(&w, SCV_BOOL); w32(&w, 0);
  w32(&w, SCV_I128); w64(&w, UINT64_MAX); w64(&w, UINT64_MAX); w32(&w, SCV_BOOL); w32(&w, 1);
  w32(&w, SCV_I128); w64(&w, 1); w64(&w, 0); w32(&w, SCV_BOOL); w32(&w, 0);
  expect_xdr(s, "im", "{\"18446744073709551616\": false, \"-1\": true, \"-2\": false}", &w);
  scp_spec_free(s);
}

/* The host conversion of [1, 2] as a vec<u32> argument, from
 * cost-params.txt: MemCpy(24) 42+3, MemAlloc(16) 434+2 cpu / 16+16 mem,
 * MemCpy(16) 42+2 (with_metered_capacity), then add_host_object's
 * MemAlloc(64) 434+8 cpu / 16+64 mem: 967 CPU, 112 bytes. */
static void test_host_conversion_cost(void **state) {
  (void)state;
  scp_spec *s = make_spec();
  scp_arg a;
  scp_error err = {0};
  assert_int_equal(scp_argjson_value(s, param(s, "v"), "v", "[1,2]", &a, &err), SCP_OK);
  scp_budget b;
  scp_host *h;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  assert_int_equal(scp_host_create(&b, NULL, &h), SCP_OK);
  uint64_t cpu = b.cpu, mem = b.mem, v;
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(b.cpu - cpu, 967);
  assert_int_equal(b.mem - mem, 112);
  const scp_hobj *o = scp_host_obj(h, v);
  assert_non_null(o);
  assert_int_equal(o->tag, SCP_TAG_VEC_OBJ);
  assert_int_equal(o->len, 2);
  assert_int_equal(o->u.vals[0], scp_val_u32(1));
  assert_int_equal(o->u.vals[1], scp_val_u32(2));

  /* a muxed address becomes a MuxedAddress object: 2, id, key */
  assert_int_equal(scp_argjson_value(s, param(s, "mx"), "mx",
                   "MAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6AAAAAAAOW6NCXDEE", &a,
                   &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  o = scp_host_obj(h, v);
  assert_non_null(o);
  assert_int_equal(o->tag, SCP_TAG_MUXED_ADDRESS_OBJ);
  assert_int_equal(o->len, 41);
  assert_int_equal(o->u.bytes[0], 2);
  uint64_t id = 0;
  for (int k = 0; k < 8; k++) id = id << 8 | o->u.bytes[1 + k];
  assert_int_equal(id, 123456789);
  for (int k = 0; k < 32; k++) assert_int_equal(o->u.bytes[9 + k], k);

  /* a struct's map arrives sorted, so the host accepts it */
  assert_int_equal(scp_argjson_value(s, param(s, "p"), "p", "{\"y\":2,\"x\":1}", &a, &err),
                   SCP_OK);
  assert_int_equal(scp_host_arg_to_val(h, &a, &v, &err), SCP_OK);
  assert_int_equal(v & 0xff, SCP_TAG_MAP_OBJ);
  scp_host_destroy(h);
  scp_spec_free(s);
}

static void expect_error(scp_spec *s, const char *name, const char *text, const char *msg) {
  scp_arg a;
  scp_error err = {0};
  assert_int_equal(scp_argjson_value(s, param(s, name), name, text, &a, &err), SCP_ERR_ARG);
  if (!strstr(err.msg, msg)) fail_msg("%s: got '%s', want '%s'", text, err.msg, msg);
  assert_null(strchr(err.msg, '\n'));
}

static void test_errors(void **state) {
  (void)state;
  scp_spec *s = make_spec();
  expect_error(s, "v", "[1, -2]", "argument --v[1]: not a u32");
  expect_error(s, "v", "[1, true]", "argument --v[1]: not a u32");
  expect_error(s, "v", "{\"a\": 1}", "argument --v: a vec is a JSON array");
  expect_error(s, "v", "[1, 2", "argument --v: bad JSON at column");
  expect_error(s, "m", "[[\"a\"]]", "argument --m[0]: a map entry is a [key, value] pair");
  expect_error(s, "m", "{\"a b\": 1}", "argument --m{a b}: a symbol uses only [_0-9A-Za-z]");
  expect_error(s, "m", "{\"a\": 1, \"a\": 2}", "argument --m: bad JSON");
  expect_error(s, "m", "[[\"a\", 1], [\"a\", 2]]", "argument --m: duplicate map key");
  expect_error(s, "p", "{\"x\": 1}", "argument --p: Point: missing field y");
  expect_error(s, "p", "{\"x\": 1, \"y\": 2, \"z\": 3}", "argument --p: Point has no field z");
  expect_error(s, "p", "{\"x\": 1, \"y\": \"q\"}", "argument --p.y: not a u32");
  expect_error(s, "w", "[1]", "argument --w: Wrap is a JSON array of 2 values");
  expect_error(s, "c", "Three", "Case one of None, One, Two");
  expect_error(s, "c", "One", "Choice::One takes a value");
  expect_error(s, "c", "{\"None\": 1}", "Choice::None takes no value");
  expect_error(s, "c", "{\"Two\": [1]}", "Choice::Two takes an array of 2 values");
  expect_error(s, "c", "{\"Two\": [1, 2]}", "argument --c.Two[1]: not a bool");
  expect_error(s, "col", "3", "argument --col: not a value of enum Color");
  expect_error(s, "e", "Good", "argument --e: not a value of error enum Fail");
  expect_error(s, "mx", "CADQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQOBYHA4DQP5KX",
               "not a muxed address strkey");
  expect_error(s, "o", "[\"x\"]", "argument --o[0]: not a u32");
  scp_spec_free(s);
}

/* The text helpers args.c shares with arg_json.c. */
static void test_text_helpers(void **state) {
  (void)state;
  uint8_t raw[48], be[32];
  size_t len;
  const char *g = "GAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB7JZX";
  const char *m = "MAAACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6AAAAAAAOW6NCXDEE";
  assert_true(scp_arg_strkey_decode((const uint8_t *)g, strlen(g), raw, sizeof raw, &len));
  assert_int_equal(len, 35);
  assert_int_equal(raw[0], 6 << 3);
  for (int k = 0; k < 32; k++) assert_int_equal(raw[1 + k], k);   /* key 00 01 02 .. 1f */
  assert_true(scp_arg_strkey_decode((const uint8_t *)m, strlen(m), raw, sizeof raw, &len));
  assert_int_equal(len, 43);
  assert_int_equal(raw[0], 12 << 3);
  assert_false(scp_arg_strkey_decode((const uint8_t *)m, strlen(m), raw, 35, &len));   /* cap */
  char bad[57];
  memcpy(bad, g, 57);
  bad[10] = bad[10] == 'A' ? 'B' : 'A';                          /* checksum no longer holds */
  assert_false(scp_arg_strkey_decode((const uint8_t *)bad, 56, raw, sizeof raw, &len));
  assert_false(scp_arg_strkey_decode((const uint8_t *)"AE", 2, raw, sizeof raw, &len));
  uint8_t out[3];
  scp_arg_hex_decode((const uint8_t *)"00fFa5", 3, out);
  assert_memory_equal(out, "\x00\xff\xa5", 3);
  static const char two255[] = "57896044618658097711785492504343953926634992332820282019728792003956564819968";
  assert_true(scp_arg_parse_256(two255, strlen(two255), false, be));
  assert_int_equal(be[0], 0x80);
  assert_false(scp_arg_parse_256(two255, strlen(two255), true, be));   /* over i256 */
  char neg[100];
  snprintf(neg, sizeof neg, "-%s", two255);
  assert_true(scp_arg_parse_256(neg, strlen(neg), true, be));          /* i256 min */
  assert_int_equal(be[0], 0x80);
  assert_int_equal(be[31], 0);
  assert_true(scp_arg_parse_256("-1", 2, true, be));
  for (int k = 0; k < 32; k++) assert_int_equal(be[k], 0xff);
  assert_false(scp_arg_parse_256("-1", 2, false, be));
  assert_false(scp_arg_parse_256("1x", 2, false, be));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_xdr_of_each_convention),
    cmocka_unit_test(test_host_conversion_cost),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_text_helpers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
