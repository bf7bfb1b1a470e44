/*
 * test_spec.c — WebAssembly core spec conformance of the WASM engine,
 * restricted to what Soroban's wasmi 0.31 accepts.
 *
 * For every tests/data/wasm-testsuite/NAME.wast (one cmocka test each):
 *   1. convert it with `wast2json` into $SCP_BUILD/spec/NAME/ (cached: a
 *      stamp file newer than the .wast means the conversion is current);
 *   2. run every command of NAME.json in a forked child, so that an engine
 *      crash or hang is reported as a failure of one command instead of
 *      killing the whole run (the child is re-run, skipping each command
 *      that crashed, until it gets to the end); once with computed-goto
 *      dispatch and once with the portable switch, which must agree;
 *   3. print "NAME.wast: P passed, F failed, S skipped-by-feature" and fail
 *      the test when F > 0, or when no command ran (every command
 *      text-format: a file that checks nothing is not a pass).  The group teardown prints the total and a
 *      "NOTE [spec]" line with the skipped counts for tests/run.sh.
 * A last test, mutated_modules, feeds deterministic mutations of every
 * converted module to the loader and runs what loads (both dispatches).
 *
 * Skipped-by-feature: any command with a float / reference / vector value,
 * any module that uses a feature Soroban's wasmi configuration disables
 * (floats, SIMD, multi-value, reference types, tail calls, threads, ...),
 * and any module the Soroban host could not link (imports of memories,
 * tables or mutable globals).  Such modules are still loaded, and a module
 * that uses a disabled feature but LOADS is a failure: Soroban rejects it.
 * Whether a module uses a disabled feature is decided by a small scanner
 * below that is independent of the engine.  The integer parts of rejected
 * modules still run, on "integer-only derivations" (see derive_int_module);
 * their passes are counted apart, never as plain passes.
 *
 * Environment: SCP_BUILD (default "build"); SCP_SPEC_ONLY=NAME runs one
 * file (or "mutated_modules"); SCP_SPEC_MAXMSG=N prints up to N failure
 * lines per file (20).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "wasm/scp_wasm.h"
#include "build_dir.h"
#include "run_tool.h"

#define SUITE_DIR "tests/data/wasm-testsuite"
#define CHILD_STALL_S 20         /* no progress for this long = a hang */
#define MAX_CRASH_RERUNS 32
#define MSG_CAP (256 * 1024)

/* ------------------------------------------------------------------------
 * Feature scanner: which disabled WebAssembly features a binary uses.
 * Independent of the engine on purpose; lenient (it never rejects, it only
 * reports what it saw, and SF_UNPARSED when it could not follow the bytes).
 * --------------------------------------------------------------------- */

enum {
  SF_FLOAT = 1u << 0,        /* f32/f64 types or instructions */
  SF_SIMD = 1u << 1,         /* v128, 0xfd prefix */
  SF_MULTI_VALUE = 1u << 2,  /* >1 result, type-indexed block types */
  SF_REF_TYPES = 1u << 3,    /* externref, ref.*, table.get/set/size/grow/fill,
                                typed select, several tables */
  SF_OTHER = 1u << 4,        /* tail calls, threads, exceptions, memory64,
                                several memories */
  SF_TABLE_LIMIT = 1u << 5,  /* a table of more than 1000 initial elements */
  SF_UNPARSED = 1u << 6      /* the scanner lost track (malformed bytes) */
};
/* Features whose use makes Soroban's wasmi reject the module at load. */
#define SF_REJECTED (SF_FLOAT | SF_SIMD | SF_MULTI_VALUE | SF_REF_TYPES | SF_OTHER)

typedef struct scan_rd {
  const uint8_t *p, *end;
  bool bad;
} scan_rd;

static uint8_t rd_byte(scan_rd *r) {
  if (r->p >= r->end) { r->bad = true; return 0; }
  return *r->p++;
}

static uint64_t rd_uleb(scan_rd *r) {
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (r->p >= r->end || shift > 63) { r->bad = true; return 0; }
    uint8_t b = *r->p++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

static int64_t rd_sleb(scan_rd *r) {
  int64_t v = 0;
  unsigned shift = 0;
  uint8_t b;
  do {
    if (r->p >= r->end || shift > 63) { r->bad = true; return 0; }
    b = *r->p++;
    v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
    shift += 7;
  } while (b & 0x80);
  if (shift < 64 && (b & 0x40)) v |= (int64_t)(~0ULL << shift);
  return v;
}

static void rd_skip(scan_rd *r, uint64_t n) {
  if (n > (uint64_t)(r->end - r->p)) { r->bad = true; r->p = r->end; return; }
  r->p += n;
}

static unsigned valtype_features(uint8_t t) {
  switch (t) {
  case 0x7f: case 0x7e: return 0;
  case 0x7d: case 0x7c: return SF_FLOAT;
  case 0x7b: return SF_SIMD;
  case 0x70: case 0x6f: return SF_REF_TYPES;
  default: return SF_UNPARSED;
  }
}

static unsigned reftype_features(uint8_t t) {
  return t == 0x70 ? 0 : t == 0x6f ? SF_REF_TYPES : SF_UNPARSED;
}

static unsigned memarg_features(scan_rd *r) {
  uint64_t align = rd_uleb(r);
  unsigned f = 0;
  if (align & 0x40) { rd_uleb(r); f |= SF_OTHER; }   /* multi-memory index */
  rd_uleb(r);                                        /* offset */
  return f;
}

/* What a function body refers to, for deriving integer-only modules. */
typedef struct scan_refs {
  uint32_t calls[256], ncalls;       /* direct call targets */
  uint32_t types[64], ntypes;        /* call_indirect type indices */
  bool overflow;                     /* more than the arrays hold */
  bool writes;                       /* stores, global.set, grow, bulk ops */
} scan_refs;

/* Scan instructions until the reader ends, or (const_expr) until the first
 * `end`.  Stops early on an opcode whose immediates it does not know.
 * refs (may be NULL) collects call targets and call_indirect types. */
static unsigned scan_ops_refs(scan_rd *r, bool const_expr, scan_refs *refs) {
  unsigned f = 0;
  while (r->p < r->end && !r->bad) {
    uint8_t op = rd_byte(r);
    switch (op) {
    case 0x00: case 0x01: case 0x05: case 0x0f: case 0x1a: case 0x1b:
      break;
    case 0x0b:
      if (const_expr) return f;
      break;
    case 0x02: case 0x03: case 0x04: {            /* block type */
      if (r->p >= r->end) { r->bad = true; break; }
      uint8_t bt = *r->p;
      if (bt == 0x40) { r->p++; break; }
      if (bt >= 0x6f && bt <= 0x7f) { r->p++; f |= valtype_features(bt); break; }
      rd_sleb(r);                                 /* type index */
      f |= SF_MULTI_VALUE;
      break;
    }
    case 0x06: case 0x07: case 0x08: case 0x09: case 0x18: case 0x19:
      return f | SF_OTHER;                        /* exceptions */
    case 0x10: {
      uint64_t target = rd_uleb(r);
      if (refs) {
        if (refs->ncalls < SCP_ARRAY_LEN(refs->calls)) refs->calls[refs->ncalls++] = (uint32_t)target;
        else refs->overflow = true;
      }
      break;
    }
    case 0x24:
      if (refs) refs->writes = true;
      rd_uleb(r);
      break;
    case 0x0c: case 0x0d: case 0x20: case 0x21: case 0x22:
    case 0x23:
      rd_uleb(r);
      break;
    case 0x0e: {
      uint64_t n = rd_uleb(r);
      for (uint64_t i = 0; i <= n && !r->bad; i++) rd_uleb(r);
      break;
    }
    case 0x11: {
      uint64_t type = rd_uleb(r);
      if (refs) {
        if (refs->ntypes < SCP_ARRAY_LEN(refs->types)) refs->types[refs->ntypes++] = (uint32_t)type;
        else refs->overflow = true;
      }
      if (rd_uleb(r) != 0) f |= SF_REF_TYPES;     /* table index */
      break;
    }
    case 0x12: case 0x13:
      return f | SF_OTHER;                        /* tail calls */
    case 0x1c: {                                  /* typed select */
      uint64_t n = rd_uleb(r);
      for (uint64_t i = 0; i < n && !r->bad; i++) f |= valtype_features(rd_byte(r));
      f |= SF_REF_TYPES;
      break;
    }
    case 0x25: case 0x26:
      if (op == 0x26 && refs) refs->writes = true;          /* table.set */
      rd_uleb(r);
      f |= SF_REF_TYPES;
      break;
    case 0x2a: case 0x2b: case 0x38: case 0x39:   /* float loads/stores */
      if (op >= 0x38 && refs) refs->writes = true;
      f |= SF_FLOAT | memarg_features(r);
      break;
    case 0x3f: case 0x40:
      if (op == 0x40 && refs) refs->writes = true;
      if (rd_uleb(r) != 0) f |= SF_OTHER;
      break;
    case 0x41: rd_sleb(r); break;
    case 0x42: rd_sleb(r); break;
    case 0x43: rd_skip(r, 4); f |= SF_FLOAT; break;
    case 0x44: rd_skip(r, 8); f |= SF_FLOAT; break;
    case 0xd0: rd_byte(r); f |= SF_REF_TYPES; break;
    case 0xd1: f |= SF_REF_TYPES; break;
    case 0xd2: rd_uleb(r); f |= SF_REF_TYPES; break;
    case 0xfc: {
      uint64_t sub = rd_uleb(r);
      if (sub <= 7) { f |= SF_FLOAT; break; }    /* trunc_sat */
      if (refs) refs->writes = true;             /* memory/table/segment ops */
      switch (sub) {
      case 8: rd_uleb(r); if (rd_uleb(r) != 0) f |= SF_OTHER; break;
      case 9: case 13: rd_uleb(r); break;
      case 10: if (rd_uleb(r) | rd_uleb(r)) f |= SF_OTHER; break;
      case 11: if (rd_uleb(r) != 0) f |= SF_OTHER; break;
      case 12: case 14: rd_uleb(r); if (rd_uleb(r) != 0) f |= SF_REF_TYPES; break;
      case 15: case 16: case 17: rd_uleb(r); f |= SF_REF_TYPES; break;
      default: return f | SF_OTHER;
      }
      break;
    }
    case 0xfd: return f | SF_SIMD;
    case 0xfe: return f | SF_OTHER;               /* threads */
    default:
      if (op >= 0x28 && op <= 0x3e) {
        if (op >= 0x36 && refs) refs->writes = true;          /* stores */
        f |= memarg_features(r);
        break;
      }
      if ((op >= 0x45 && op <= 0x5a) || (op >= 0x67 && op <= 0x8a) ||
          op == 0xa7 || op == 0xac || op == 0xad || (op >= 0xc0 && op <= 0xc4))
        break;                                    /* integer ops */
      if ((op >= 0x5b && op <= 0x66) || (op >= 0x8b && op <= 0xbf)) {
        f |= SF_FLOAT;                            /* float ops, conversions */
        break;
      }
      return f | SF_UNPARSED;
    }
  }
  if (r->bad) f |= SF_UNPARSED;
  return f;
}

static unsigned scan_ops(scan_rd *r, bool const_expr) { return scan_ops_refs(r, const_expr, NULL); }
static unsigned scan_const_expr(scan_rd *r) { return scan_ops(r, true); }

static unsigned scan_limits(scan_rd *r, uint64_t *initial) {
  uint8_t flags = rd_byte(r);
  unsigned f = flags > 1 ? SF_OTHER : 0;          /* shared or 64-bit */
  *initial = rd_uleb(r);
  if (flags & 1) rd_uleb(r);
  return f;
}

static unsigned scan_module(const uint8_t *bytes, size_t len) {
  scan_rd r = {bytes, bytes + len, false};
  unsigned f = 0, tables = 0, memories = 0;
  if (len < 8 || memcmp(bytes, "\0asm\1\0\0\0", 8) != 0) return SF_UNPARSED;
  r.p += 8;
  while (r.p < r.end && !r.bad) {
    uint8_t id = rd_byte(&r);
    uint64_t size = rd_uleb(&r);
    if (r.bad || size > (uint64_t)(r.end - r.p)) return f | SF_UNPARSED;
    scan_rd s = {r.p, r.p + size, false};
    r.p += size;
    uint64_t n = (id >= 1 && id <= 11 && id != 8) ? rd_uleb(&s) : 0;
    switch (id) {
    case 1:                                        /* types */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        if (rd_byte(&s) != 0x60) { s.bad = true; break; }
        uint64_t np = rd_uleb(&s);
        for (uint64_t k = 0; k < np && !s.bad; k++) f |= valtype_features(rd_byte(&s));
        uint64_t nr = rd_uleb(&s);
        if (nr > 1) f |= SF_MULTI_VALUE;
        for (uint64_t k = 0; k < nr && !s.bad; k++) f |= valtype_features(rd_byte(&s));
      }
      break;
    case 2:                                        /* imports */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        rd_skip(&s, rd_uleb(&s));
        rd_skip(&s, rd_uleb(&s));
        uint64_t initial;
        switch (rd_byte(&s)) {
        case 0: rd_uleb(&s); break;
        case 1: f |= reftype_features(rd_byte(&s)); f |= scan_limits(&s, &initial);
                tables++; break;
        case 2: f |= scan_limits(&s, &initial); memories++; break;
        case 3: f |= valtype_features(rd_byte(&s)); rd_byte(&s); break;
        case 4: f |= SF_OTHER; rd_byte(&s); rd_uleb(&s); break;   /* tag */
        default: s.bad = true;
        }
      }
      break;
    case 4:                                        /* tables */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        uint64_t initial;
        f |= reftype_features(rd_byte(&s));
        f |= scan_limits(&s, &initial);
        if (initial > 1000) f |= SF_TABLE_LIMIT;
        tables++;
      }
      break;
    case 5:                                        /* memories */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        uint64_t initial;
        f |= scan_limits(&s, &initial);
        memories++;
      }
      break;
    case 6:                                        /* globals */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        f |= valtype_features(rd_byte(&s));
        rd_byte(&s);
        f |= scan_const_expr(&s);
      }
      break;
    case 9:                                        /* element segments */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        uint64_t flags = rd_uleb(&s);
        if (flags > 7) { s.bad = true; break; }
        if (flags == 2 || flags == 6) {
          if (rd_uleb(&s) != 0) f |= SF_REF_TYPES; /* table index */
        }
        if (!(flags & 1)) f |= scan_const_expr(&s);
        if (flags & 3) {
          uint8_t k = rd_byte(&s);                 /* elemkind or reftype */
          if (flags & 4) f |= reftype_features(k);
        }
        uint64_t items = rd_uleb(&s);
        for (uint64_t k = 0; k < items && !s.bad; k++) {
          if (flags & 4) f |= scan_const_expr(&s);
          else rd_uleb(&s);
        }
      }
      break;
    case 10:                                       /* code */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        uint64_t body = rd_uleb(&s);
        if (body > (uint64_t)(s.end - s.p)) { s.bad = true; break; }
        scan_rd b = {s.p, s.p + body, false};
        s.p += body;
        uint64_t groups = rd_uleb(&b);
        for (uint64_t k = 0; k < groups && !b.bad; k++) {
          rd_uleb(&b);
          f |= valtype_features(rd_byte(&b));
        }
        f |= scan_ops(&b, false);
      }
      break;
    case 11:                                       /* data segments */
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        uint64_t flags = rd_uleb(&s);
        if (flags == 2 && rd_uleb(&s) != 0) f |= SF_OTHER;
        if (flags != 1) f |= scan_const_expr(&s);
        rd_skip(&s, rd_uleb(&s));
      }
      break;
    case 0: case 3: case 7: case 8: case 12:
      break;
    case 13:
      f |= SF_OTHER;                               /* exception tags */
      break;
    default:
      return f | SF_UNPARSED;
    }
    if (s.bad) f |= SF_UNPARSED;
  }
  if (tables > 1) f |= SF_REF_TYPES;
  if (memories > 1) f |= SF_OTHER;
  if (r.bad) f |= SF_UNPARSED;
  return f;
}

/* Type and mutability of global `index` (imports first) of a module, read
 * from its bytes: the header exposes neither for defined globals, and the
 * linker must reject an import whose type differs ("incompatible import
 * type"). */
static bool scan_global_type(const uint8_t *bytes, size_t len, uint32_t index,
                             uint8_t *type, bool *mut) {
  scan_rd r = {bytes, bytes + len, false};
  uint64_t seen = 0;
  if (len < 8) return false;
  r.p += 8;
  while (r.p < r.end && !r.bad) {
    uint8_t id = rd_byte(&r);
    uint64_t size = rd_uleb(&r);
    if (r.bad || size > (uint64_t)(r.end - r.p)) return false;
    scan_rd s = {r.p, r.p + size, false};
    r.p += size;
    if (id == 2) {
      uint64_t n = rd_uleb(&s);
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        rd_skip(&s, rd_uleb(&s));
        rd_skip(&s, rd_uleb(&s));
        uint64_t initial;
        switch (rd_byte(&s)) {
        case 0: rd_uleb(&s); break;
        case 1: rd_byte(&s); scan_limits(&s, &initial); break;
        case 2: scan_limits(&s, &initial); break;
        case 3:
          *type = rd_byte(&s);
          *mut = rd_byte(&s) != 0;
          if (seen++ == index) return !s.bad;
          break;
        default: return false;
        }
      }
    } else if (id == 6) {
      uint64_t n = rd_uleb(&s);
      for (uint64_t i = 0; i < n && !s.bad; i++) {
        *type = rd_byte(&s);
        *mut = rd_byte(&s) != 0;
        if (seen++ == index) return !s.bad;
        scan_const_expr(&s);
      }
    }
  }
  return false;
}

/* ------------------------------------------------------------------------
 * Integer-only derivations.  Many scripts put integer tests in modules that
 * also hold a float (or multi-value) function, so Soroban rejects the whole
 * module and those integer assertions would go untested.  For such a
 * module we build a derived binary: every function that uses a disabled
 * feature, or calls one, gets the body `unreachable`, and every type with
 * floats / several results becomes a "poison" type
 * (i64 i32 i64 i32 i64 i32 i64) -> () that no test uses, and a float
 * global becomes a zero integer global of its width, so indices, exports
 * and tables keep their meaning.  Assertions on stubbed functions
 * stay skipped; the others run and are counted as "derived" passes (never
 * as plain passes: Soroban does reject the original).
 * --------------------------------------------------------------------- */

typedef struct wbuf {
  uint8_t *p;
  size_t n, cap;
} wbuf;

static void wb_put(wbuf *b, const void *d, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n) cap *= 2;
    uint8_t *np = realloc(b->p, cap);
    if (!np) abort();
    b->p = np;
    b->cap = cap;
  }
  memcpy(b->p + b->n, d, n);
  b->n += n;
}

static void wb_leb(wbuf *b, uint64_t v) {
  do {
    uint8_t c = v & 0x7f;
    v >>= 7;
    if (v) c |= 0x80;
    wb_put(b, &c, 1);
  } while (v);
}

static bool int_valtype(uint8_t t) { return t == 0x7f || t == 0x7e; }

typedef struct derived {
  uint8_t *bytes;
  size_t len;
  bool *stubbed;               /* by function index (imports first) */
  bool *writes;                /* by function index: a call may change state */
  uint32_t nfuncs;
  bool stateful;               /* some stub may change state */
} derived;

static bool derive_int_module(const uint8_t *in, size_t len, derived *out) {
  struct { uint8_t id; const uint8_t *p; uint64_t size; } sec[64];
  size_t nsec = 0;
  scan_rd r = {in + 8, in + len, false};
  memset(out, 0, sizeof *out);
  if (len < 8) return false;
  while (r.p < r.end) {
    if (nsec == SCP_ARRAY_LEN(sec)) return false;
    sec[nsec].id = rd_byte(&r);
    sec[nsec].size = rd_uleb(&r);
    if (r.bad || sec[nsec].size > (uint64_t)(r.end - r.p)) return false;
    sec[nsec].p = r.p;
    r.p += sec[nsec++].size;
  }
  bool *bad_type = NULL, *bad = NULL, ok = false, changed = false;
  uint32_t *ftype = NULL, ntypes = 0, nimp = 0, ndef = 0, start = UINT32_MAX;
  scan_refs *refs = NULL;
  wbuf types = {0}, code = {0}, globals = {0}, outb = {0};
  /* types, imports, functions, globals, elements, start */
  for (size_t i = 0; i < nsec; i++) {
    scan_rd s = {sec[i].p, sec[i].p + sec[i].size, false};
    uint64_t n = 0;
    switch (sec[i].id) {
    case 1:
      n = rd_uleb(&s);
      if (n > 100000) goto done;
      ntypes = (uint32_t)n;
      bad_type = calloc(n ? n : 1, sizeof *bad_type);
      if (!bad_type) goto done;
      wb_leb(&types, n);
      for (uint64_t t = 0; t < n && !s.bad; t++) {
        const uint8_t *from = s.p;
        if (rd_byte(&s) != 0x60) goto done;
        uint64_t np = rd_uleb(&s);
        for (uint64_t k = 0; k < np && !s.bad; k++) bad_type[t] |= !int_valtype(rd_byte(&s));
        uint64_t nr = rd_uleb(&s);
        bad_type[t] |= nr > 1;
        for (uint64_t k = 0; k < nr && !s.bad; k++) bad_type[t] |= !int_valtype(rd_byte(&s));
        if (bad_type[t]) {
          static const uint8_t poison[] = {0x60, 7, 0x7e, 0x7f, 0x7e, 0x7f, 0x7e, 0x7f, 0x7e, 0};
          wb_put(&types, poison, sizeof poison);
          changed = true;
        } else {
          wb_put(&types, from, (size_t)(s.p - from));
        }
      }
      break;
    case 2:
      n = rd_uleb(&s);
      for (uint64_t k = 0; k < n && !s.bad; k++) {
        rd_skip(&s, rd_uleb(&s));
        rd_skip(&s, rd_uleb(&s));
        uint8_t kind = rd_byte(&s);
        if (kind == 0) {
          uint64_t t = rd_uleb(&s);
          if (!bad_type || t >= ntypes || bad_type[t]) goto done;
          nimp++;
        } else if (kind == 3) {
          if (!int_valtype(rd_byte(&s))) goto done;
          rd_byte(&s);
        } else {
          goto done;                       /* tables, memories: runner skips */
        }
      }
      break;
    case 3:
      n = rd_uleb(&s);
      if (n > 100000) goto done;
      ndef = (uint32_t)n;
      ftype = calloc(n ? n : 1, sizeof *ftype);
      if (!ftype) goto done;
      for (uint64_t k = 0; k < n && !s.bad; k++) ftype[k] = (uint32_t)rd_uleb(&s);
      break;
    case 6:
      /* A float global becomes an integer one of the same width, zero:
       * every function that reads it as a float is stubbed anyway. */
      n = rd_uleb(&s);
      wb_leb(&globals, n);
      for (uint64_t k = 0; k < n && !s.bad; k++) {
        const uint8_t *from = s.p;
        uint8_t t = rd_byte(&s), mut = rd_byte(&s);
        unsigned f = scan_const_expr(&s);
        if (int_valtype(t)) {
          if (f & SF_REJECTED) goto done;
          wb_put(&globals, from, (size_t)(s.p - from));
        } else if (t == 0x7d || t == 0x7c) {
          uint8_t g[] = {t == 0x7d ? 0x7f : 0x7e, mut, t == 0x7d ? 0x41 : 0x42, 0x00, 0x0b};
          wb_put(&globals, g, sizeof g);
          changed = true;
        } else {
          goto done;
        }
      }
      break;
    case 8:
      start = (uint32_t)rd_uleb(&s);
      break;
    case 9:
      n = rd_uleb(&s);
      for (uint64_t k = 0; k < n && !s.bad; k++) {
        uint64_t flags = rd_uleb(&s);
        if (flags & 4) goto done;          /* expression elements: ref types */
        if (flags == 2 || flags == 6) rd_uleb(&s);
        if (!(flags & 1)) scan_const_expr(&s);
        if (flags & 3) rd_byte(&s);
        uint64_t items = rd_uleb(&s);
        for (uint64_t j = 0; j < items && !s.bad; j++) rd_uleb(&s);
      }
      break;
    default:
      break;
    }
    if (s.bad) goto done;
  }
  /* code: which bodies use a disabled feature, and whom they call */
  bad = calloc(ndef ? ndef : 1, sizeof *bad);
  refs = calloc(ndef ? ndef : 1, sizeof *refs);
  if (!bad || !refs || !bad_type) goto done;
  for (size_t i = 0; i < nsec; i++) {
    if (sec[i].id != 10) continue;
    scan_rd s = {sec[i].p, sec[i].p + sec[i].size, false};
    if (rd_uleb(&s) != ndef) goto done;
    for (uint32_t k = 0; k < ndef && !s.bad; k++) {
      uint64_t size = rd_uleb(&s);
      if (size > (uint64_t)(s.end - s.p)) goto done;
      scan_rd b = {s.p, s.p + size, false};
      s.p += size;
      if (ftype[k] >= ntypes) goto done;
      bad[k] = bad_type[ftype[k]];
      uint64_t groups = rd_uleb(&b);
      for (uint64_t g = 0; g < groups && !b.bad; g++) {
        rd_uleb(&b);
        bad[k] |= !int_valtype(rd_byte(&b));
      }
      unsigned f = scan_ops_refs(&b, false, &refs[k]);
      if (f & SF_UNPARSED) goto done;
      bad[k] |= (f & SF_REJECTED) != 0 || refs[k].overflow;
      for (uint32_t j = 0; j < refs[k].ntypes; j++)
        bad[k] |= refs[k].types[j] >= ntypes || bad_type[refs[k].types[j]];
    }
  }
  for (bool again = true; again;) {          /* callers of stubs are stubs */
    again = false;
    for (uint32_t k = 0; k < ndef; k++) {
      if (bad[k]) continue;
      for (uint32_t j = 0; j < refs[k].ncalls; j++) {
        uint32_t c = refs[k].calls[j];
        if (c >= nimp && c - nimp < ndef && bad[c - nimp]) {
          bad[k] = again = true;
          break;
        }
      }
    }
  }
  for (uint32_t k = 0; k < ndef; k++) changed |= bad[k];
  /* Skipping a call of a stub loses its side effects: the derivation is
   * "stateful" when a stub (or what it calls) writes memory, globals,
   * tables or segments; the runner then stops at the first skipped call. */
  for (bool again = true; again;) {
    again = false;
    for (uint32_t k = 0; k < ndef; k++) {
      if (refs[k].writes) continue;
      bool w = refs[k].ntypes > 0;             /* call_indirect: anything */
      for (uint32_t j = 0; j < refs[k].ncalls && !w; j++) {
        uint32_t c = refs[k].calls[j];
        w = c >= nimp && c - nimp < ndef && refs[c - nimp].writes;
      }
      if (w) refs[k].writes = again = true;
    }
  }
  for (uint32_t k = 0; k < ndef; k++) out->stateful |= bad[k] && refs[k].writes;
  if (!changed || (start != UINT32_MAX && start >= nimp && start - nimp < ndef &&
                   bad[start - nimp]))
    goto done;
  /* rebuild: new type and code sections, everything else as it was */
  wb_leb(&code, ndef);
  for (size_t i = 0; i < nsec; i++) {
    if (sec[i].id != 10) continue;
    scan_rd s = {sec[i].p, sec[i].p + sec[i].size, false};
    rd_uleb(&s);
    for (uint32_t k = 0; k < ndef; k++) {
      const uint8_t *from = s.p;
      uint64_t size = rd_uleb(&s);
      s.p += size;
      if (bad[k]) {
        static const uint8_t stub[] = {3, 0x00, 0x00, 0x0b};  /* no locals; unreachable */
        wb_put(&code, stub, sizeof stub);
      } else {
        wb_put(&code, from, (size_t)(s.p - from));
      }
    }
  }
  wb_put(&outb, in, 8);
  for (size_t i = 0; i < nsec; i++) {
    const wbuf *repl = sec[i].id == 1 ? &types : sec[i].id == 10 ? &code
                     : sec[i].id == 6 ? &globals : NULL;
    wb_put(&outb, &sec[i].id, 1);
    wb_leb(&outb, repl ? repl->n : sec[i].size);
    if (repl) wb_put(&outb, repl->p, repl->n);
    else if (sec[i].size) wb_put(&outb, sec[i].p, (size_t)sec[i].size);
  }
  if (scan_module(outb.p, outb.n) & (SF_REJECTED | SF_UNPARSED)) goto done;
  out->nfuncs = nimp + ndef;
  out->stubbed = calloc(out->nfuncs ? out->nfuncs : 1, sizeof *out->stubbed);
  out->writes = calloc(out->nfuncs ? out->nfuncs : 1, sizeof *out->writes);
  if (!out->stubbed || !out->writes) {
    free(out->stubbed);
    free(out->writes);
    goto done;
  }
  for (uint32_t k = 0; k < nimp; k++) out->writes[k] = true;   /* unknown */
  for (uint32_t k = 0; k < ndef; k++) {
    out->stubbed[nimp + k] = bad[k];
    out->writes[nimp + k] = refs[k].writes;
  }
  out->bytes = outb.p;
  out->len = outb.n;
  outb.p = NULL;
  ok = true;
done:
  free(bad_type);
  free(bad);
  free(ftype);
  free(refs);
  free(types.p);
  free(code.p);
  free(globals.p);
  free(outb.p);
  return ok;
}

static void features_text(unsigned f, char *out, size_t cap) {
  static const char *const names[] = {"floats", "SIMD", "multi-value",
      "reference types", "other post-MVP feature", "table > 1000 elements",
      "unparsed bytes"};
  size_t n = 0;
  out[0] = '\0';
  for (unsigned i = 0; i < SCP_ARRAY_LEN(names); i++)
    if (f & (1u << i))
      n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s",
                            n ? ", " : "", names[i]);
}

/* ------------------------------------------------------------------------
 * Results shared between the child that runs a file and the parent.
 * --------------------------------------------------------------------- */

typedef struct spec_shared {
  volatile long progress;      /* bumped per command: the parent's hang check */
  unsigned passed, failed, skipped, text_only;
  unsigned derived_passed;     /* passes on integer-only derivations */
  int cur_cmd, cur_line;       /* command being run, for crash reports */
  char cur_what[256];          /* its description */
  size_t msg_len;
  unsigned nmsgs;
  char msg[MSG_CAP];
} spec_shared;

static void shared_add_msg(spec_shared *sh, const char *fmt, ...) SCP_PRINTF(2, 3);
static void shared_add_msg(spec_shared *sh, const char *fmt, ...) {
  va_list ap;
  sh->nmsgs++;
  if (sh->msg_len + 2 >= MSG_CAP) return;
  va_start(ap, fmt);
  int n = vsnprintf(sh->msg + sh->msg_len, MSG_CAP - sh->msg_len - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  sh->msg_len += (size_t)n < MSG_CAP - sh->msg_len - 1 ? (size_t)n
                                                      : MSG_CAP - sh->msg_len - 2;
  sh->msg[sh->msg_len++] = '\n';
  sh->msg[sh->msg_len] = '\0';
}

/* ------------------------------------------------------------------------
 * The runner: modules, instances, linking.
 * --------------------------------------------------------------------- */

typedef enum mod_state {
  MS_OK,          /* loaded and instantiated */
  MS_SKIPPED,     /* uses a disabled feature / not linkable by Soroban */
  MS_BROKEN       /* should have worked but the engine failed */
} mod_state;

struct spec_inst;

/* Where an imported function goes. */
typedef struct link_target {
  struct spec_inst *inst;      /* NULL: a spectest print function */
  uint32_t func;
  uint32_t nresults;
} link_target;

typedef struct spec_link {
  link_target *targets;        /* indexed by import index (all kinds) */
  uint32_t ntargets;
  scp_trap nested_trap;        /* trap inside a callee instance */
  struct spec_run *run;
} spec_link;

typedef struct spec_inst {
  char *name;                  /* "$M" or NULL */
  int line;                    /* of its module command */
  char *file;                  /* its .wasm path */
  mod_state state;
  char why[160];               /* for SKIPPED/BROKEN */
  scp_wasm_module *mod;
  uint8_t *bytes;              /* the module file, for scan_global_type */
  size_t len;
  scp_wasm_instance *inst;
  spec_link link;
  uint64_t *global_values;
  bool derived;                /* an integer-only derivation runs in its place */
  bool stateful;               /* derived: has memory, table or mutable globals */
  bool *stubbed;               /* derived: functions replaced by `unreachable` */
  bool *writes;                /* derived: the original function may change state */
  uint32_t nstubbed;
} spec_inst;

typedef struct spec_reg {
  char *as;
  spec_inst *si;
} spec_reg;

typedef struct spec_run {
  const char *wast;            /* "i32.wast" */
  const char *dir;             /* where the .json and .wasm files are */
  spec_shared *sh;
  bool use_switch;             /* portable switch dispatch instead of goto */
  spec_inst **insts;
  size_t ninsts, capinsts;
  spec_inst *current;
  spec_reg *regs;
  size_t nregs, capregs;
  int line;
} spec_run;

static void fail_at(spec_run *run, const char *fmt, ...) SCP_PRINTF(2, 3);
static void fail_at(spec_run *run, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  run->sh->failed++;
  shared_add_msg(run->sh, "  %s:%d: %s", run->wast, run->line, buf);
}

static void count_pass(spec_run *run) { run->sh->passed++; }
static void count_skip(spec_run *run) { run->sh->skipped++; }

static bool read_whole(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (!buf) { fclose(f); return false; }
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    cap *= 2;
    uint8_t *nb = realloc(buf, cap);
    if (!nb) free(buf);
    buf = nb;
  }
  bool ok = !ferror(f);
  fclose(f);
  if (!ok) { free(buf); return false; }
  *data = buf;
  *len = n;
  return true;
}

/* The spec wording of a trap, with the engine's text. */
static scp_trap effective_trap(spec_inst *si) {
  scp_trap t = scp_wasm_last_trap(si->inst);
  if (t == SCP_TRAP_HOST && si->link.nested_trap != SCP_TRAP_NONE)
    t = si->link.nested_trap;
  return t;
}

/* Does the engine's trap match the script's expected text?  Either may be a
 * prefix of the other ("uninitialized element" vs "uninitialized element 2"). */
static bool trap_matches(scp_trap t, const char *expected) {
  const char *got = scp_trap_text(t);
  if (!got) return false;
  size_t lg = strlen(got), le = strlen(expected);
  return strncmp(got, expected, lg < le ? lg : le) == 0 && lg && le;
}

static spec_inst *find_named(spec_run *run, const char *name) {
  if (!name) return run->current;
  for (size_t i = run->ninsts; i-- > 0;)
    if (run->insts[i]->name && strcmp(run->insts[i]->name, name) == 0)
      return run->insts[i];
  return NULL;
}

static spec_inst *find_registered(spec_run *run, const char *as, size_t len) {
  for (size_t i = run->nregs; i-- > 0;)
    if (strlen(run->regs[i].as) == len && memcmp(run->regs[i].as, as, len) == 0)
      return run->regs[i].si;
  return NULL;
}

/* The host-call hook: spectest prints do nothing; functions of registered
 * instances are called in their own instance. */
static int spec_host_call(void *ctx, scp_wasm_instance *inst, uint32_t import_index,
                          uint64_t *args, scp_error *err) {
  spec_link *link = ctx;
  if (import_index >= link->ntargets) {
    if (err) {
      err->code = SCP_ERR_INTERNAL;
      snprintf(err->msg, sizeof err->msg, "spec runner: import index %u out of range",
               import_index);
    }
    fail_at(link->run, "host hook got import_index %u, module has %u imports",
            import_index, link->ntargets);
    return SCP_ERR_INTERNAL;
  }
  const scp_wasm_import *imp =
      scp_wasm_import_get(scp_wasm_instance_module(inst), import_index);
  if (!imp || imp->kind != SCP_EXT_FUNC) {
    /* The header calls the argument the import index; if the engine passed
     * an index among function imports instead, this shows it. */
    fail_at(link->run, "host hook got import_index %u which is not a function import",
            import_index);
    return SCP_ERR_INTERNAL;
  }
  link_target *t = &link->targets[import_index];
  if (!t->inst) return SCP_OK;               /* spectest print* */
  uint64_t results[4] = {0};
  int rc = scp_wasm_call(t->inst->inst, t->func, args, results, err);
  if (rc != SCP_OK) {
    link->nested_trap = effective_trap(t->inst);
    return rc;
  }
  for (uint32_t i = 0; i < t->nresults; i++) args[i] = results[i];
  return SCP_OK;
}

/* Function index of import i (imports of functions come first). */
static uint32_t import_func_index(const scp_wasm_module *m, uint32_t i) {
  uint32_t f = 0;
  for (uint32_t k = 0; k < i; k++)
    if (scp_wasm_import_get(m, k)->kind == SCP_EXT_FUNC) f++;
  return f;
}

static bool same_sig(const scp_wasm_module *a, uint32_t fa,
                     const scp_wasm_module *b, uint32_t fb) {
  const uint8_t *pa, *ra, *pb, *rb;
  uint32_t npa, nra, npb, nrb;
  if (!scp_wasm_func_sig(a, fa, &pa, &npa, &ra, &nra)) return false;
  if (!scp_wasm_func_sig(b, fb, &pb, &npb, &rb, &nrb)) return false;
  return npa == npb && nra == nrb && memcmp(pa, pb, npa) == 0 &&
         memcmp(ra, rb, nra) == 0;
}

typedef enum link_result { LINK_OK, LINK_SKIP, LINK_UNLINKABLE } link_result;

/* Resolve every import of si->mod into si->link / si->global_values.
 * LINK_SKIP: the Soroban host could not provide it (memory, table,
 * mutable or float global) or it comes from a skipped module. */
static link_result link_imports(spec_run *run, spec_inst *si, char *why, size_t cap) {
  uint32_t n = scp_wasm_import_count(si->mod), nglobals = 0;
  si->link.targets = calloc(n ? n : 1, sizeof *si->link.targets);
  si->global_values = calloc(n ? n : 1, sizeof *si->global_values);
  si->link.ntargets = n;
  si->link.run = run;
  si->link.nested_trap = SCP_TRAP_NONE;
  if (!si->link.targets || !si->global_values) {
    snprintf(why, cap, "out of memory");
    return LINK_UNLINKABLE;
  }
  for (uint32_t i = 0; i < n; i++) {
    const scp_wasm_import *imp = scp_wasm_import_get(si->mod, i);
    if (imp->kind == SCP_EXT_MEMORY || imp->kind == SCP_EXT_TABLE) {
      snprintf(why, cap, "imports a %s (Soroban links only functions)",
               imp->kind == SCP_EXT_MEMORY ? "memory" : "table");
      return LINK_SKIP;
    }
    if (imp->kind == SCP_EXT_GLOBAL &&
        (imp->mut || (imp->type != SCP_WASM_I32 && imp->type != SCP_WASM_I64))) {
      snprintf(why, cap, "imports a %s global (not expressible: env passes values)",
               imp->mut ? "mutable" : "float");
      return LINK_SKIP;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    const scp_wasm_import *imp = scp_wasm_import_get(si->mod, i);
    bool spectest = imp->module_len == 8 && memcmp(imp->module, "spectest", 8) == 0;
    if (spectest) {
      const char *fld = imp->field;
      size_t fl = imp->field_len;
      if (imp->kind == SCP_EXT_FUNC) {
        if (fl < 5 || memcmp(fld, "print", 5) != 0) {
          snprintf(why, cap, "unknown import spectest.%.*s", (int)fl, fld);
          return LINK_UNLINKABLE;
        }
        /* spectest's prints take the params their names say; a mismatch
         * is "incompatible import type". */
        const uint8_t *p, *r;
        uint32_t np, nr;
        scp_wasm_func_sig(si->mod, import_func_index(si->mod, i), &p, &np, &r, &nr);
        static const struct { const char *name; uint8_t params[2]; uint32_t n; } prints[] = {
          {"print", {0, 0}, 0}, {"print_i32", {SCP_WASM_I32, 0}, 1},
          {"print_i64", {SCP_WASM_I64, 0}, 1}};
        bool found = false;
        for (size_t k = 0; k < SCP_ARRAY_LEN(prints); k++) {
          if (strlen(prints[k].name) != fl || memcmp(prints[k].name, fld, fl) != 0) continue;
          found = true;
          if (nr != 0 || np != prints[k].n || memcmp(p, prints[k].params, np) != 0) {
            snprintf(why, cap, "incompatible import type spectest.%.*s", (int)fl, fld);
            return LINK_UNLINKABLE;
          }
        }
        if (!found) {
          /* print_f32 & co. take floats: the module had floats already. */
          snprintf(why, cap, "unknown import spectest.%.*s", (int)fl, fld);
          return LINK_UNLINKABLE;
        }
        si->link.targets[i].inst = NULL;
      } else {                                        /* global */
        bool i32 = fl == 10 && memcmp(fld, "global_i32", 10) == 0;
        bool i64 = fl == 10 && memcmp(fld, "global_i64", 10) == 0;
        if ((!i32 && !i64) || (i32 && imp->type != SCP_WASM_I32) ||
            (i64 && imp->type != SCP_WASM_I64)) {
          snprintf(why, cap, "%s import spectest.%.*s",
                   (i32 || i64) ? "incompatible" : "unknown", (int)fl, fld);
          return LINK_UNLINKABLE;
        }
        si->global_values[nglobals++] = 666;
      }
      continue;
    }
    spec_inst *from = find_registered(run, imp->module, imp->module_len);
    if (!from) {
      snprintf(why, cap, "unknown import %.*s.%.*s (module not registered)",
               (int)imp->module_len, imp->module, (int)imp->field_len, imp->field);
      return LINK_UNLINKABLE;
    }
    if (from->state != MS_OK) {
      snprintf(why, cap, "imports from %.*s, which was %s",
               (int)imp->module_len, imp->module,
               from->state == MS_SKIPPED ? "skipped" : "broken");
      return from->state == MS_SKIPPED ? LINK_SKIP : LINK_UNLINKABLE;
    }
    uint8_t kind;
    uint32_t index;
    if (!scp_wasm_export_find(from->mod, imp->field, imp->field_len, &kind, &index)) {
      snprintf(why, cap, "unknown import %.*s.%.*s", (int)imp->module_len,
               imp->module, (int)imp->field_len, imp->field);
      return LINK_UNLINKABLE;
    }
    if (kind != imp->kind) {
      snprintf(why, cap, "incompatible import type %.*s.%.*s (kind)",
               (int)imp->module_len, imp->module, (int)imp->field_len, imp->field);
      return LINK_UNLINKABLE;
    }
    if (kind == SCP_EXT_FUNC) {
      uint32_t f = import_func_index(si->mod, i);
      if (!same_sig(si->mod, f, from->mod, index)) {
        snprintf(why, cap, "incompatible import type %.*s.%.*s (signature)",
                 (int)imp->module_len, imp->module, (int)imp->field_len, imp->field);
        return LINK_UNLINKABLE;
      }
      const uint8_t *p, *r;
      uint32_t np, nr;
      scp_wasm_func_sig(from->mod, index, &p, &np, &r, &nr);
      si->link.targets[i] = (link_target){from, index, nr};
    } else {
      /* Global: same type, and the export must be immutable too (mutable
       * imports were skipped above). */
      uint8_t type = 0;
      bool mut = false;
      uint64_t v = 0;
      if (!scan_global_type(from->bytes, from->len, index, &type, &mut) ||
          !scp_wasm_global_get(from->inst, index, &v)) {
        snprintf(why, cap, "global %u of %.*s unreadable", index,
                 (int)imp->module_len, imp->module);
        return LINK_UNLINKABLE;
      }
      if (type != imp->type || mut) {
        snprintf(why, cap, "incompatible import type %.*s.%.*s (global)",
                 (int)imp->module_len, imp->module, (int)imp->field_len, imp->field);
        return LINK_UNLINKABLE;
      }
      si->global_values[nglobals++] = v;
    }
  }
  return LINK_OK;
}

/* Mark an instance skipped because its state is no longer what the script
 * assumes; instances that call into it observe that state, so they follow. */
static void taint(spec_run *run, spec_inst *x, int line) {
  if (x->state != MS_OK) return;
  x->state = MS_SKIPPED;
  snprintf(x->why, sizeof x->why,
           "shares state with the module of line %d, which Soroban cannot link", line);
  for (size_t k = 0; k < run->ninsts; k++) {
    spec_inst *y = run->insts[k];
    for (uint32_t i = 0; y->state == MS_OK && i < y->link.ntargets; i++)
      if (y->link.targets[i].inst == x) taint(run, y, line);
  }
}

/* A skipped module that imports a memory, table or mutable global of a
 * registered instance would have changed that instance's state (segments,
 * stores): the script's later expectations about the exporter assume those
 * changes, so the exporter becomes skipped-by-feature too. */
static void taint_exporters(spec_run *run, spec_inst *si) {
  for (uint32_t i = 0; i < scp_wasm_import_count(si->mod); i++) {
    const scp_wasm_import *imp = scp_wasm_import_get(si->mod, i);
    bool shared = imp->kind == SCP_EXT_MEMORY || imp->kind == SCP_EXT_TABLE ||
                  (imp->kind == SCP_EXT_GLOBAL && imp->mut);
    if (!shared) continue;
    spec_inst *from = find_registered(run, imp->module, imp->module_len);
    if (from) taint(run, from, si->line);
  }
}

static void inst_free(spec_inst *si) {
  if (!si) return;
  if (si->inst) scp_wasm_instance_free(si->inst);
  if (si->mod) scp_wasm_module_free(si->mod);
  free(si->link.targets);
  free(si->global_values);
  free(si->bytes);
  free(si->stubbed);
  free(si->writes);
  free(si->name);
  free(si->file);
  free(si);
}

static void run_free(spec_run *run) {
  for (size_t i = 0; i < run->ninsts; i++) inst_free(run->insts[i]);
  free(run->insts);
  for (size_t i = 0; i < run->nregs; i++) free(run->regs[i].as);
  free(run->regs);
}

static const char *jstr(json_t *obj, const char *key) {
  json_t *v = json_object_get(obj, key);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Load the module file of a command.  Returns the scp status; *feat gets
 * the scanner's verdict. */
static int load_file(spec_run *run, const char *file, scp_wasm_module **m,
                     unsigned *feat, scp_error *err, spec_inst *keep) {
  char path[4096];
  uint8_t *bytes;
  size_t len;
  snprintf(path, sizeof path, "%s/%s", run->dir, file);
  *m = NULL;
  memset(err, 0, sizeof *err);
  if (!read_whole(path, &bytes, &len)) {
    snprintf(err->msg, sizeof err->msg, "cannot read %.400s", path);
    *feat = SF_UNPARSED;
    return -1;
  }
  *feat = scan_module(bytes, len);
  int rc = scp_wasm_load(bytes, len, m, err);
  if (rc != SCP_OK && *m) {
    fail_at(run, "%s: scp_wasm_load returned %d but left *out non-NULL", file, rc);
    *m = NULL;   /* leak rather than risk a double free */
  }
  if (rc == SCP_OK && !*m) {
    fail_at(run, "%s: scp_wasm_load returned OK with *out NULL", file);
    rc = -1;
  }
  if (keep) { keep->bytes = bytes; keep->len = len; }
  else free(bytes);
  return rc;
}

static spec_inst *new_inst(spec_run *run, const char *name, const char *file) {
  spec_inst *si = calloc(1, sizeof *si);
  if (!si) abort();
  si->name = name ? strdup(name) : NULL;
  si->file = file ? strdup(file) : NULL;
  si->line = run->line;
  if (run->ninsts == run->capinsts) {
    run->capinsts = run->capinsts ? 2 * run->capinsts : 16;
    run->insts = realloc(run->insts, run->capinsts * sizeof *run->insts);
    if (!run->insts) abort();
  }
  run->insts[run->ninsts++] = si;
  return si;
}

/* Replace a rejected module by its integer-only derivation when there is
 * one (see derive_int_module); si stays MS_SKIPPED when there is none. */
static void derive_in_place(spec_run *run, spec_inst *si) {
  derived d;
  char why[160];
  if (!si->bytes || !derive_int_module(si->bytes, si->len, &d)) return;
  scp_error err;
  memset(&err, 0, sizeof err);
  int rc = scp_wasm_load(d.bytes, d.len, &si->mod, &err);
  free(si->bytes);
  si->bytes = d.bytes;
  si->len = d.len;
  si->stubbed = d.stubbed;
  si->writes = d.writes;
  si->nstubbed = d.nfuncs;
  si->stateful = d.stateful;
  if (rc != SCP_OK) {
    /* The derivation is a valid integer-only module by construction. */
    char path[1200];
    snprintf(path, sizeof path, "%.1000s/%.150s.int.wasm", run->dir, si->file ? si->file : "x");
    FILE *f = fopen(path, "wb");
    if (f) { fwrite(d.bytes, 1, d.len, f); fclose(f); }
    fail_at(run, "integer-only derivation %s rejected: %s (status %d)", path, err.msg, rc);
    si->mod = NULL;
    return;
  }
  if (link_imports(run, si, why, sizeof why) != LINK_OK) return;
  scp_wasm_env env = {spec_host_call, NULL, &si->link, si->global_values};
  memset(&err, 0, sizeof err);
  if (scp_wasm_instantiate(si->mod, &env, &si->inst, &err) != SCP_OK) {
    si->inst = NULL;
    return;
  }
  scp_wasm_set_switch_dispatch(si->inst, run->use_switch);
  si->derived = true;
  si->state = MS_OK;
}

/* Load + link + instantiate.  Sets si->state and returns what happened:
 * for "module" commands, the caller counts pass/skip/fail from it. */
static void cmd_module(spec_run *run, json_t *cmd) {
  const char *file = jstr(cmd, "filename");
  spec_inst *si = new_inst(run, jstr(cmd, "name"), file);
  run->current = si;
  unsigned feat;
  scp_error err;
  char fs[200], why[160];
  int rc = load_file(run, file ? file : "(none)", &si->mod, &feat, &err, si);
  features_text(feat & SF_REJECTED, fs, sizeof fs);
  if (feat & SF_REJECTED) {
    if (rc == SCP_OK) {
      fail_at(run, "%s uses %s, which Soroban rejects, but scp_wasm_load accepted it",
              file, fs);
      scp_wasm_module_free(si->mod);
      si->mod = NULL;
    } else {
      count_skip(run);
    }
    si->state = MS_SKIPPED;
    snprintf(si->why, sizeof si->why, "uses %.150s", fs);
    derive_in_place(run, si);
    return;
  }
  if (rc != SCP_OK && (feat & SF_TABLE_LIMIT)) {
    /* Soroban refuses tables over 1000 elements (at instantiation; the
     * engine may already refuse at load). */
    count_skip(run);
    si->state = MS_SKIPPED;
    snprintf(si->why, sizeof si->why, "table over Soroban's 1000-element limit");
    return;
  }
  if (rc != SCP_OK) {
    fail_at(run, "%s: valid module rejected: %s (status %d)", file, err.msg, rc);
    si->state = MS_BROKEN;
    snprintf(si->why, sizeof si->why, "rejected at load");
    return;
  }
  link_result lr = link_imports(run, si, why, sizeof why);
  if (lr == LINK_SKIP) {
    taint_exporters(run, si);
    count_skip(run);
    si->state = MS_SKIPPED;
    snprintf(si->why, sizeof si->why, "%s", why);
    return;
  }
  if (lr == LINK_UNLINKABLE) {
    fail_at(run, "%s: spec runner cannot link: %s", file, why);
    si->state = MS_BROKEN;
    snprintf(si->why, sizeof si->why, "not linked");
    return;
  }
  scp_wasm_env env = {spec_host_call, NULL, &si->link, si->global_values};
  memset(&err, 0, sizeof err);
  rc = scp_wasm_instantiate(si->mod, &env, &si->inst, &err);
  if (rc == SCP_OK && !si->inst) {
    fail_at(run, "%s: scp_wasm_instantiate returned OK with *out NULL", file);
    si->state = MS_BROKEN;
    return;
  }
  if (rc != SCP_OK) {
    si->inst = NULL;
    if (feat & SF_TABLE_LIMIT) {
      /* Soroban's ResourceLimiter refuses tables over 1000 elements. */
      count_skip(run);
      si->state = MS_SKIPPED;
      snprintf(si->why, sizeof si->why, "table over Soroban's 1000-element limit");
      return;
    }
    fail_at(run, "%s: instantiation failed: %s (status %d)", file, err.msg, rc);
    si->state = MS_BROKEN;
    snprintf(si->why, sizeof si->why, "instantiation failed");
    return;
  }
  if (feat & SF_TABLE_LIMIT) {
    fail_at(run, "%s: a table over Soroban's 1000-element limit was instantiated", file);
    si->state = MS_SKIPPED;
    snprintf(si->why, sizeof si->why, "table over Soroban's 1000-element limit");
    return;
  }
  scp_wasm_set_switch_dispatch(si->inst, run->use_switch);
  si->state = MS_OK;
  count_pass(run);
}

static void cmd_register(spec_run *run, json_t *cmd) {
  const char *as = jstr(cmd, "as");
  spec_inst *si = find_named(run, jstr(cmd, "name"));
  if (!si || !as) { fail_at(run, "register: unknown module"); return; }
  if (run->nregs == run->capregs) {
    run->capregs = run->capregs ? 2 * run->capregs : 8;
    run->regs = realloc(run->regs, run->capregs * sizeof *run->regs);
    if (!run->regs) abort();
  }
  if (si->derived) {
    /* Importers would reach stubbed functions: register a skipped stand-in. */
    spec_inst *stand_in = new_inst(run, NULL, si->file);
    stand_in->state = MS_SKIPPED;
    snprintf(stand_in->why, sizeof stand_in->why, "integer-only derivation");
    si = stand_in;
  }
  run->regs[run->nregs++] = (spec_reg){strdup(as), si};
  if (si->state == MS_OK) count_pass(run);
  else if (si->state == MS_SKIPPED) count_skip(run);
  else fail_at(run, "register: module of line %d is %s", si->line, si->why);
}

/* Parse a script value; false when it is not an integer (skip by feature). */
static bool parse_value(json_t *v, uint8_t *type, uint64_t *bits, bool *has_value) {
  const char *t = jstr(v, "type"), *s = jstr(v, "value");
  if (!t) return false;
  if (strcmp(t, "i32") == 0) *type = SCP_WASM_I32;
  else if (strcmp(t, "i64") == 0) *type = SCP_WASM_I64;
  else return false;
  *has_value = s != NULL;
  *bits = s ? strtoull(s, NULL, 10) : 0;
  return true;
}

typedef enum act_result { ACT_SKIP, ACT_ERROR, ACT_DONE } act_result;

/* An invoke/get action, once arguments are known to be integers.  On
 * ACT_DONE, *rc is the call's status and results hold its results. */
typedef struct act_out {
  bool derived;                /* ran on an integer-only derivation */
  int rc;
  scp_trap trap;
  uint64_t results[8];
  uint32_t nresults;
  const uint8_t *rtypes;
  char what[320];
  char errmsg[512];
} act_out;

/* A call on a derivation is skipped: if the original function could have
 * changed state, nothing later on that instance can be trusted. */
static void skip_on_derived(spec_run *run, spec_inst *si, const char *field, size_t flen) {
  uint8_t kind;
  uint32_t index;
  if (!si->stateful) return;
  if (!scp_wasm_export_find(si->mod, field, flen, &kind, &index) || kind != SCP_EXT_FUNC ||
      index >= si->nstubbed || si->writes[index])
    taint(run, si, run->line);
}

static act_result do_action(spec_run *run, json_t *cmd, act_out *out) {
  json_t *act = json_object_get(cmd, "action");
  const char *type = jstr(act, "type"), *field = jstr(act, "field");
  json_t *jfield = json_object_get(act, "field");
  json_t *args = json_object_get(act, "args");
  json_t *expected = json_object_get(cmd, "expected");
  memset(out, 0, sizeof *out);
  if (!type || !field) { fail_at(run, "bad action in json"); return ACT_ERROR; }
  size_t flen = json_string_length(jfield);
  snprintf(out->what, sizeof out->what, "%s \"%s\"", type, field);

  /* Non-integer values anywhere: skipped by feature. */
  size_t i;
  json_t *v;
  uint64_t argv[64];
  size_t nargs = json_array_size(args);
  bool non_int = false;
  json_array_foreach(args, i, v) {
    uint8_t t; uint64_t b; bool hv;
    if (!parse_value(v, &t, &b, &hv)) { non_int = true; break; }
    if (i < SCP_ARRAY_LEN(argv)) argv[i] = t == SCP_WASM_I32 ? (uint32_t)b : b;
    size_t wl = strlen(out->what);
    snprintf(out->what + wl, sizeof out->what - wl, "%s%s:%lld",
             i ? ", " : " (", t == SCP_WASM_I32 ? "i32" : "i64",
             t == SCP_WASM_I32 ? (long long)(int32_t)b : (long long)b);
    if (i + 1 == nargs) strncat(out->what, ")", sizeof out->what - strlen(out->what) - 1);
  }
  json_array_foreach(expected, i, v) {
    uint8_t t; uint64_t b; bool hv;
    non_int |= !parse_value(v, &t, &b, &hv);
  }

  spec_inst *si = find_named(run, jstr(act, "module"));
  if (non_int) {
    /* On a derivation, the skipped call might have changed memory or
     * globals that later assertions read. */
    if (si && si->derived && si->state == MS_OK) skip_on_derived(run, si, field, flen);
    return ACT_SKIP;
  }
  if (!si) { fail_at(run, "%s: no such module", out->what); return ACT_ERROR; }
  if (si->state == MS_SKIPPED) return ACT_SKIP;
  if (si->state == MS_BROKEN) {
    fail_at(run, "%s: module of line %d unavailable (%s)", out->what, si->line, si->why);
    return ACT_ERROR;
  }
  uint8_t kind;
  uint32_t index;
  if (!scp_wasm_export_find(si->mod, field, flen, &kind, &index)) {
    fail_at(run, "%s: export not found (module %s)", out->what, si->file);
    return ACT_ERROR;
  }
  if (si->derived) {
    if (kind != SCP_EXT_FUNC || index >= si->nstubbed || si->stubbed[index]) {
      skip_on_derived(run, si, field, flen);
      return ACT_SKIP;
    }
    out->derived = true;
    strncat(out->what, " [integer-only derivation]", sizeof out->what - strlen(out->what) - 1);
  }
  if (strcmp(type, "get") == 0) {
    if (kind != SCP_EXT_GLOBAL) {
      fail_at(run, "%s: export is not a global", out->what);
      return ACT_ERROR;
    }
    out->nresults = 1;
    out->rtypes = NULL;
    if (!scp_wasm_global_get(si->inst, index, &out->results[0])) {
      fail_at(run, "%s: scp_wasm_global_get(%u) failed", out->what, index);
      return ACT_ERROR;
    }
    out->rc = SCP_OK;
    return ACT_DONE;
  }
  if (kind != SCP_EXT_FUNC) {
    fail_at(run, "%s: export is not a function", out->what);
    return ACT_ERROR;
  }
  const uint8_t *pt, *rt;
  uint32_t np, nr;
  if (!scp_wasm_func_sig(si->mod, index, &pt, &np, &rt, &nr)) {
    fail_at(run, "%s: scp_wasm_func_sig(%u) failed", out->what, index);
    return ACT_ERROR;
  }
  if (np != nargs || nr > SCP_ARRAY_LEN(out->results) || nargs > SCP_ARRAY_LEN(argv)) {
    fail_at(run, "%s: signature has %u params / %u results, script passes %zu args",
            out->what, np, nr, nargs);
    return ACT_ERROR;
  }
  si->link.nested_trap = SCP_TRAP_NONE;
  scp_error err;
  memset(&err, 0, sizeof err);
  out->rc = scp_wasm_call(si->inst, index, argv, out->results, &err);
  out->nresults = nr;
  out->rtypes = rt;
  out->trap = out->rc == SCP_ERR_TRAP ? effective_trap(si) : SCP_TRAP_NONE;
  snprintf(out->errmsg, sizeof out->errmsg, "%s", err.msg);
  size_t wl = strlen(out->what);
  snprintf(out->what + wl, sizeof out->what - wl, " [%s]", si->file);
  return ACT_DONE;
}

/* A pass on a derivation is not a plain pass: Soroban rejects the original. */
static void count_result_pass(spec_run *run, const act_out *o) {
  if (o->derived) run->sh->derived_passed++;
  else run->sh->passed++;
}

static void cmd_assert_return(spec_run *run, json_t *cmd, bool check_results) {
  act_out o;
  act_result ar = do_action(run, cmd, &o);
  if (ar == ACT_SKIP) { count_skip(run); return; }
  if (ar == ACT_ERROR) return;
  if (o.rc != SCP_OK) {
    fail_at(run, "%s: expected success, got status %d trap \"%s\" (%s)", o.what, o.rc,
            scp_trap_text(o.trap), o.errmsg);
    return;
  }
  if (!check_results) { count_result_pass(run, &o); return; }
  json_t *expected = json_object_get(cmd, "expected");
  if (json_array_size(expected) != o.nresults) {
    fail_at(run, "%s: %zu results expected, signature has %u", o.what,
            json_array_size(expected), o.nresults);
    return;
  }
  size_t i;
  json_t *v;
  json_array_foreach(expected, i, v) {
    uint8_t t; uint64_t want; bool hv;
    parse_value(v, &t, &want, &hv);
    uint64_t got = o.results[i];
    if (t == SCP_WASM_I32) { want = (uint32_t)want; got = (uint32_t)got; }
    if (o.rtypes && o.rtypes[i] != t) {
      fail_at(run, "%s: result %zu type 0x%02x, script expects 0x%02x", o.what, i,
              o.rtypes[i], t);
      return;
    }
    if (got != want) {
      fail_at(run, "%s: result %zu expected %llu (0x%llx), got %llu (0x%llx)", o.what, i,
              (unsigned long long)want, (unsigned long long)want,
              (unsigned long long)got, (unsigned long long)got);
      return;
    }
  }
  count_result_pass(run, &o);
}

static void cmd_assert_trap(spec_run *run, json_t *cmd, bool exhaustion) {
  act_out o;
  const char *text = jstr(cmd, "text");
  act_result ar = do_action(run, cmd, &o);
  if (ar == ACT_SKIP) { count_skip(run); return; }
  if (ar == ACT_ERROR) return;
  if (o.rc == SCP_OK) {
    fail_at(run, "%s: expected trap \"%s\", call succeeded", o.what, text ? text : "?");
    return;
  }
  if (o.rc != SCP_ERR_TRAP) {
    fail_at(run, "%s: expected trap \"%s\", got status %d (%s)", o.what,
            text ? text : "?", o.rc, o.errmsg);
    return;
  }
  bool ok = exhaustion ? o.trap == SCP_TRAP_STACK_EXHAUSTED
                       : (text && trap_matches(o.trap, text));
  if (!ok) {
    fail_at(run, "%s: expected trap \"%s\", got \"%s\" (%s)", o.what, text ? text : "?",
            scp_trap_text(o.trap), o.errmsg);
    return;
  }
  count_result_pass(run, &o);
}

/* assert_invalid / assert_malformed: the load must fail. */
static void cmd_assert_bad_module(spec_run *run, json_t *cmd) {
  const char *mt = jstr(cmd, "module_type"), *file = jstr(cmd, "filename");
  if (mt && strcmp(mt, "binary") != 0) { run->sh->text_only++; return; }
  scp_wasm_module *m;
  unsigned feat;
  scp_error err;
  int rc = load_file(run, file ? file : "(none)", &m, &feat, &err, NULL);
  if (rc == SCP_OK) {
    fail_at(run, "%s: %s module (\"%s\") was accepted by scp_wasm_load", file,
            jstr(cmd, "type"), jstr(cmd, "text"));
    scp_wasm_module_free(m);
    return;
  }
  if ((feat & SF_REJECTED) || rc == SCP_ERR_UNSUPPORTED) count_skip(run);
  else count_pass(run);
}

/* assert_unlinkable / assert_uninstantiable: load must succeed; then
 * linking (our job: name and type checks) or instantiation must fail. */
static void cmd_assert_bad_instance(spec_run *run, json_t *cmd, bool unlinkable) {
  const char *file = jstr(cmd, "filename"), *text = jstr(cmd, "text");
  spec_inst *si = new_inst(run, NULL, file);
  unsigned feat;
  scp_error err;
  char why[160], fs[200];
  int rc = load_file(run, file ? file : "(none)", &si->mod, &feat, &err, si);
  si->state = MS_BROKEN;                      /* never becomes current */
  if (feat & SF_REJECTED) {
    features_text(feat & SF_REJECTED, fs, sizeof fs);
    if (rc == SCP_OK)
      fail_at(run, "%s uses %s, which Soroban rejects, but scp_wasm_load accepted it",
              file, fs);
    else
      count_skip(run);
    return;
  }
  if (rc != SCP_OK) {
    fail_at(run, "%s: valid module rejected: %s (status %d)", file, err.msg, rc);
    return;
  }
  link_result lr = link_imports(run, si, why, sizeof why);
  if (lr == LINK_SKIP) {
    /* An uninstantiable module may still have written earlier segments
     * into shared memory/tables before failing. */
    if (!unlinkable) taint_exporters(run, si);
    count_skip(run);
    return;
  }
  if (lr == LINK_UNLINKABLE) {
    if (unlinkable) count_pass(run);
    else fail_at(run, "%s: expected \"%s\" at instantiation, but the runner could not link: %s",
                 file, text ? text : "?", why);
    return;
  }
  scp_wasm_env env = {spec_host_call, NULL, &si->link, si->global_values};
  memset(&err, 0, sizeof err);
  rc = scp_wasm_instantiate(si->mod, &env, &si->inst, &err);
  if (rc == SCP_OK) {
    fail_at(run, "%s: expected %s (\"%s\"), instantiation succeeded", file,
            unlinkable ? "unlinkable" : "uninstantiable", text ? text : "?");
    return;
  }
  if (si->inst) {
    fail_at(run, "%s: failed instantiation left *out non-NULL", file);
    si->inst = NULL;
  }
  if (feat & SF_TABLE_LIMIT) { count_skip(run); return; }
  if (!unlinkable && rc != SCP_ERR_TRAP) {
    /* The header: instantiation "traps as scp_wasm_call". */
    fail_at(run, "%s: expected a trap (\"%s\") at instantiation, got status %d: %s", file,
            text ? text : "?", rc, err.msg);
    return;
  }
  if (!unlinkable && text) {
    /* A trapping start function or an out-of-bounds segment: the kind is
     * in the message only (there is no instance to ask); accept the spec
     * text appearing in err.msg, or any trap when the engine names none. */
    bool named = false;
    for (int t = SCP_TRAP_UNREACHABLE; t < SCP_TRAP_COUNT; t++) {
      const char *tt = scp_trap_text((scp_trap)t);
      if (tt && *tt && strstr(err.msg, tt)) {
        named = true;
        if (trap_matches((scp_trap)t, text)) { count_pass(run); return; }
      }
    }
    if (named) {
      fail_at(run, "%s: expected trap \"%s\" at instantiation, got: %s", file, text, err.msg);
      return;
    }
  }
  count_pass(run);
}

/* Run every command of one converted script; counts go to run->sh. */
static void run_script(spec_run *run, json_t *root, const int *skip_cmds, int nskip) {
  json_t *cmds = json_object_get(root, "commands");
  size_t ci;
  json_t *cmd;
  json_array_foreach(cmds, ci, cmd) {
    const char *type = jstr(cmd, "type");
    json_t *jl = json_object_get(cmd, "line");
    run->line = json_is_integer(jl) ? (int)json_integer_value(jl) : 0;
    run->sh->cur_cmd = (int)ci;
    run->sh->cur_line = run->line;
    run->sh->progress++;
    snprintf(run->sh->cur_what, sizeof run->sh->cur_what, "%s", type ? type : "?");
    bool crashed = false;
    for (int k = 0; k < nskip; k++) crashed |= skip_cmds[k] == (int)ci;
    if (crashed) {
      /* The parent already reported the crash; a module command that
       * crashed leaves no usable module behind. */
      run->sh->failed++;
      if (type && strcmp(type, "module") == 0) {
        spec_inst *si = new_inst(run, jstr(cmd, "name"), jstr(cmd, "filename"));
        si->state = MS_BROKEN;
        snprintf(si->why, sizeof si->why, "crashed the engine");
        run->current = si;
      }
      continue;
    }
    if (!type) { fail_at(run, "command without type"); continue; }
    json_t *act = json_object_get(cmd, "action");
    if (act) {
      snprintf(run->sh->cur_what, sizeof run->sh->cur_what, "%s %s \"%s\" of %s", type,
               jstr(act, "type") ? jstr(act, "type") : "?",
               jstr(act, "field") ? jstr(act, "field") : "?",
               jstr(act, "module") ? jstr(act, "module") : "current module");
    } else if (jstr(cmd, "filename")) {
      snprintf(run->sh->cur_what, sizeof run->sh->cur_what, "%s %s/%s", type, run->dir,
               jstr(cmd, "filename"));
    }
    if (strcmp(type, "module") == 0) cmd_module(run, cmd);
    else if (strcmp(type, "register") == 0) cmd_register(run, cmd);
    else if (strcmp(type, "assert_return") == 0) cmd_assert_return(run, cmd, true);
    else if (strcmp(type, "action") == 0) cmd_assert_return(run, cmd, false);
    else if (strcmp(type, "assert_trap") == 0) cmd_assert_trap(run, cmd, false);
    else if (strcmp(type, "assert_exhaustion") == 0) cmd_assert_trap(run, cmd, true);
    else if (strcmp(type, "assert_invalid") == 0 || strcmp(type, "assert_malformed") == 0)
      cmd_assert_bad_module(run, cmd);
    else if (strcmp(type, "assert_unlinkable") == 0) cmd_assert_bad_instance(run, cmd, true);
    else if (strcmp(type, "assert_uninstantiable") == 0)
      cmd_assert_bad_instance(run, cmd, false);
    else fail_at(run, "unknown command type %s", type);
  }
  run->sh->cur_cmd = -1;
}

/* ------------------------------------------------------------------------
 * Conversion and the per-file cmocka test.
 * --------------------------------------------------------------------- */

static int mkdir_p(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(tmp, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Convert NAME.wast into DIR (= $SCP_BUILD/spec/NAME) unless the stamp is
 * newer than the script. */
static bool convert(const char *name, char *dir, size_t dircap) {
  char wast[4096], json[4096], stamp[4096];
  struct stat ws, ss;
  snprintf(wast, sizeof wast, "%s/%s.wast", SUITE_DIR, name);
  snprintf(dir, dircap, "%s/spec/%s", build_dir(), name);
  snprintf(json, sizeof json, "%.1000s/%.250s.json", dir, name);
  snprintf(stamp, sizeof stamp, "%s/.converted", dir);
  if (stat(wast, &ws) != 0) return false;
  if (stat(stamp, &ss) == 0 &&
      (ss.st_mtim.tv_sec > ws.st_mtim.tv_sec ||
       (ss.st_mtim.tv_sec == ws.st_mtim.tv_sec && ss.st_mtim.tv_nsec >= ws.st_mtim.tv_nsec)))
    return true;
  if (mkdir_p(dir) != 0) return false;
  unlink(stamp);
  char *argv[] = {"wast2json", wast, "-o", json, NULL};
  if (run_tool(argv, true) != 0) return false;
  FILE *f = fopen(stamp, "w");
  if (!f) return false;
  fclose(f);
  return true;
}

static unsigned total_passed, total_failed, total_skipped, total_text, total_files,
    total_failed_switch, total_derived;

/* Wait for a child; kill it when *progress has not moved for
 * CHILD_STALL_S seconds (a hang in one command, not a long run).  Returns
 * the wait status; *hung tells whether we killed it. */
static int wait_child(pid_t pid, volatile long *progress, bool *hung) {
  long last = *progress;
  struct timespec since;
  clock_gettime(CLOCK_MONOTONIC, &since);
  *hung = false;
  for (;;) {
    int status;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return -1;
    struct timespec now, nap = {0, 2 * 1000 * 1000};
    nanosleep(&nap, NULL);
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (*progress != last) {
      last = *progress;
      since = now;
    } else if (now.tv_sec - since.tv_sec >= CHILD_STALL_S && !*hung) {
      *hung = true;
      kill(pid, SIGKILL);
    }
  }
}

/* Under LeakSanitizer the child's leaks would go unseen (_exit skips the
 * atexit check), so the child asks for the check itself. */
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* Run one converted script in forked children with the given dispatch,
 * re-running past every command that crashes.  Prints the counts and the
 * failure lines; returns the number of failures (crashes included). */
static unsigned run_mode(const char *wastname, const char *dir, json_t *root,
                         bool use_switch, unsigned counts[5]) {
  spec_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (sh == MAP_FAILED) {
    print_message("%s: mmap failed\n", wastname);
    return 1;
  }
  int crashed[MAX_CRASH_RERUNS];
  int ncrashed = 0;
  char crash_msgs[MAX_CRASH_RERUNS][600];
  const char *tag = use_switch ? " [switch dispatch]" : "";
  fflush(stdout);
  fflush(stderr);
  for (;;) {
    memset(sh, 0, offsetof(spec_shared, msg));
    sh->cur_cmd = -1;
    sh->msg[0] = '\0';
    pid_t pid = fork();
    if (pid < 0) {
      print_message("%s: fork failed\n", wastname);
      munmap(sh, sizeof *sh);
      return 1;
    }
    if (pid == 0) {
      spec_run run = {0};
      run.wast = wastname;
      run.dir = dir;
      run.sh = sh;
      run.use_switch = use_switch;
      run_script(&run, root, crashed, ncrashed);
      run_free(&run);
      /* once per file (the goto run) is enough: LSan's scan is slow */
      if (!use_switch && __lsan_do_recoverable_leak_check &&
          __lsan_do_recoverable_leak_check()) {
        sh->failed++;
        shared_add_msg(sh, "  %s: memory leaked (LeakSanitizer report above)", wastname);
      }
      _exit(0);
    }
    bool hung;
    int status = wait_child(pid, &sh->progress, &hung);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && sh->cur_cmd < 0) break;
    /* The child died inside command sh->cur_cmd: record it, skip it next run. */
    char how[64];
    if (hung)
      snprintf(how, sizeof how, "hang: no progress for %d s", CHILD_STALL_S);
    else if (WIFSIGNALED(status))
      snprintf(how, sizeof how, "%s", strsignal(WTERMSIG(status)));
    else
      snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(status));
    if (sh->cur_cmd < 0 || ncrashed == MAX_CRASH_RERUNS) {
      print_message("%s%s: child died (%s) outside a command or too often; giving up\n",
                    wastname, tag, how);
      munmap(sh, sizeof *sh);
      return 1;
    }
    snprintf(crash_msgs[ncrashed], sizeof crash_msgs[ncrashed],
             "  %s:%d: ENGINE CRASH (%s) in command #%d: %s", wastname, sh->cur_line, how,
             sh->cur_cmd, sh->cur_what);
    crashed[ncrashed++] = sh->cur_cmd;
  }
  counts[0] = sh->passed;
  counts[1] = sh->failed;
  counts[2] = sh->skipped;
  counts[3] = sh->text_only;
  counts[4] = sh->derived_passed;
  if (!use_switch || sh->failed) {
    print_message("%s%s: %u passed, %u failed, %u skipped-by-feature (%u text-format "
                  "skipped; %u passed on integer-only derivations)\n",
                  wastname, tag, sh->passed, sh->failed, sh->skipped, sh->text_only,
                  sh->derived_passed);
  }
  const char *mm = getenv("SCP_SPEC_MAXMSG");
  unsigned maxmsg = mm ? (unsigned)atoi(mm) : 20;
  for (int k = 0; k < ncrashed; k++) print_message("%s%s\n", crash_msgs[k], tag);
  unsigned shown = 0;
  for (char *line = sh->msg; *line && shown < maxmsg; shown++) {
    char *nl = strchr(line, '\n');
    print_message("%.*s%s\n", (int)(nl ? nl - line : (ptrdiff_t)strlen(line)), line, tag);
    line = nl ? nl + 1 : line + strlen(line);
  }
  if (sh->nmsgs > shown) print_message("  ... %u more failure lines\n", sh->nmsgs - shown);
  unsigned failed = sh->failed;
  munmap(sh, sizeof *sh);
  return failed;
}

static void test_wast_file(void **state) {
  const char *wastname = *state;               /* "i32.wast" */
  char name[256], dir[1024], json[2048];
  snprintf(name, sizeof name, "%.*s", (int)(strlen(wastname) - 5), wastname);
  if (!convert(name, dir, sizeof dir)) {
    print_message("%s: wast2json conversion failed\n", wastname);
    fail();
  }
  snprintf(json, sizeof json, "%.1000s/%.250s.json", dir, name);
  json_error_t jerr;
  json_t *root = json_load_file(json, JSON_ALLOW_NUL, &jerr);
  if (!root) {
    print_message("%s: %s: %s (line %d)\n", wastname, json, jerr.text, jerr.line);
    fail();
  }
  /* The counts come from the computed-goto run; the switch run must agree
   * (STYLE.md 8: both dispatch modes give identical results). */
  unsigned cg[5], sw[5];
  unsigned failed = run_mode(wastname, dir, root, false, cg);
  unsigned failed_sw = run_mode(wastname, dir, root, true, sw);
  json_decref(root);
  if (memcmp(cg, sw, sizeof cg) != 0 && !failed_sw) {
    print_message("%s: switch dispatch counts differ: %u passed, %u failed, %u skipped\n",
                  wastname, sw[0], sw[1], sw[2]);
    failed_sw++;
  }
  total_passed += cg[0];
  total_failed += cg[1];
  total_skipped += cg[2];
  total_text += cg[3];
  total_derived += cg[4];
  total_failed_switch += failed_sw;
  total_files++;
  /* a file that runs nothing checks nothing: it fails, so the suite's
   * list holds only files that test the engine (a skipped-by-feature
   * module was still loaded, and had to be rejected: that ran) */
  if (cg[0] + cg[2] + cg[4] == 0) {
    print_message("%s: no command ran (%u skipped-by-feature, %u text-format): remove it "
                  "from tests/data/wasm-testsuite or make it run\n", wastname, cg[2], cg[3]);
    failed++;
  }
  assert_int_equal(failed + failed_sw, 0);
}

static int print_total(void **state) {
  print_message("TOTAL (%u files): %u passed, %u failed, %u skipped-by-feature "
                "(%u text-format skipped; %u passed on integer-only derivations); "
                "switch dispatch: %u failed\n",
                total_files, total_passed, total_failed, total_skipped, total_text,
                total_derived, total_failed_switch);
  /* for tests/run.sh's evidence line: what ran and what did not */
  print_message("NOTE [spec] %u files: %u commands passed, %u passed on integer-only "
                "derivations, %u skipped by feature, %u text-format commands skipped\n",
                total_files, total_passed, total_derived, total_skipped, total_text);
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ------------------------------------------------------------------------
 * Robustness: mutated modules never crash the loader or the interpreter.
 * Every .wasm of the converted suite gets deterministic mutations (more
 * for modules that load); each mutant is loaded and, when accepted, instantiated and
 * every defined function called with zero arguments under a small fuel
 * tank.  A crash or hang is reported with the mutant written to
 * $SCP_BUILD/spec/mutant-N.wasm as the reproducer.
 * --------------------------------------------------------------------- */

#ifndef MUTANT_SLOTS                /* -D overrides for longer campaigns */
#define MUTANT_SLOTS 64            /* mutant id = file index * SLOTS + k */
#define MUTANTS_VALID 64           /* k < this for modules that load */
#define MUTANTS_INVALID 2          /* k < this for the others */
#endif
#define MUTANT_FUEL 5000
#define MUTANT_MAX_PAGES 256       /* bigger initial memories are not run */
#define MAX_MUTANT_CRASHES 10

typedef struct mut_shared {
  volatile long progress;      /* bumped per mutant: the parent's hang check */
  long cur;                    /* mutant being run, -1 when done */
  unsigned loaded, ran, failed;
  size_t msg_len;
  char msg[16384];
} mut_shared;

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Mutant number `id` of bytes[0..len): into out (capacity len + 4). */
static size_t make_mutant(const uint8_t *bytes, size_t len, long id, uint8_t *out) {
  uint64_t rng = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(id + 1) * 0xbf58476d1ce4e5b9ULL;
  memcpy(out, bytes, len);
  size_t n = len;
  unsigned edits = 1 + (rng_next(&rng) % 4 == 0);
  static const uint8_t edge[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x40, 0x41, 0x0b};
  for (unsigned e = 0; e < edits && n > 8; e++) {
    size_t at = 8 + (size_t)(rng_next(&rng) % (n - 8));   /* keep the header */
    switch (rng_next(&rng) % 9) {
    case 0: out[at] ^= (uint8_t)(1u << (rng_next(&rng) % 8)); break;
    case 1: out[at] = (uint8_t)rng_next(&rng); break;
    case 2: out[at] = edge[rng_next(&rng) % sizeof edge]; break;
    case 3: n = at; break;                                   /* truncate */
    case 4: case 5: case 6:                                  /* small change */
      out[at] = (uint8_t)(out[at] + (rng_next(&rng) % 2 ? 1 : -1));
      break;
    case 7: case 8:                                          /* insert */
      if (n < len + 4) {
        memmove(out + at + 1, out + at, n - at);
        out[at] = edge[rng_next(&rng) % sizeof edge];
        n++;
      }
      break;
    }
  }
  return n;
}

typedef struct mut_file {
  uint8_t *bytes;
  size_t len;
  char *path;
} mut_file;

static int mut_host_call(void *ctx, scp_wasm_instance *inst, uint32_t import_index,
                         uint64_t *args, scp_error *err) {
  args[0] = 0;
  return SCP_OK;
}

static void mut_fail(mut_shared *sh, const char *fmt, ...) SCP_PRINTF(2, 3);
static void mut_fail(mut_shared *sh, const char *fmt, ...) {
  va_list ap;
  sh->failed++;
  if (sh->msg_len + 300 >= sizeof sh->msg) return;
  va_start(ap, fmt);
  int n = vsnprintf(sh->msg + sh->msg_len, 300, fmt, ap);
  va_end(ap);
  if (n > 0) sh->msg_len += (size_t)n < 299 ? (size_t)n : 299;
  sh->msg[sh->msg_len++] = '\n';
  sh->msg[sh->msg_len] = '\0';
}

static void run_mutant(mut_shared *sh, const uint8_t *b, size_t n, long id) {
  scp_wasm_module *m = NULL;
  scp_error err;
  memset(&err, 0, sizeof err);
  int rc = scp_wasm_load(b, n, &m, &err);
  if (rc != SCP_OK) {
    if (m) mut_fail(sh, "mutant %ld: failed load left *out set", id);
    /* The header names MALFORMED / INVALID / UNSUPPORTED; the engine also
     * uses LIMIT for Soroban's limits (tables over 1000 elements). */
    if (rc != SCP_ERR_MALFORMED && rc != SCP_ERR_INVALID && rc != SCP_ERR_UNSUPPORTED &&
        rc != SCP_ERR_LIMIT)
      mut_fail(sh, "mutant %ld: load returned status %d (%s)", id, rc, err.msg);
    return;
  }
  sh->loaded++;
  /* The start function runs with infinite fuel, so a mutant with a start
   * section could loop forever: those are only loaded. */
  unsigned feat = scan_module(b, n);
  bool has_start = false;
  {
    scan_rd r = {b + 8, b + n, false};
    while (r.p < r.end && !r.bad) {
      uint8_t sid = rd_byte(&r);
      uint64_t size = rd_uleb(&r);
      if (sid == 8) has_start = true;
      rd_skip(&r, size);
    }
  }
  if (feat & SF_REJECTED)
    mut_fail(sh, "mutant %ld: uses a disabled feature but was accepted", id);
  if (has_start || scp_wasm_initial_pages(m) > MUTANT_MAX_PAGES) {
    scp_wasm_module_free(m);
    return;
  }
  uint64_t globals[64] = {0};
  if (scp_wasm_import_count(m) > SCP_ARRAY_LEN(globals)) {
    scp_wasm_module_free(m);
    return;
  }
  for (uint32_t i = 0; i < scp_wasm_import_count(m); i++)
    if (scp_wasm_import_get(m, i)->kind == SCP_EXT_MEMORY ||
        scp_wasm_import_get(m, i)->kind == SCP_EXT_TABLE) {
      scp_wasm_module_free(m);
      return;
    }
  /* Two instances, one per dispatch mode: every call must agree on
   * status, trap, results, fuel and memory (STYLE.md 8). */
  scp_wasm_env env = {mut_host_call, NULL, NULL, globals};
  scp_wasm_instance *inst = NULL, *twin = NULL;
  rc = scp_wasm_instantiate(m, &env, &inst, &err);
  if (rc == SCP_OK && scp_wasm_instantiate(m, &env, &twin, &err) != SCP_OK) {
    mut_fail(sh, "mutant %ld: second instantiation failed where the first worked", id);
    twin = NULL;
  }
  if (rc == SCP_OK) {
    if (twin) scp_wasm_set_switch_dispatch(twin, true);
    /* The profile of the goto instance must add up to its fuel (x4). */
    scp_tree tree;
    bool profiled = scp_tree_init(&tree, 2) == SCP_OK;
    uint64_t fuel_total = 0;
    if (profiled) scp_wasm_attach(inst, &tree, 0, 1, 4);
    for (uint32_t f = scp_wasm_import_func_count(m); f < scp_wasm_func_count(m); f++) {
      uint64_t args[1024] = {0}, res[16] = {0}, res2[16] = {0};
      const uint8_t *pt, *rt;
      uint32_t np, nr;
      if (!scp_wasm_func_sig(m, f, &pt, &np, &rt, &nr) || np > 1024 || nr > 16) continue;
      scp_wasm_set_fuel(inst, MUTANT_FUEL);
      uint64_t before = scp_wasm_fuel_consumed(inst);
      rc = scp_wasm_call(inst, f, args, res, &err);
      uint64_t used = scp_wasm_fuel_consumed(inst) - before;
      fuel_total += used;
      sh->ran++;
      if (rc != SCP_OK && rc != SCP_ERR_TRAP)
        mut_fail(sh, "mutant %ld: call of function %u returned status %d", id, f, rc);
      if (used > MUTANT_FUEL)
        mut_fail(sh, "mutant %ld: function %u consumed more fuel than given", id, f);
      if (!twin) continue;
      scp_wasm_set_fuel(twin, MUTANT_FUEL);
      before = scp_wasm_fuel_consumed(twin);
      int rc2 = scp_wasm_call(twin, f, args, res2, &err);
      uint64_t used2 = scp_wasm_fuel_consumed(twin) - before;
      uint64_t l1 = 0, l2 = 0;
      uint8_t *m1 = scp_wasm_memory(inst, &l1), *m2 = scp_wasm_memory(twin, &l2);
      if (rc != rc2 || used != used2 ||
          (rc == SCP_ERR_TRAP && scp_wasm_last_trap(inst) != scp_wasm_last_trap(twin)) ||
          (rc == SCP_OK && memcmp(res, res2, nr * sizeof res[0]) != 0) || l1 != l2 ||
          (l1 && memcmp(m1, m2, l1) != 0))
        mut_fail(sh, "mutant %ld: function %u: goto and switch dispatch differ "
                 "(status %d/%d, fuel %llu/%llu, trap %d/%d)", id, f, rc, rc2,
                 (unsigned long long)used, (unsigned long long)used2,
                 (int)scp_wasm_last_trap(inst), (int)scp_wasm_last_trap(twin));
    }
    if (profiled) {
      if (scp_wasm_settle(inst) != SCP_OK)
        mut_fail(sh, "mutant %ld: scp_wasm_settle failed", id);
      else if (scp_tree_total(&tree, 0) != 4 * fuel_total)
        mut_fail(sh, "mutant %ld: profile total %llu != 4 x fuel %llu", id,
                 (unsigned long long)scp_tree_total(&tree, 0),
                 (unsigned long long)fuel_total);
      scp_wasm_attach(inst, NULL, 0, 0, 0);
    }
    scp_wasm_instance_free(inst);
    if (twin) scp_wasm_instance_free(twin);
    if (profiled) scp_tree_free(&tree);
  } else if (inst) {
    mut_fail(sh, "mutant %ld: failed instantiation left *out set", id);
  }
  scp_wasm_module_free(m);
}

static void collect_wasm_files(const char *dir, mut_file **files, size_t *n, size_t *cap) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char **names = NULL;
  size_t nn = 0, cn = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (nn == cn) {
      cn = cn ? 2 * cn : 64;
      names = realloc(names, cn * sizeof *names);
      if (!names) abort();
    }
    names[nn++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, nn, sizeof *names, cmp_names);
  for (size_t i = 0; i < nn; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%.1000s/%.500s", dir, names[i]);
    size_t l = strlen(names[i]);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      collect_wasm_files(path, files, n, cap);
    } else if (l > 5 && strcmp(names[i] + l - 5, ".wasm") == 0 &&
               strncmp(names[i], "mutant-", 7) != 0) {
      mut_file mf = {0};
      if (read_whole(path, &mf.bytes, &mf.len) && mf.len > 8) {
        if (*n == *cap) {
          *cap = *cap ? 2 * *cap : 1024;
          *files = realloc(*files, *cap * sizeof **files);
          if (!*files) abort();
        }
        mf.path = strdup(path);
        (*files)[(*n)++] = mf;
      } else {
        free(mf.bytes);
      }
    }
    free(names[i]);
  }
  free(names);
}

static void test_mutated_modules(void **state) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%.1000s/spec", build_dir());
  mut_file *files = NULL;
  size_t nfiles = 0, cap = 0;
  collect_wasm_files(dir, &files, &nfiles, &cap);
  if (nfiles == 0) {
    print_message("mutations: no converted modules under %s\n", dir);
    fail();
  }
  long total = (long)nfiles * MUTANT_SLOTS, start = 0;
  mut_shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  assert_true(sh != MAP_FAILED);
  unsigned crashes = 0, loaded = 0, ran = 0, failed = 0;
  fflush(stdout);
  while (start < total) {
    memset(sh, 0, sizeof *sh);
    sh->cur = -1;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
      size_t cap_b = 0;
      uint8_t *buf = NULL;
      long quota_file = -1, quota = 0;
      for (long id = start; id < total; id++) {
        const mut_file *mf = &files[id / MUTANT_SLOTS];
        if (quota_file != id / MUTANT_SLOTS) {
          /* Valid modules get more mutants: their mutants get further. */
          scp_wasm_module *om = NULL;
          scp_error oerr;
          quota_file = id / MUTANT_SLOTS;
          quota = scp_wasm_load(mf->bytes, mf->len, &om, &oerr) == SCP_OK ? MUTANTS_VALID
                                                                           : MUTANTS_INVALID;
          if (om) scp_wasm_module_free(om);
        }
        if (id % MUTANT_SLOTS >= quota) continue;
        if (mf->len + 4 > cap_b) {
          cap_b = mf->len + 4;
          buf = realloc(buf, cap_b);
          if (!buf) _exit(3);
        }
        size_t n = make_mutant(mf->bytes, mf->len, id, buf);
        sh->cur = id;
        sh->progress++;
        run_mutant(sh, buf, n, id);
      }
      free(buf);
      sh->cur = -1;
      _exit(0);
    }
    bool hung;
    int status = wait_child(pid, &sh->progress, &hung);
    loaded += sh->loaded;
    ran += sh->ran;
    failed += sh->failed;
    if (sh->msg_len) print_message("%s", sh->msg);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && sh->cur < 0) break;
    long id = sh->cur;
    if (id < 0) {
      print_message("mutations: child died outside a mutant (status 0x%x)\n", status);
      failed++;
      break;
    }
    /* Write the reproducer. */
    const mut_file *mf = &files[id / MUTANT_SLOTS];
    uint8_t *buf = malloc(mf->len + 4);
    assert_non_null(buf);
    size_t n = make_mutant(mf->bytes, mf->len, id, buf);
    char out[2048];
    snprintf(out, sizeof out, "%.1000s/mutant-%ld.wasm", dir, id);
    FILE *f = fopen(out, "wb");
    if (f) { fwrite(buf, 1, n, f); fclose(f); }
    free(buf);
    print_message("  ENGINE %s on mutant %ld of %s: reproducer %s\n",
                  hung ? "HANG" : "CRASH",
                  id, mf->path, out);
    failed++;
    start = id + 1;
    if (++crashes == MAX_MUTANT_CRASHES) {
      print_message("mutations: too many crashes, stopping\n");
      break;
    }
  }
  print_message("mutations: %zu modules mutated, %u mutants loaded, %u calls run, "
                "%u failed\n", nfiles, loaded, ran, failed);
  munmap(sh, sizeof *sh);
  for (size_t i = 0; i < nfiles; i++) { free(files[i].bytes); free(files[i].path); }
  free(files);
  assert_int_equal(failed, 0);
}

int main(void) {
  DIR *d = opendir(SUITE_DIR);
  if (!d) {
    fprintf(stderr, "test_spec: cannot open %s (run from the repo root)\n", SUITE_DIR);
    return 1;
  }
  const char *only = getenv("SCP_SPEC_ONLY");
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l <= 5 || strcmp(e->d_name + l - 5, ".wast") != 0) continue;
    if (only && *only && (strncmp(e->d_name, only, l - 5) != 0 || strlen(only) != l - 5))
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 128;
      names = realloc(names, cap * sizeof *names);
      if (!names) return 1;
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  bool only_mutations = only && strcmp(only, "mutated_modules") == 0;
  if (n == 0 && !only_mutations) {
    fprintf(stderr, "test_spec: no .wast files in %s\n", SUITE_DIR);
    return 1;
  }
  if (n) qsort(names, n, sizeof *names, cmp_names);
  struct CMUnitTest *tests = calloc(n + 1, sizeof *tests);
  if (!tests) return 1;
  for (size_t i = 0; i < n; i++) {
    tests[i].name = names[i];
    tests[i].test_func = test_wast_file;
    tests[i].initial_state = names[i];
  }
  /* Last: it mutates the modules the file tests converted. */
  size_t ntests = n;
  if (!only || !*only || only_mutations) {
    tests[ntests].name = "mutated_modules";
    tests[ntests].test_func = test_mutated_modules;
    ntests++;
  }
  int rc = _cmocka_run_group_tests("wasm_spec", tests, ntests, NULL, print_total);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  free(tests);
  return rc;
}
