/*
 * spec.c — decoding a contract's `contractspecv0` section (SCSpecEntry XDR,
 * Stellar-contract-spec.x) and typing user text by it.
 *
 * Our own decoder, read off the XDR definition.  Every variable-length
 * field is checked against its XDR bound and the bytes left, padding must
 * be zero (strict XDR, as rs-stellar-xdr reads it), and nesting is limited,
 * so hostile input ends in one error line, never a crash or a huge
 * allocation.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/run/scp_spec.h"

/* XDR bounds of Stellar-contract-spec.x. */
enum {
  DOC_MAX = 1024, LIB_MAX = 80, UDT_NAME_MAX = 60, FIELD_NAME_MAX = 30,
  SYMBOL_MAX = 32,   /* SCSymbol = string<SCSYMBOL_LIMIT> */
  INPUTS_MAX = 10, OUTPUTS_MAX = 1, TUPLE_MAX = 12, FIELDS_MAX = 40,
  CASES_MAX = 50, PREFIX_TOPICS_MAX = 2
};

typedef struct reader {
  const uint8_t *start, *p, *end;
  size_t base;           /* file offset of start */
  const char *path;
  scp_error *err;
  int failed;            /* SCP_OK until the first error */
} reader;

static size_t at(const reader *r) { return r->base + (size_t)(r->p - r->start); }

/* The first failure wins: later ones would only name a consequence. */
static bool fail(reader *r, const char *what) {
  if (!r->failed) {
    r->failed = SCP_ERR_MALFORMED;
    scp_fail(r->err, SCP_ERR_MALFORMED, "%s: contractspecv0: malformed XDR at byte %zu (%s)",
             r->path ? r->path : "contract", at(r), what);
  }
  return false;
}

static bool nomem(reader *r) {
  if (!r->failed) {
    r->failed = SCP_ERR_NOMEM;
    scp_fail(r->err, SCP_ERR_NOMEM, "%s: contractspecv0: out of memory",
             r->path ? r->path : "contract");
  }
  return false;
}

static bool u32(reader *r, uint32_t *x, const char *what) {
  if (r->end - r->p < 4) return fail(r, what);
  *x = scp_be32(r->p);
  r->p += 4;
  return true;
}

/* XDR string<max>: length, bytes, zero padding to 4.  out (may be NULL to
 * skip) gets a NUL-terminated copy. */
static bool string(reader *r, uint32_t max, char **out, const char *what) {
  const uint8_t *len_at = r->p;
  uint32_t n;
  if (!u32(r, &n, what)) return false;
  if (n > max) {
    r->p = len_at;
    return fail(r, what);
  }
  size_t padded = ((size_t)n + 3) & ~(size_t)3;
  if ((size_t)(r->end - r->p) < padded) return fail(r, what);
  for (size_t k = n; k < padded; k++)
    if (r->p[k]) {
      r->p += k;
      return fail(r, "non-zero padding");
    }
  if (out) {
    *out = malloc((size_t)n + 1);
    if (!*out) return nomem(r);
    memcpy(*out, r->p, n);
    (*out)[n] = 0;
  }
  r->p += padded;
  return true;
}

/* An array count below max that the bytes left can hold (each element
 * takes at least min_size bytes), so a lying count cannot make us
 * allocate much. */
static bool count(reader *r, uint32_t max, size_t min_size, uint32_t *n, const char *what) {
  const uint8_t *n_at = r->p;
  if (!u32(r, n, what)) return false;
  if (*n > max || (size_t)(r->end - r->p) / min_size < *n) {
    r->p = n_at;
    return fail(r, what);
  }
  return true;
}

static void type_free(scp_spec_type *t) {
  for (uint32_t k = 0; k < t->nsub; k++) type_free(&t->sub[k]);
  free(t->sub);
  free(t->name);
  memset(t, 0, sizeof *t);
}

static bool type_def(reader *r, scp_spec_type *t, unsigned depth);

static bool sub_types(reader *r, scp_spec_type *t, uint32_t n, unsigned depth) {
  t->sub = calloc(n ? n : 1, sizeof *t->sub);
  if (!t->sub) return nomem(r);
  for (uint32_t k = 0; k < n; k++) {
    t->nsub = k + 1;   /* so a failure frees what was decoded */
    if (!type_def(r, &t->sub[k], depth + 1)) return false;
  }
  t->nsub = n;
  return true;
}

/* SCSpecTypeDef (recursive).  On failure *t holds what was decoded, for
 * type_free. */
static bool type_def(reader *r, scp_spec_type *t, unsigned depth) {
  memset(t, 0, sizeof *t);
  if (depth > SCP_SPEC_MAX_DEPTH) return fail(r, "type definitions nested too deep");
  const uint8_t *kind_at = r->p;
  if (!u32(r, &t->kind, "type")) return false;
  switch (t->kind) {
  case SCP_SPEC_VAL: case SCP_SPEC_BOOL: case SCP_SPEC_VOID: case SCP_SPEC_ERROR:
  case SCP_SPEC_U32: case SCP_SPEC_I32: case SCP_SPEC_U64: case SCP_SPEC_I64:
  case SCP_SPEC_TIMEPOINT: case SCP_SPEC_DURATION: case SCP_SPEC_U128: case SCP_SPEC_I128:
  case SCP_SPEC_U256: case SCP_SPEC_I256: case SCP_SPEC_BYTES: case SCP_SPEC_STRING:
  case SCP_SPEC_SYMBOL: case SCP_SPEC_ADDRESS: case SCP_SPEC_MUXED_ADDRESS:
    return true;
  case SCP_SPEC_OPTION: case SCP_SPEC_VEC:
    return sub_types(r, t, 1, depth);
  case SCP_SPEC_RESULT: case SCP_SPEC_MAP:
    return sub_types(r, t, 2, depth);
  case SCP_SPEC_TUPLE: {
    uint32_t n;
    if (!count(r, TUPLE_MAX, 4, &n, "tuple length")) return false;
    return sub_types(r, t, n, depth);
  }
  case SCP_SPEC_BYTES_N:
    return u32(r, &t->n, "bytesN length");
  case SCP_SPEC_UDT:
    return string(r, UDT_NAME_MAX, &t->name, "UDT name");
  default:
    r->p = kind_at;
    return fail(r, "unknown type");
  }
}

/* A type definition that is only skipped (UDT and event entries). */
static bool skip_type(reader *r) {
  scp_spec_type t;
  bool ok = type_def(r, &t, 0);
  type_free(&t);
  return ok;
}

static bool enum_value(reader *r, uint32_t max, const char *what) {
  const uint8_t *v_at = r->p;
  uint32_t v;
  if (!u32(r, &v, what)) return false;
  if (v > max) {
    r->p = v_at;
    return fail(r, what);
  }
  return true;
}

static void udt_free(scp_spec_udt *u) {
  for (uint32_t k = 0; k < u->ncases; k++) {
    scp_spec_case *c = &u->cases[k];
    for (uint32_t j = 0; j < c->ntypes; j++) type_free(&c->types[j]);
    free(c->types);
    free(c->name);
  }
  free(u->cases);
  free(u->name);
  memset(u, 0, sizeof *u);
}

/* n types of a struct field (1) or union case into c. */
static bool case_types(reader *r, scp_spec_case *c, uint32_t n) {
  c->types = calloc(n ? n : 1, sizeof *c->types);
  if (!c->types) return nomem(r);
  for (uint32_t j = 0; j < n; j++) {
    c->ntypes = j + 1;   /* so a failure frees what was decoded */
    if (!type_def(r, &c->types[j], 0)) return false;
  }
  c->ntypes = n;
  return true;
}

/* The header all UDT entries share (doc, lib, name, case count) and the
 * cases array.  On failure *u holds what was decoded, for udt_free. */
static bool udt_head(reader *r, scp_spec_udt *u, const char *what, uint32_t max,
                     const char *cw) {
  uint32_t n;
  char dw[32], lw[32], nw[32];
  snprintf(dw, sizeof dw, "%s doc", what);
  snprintf(lw, sizeof lw, "%s lib", what);
  snprintf(nw, sizeof nw, "%s name", what);
  if (!string(r, DOC_MAX, NULL, dw) || !string(r, LIB_MAX, NULL, lw) ||
      !string(r, UDT_NAME_MAX, &u->name, nw) || !count(r, max, 12, &n, cw))
    return false;
  u->cases = calloc(n ? n : 1, sizeof *u->cases);
  if (!u->cases) return nomem(r);
  u->ncases = n;
  return true;
}

/* SCSpecUDTStructV0: fields (doc, name, type). */
static bool udt_struct(reader *r, scp_spec_udt *u) {
  if (!udt_head(r, u, "struct", FIELDS_MAX, "struct field count")) return false;
  for (uint32_t k = 0; k < u->ncases; k++)
    if (!string(r, DOC_MAX, NULL, "field doc") ||
        !string(r, FIELD_NAME_MAX, &u->cases[k].name, "field name") ||
        !case_types(r, &u->cases[k], 1))
      return false;
  return true;
}

/* SCSpecUDTUnionV0: cases are void (doc, name) or tuple (doc, name,
 * SCSpecTypeDef type<12>). */
static bool udt_union(reader *r, scp_spec_udt *u) {
  if (!udt_head(r, u, "union", CASES_MAX, "union case count")) return false;
  for (uint32_t k = 0; k < u->ncases; k++) {
    const uint8_t *kind_at = r->p;
    uint32_t kind, m;
    if (!u32(r, &kind, "union case kind")) return false;
    if (kind > 1) {
      r->p = kind_at;
      return fail(r, "union case kind");
    }
    if (!string(r, DOC_MAX, NULL, "union case doc") ||
        !string(r, UDT_NAME_MAX, &u->cases[k].name, "union case name"))
      return false;
    m = 0;
    if (kind == 1 && !count(r, TUPLE_MAX, 4, &m, "union case type count")) return false;
    if (!case_types(r, &u->cases[k], m)) return false;
  }
  return true;
}

/* SCSpecUDTEnumV0 and SCSpecUDTErrorEnumV0 (same layout). */
static bool udt_enum(reader *r, scp_spec_udt *u) {
  if (!udt_head(r, u, "enum", CASES_MAX, "enum case count")) return false;
  for (uint32_t k = 0; k < u->ncases; k++)
    if (!string(r, DOC_MAX, NULL, "enum case doc") ||
        !string(r, UDT_NAME_MAX, &u->cases[k].name, "enum case name") ||
        !u32(r, &u->cases[k].value, "enum case value"))
      return false;
  return true;
}

/* SCSpecEventV0: doc, lib, name, prefixTopics<2>, params<> (doc, name,
 * type, location), dataFormat. */
static bool skip_event(reader *r) {
  uint32_t n;
  if (!string(r, DOC_MAX, NULL, "event doc") || !string(r, LIB_MAX, NULL, "event lib") ||
      !string(r, SYMBOL_MAX, NULL, "event name") ||
      !count(r, PREFIX_TOPICS_MAX, 4, &n, "event prefix topic count"))
    return false;
  for (uint32_t k = 0; k < n; k++)
    if (!string(r, SYMBOL_MAX, NULL, "event prefix topic")) return false;
  if (!count(r, UINT32_MAX, 16, &n, "event parameter count")) return false;
  for (uint32_t k = 0; k < n; k++)
    if (!string(r, DOC_MAX, NULL, "event parameter doc") ||
        !string(r, FIELD_NAME_MAX, NULL, "event parameter name") || !skip_type(r) ||
        !enum_value(r, 1, "event parameter location"))
      return false;
  return enum_value(r, 2, "event data format");
}

static void fn_free(scp_spec_fn *f) {
  for (uint32_t k = 0; k < f->ninputs; k++) {
    free(f->inputs[k].doc);
    free(f->inputs[k].name);
    type_free(&f->inputs[k].type);
  }
  free(f->inputs);
  for (uint32_t k = 0; k < f->noutputs; k++) type_free(&f->outputs[k]);
  free(f->outputs);
  free(f->doc);
  free(f->name);
  memset(f, 0, sizeof *f);
}

/* SCSpecFunctionV0.  On failure *f holds what was decoded, for fn_free. */
static bool function(reader *r, scp_spec_fn *f) {
  uint32_t n;
  memset(f, 0, sizeof *f);
  if (!string(r, DOC_MAX, &f->doc, "function doc") ||
      !string(r, SYMBOL_MAX, &f->name, "function name") ||
      !count(r, INPUTS_MAX, 12, &n, "function input count"))
    return false;
  f->inputs = calloc(n ? n : 1, sizeof *f->inputs);
  if (!f->inputs) return nomem(r);
  for (uint32_t k = 0; k < n; k++) {
    scp_spec_input *in = &f->inputs[k];
    f->ninputs = k + 1;
    if (!string(r, DOC_MAX, &in->doc, "input doc") ||
        !string(r, FIELD_NAME_MAX, &in->name, "input name") || !type_def(r, &in->type, 0))
      return false;
  }
  if (!count(r, OUTPUTS_MAX, 4, &n, "function output count")) return false;
  f->outputs = calloc(n ? n : 1, sizeof *f->outputs);
  if (!f->outputs) return nomem(r);
  for (uint32_t k = 0; k < n; k++) {
    f->noutputs = k + 1;
    if (!type_def(r, &f->outputs[k], 0)) return false;
  }
  return true;
}

void scp_spec_free(scp_spec *s) {
  if (!s) return;
  for (size_t k = 0; k < s->nfns; k++) fn_free(&s->fns[k]);
  free(s->fns);
  for (size_t k = 0; k < s->nudts; k++) udt_free(&s->udts[k]);
  free(s->udts);
  for (size_t k = 0; k < s->nowned; k++) free(s->owned[k]);
  free(s->owned);
  scp_bmap_free(&s->fn_index);
  scp_bmap_free(&s->udt_index);
  free(s);
}

/* Index fns and udts by name; false when out of memory. */
static bool index_names(scp_spec *s) {
  bool added;
  for (size_t k = 0; k < s->nfns; k++) {
    size_t *v = scp_bmap_put(&s->fn_index, s->fns[k].name, strlen(s->fns[k].name), &added);
    if (!v) return false;
    if (added) *v = k;
  }
  for (size_t k = 0; k < s->nudts; k++) {
    size_t *v = scp_bmap_put(&s->udt_index, s->udts[k].name, strlen(s->udts[k].name), &added);
    if (!v) return false;
    if (added) *v = k;
  }
  return true;
}

int scp_spec_parse(const uint8_t *p, size_t len, size_t base, const char *path,
                   scp_spec **out, scp_error *err) {
  *out = NULL;
  scp_spec *s = calloc(1, sizeof *s);
  if (!s) return scp_fail(err, SCP_ERR_NOMEM, "%s: contractspecv0: out of memory",
                          path ? path : "contract");
  reader r = {.start = p, .p = p, .end = p + len, .base = base, .path = path, .err = err};
  size_t cap = 0, ucap = 0;
  while (r.p < r.end) {
    const uint8_t *kind_at = r.p;
    uint32_t kind;
    if (!u32(&r, &kind, "entry kind")) break;
    if (kind == SCP_SPEC_ENTRY_FUNCTION) {
      if (!scp_grow(&s->fns, &cap, s->nfns + 1, sizeof *s->fns)) {
        nomem(&r);
        break;
      }
      bool ok = function(&r, &s->fns[s->nfns]);
      s->nfns++;   /* kept even half-decoded, so scp_spec_free releases it */
      if (!ok) break;
    } else if (kind >= SCP_SPEC_ENTRY_STRUCT && kind <= SCP_SPEC_ENTRY_ERROR_ENUM) {
      if (!scp_grow(&s->udts, &ucap, s->nudts + 1, sizeof *s->udts)) {
        nomem(&r);
        break;
      }
      scp_spec_udt *u = &s->udts[s->nudts++];   /* kept half-decoded, for scp_spec_free */
      memset(u, 0, sizeof *u);
      u->kind = kind;
      bool ok = kind == SCP_SPEC_ENTRY_STRUCT ? udt_struct(&r, u)
                : kind == SCP_SPEC_ENTRY_UNION ? udt_union(&r, u) : udt_enum(&r, u);
      if (!ok) break;
    } else {
      bool ok;
      switch (kind) {
      case SCP_SPEC_ENTRY_EVENT: ok = skip_event(&r); break;
      default:
        r.p = kind_at;
        ok = fail(&r, "unknown entry kind");
        break;
      }
      if (!ok) break;
    }
    s->count[kind]++;
  }
  if (!r.failed && !index_names(s)) nomem(&r);
  if (r.failed) {
    scp_spec_free(s);
    return r.failed;
  }
  *out = s;
  return SCP_OK;
}

int scp_spec_from_wasm(const uint8_t *wasm, size_t len, const char *path, scp_spec **out,
                       scp_error *err) {
  static const char name[] = "contractspecv0";
  *out = NULL;
  /* A module that is not well framed has no spec as far as we can tell;
   * the WASM loader says what is wrong with it, in its own words. */
  if (len < 8 || memcmp(wasm, "\0asm", 4)) return SCP_OK;
  const uint8_t *p = wasm + 8, *end = wasm + len;
  while (p < end) {
    uint8_t id = *p++;
    uint32_t size;
    if (!scp_leb_u32(&p, end, &size) || (size_t)(end - p) < size) return SCP_OK;
    const uint8_t *body = p, *body_end = p + size;
    p = body_end;
    if (id != 0) continue;
    uint32_t nlen;
    const uint8_t *q = body;
    if (!scp_leb_u32(&q, body_end, &nlen) || (size_t)(body_end - q) < nlen) return SCP_OK;
    if (nlen != sizeof name - 1 || memcmp(q, name, nlen)) continue;
    q += nlen;
    /* the first section of that name, as the reference's tools read it */
    return scp_spec_parse(q, (size_t)(body_end - q), (size_t)(q - wasm), path, out, err);
  }
  return SCP_OK;
}

const scp_spec_fn *scp_spec_find(const scp_spec *s, const char *name) {
  const size_t *k = s ? scp_bmap_get(&s->fn_index, name, strlen(name)) : NULL;
  return k ? &s->fns[*k] : NULL;
}

const scp_spec_udt *scp_spec_udt_find(const scp_spec *s, const char *name) {
  const size_t *k = s ? scp_bmap_get(&s->udt_index, name, strlen(name)) : NULL;
  return k ? &s->udts[*k] : NULL;
}

/* Every spec kind with a plain name: the name users read ("bytesn<N>"
 * and UDT names are made apart), and the scp_arg_parse type a value of it
 * is given as (NULL: not typed from plain text). */
static const struct { uint32_t kind; const char *name, *arg; } kinds[] = {
  {.kind = SCP_SPEC_VAL, .name = "val", .arg = NULL},
  {.kind = SCP_SPEC_BOOL, .name = "bool", .arg = "bool"},
  {.kind = SCP_SPEC_VOID, .name = "void", .arg = "void"},
  {.kind = SCP_SPEC_ERROR, .name = "error", .arg = NULL},
  {.kind = SCP_SPEC_U32, .name = "u32", .arg = "u32"},
  {.kind = SCP_SPEC_I32, .name = "i32", .arg = "i32"},
  {.kind = SCP_SPEC_U64, .name = "u64", .arg = "u64"}, {.kind = SCP_SPEC_I64, .name = "i64", .arg = "i64"},
  {.kind = SCP_SPEC_TIMEPOINT, .name = "timepoint", .arg = "timepoint"},
  {.kind = SCP_SPEC_DURATION, .name = "duration", .arg = "duration"},
  {.kind = SCP_SPEC_U128, .name = "u128", .arg = "u128"}, {.kind = SCP_SPEC_I128, .name = "i128", .arg = "i128"},
  {.kind = SCP_SPEC_U256, .name = "u256", .arg = "u256"}, {.kind = SCP_SPEC_I256, .name = "i256", .arg = "i256"},
  {.kind = SCP_SPEC_BYTES, .name = "bytes", .arg = "bytes"},
  {.kind = SCP_SPEC_BYTES_N, .name = "bytesn", .arg = "bytes"},
  {.kind = SCP_SPEC_STRING, .name = "string", .arg = "string"},
  {.kind = SCP_SPEC_SYMBOL, .name = "symbol", .arg = "symbol"},
  {.kind = SCP_SPEC_ADDRESS, .name = "address", .arg = "address"},
  {.kind = SCP_SPEC_MUXED_ADDRESS, .name = "muxed_address", .arg = NULL},
  {.kind = SCP_SPEC_OPTION, .name = "option", .arg = NULL}, {.kind = SCP_SPEC_RESULT, .name = "result", .arg = NULL},
  {.kind = SCP_SPEC_VEC, .name = "vec", .arg = NULL},
  {.kind = SCP_SPEC_MAP, .name = "map", .arg = NULL},
  {.kind = SCP_SPEC_TUPLE, .name = "tuple", .arg = NULL},
};

const char *scp_spec_kind_arg(uint32_t kind) {
  for (size_t k = 0; k < SCP_ARRAY_LEN(kinds); k++)
    if (kinds[k].kind == kind) return kinds[k].arg;
  return NULL;
}

void scp_spec_type_format(const scp_spec_type *t, scp_buf *b) {
  if (t->kind == SCP_SPEC_UDT) {
    scp_buf_puts(b, t->name ? t->name : "?");
    return;
  }
  if (t->kind == SCP_SPEC_BYTES_N) {
    scp_buf_printf(b, "bytesn<%u>", t->n);
    return;
  }
  const char *name = "?";
  for (size_t k = 0; k < SCP_ARRAY_LEN(kinds); k++)
    if (kinds[k].kind == t->kind) name = kinds[k].name;
  scp_buf_puts(b, name);
  if (t->kind < SCP_SPEC_OPTION) return;
  scp_buf_putc(b, '<');
  for (uint32_t k = 0; k < t->nsub; k++) {
    if (k) scp_buf_puts(b, ", ");
    scp_spec_type_format(&t->sub[k], b);
  }
  scp_buf_putc(b, '>');
}

void scp_spec_fn_format(const scp_spec_fn *f, scp_buf *b) {
  scp_buf_puts(b, f->name);
  for (uint32_t k = 0; k < f->ninputs; k++) {
    scp_buf_printf(b, " --%s <", f->inputs[k].name);
    scp_spec_type_format(&f->inputs[k].type, b);
    scp_buf_putc(b, '>');
  }
  scp_buf_puts(b, " -> ");
  if (f->noutputs) scp_spec_type_format(&f->outputs[0], b);
  else scp_buf_puts(b, "void");
}
