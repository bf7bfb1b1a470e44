/*
 * wasm_decode.c — decode and validate a module's sections, then hand each
 * function body to the compiler.  Every read is bounded by its section;
 * errors name the problem and the file offset.
 */
#include "wasm/wasm_private.h"

#include <stdlib.h>
#include <string.h>

typedef struct reader {
  const uint8_t *base, *p, *end;
  scp_error *err;
} reader;

static int rfail(reader *r, int code, const char *what) {
  return scp_fail(r->err, code, "%s at byte offset 0x%zx", what, (size_t)(r->p - r->base));
}

#define TRY(x) do { int rc_ = (x); if (rc_) return rc_; } while (0)

static int r_u32(reader *r, uint32_t *v) {
  const uint8_t *at = r->p;
  *v = 0;
  if (!scp_leb_u32(&r->p, r->end, v)) {
    r->p = at;
    return rfail(r, SCP_ERR_MALFORMED, at >= r->end ? "unexpected end" : "integer representation too long");
  }
  return SCP_OK;
}

static int r_byte(reader *r, uint8_t *v) {
  *v = 0;
  if (r->p >= r->end) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  *v = *r->p++;
  return SCP_OK;
}

/* A name: length-prefixed UTF-8.  Returns a pointer into the module. */
static int r_name(reader *r, const uint8_t **s, uint32_t *len) {
  TRY(r_u32(r, len));
  if (*len > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end (length out of bounds)");
  *s = r->p;
  /* UTF-8 validation (the spec rejects malformed names) */
  const uint8_t *q = r->p, *e = r->p + *len;
  while (q < e) {
    uint8_t b = *q;
    int n = b < 0x80 ? 0 : (b & 0xe0) == 0xc0 ? 1 : (b & 0xf0) == 0xe0 ? 2 : (b & 0xf8) == 0xf0 ? 3 : -1;
    if (n < 0 || e - q < n + 1) return rfail(r, SCP_ERR_MALFORMED, "malformed UTF-8 encoding");
    uint32_t cp = n == 0 ? b : n == 1 ? (b & 0x1fu) : n == 2 ? (b & 0x0fu) : (b & 0x07u);
    for (int i = 1; i <= n; i++) {
      if ((q[i] & 0xc0) != 0x80) return rfail(r, SCP_ERR_MALFORMED, "malformed UTF-8 encoding");
      cp = cp << 6 | (q[i] & 0x3fu);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
        cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return rfail(r, SCP_ERR_MALFORMED, "malformed UTF-8 encoding");
    q += n + 1;
  }
  r->p += *len;
  return SCP_OK;
}

static int r_valtype(reader *r, uint8_t *t) {
  TRY(r_byte(r, t));
  switch (*t) {
  case SCP_WASM_I32: case SCP_WASM_I64: return SCP_OK;
  case SCP_WASM_F32: case SCP_WASM_F64:
    r->p--;
    return rfail(r, SCP_ERR_UNSUPPORTED, "floating-point value type (floats are disabled in Soroban)");
  case 0x7b: r->p--; return rfail(r, SCP_ERR_UNSUPPORTED, "SIMD value type (disabled in Soroban)");
  case 0x70: case 0x6f:
    r->p--;
    return rfail(r, SCP_ERR_UNSUPPORTED, "reference value type (reference types are disabled in Soroban)");
  default: r->p--; return rfail(r, SCP_ERR_MALFORMED, "malformed value type");
  }
}

static int r_limits(reader *r, uint32_t *min, uint32_t *max, bool *has_max, uint32_t cap,
                    const char *what) {
  uint8_t flag;
  TRY(r_byte(r, &flag));
  if (flag > 1) {
    r->p--;
    if (flag == 2 || flag == 3)
      return rfail(r, SCP_ERR_UNSUPPORTED, "shared memory (threads are disabled in Soroban)");
    return rfail(r, SCP_ERR_MALFORMED, "integer too large (limits flag)");
  }
  TRY(r_u32(r, min));
  *has_max = flag == 1;
  *max = 0;
  if (*has_max) TRY(r_u32(r, max));
  if (*min > cap) return rfail(r, SCP_ERR_INVALID, what);
  if (*has_max && *max > cap) return rfail(r, SCP_ERR_INVALID, what);
  if (*has_max && *max < *min) return rfail(r, SCP_ERR_INVALID, "size minimum must not be greater than maximum");
  return SCP_OK;
}

/* Constant expression: i32.const / i64.const / global.get of an imported
 * global, then end.  Soroban has no extended-const. */
static int r_const_expr(reader *r, scp_wasm_module *m, uint8_t want, uint64_t *value,
                        int32_t *global) {
  uint8_t op = 0;
  *global = -1;
  *value = 0;
  TRY(r_byte(r, &op));
  uint8_t got;
  if (op == 0x41) {
    int32_t v;
    if (!scp_leb_s32(&r->p, r->end, &v)) return rfail(r, SCP_ERR_MALFORMED, "integer representation too long");
    *value = (uint32_t)v;
    got = SCP_WASM_I32;
  } else if (op == 0x42) {
    int64_t v;
    if (!scp_leb_s64(&r->p, r->end, &v)) return rfail(r, SCP_ERR_MALFORMED, "integer representation too long");
    *value = (uint64_t)v;
    got = SCP_WASM_I64;
  } else if (op == 0x23) {
    uint32_t g;
    TRY(r_u32(r, &g));
    if (g >= m->nglobals) return rfail(r, SCP_ERR_INVALID, "unknown global");
    if (!m->globals[g].imported) return rfail(r, SCP_ERR_INVALID, "unknown global (constant expression may only use imported globals)");
    if (m->globals[g].mut) return rfail(r, SCP_ERR_INVALID, "constant expression required (mutable global)");
    *global = (int32_t)g;
    got = m->globals[g].type;
  } else if (op == 0x43 || op == 0x44) {
    return rfail(r, SCP_ERR_UNSUPPORTED, "floating-point constant (floats are disabled in Soroban)");
  } else if (op == 0xd0 || op == 0xd2) {
    return rfail(r, SCP_ERR_UNSUPPORTED, "reference constant (reference types are disabled in Soroban)");
  } else if (op == 0x0b) {
    return rfail(r, SCP_ERR_INVALID, "type mismatch (empty constant expression)");
  } else {
    return rfail(r, SCP_ERR_INVALID, "constant expression required");
  }
  TRY(r_byte(r, &op));
  if (op != 0x0b) {
    if (op == 0x41 || op == 0x42 || op == 0x23 || op == 0x6a || op == 0x6b || op == 0x6c ||
        op == 0x7c || op == 0x7d || op == 0x7e)
      return rfail(r, SCP_ERR_INVALID, "type mismatch (constant expression)");
    return rfail(r, SCP_ERR_INVALID, "constant expression required");
  }
  if (got != want) return rfail(r, SCP_ERR_INVALID, "type mismatch (constant expression)");
  return SCP_OK;
}

/* ---- sections ------------------------------------------------------------ */

static int sec_type(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  m->types = calloc(n ? n : 1, sizeof *m->types);
  if (!m->types) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t form = 0;
    TRY(r_byte(r, &form));
    if (form != 0x60) { r->p--; return rfail(r, SCP_ERR_MALFORMED, "integer representation too long (function type form)"); }
    wasm_functype *t = &m->types[i];
    m->ntypes = i + 1;
    TRY(r_u32(r, &t->nparams));
    if (t->nparams > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
    uint8_t *ps = t->params;
    if (t->nparams > sizeof t->params) {
      if (!(t->params_big = malloc(t->nparams))) return SCP_ERR_NOMEM;
      ps = t->params_big;
    }
    for (uint32_t j = 0; j < t->nparams; j++) TRY(r_valtype(r, &ps[j]));
    TRY(r_u32(r, &t->nresults));
    if (t->nresults > 1)
      return rfail(r, SCP_ERR_UNSUPPORTED, "function with multiple results (multi-value is disabled in Soroban)");
    if (t->nresults) TRY(r_valtype(r, &t->results[0]));
  }
  return SCP_OK;
}

static char *dup_name(const uint8_t *s, uint32_t len) {
  char *d = malloc((size_t)len + 1);
  if (d) { memcpy(d, s, len); d[len] = 0; }
  return d;
}

static int sec_import(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  m->imports = calloc(n ? n : 1, sizeof *m->imports);
  /* imported globals are appended as they come; reserve the worst case */
  m->globals = calloc(n ? n : 1, sizeof *m->globals);
  m->func_types = calloc(n ? n : 1, sizeof *m->func_types);
  m->func_import = calloc(n ? n : 1, sizeof *m->func_import);
  if (!m->imports || !m->globals || !m->func_types || !m->func_import) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) {
    scp_wasm_import *im = &m->imports[i];
    const uint8_t *s;
    uint32_t len;
    TRY(r_name(r, &s, &len));
    if (!(im->module = dup_name(s, len))) return SCP_ERR_NOMEM;
    im->module_len = len;
    m->nimports = i + 1;
    TRY(r_name(r, &s, &len));
    if (!(im->field = dup_name(s, len))) return SCP_ERR_NOMEM;
    im->field_len = len;
    TRY(r_byte(r, &im->kind));
    switch (im->kind) {
    case SCP_EXT_FUNC:
      TRY(r_u32(r, &im->type));
      if (im->type >= m->ntypes) return rfail(r, SCP_ERR_INVALID, "unknown type");
      m->func_import[m->nfunc_imports] = i;
      m->func_types[m->nfunc_imports++] = im->type;
      break;
    case SCP_EXT_TABLE: {
      uint8_t et;
      uint32_t mn, mx;
      bool hm;
      TRY(r_byte(r, &et));
      if (et == 0x6f) return rfail(r, SCP_ERR_UNSUPPORTED, "externref table (reference types are disabled in Soroban)");
      if (et != 0x70) return rfail(r, SCP_ERR_MALFORMED, "malformed reference type");
      TRY(r_limits(r, &mn, &mx, &hm, UINT32_MAX, "table size"));
      if (m->has_table) return rfail(r, SCP_ERR_UNSUPPORTED, "multiple tables (reference types are disabled in Soroban)");
      m->has_table = m->table_imported = true;
      m->table_min = mn; m->table_max = mx; m->table_has_max = hm;
      break;
    }
    case SCP_EXT_MEMORY: {
      uint32_t mn, mx;
      bool hm;
      TRY(r_limits(r, &mn, &mx, &hm, 65536, "memory size must be at most 65536 pages (4GiB)"));
      if (m->has_memory) return rfail(r, SCP_ERR_INVALID, "multiple memories");
      m->has_memory = m->mem_imported = true;
      m->mem_min = mn; m->mem_max = mx; m->mem_has_max = hm;
      break;
    }
    case SCP_EXT_GLOBAL: {
      uint8_t t, mut;
      TRY(r_valtype(r, &t));
      TRY(r_byte(r, &mut));
      if (mut > 1) return rfail(r, SCP_ERR_MALFORMED, "malformed mutability");
      im->type = t;
      im->mut = mut;
      wasm_global *g = &m->globals[m->nglobals++];
      g->type = t;
      g->mut = mut;
      g->imported = true;
      g->import_index = m->nglobal_imports++;
      g->init_global = -1;
      break;
    }
    default:
      r->p--;
      return rfail(r, SCP_ERR_MALFORMED, "malformed import kind");
    }
  }
  m->nfuncs = m->nfunc_imports;   /* the function section adds to it */
  return SCP_OK;
}

static int sec_function(reader *r, scp_wasm_module *m, uint32_t *ndefined) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  uint32_t *ft = realloc(m->func_types, ((size_t)m->nfunc_imports + n + 1) * sizeof *ft);
  if (!ft) return SCP_ERR_NOMEM;
  m->func_types = ft;
  m->funcs = calloc(n ? n : 1, sizeof *m->funcs);
  if (!m->funcs) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t t;
    TRY(r_u32(r, &t));
    if (t >= m->ntypes) return rfail(r, SCP_ERR_INVALID, "unknown type");
    ft[m->nfunc_imports + i] = t;
    m->funcs[i].type = t;
  }
  *ndefined = n;
  m->nfuncs = m->nfunc_imports + n;
  return SCP_OK;
}

static int sec_table(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  for (uint32_t i = 0; i < n; i++) {
    uint8_t et;
    uint32_t mn, mx;
    bool hm;
    TRY(r_byte(r, &et));
    if (et == 0x6f) return rfail(r, SCP_ERR_UNSUPPORTED, "externref table (reference types are disabled in Soroban)");
    if (et != 0x70) { r->p--; return rfail(r, SCP_ERR_MALFORMED, "malformed reference type"); }
    TRY(r_limits(r, &mn, &mx, &hm, UINT32_MAX, "table size"));
    if (m->has_table) return rfail(r, SCP_ERR_UNSUPPORTED, "multiple tables (reference types are disabled in Soroban)");
    m->has_table = true;
    m->table_min = mn; m->table_max = mx; m->table_has_max = hm;
  }
  return SCP_OK;
}

static int sec_memory(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  for (uint32_t i = 0; i < n; i++) {
    uint32_t mn, mx;
    bool hm;
    TRY(r_limits(r, &mn, &mx, &hm, 65536, "memory size must be at most 65536 pages (4GiB)"));
    if (m->has_memory) return rfail(r, SCP_ERR_INVALID, "multiple memories");
    m->has_memory = true;
    m->mem_min = mn; m->mem_max = mx; m->mem_has_max = hm;
  }
  return SCP_OK;
}

static int sec_global(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  wasm_global *g = realloc(m->globals, ((size_t)m->nglobals + n + 1) * sizeof *g);
  if (!g) return SCP_ERR_NOMEM;
  m->globals = g;
  for (uint32_t i = 0; i < n; i++) {
    wasm_global *gl = &m->globals[m->nglobals];
    memset(gl, 0, sizeof *gl);
    uint8_t mut;
    TRY(r_valtype(r, &gl->type));
    TRY(r_byte(r, &mut));
    if (mut > 1) return rfail(r, SCP_ERR_MALFORMED, "malformed mutability");
    gl->mut = mut;
    TRY(r_const_expr(r, m, gl->type, &gl->init_value, &gl->init_global));
    m->nglobals++;
  }
  return SCP_OK;
}

/* Export names already seen, as an open-addressing set of export indices
 * (+1; 0 is empty) hashed by name: the duplicate check stays linear in the
 * number of exports, where comparing every pair took seconds at 100k. */
static uint64_t name_hash(const char *s, size_t len) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
  return h;
}

/* Adds export i; false when an earlier export has its name. */
static bool seen_insert(uint32_t *seen, size_t mask, const wasm_export *ex, uint32_t i) {
  for (size_t h = name_hash(ex[i].name, ex[i].len) & mask;; h = (h + 1) & mask) {
    uint32_t j = seen[h];
    if (!j) {
      seen[h] = i + 1;
      return true;
    }
    if (ex[j - 1].len == ex[i].len && memcmp(ex[j - 1].name, ex[i].name, ex[i].len) == 0) return false;
  }
}

static int export_one(reader *r, scp_wasm_module *m, uint32_t i) {
  wasm_export *e = &m->exports[i];
  const uint8_t *s;
  uint32_t len;
  TRY(r_name(r, &s, &len));
  if (!(e->name = dup_name(s, len))) return SCP_ERR_NOMEM;
  e->len = len;
  m->nexports = i + 1;
  TRY(r_byte(r, &e->kind));
  TRY(r_u32(r, &e->index));
  switch (e->kind) {
  case SCP_EXT_FUNC: if (e->index >= m->nfuncs) return rfail(r, SCP_ERR_INVALID, "unknown function"); break;
  case SCP_EXT_TABLE: if (e->index != 0 || !m->has_table) return rfail(r, SCP_ERR_INVALID, "unknown table"); break;
  case SCP_EXT_MEMORY: if (e->index != 0 || !m->has_memory) return rfail(r, SCP_ERR_INVALID, "unknown memory"); break;
  case SCP_EXT_GLOBAL: if (e->index >= m->nglobals) return rfail(r, SCP_ERR_INVALID, "unknown global"); break;
  default: return rfail(r, SCP_ERR_MALFORMED, "malformed export kind");
  }
  return SCP_OK;
}

static int sec_export(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  m->exports = calloc(n ? n : 1, sizeof *m->exports);
  if (!m->exports) return SCP_ERR_NOMEM;
  size_t cap = 2;
  while (cap < 2 * (size_t)n) cap <<= 1;
  uint32_t *seen = calloc(cap, sizeof *seen);
  if (!seen) return SCP_ERR_NOMEM;
  int rc = SCP_OK;
  for (uint32_t i = 0; i < n && rc == SCP_OK; i++)
    if ((rc = export_one(r, m, i)) == SCP_OK && !seen_insert(seen, cap - 1, m->exports, i))
      rc = rfail(r, SCP_ERR_INVALID, "duplicate export name");
  free(seen);
  return rc;
}

static int sec_start(reader *r, scp_wasm_module *m) {
  TRY(r_u32(r, &m->start));
  if (m->start >= m->nfuncs) return rfail(r, SCP_ERR_INVALID, "unknown function");
  const wasm_functype *t = &m->types[m->func_types[m->start]];
  if (t->nparams || t->nresults) return rfail(r, SCP_ERR_INVALID, "start function must have type [] -> []");
  m->has_start = true;
  return SCP_OK;
}

static int sec_elem(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  m->elems = calloc(n ? n : 1, sizeof *m->elems);
  if (!m->elems) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) {
    wasm_segment *s = &m->elems[i];
    uint32_t flags;
    TRY(r_u32(r, &flags));
    m->nelems = i + 1;
    /* The bulk-memory encodings: bit 0 passive/declarative, bit 1 an
     * explicit table index (active) or declarative, bit 2 element
     * expressions instead of function indices.  Only funcref and table 0
     * exist without reference types. */
    if (flags > 7) return rfail(r, SCP_ERR_MALFORMED, "malformed elements segment kind");
    /* element expressions (ref.func / ref.null) need reference types,
     * which wasmparser checks in constant expressions */
    if (flags & 4)
      return rfail(r, SCP_ERR_UNSUPPORTED, "element expressions (reference types are disabled in Soroban)");
    bool passive = flags & 1;
    s->active = !passive;
    s->declarative = passive && (flags & 2);
    if (s->active) {
      uint32_t table = 0;
      if (flags & 2) TRY(r_u32(r, &table));
      if (table != 0 || !m->has_table) return rfail(r, SCP_ERR_INVALID, "unknown table");
      TRY(r_const_expr(r, m, SCP_WASM_I32, &s->offset_value, &s->offset_global));
    }
    if (passive || (flags & 2)) {
      uint8_t kind;
      TRY(r_byte(r, &kind));
      if (kind != 0x00) return rfail(r, SCP_ERR_MALFORMED, "malformed element kind");
    }
    TRY(r_u32(r, &s->len));
    if (s->len > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
    s->funcs = malloc(((size_t)s->len + 1) * sizeof *s->funcs);
    if (!s->funcs) return SCP_ERR_NOMEM;
    for (uint32_t j = 0; j < s->len; j++) {
      TRY(r_u32(r, &s->funcs[j]));
      if (s->funcs[j] >= m->nfuncs)
        return rfail(r, SCP_ERR_INVALID, "unknown function");
    }
  }
  return SCP_OK;
}

static int sec_data(reader *r, scp_wasm_module *m) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end");
  if (m->has_datacount && n != m->datacount)
    return rfail(r, SCP_ERR_MALFORMED, "data count and data section have inconsistent lengths");
  m->datas = calloc(n ? n : 1, sizeof *m->datas);
  if (!m->datas) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < n; i++) {
    wasm_segment *s = &m->datas[i];
    uint32_t flags;
    TRY(r_u32(r, &flags));
    m->ndatas = i + 1;
    if (flags == 0 || flags == 2) {
      if (flags == 2) {
        uint32_t mem;
        TRY(r_u32(r, &mem));
        if (mem != 0) return rfail(r, SCP_ERR_INVALID, "unknown memory");
      }
      if (!m->has_memory) return rfail(r, SCP_ERR_INVALID, "unknown memory 0");
      s->active = true;
      TRY(r_const_expr(r, m, SCP_WASM_I32, &s->offset_value, &s->offset_global));
    } else if (flags != 1) {
      return rfail(r, SCP_ERR_MALFORMED, "malformed data segment kind");
    }
    TRY(r_u32(r, &s->len));
    if (s->len > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end of section or function");
    s->data = r->p;
    r->p += s->len;
  }
  return SCP_OK;
}

static int sec_code(reader *r, scp_wasm_module *m, uint32_t ndefined) {
  uint32_t n;
  TRY(r_u32(r, &n));
  if (n != ndefined) return rfail(r, SCP_ERR_MALFORMED, "function and code section have inconsistent lengths");
  for (uint32_t i = 0; i < n; i++) {
    uint32_t size;
    TRY(r_u32(r, &size));
    if (size > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end of section or function");
    wasm_func *f = &m->funcs[i];
    f->body_start = (uint32_t)(r->p - r->base) - m->code_offset;
    f->body_end = f->body_start + size;
    TRY(scp_wasm_compile_func(m, i, r->p, r->p + size, r->err));
    r->p += size;
  }
  return SCP_OK;
}

static int sec_custom(reader *r, scp_wasm_module *m) {
  const uint8_t *s;
  uint32_t len;
  TRY(r_name(r, &s, &len));
  if (!scp_grow(&m->customs, &m->capcustoms, (size_t)m->ncustoms + 1, sizeof *m->customs))
    return SCP_ERR_NOMEM;
  wasm_custom *c = &m->customs[m->ncustoms];
  if (!(c->name = dup_name(s, len))) return SCP_ERR_NOMEM;
  c->data = r->p;
  c->len = (size_t)(r->end - r->p);
  m->ncustoms++;
  r->p = r->end;
  return SCP_OK;
}

/* Known section ids in their required order (datacount sits between
 * import-ish sections: after elem (9)... the spec order is
 * 1 2 3 4 5 6 7 8 9 12 10 11). */
static int section_rank(uint8_t id) {
  static const int rank[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 10};
  return id <= 12 ? rank[id] : -1;
}

static int decode(scp_wasm_module *m, scp_error *err) {
  reader rr = {.base = m->bytes, .p = m->bytes, .end = m->bytes + m->len, .err = err};
  reader *r = &rr;
  static const uint8_t magic[4] = {0, 'a', 's', 'm'};
  if (m->len < 4 || memcmp(m->bytes, magic, 4) != 0)
    return rfail(r, SCP_ERR_MALFORMED, "magic header not detected (not a WebAssembly module)");
  if (m->len < 8) { r->p = r->end; return rfail(r, SCP_ERR_MALFORMED, "unexpected end (truncated version)"); }
  static const uint8_t version[4] = {1, 0, 0, 0};
  r->p = m->bytes + 4;
  if (memcmp(r->p, version, 4) != 0) return rfail(r, SCP_ERR_MALFORMED, "unknown binary version");
  r->p += 4;
  int last_rank = 0;
  uint32_t ndefined = 0;
  bool have_func_sec = false, have_code = false;
  while (r->p < r->end) {
    uint8_t id = *r->p++;
    uint32_t size;
    TRY(r_u32(r, &size));
    if (size > (size_t)(r->end - r->p)) return rfail(r, SCP_ERR_MALFORMED, "unexpected end (section size out of bounds)");
    reader sec = {.base = r->base, .p = r->p, .end = r->p + size, .err = err};
    if (id != 0) {
      int rank = section_rank(id);
      if (rank < 0) { r->p--; return rfail(r, SCP_ERR_MALFORMED, "malformed section id"); }
      if (rank <= last_rank) return rfail(r, SCP_ERR_MALFORMED, "unexpected content after last section (section out of order or duplicated)");
      last_rank = rank;
    }
    int rc;
    switch (id) {
    case 0: rc = sec_custom(&sec, m); break;
    case 1: rc = sec_type(&sec, m); break;
    case 2: rc = sec_import(&sec, m); break;
    case 3: rc = sec_function(&sec, m, &ndefined); have_func_sec = true; break;
    case 4: rc = sec_table(&sec, m); break;
    case 5: rc = sec_memory(&sec, m); break;
    case 6: rc = sec_global(&sec, m); break;
    case 7: rc = sec_export(&sec, m); break;
    case 8: rc = sec_start(&sec, m); break;
    case 9: rc = sec_elem(&sec, m); break;
    case 10:
      m->code_offset = (uint32_t)(sec.p - m->bytes);
      rc = sec_code(&sec, m, ndefined);
      have_code = true;
      break;
    case 11: rc = sec_data(&sec, m); break;
    case 12:
      rc = r_u32(&sec, &m->datacount);
      m->has_datacount = true;
      break;
    default: rc = SCP_ERR_MALFORMED; break;
    }
    if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory decoding module");
    if (rc) return rc;
    if (sec.p != sec.end) return rfail(&sec, SCP_ERR_MALFORMED, "section size mismatch");
    r->p = sec.end;
  }
  if (have_func_sec && ndefined && !have_code)
    return rfail(r, SCP_ERR_MALFORMED, "function and code section have inconsistent lengths");
  if (!m->func_types) {
    m->func_types = calloc(1, sizeof *m->func_types);
    if (!m->func_types) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (!have_func_sec) m->nfuncs = m->nfunc_imports;
  if (m->datas == NULL && m->has_datacount && m->datacount != 0)
    return rfail(r, SCP_ERR_MALFORMED, "data count and data section have inconsistent lengths");
  return SCP_OK;
}

int scp_wasm_load(const uint8_t *bytes, size_t len, scp_wasm_module **out,
                  scp_error *err) {
  *out = NULL;
  scp_wasm_module *m = calloc(1, sizeof *m);
  if (!m) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  m->bytes = malloc(len ? len : 1);
  if (!m->bytes) { free(m); return scp_fail(err, SCP_ERR_NOMEM, "out of memory"); }
  memcpy(m->bytes, bytes, len);
  m->len = len;
  int rc = decode(m, err);
  if (rc) {
    scp_wasm_module_free(m);
    return rc;
  }
  *out = m;
  return SCP_OK;
}

void scp_wasm_module_free(scp_wasm_module *m) {
  if (!m) return;
  for (uint32_t i = 0; i < m->ntypes; i++) free(m->types[i].params_big);
  free(m->types);
  for (uint32_t i = 0; i < m->nimports; i++) {
    free((char *)m->imports[i].module);
    free((char *)m->imports[i].field);
  }
  free(m->imports);
  free(m->func_types);
  free(m->func_import);
  if (m->funcs)
    for (uint32_t i = 0; i + m->nfunc_imports < m->nfuncs; i++) {
      free(m->funcs[i].code);
      free(m->funcs[i].meta);
    }
  free(m->funcs);
  free(m->globals);
  for (uint32_t i = 0; i < m->nexports; i++) free(m->exports[i].name);
  free(m->exports);
  for (uint32_t i = 0; i < m->nelems; i++) free(m->elems[i].funcs);
  free(m->elems);
  free(m->datas);
  for (uint32_t i = 0; i < m->ncustoms; i++) free(m->customs[i].name);
  free(m->customs);
  free(m->bytes);
  free(m);
}

/* ---- introspection ---------------------------------------------------------- */

uint32_t scp_wasm_import_count(const scp_wasm_module *m) { return m->nimports; }

const scp_wasm_import *scp_wasm_import_get(const scp_wasm_module *m, uint32_t i) {
  return i < m->nimports ? &m->imports[i] : NULL;
}

bool scp_wasm_export_find(const scp_wasm_module *m, const char *name, size_t len,
                          uint8_t *kind, uint32_t *index) {
  for (uint32_t i = 0; i < m->nexports; i++)
    if (m->exports[i].len == len && memcmp(m->exports[i].name, name, len) == 0) {
      *kind = m->exports[i].kind;
      *index = m->exports[i].index;
      return true;
    }
  return false;
}

uint32_t scp_wasm_export_count(const scp_wasm_module *m) { return m->nexports; }

bool scp_wasm_export_get(const scp_wasm_module *m, uint32_t i, const char **name, size_t *len,
                         uint8_t *kind, uint32_t *index) {
  if (i >= m->nexports) return false;
  *name = m->exports[i].name;
  *len = m->exports[i].len;
  *kind = m->exports[i].kind;
  *index = m->exports[i].index;
  return true;
}

bool scp_wasm_func_sig(const scp_wasm_module *m, uint32_t f, const uint8_t **params,
                       uint32_t *nparams, const uint8_t **results, uint32_t *nresults) {
  if (f >= m->nfuncs) return false;
  const wasm_functype *t = &m->types[m->func_types[f]];
  *params = functype_params(t);
  *nparams = t->nparams;
  *results = t->results;
  *nresults = t->nresults;
  return true;
}

uint32_t scp_wasm_func_count(const scp_wasm_module *m) { return m->nfuncs; }
uint32_t scp_wasm_import_func_count(const scp_wasm_module *m) { return m->nfunc_imports; }

bool scp_wasm_func_body(const scp_wasm_module *m, uint32_t f, const uint8_t **body, size_t *len) {
  if (f < m->nfunc_imports || f >= m->nfuncs) return false;
  const wasm_func *fn = &m->funcs[f - m->nfunc_imports];
  *body = m->bytes + m->code_offset + fn->body_start;
  *len = fn->body_end - fn->body_start;
  return true;
}
uint32_t scp_wasm_initial_pages(const scp_wasm_module *m) { return m->has_memory ? m->mem_min : 0; }

void scp_wasm_cost_inputs_get(const scp_wasm_module *m, scp_wasm_cost_inputs *ci) {
  memset(ci, 0, sizeof *ci);
  ci->n_instructions = (uint32_t)m->n_instructions;
  ci->n_functions = m->nfuncs - m->nfunc_imports;
  ci->n_globals = m->nglobals - m->nglobal_imports;
  ci->n_table_entries = m->has_table ? m->table_min : 0;
  ci->n_types = m->ntypes;
  ci->n_data_segments = m->ndatas;
  ci->n_elem_segments = m->nelems;
  ci->n_imports = m->nimports;
  ci->n_exports = m->nexports;
  for (uint32_t i = 0; i < m->ndatas; i++) ci->n_data_segment_bytes += m->datas[i].len;
}

void scp_wasm_code_facts_get(const scp_wasm_module *m, scp_wasm_code_facts *f) {
  memset(f, 0, sizeof *f);
  f->has_start = m->has_start;
  for (uint32_t i = m->nglobal_imports; i < m->nglobals; i++)
    f->global_in_const_expr |= m->globals[i].init_global >= 0;
  for (uint32_t i = 0; i < m->nelems; i++) {
    f->global_in_const_expr |= m->elems[i].active && m->elems[i].offset_global >= 0;
    f->elem_entries += m->elems[i].len;
  }
  for (uint32_t i = 0; i < m->ndatas; i++) {
    f->global_in_const_expr |= m->datas[i].active && m->datas[i].offset_global >= 0;
    f->data_bytes += m->datas[i].len;
  }
  f->memory_bytes = m->has_memory ? (uint64_t)m->mem_min * 65536 : 0;
  f->table_entries = m->has_table ? m->table_min : 0;
  for (uint32_t i = 0; i < m->nexports; i++) {
    if (m->exports[i].kind != SCP_EXT_FUNC) continue;
    const wasm_functype *t = &m->types[m->func_types[m->exports[i].index]];
    if (t->nparams > f->max_export_params) f->max_export_params = t->nparams;
    if (t->nresults > f->max_export_results) f->max_export_results = t->nresults;
  }
}

bool scp_wasm_custom_section(const scp_wasm_module *m, const char *name,
                             const uint8_t **data, size_t *len) {
  for (uint32_t i = 0; i < m->ncustoms; i++)
    if (strcmp(m->customs[i].name, name) == 0) {
      *data = m->customs[i].data;
      *len = m->customs[i].len;
      return true;
    }
  return false;
}
