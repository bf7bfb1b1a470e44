/*
 * scp_sym_wasm.c — the WASM container for the source mapper: function
 * bodies from the Code section, import count and names from the Import
 * section, names from the "name" custom section (else, for exported
 * functions, their export name), and the ".debug_*" custom sections handed
 * to libdw.
 *
 * Only what symbolization needs is read, but every length is checked
 * against the bytes that are really there: a truncated or garbled module
 * is rejected with SCP_ERR_MALFORMED, never read past its end.
 */
#include "symbols/scp_sym_private.h"

#include <stdlib.h>
#include <string.h>

enum {
  SEC_CUSTOM = 0, SEC_IMPORT = 2, SEC_EXPORT = 7, SEC_CODE = 10, SEC_LAST_KNOWN = 13,
  MAX_DEBUG_SECTIONS = 32
};

typedef struct wasm_reader {
  const uint8_t *p, *end;
} wasm_reader;

static bool rd_u32(wasm_reader *r, uint32_t *v) {
  return scp_leb_u32(&r->p, r->end, v);
}

static bool rd_u64(wasm_reader *r, uint64_t *v) {
  return scp_leb_u64(&r->p, r->end, v);
}

static bool rd_byte(wasm_reader *r, uint8_t *v) {
  if (r->p >= r->end) return false;
  *v = *r->p++;
  return true;
}

/* A length-prefixed name; *s points into the module. */
static bool rd_name(wasm_reader *r, const uint8_t **s, uint32_t *len) {
  if (!rd_u32(r, len) || *len > (size_t)(r->end - r->p)) return false;
  *s = r->p;
  r->p += *len;
  return true;
}

static bool rd_limits(wasm_reader *r) {
  uint8_t flags;
  uint64_t v;
  if (!rd_byte(r, &flags) || flags > 7) return false;
  bool ok = rd_u64(r, &v);                 /* memory64 limits are u64 */
  if (ok && (flags & 1)) ok = rd_u64(r, &v);
  return ok;
}

/* Count the imported functions and remember their field names (the
 * fallback name of an import without a name-section entry). */
static int read_imports(scp_sym *s, wasm_reader r, scp_error *err) {
  uint32_t count;
  if (!rd_u32(&r, &count)) goto bad;
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *mod, *field;
    uint32_t modlen, fieldlen, idx;
    uint8_t kind, b;
    if (!rd_name(&r, &mod, &modlen) || !rd_name(&r, &field, &fieldlen) ||
        !rd_byte(&r, &kind))
      goto bad;
    switch (kind) {
    case 0:   /* function: type index */
      if (!rd_u32(&r, &idx)) goto bad;
      if (!scp_grow(&s->funcs, &s->capfuncs, s->nfuncs + 1, sizeof *s->funcs))
        return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
      const char *name = scp_sym_clean_name(s, (const char *)field, fieldlen);
      if (!name) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
      s->funcs[s->nfuncs] = (sym_func){.name = name, .index = (uint32_t)s->nfuncs,
                                       .source = SCP_SRC_NAMESEC};
      s->nfuncs++;
      break;
    case 1:   /* table: reftype, limits */
      if (!rd_byte(&r, &b) || !rd_limits(&r)) goto bad;
      break;
    case 2:   /* memory */
      if (!rd_limits(&r)) goto bad;
      break;
    case 3:   /* global: valtype, mutability */
      if (!rd_byte(&r, &b) || !rd_byte(&r, &b)) goto bad;
      break;
    case 4:   /* tag: attribute, type index */
      if (!rd_byte(&r, &b) || !rd_u32(&r, &idx)) goto bad;
      break;
    default:
      goto bad;
    }
  }
  s->nimports = (uint32_t)s->nfuncs;
  return SCP_OK;
bad:
  return scp_fail(err, SCP_ERR_MALFORMED, "malformed import section");
}

/* Record every body as [start, end) relative to the Code payload. */
static int read_code(scp_sym *s, wasm_reader r, scp_error *err) {
  const uint8_t *payload = r.p;
  uint32_t count;
  if (!rd_u32(&r, &count)) goto bad;
  /* Each body takes at least two bytes: bound count before allocating. */
  if (count > (size_t)(r.end - r.p)) goto bad;
  if (!scp_grow(&s->funcs, &s->capfuncs, s->nfuncs + count, sizeof *s->funcs))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (uint32_t i = 0; i < count; i++) {
    uint32_t size;
    if (!rd_u32(&r, &size) || size == 0 || size > (size_t)(r.end - r.p))
      goto bad;
    uint64_t start = (uint64_t)(r.p - payload);
    r.p += size;
    s->funcs[s->nfuncs] = (sym_func){.lo = start, .hi = start + size,
                                     .index = (uint32_t)s->nfuncs,
                                     .source = SCP_SRC_RAW};
    s->nfuncs++;
  }
  if (r.p != r.end) goto bad;
  return SCP_OK;
bad:
  return scp_fail(err, SCP_ERR_MALFORMED, "malformed code section");
}

/* Subsection 1 of the "name" section: function names.  A damaged name
 * section only costs names, so it is a warning, not an error. */
static int read_names(scp_sym *s, wasm_reader r) {
  while (r.p < r.end) {
    uint8_t id;
    uint32_t size;
    if (!rd_byte(&r, &id) || !rd_u32(&r, &size) ||
        size > (size_t)(r.end - r.p))
      goto bad;
    wasm_reader sub = {.p = r.p, .end = r.p + size};
    r.p += size;
    if (id != 1) continue;
    uint32_t count;
    if (!rd_u32(&sub, &count)) goto bad;
    for (uint32_t i = 0; i < count; i++) {
      uint32_t idx, len;
      const uint8_t *name;
      if (!rd_u32(&sub, &idx) || !rd_name(&sub, &name, &len)) goto bad;
      if (idx >= s->nfuncs) continue;
      const char *clean = scp_sym_clean_name(s, (const char *)name, len);
      if (!clean) return SCP_ERR_NOMEM;
      s->funcs[idx].name = clean;
      s->funcs[idx].source = SCP_SRC_NAMESEC;
    }
  }
  return SCP_OK;
bad:
  scp_sym_warn(s, "malformed name section: names after the damage ignored");
  return SCP_OK;
}

/* A function the name section does not name but the module exports is
 * called by its export name (a stripped contract still exports every entry
 * point under the name users call it by).  Damage here only costs names. */
static int export_names(scp_sym *s, wasm_reader r) {
  uint32_t count;
  if (!rd_u32(&r, &count)) return SCP_OK;
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *name;
    uint32_t nlen, index;
    uint8_t kind;
    if (!rd_name(&r, &name, &nlen) || !rd_byte(&r, &kind) || !rd_u32(&r, &index)) return SCP_OK;
    nlen = (uint32_t)strnlen((const char *)name, nlen);  /* names end at a NUL */
    if (kind != 0 || index >= s->nfuncs || s->funcs[index].name || !nlen) continue;
    if (!(s->funcs[index].name = scp_sym_intern_n(s, (const char *)name, nlen)))
      return SCP_ERR_NOMEM;
    s->funcs[index].source = SCP_SRC_EXPORT;
  }
  return SCP_OK;
}

static int raw_names(scp_sym *s) {
  for (size_t i = 0; i < s->nfuncs; i++) {
    if (s->funcs[i].name) continue;
    char buf[32];
    snprintf(buf, sizeof buf, "func[%zu]", i);
    if (!(s->funcs[i].name = scp_sym_intern(s, buf))) return SCP_ERR_NOMEM;
    s->funcs[i].source = SCP_SRC_RAW;
  }
  return SCP_OK;
}

int scp_sym_open_wasm(const uint8_t *wasm, size_t len, const scp_sym_opts *opts,
                      scp_sym **out, scp_error *err) {
  static const uint8_t header[8] = {0, 'a', 's', 'm', 1, 0, 0, 0};
  if (!out) return scp_fail(err, SCP_ERR_ARG, "no output pointer");
  *out = NULL;
  if (!wasm || len < sizeof header || memcmp(wasm, header, sizeof header) != 0)
    return scp_fail(err, SCP_ERR_MALFORMED, "not a WASM module (bad magic or version)");
  scp_sym *s = scp_sym_new(opts);
  if (!s) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");

  sym_section debug[MAX_DEBUG_SECTIONS];
  char debug_names[MAX_DEBUG_SECTIONS][32];
  size_t ndebug = 0;
  wasm_reader names = {.p = NULL, .end = NULL}, exports = {.p = NULL, .end = NULL};
  uint64_t code_size = 0;
  bool have_code = false, have_import = false;
  int rc = SCP_OK;
  wasm_reader r = {.p = wasm + sizeof header, .end = wasm + len};
  while (r.p < r.end) {
    size_t at = (size_t)(r.p - wasm);
    uint8_t id;
    uint32_t size;
    if (!rd_byte(&r, &id) || !rd_u32(&r, &size)) {
      rc = scp_fail(err, SCP_ERR_MALFORMED, "truncated section header at offset %zu", at);
      goto fail;
    }
    if (id > SEC_LAST_KNOWN || size > (size_t)(r.end - r.p)) {
      rc = scp_fail(err, SCP_ERR_MALFORMED,
                    id > SEC_LAST_KNOWN ? "unknown section id %u at offset %zu"
                                        : "section %u at offset %zu overruns the module",
                    id, at);
      goto fail;
    }
    wasm_reader sec = {.p = r.p, .end = r.p + size};
    r.p += size;
    if (id == SEC_CUSTOM) {
      const uint8_t *name;
      uint32_t nlen;
      if (!rd_name(&sec, &name, &nlen)) {
        rc = scp_fail(err, SCP_ERR_MALFORMED, "bad custom section name at offset %zu", at);
        goto fail;
      }
      if (nlen == 4 && memcmp(name, "name", 4) == 0) {
        names = sec;
      } else if (nlen > 7 && nlen < sizeof debug_names[0] &&
                 memcmp(name, ".debug_", 7) == 0) {
        if (ndebug == MAX_DEBUG_SECTIONS) continue;
        memcpy(debug_names[ndebug], name, nlen);
        debug_names[ndebug][nlen] = 0;
        debug[ndebug] = (sym_section){.name = debug_names[ndebug], .data = sec.p,
                                      .size = (uint64_t)(sec.end - sec.p)};
        ndebug++;
      }
    } else if (id == SEC_EXPORT) {
      exports = sec;
    } else if (id == SEC_IMPORT) {
      if (have_import || have_code) {
        rc = scp_fail(err, SCP_ERR_MALFORMED, "import section out of order");
        goto fail;
      }
      have_import = true;
      if ((rc = read_imports(s, sec, err)) != SCP_OK) goto fail;
    } else if (id == SEC_CODE) {
      if (have_code) {
        rc = scp_fail(err, SCP_ERR_MALFORMED, "second code section");
        goto fail;
      }
      have_code = true;
      code_size = size;
      if ((rc = read_code(s, sec, err)) != SCP_OK) goto fail;
    }
  }
  if (names.p && (rc = read_names(s, names)) != SCP_OK) goto nomem;
  if (exports.p && (rc = export_names(s, exports)) != SCP_OK) goto nomem;
  if ((rc = raw_names(s)) != SCP_OK) goto nomem;

  /* Offset 0 of the Code payload is the body count, so no function starts
   * there: 0 is a tombstone, as is anything past the code. */
  sym_addr_limits lim = {.min = 1, .max = code_size};
  rc = have_code ? scp_sym_load_dwarf(s, debug, ndebug, false, &lim) : SCP_OK;
  if (rc == SCP_ERR_NOMEM) goto nomem;
  if (rc == SCP_ERR_DWARF && s->warning[0]) {   /* say what is used instead */
    size_t n = strlen(s->warning);
    snprintf(s->warning + n, sizeof s->warning - n, "; %s, no source lines",
             names.p ? "function names from the name section" : "functions named func[N]");
  } else if (rc == SCP_OK && s->dwarf_partial) {   /* the other units keep their lines */
    size_t n = strlen(s->warning);
    snprintf(s->warning + n, sizeof s->warning - n, "; functions there: %s, no source lines",
             names.p ? "names from the name section" : "named func[N]");
  }
  scp_sym_set_window(s, 0, code_size);
  *out = s;
  return SCP_OK;
nomem:
  rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
fail:
  scp_sym_destroy(s);
  return rc;
}

/* The payload of the first section with this id ({NULL, NULL} for none);
 * false when the module's section headers are damaged. */
static bool wasm_section(const uint8_t *wasm, size_t len, uint8_t want, wasm_reader *out) {
  *out = (wasm_reader){.p = NULL, .end = NULL};
  if (len < 8 || memcmp(wasm, "\0asm\1\0\0\0", 8) != 0) return false;
  wasm_reader r = {.p = wasm + 8, .end = wasm + len};
  while (r.p < r.end) {
    uint8_t id;
    uint32_t size;
    if (!rd_byte(&r, &id) || !rd_u32(&r, &size) || size > (size_t)(r.end - r.p)) return false;
    if (id == want && !out->p) *out = (wasm_reader){.p = r.p, .end = r.p + size};
    r.p += size;
  }
  return true;
}

int scp_sym_wasm_matches(const uint8_t *wasm, size_t len, const uint8_t *dbg, size_t dlen,
                         scp_error *err) {
  static const struct { uint8_t id; const char *name; } secs[] = {
      {.id = SEC_CODE, .name = "code"}, {.id = SEC_IMPORT, .name = "import"}};
  for (size_t i = 0; i < SCP_ARRAY_LEN(secs); i++) {
    wasm_reader a, b;
    if (!wasm_section(wasm, len, secs[i].id, &a))
      return scp_fail(err, SCP_ERR_MALFORMED, "not a WASM module");
    if (!wasm_section(dbg, dlen, secs[i].id, &b))
      return scp_fail(err, SCP_ERR_ARG, "not a WASM module");
    size_t na = (size_t)(a.end - a.p), nb = (size_t)(b.end - b.p);
    if (na != nb || (na && memcmp(a.p, b.p, na)))
      return scp_fail(err, SCP_ERR_ARG, "its %s section differs from the contract's (%zu bytes, the contract's %zu)",
                      secs[i].name, nb, na);
  }
  return SCP_OK;
}
