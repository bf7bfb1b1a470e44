/*
 * xdr_writes.c — the writes stellar-xdr's writer makes for a value (see
 * scp_xdr_writes in scp_xdr.h), walked over the binary with the codec's
 * type rows.
 *
 * stellar-xdr 28.0.0 (what rs-soroban-env v28.0.2 pins: the git rev
 * 3305b3e its repin took, plus a version bump; the repin changed no
 * recorded budget observation of the host's tests, so the writes stayed
 * those of the generated WriteXdr impls read here in rs-stellar-xdr
 * v27.0.0 and its main of 2026-07-24, src/generated.rs; an unmerged
 * branch of then that writes each value in one write_all would have
 * changed them): every
 * integer, bool and enum is one write_all of its 4 or 8 big-endian bytes;
 * a 128/256-bit integer is its parts (UInt128Parts hi, lo; UInt256Parts
 * hi_hi .. lo_lo), each a u64/i64 write; a union writes its discriminant,
 * then its arm; an optional its flag (a u32), then the value; a
 * variable-length array its length, then each element; a fixed array
 * each element; a struct each field.  Fixed opaque [u8; N] is one write
 * of N bytes, then one of its padding; variable opaque and strings
 * (BytesM, StringM, VecM<u8>) write their length (a u32), their body,
 * then their padding.  std's write_all writes nothing for an empty slice,
 * so an empty body or padding makes no write; writing into a Vec, it
 * makes one write call per write_all, which is what rs-soroban-env's
 * MeteredWrite (host/metered_xdr.rs) charges ValSer(len) on.
 */
#include "xdr/xdr_private.h"

typedef struct wk {
  const uint8_t *p;
  size_t len, pos;
  scp_xdr_write_fn fn;
  void *ctx;
  scp_error *err;
  int rc;
} wk;

static int wk_fail(wk *w, int code, const char *what) {
  if (!w->rc) w->rc = scp_fail(w->err, code, "XDR at byte %zu: %s", w->pos, what);
  return w->rc;
}

/* n bytes of input, written as one write_all (none when n is 0) */
static int emit(wk *w, size_t n) {
  if (w->len - w->pos < n) return wk_fail(w, SCP_ERR_MALFORMED, "truncated");
  w->pos += n;
  if (!n) return SCP_OK;
  int rc = w->fn(w->ctx, n);
  if (rc && !w->rc) w->rc = rc;
  return rc;
}

static int emit32(wk *w, uint32_t *v) {
  if (w->len - w->pos < 4) return wk_fail(w, SCP_ERR_MALFORMED, "truncated");
  *v = scp_be32(w->p + w->pos);
  return emit(w, 4);
}

static int walk(wk *w, const scp_xdr_type *t, int depth);

static int walk_union(wk *w, const scp_xdr_type *t, int depth) {
  uint32_t d;
  int rc = emit32(w, &d);
  if (rc || t->kind == XK_ENUM) return rc;
  for (uint32_t i = 0; i < t->count; i++) {
    if (t->arms[i].value != (int32_t)d) continue;
    return t->arms[i].type ? walk(w, t->arms[i].type, depth + 1) : SCP_OK;
  }
  return wk_fail(w, SCP_ERR_MALFORMED, "unknown union arm");
}

/* opaque and strings: [length,] body, padding */
static int walk_bytes(wk *w, const scp_xdr_type *t) {
  uint32_t n = t->kind == XK_STRKEY ? 32 : t->n;
  int rc = SCP_OK;
  if (t->kind == XK_VAROPAQUE || t->kind == XK_STRING) {
    if ((rc = emit32(w, &n))) return rc;
    if (n > t->n) return wk_fail(w, SCP_ERR_MALFORMED, "length past its bound");
  }
  if ((rc = emit(w, n))) return rc;
  return emit(w, (4 - n % 4) % 4);
}

static int walk(wk *w, const scp_xdr_type *t, int depth) {
  uint32_t v;
  int rc = SCP_OK;
  if (depth > SCP_XDR_MAX_DEPTH) return wk_fail(w, SCP_ERR_MALFORMED, "nested too deep");
  switch (t->kind) {
  case XK_U32: case XK_I32: case XK_BOOL:
    return emit(w, 4);
  case XK_U64: case XK_I64:
    return emit(w, 8);
  case XK_UBIG: case XK_SBIG:
    for (uint32_t i = 0; !rc && i < t->n / 64; i++) rc = emit(w, 8);
    return rc;
  case XK_OPAQUE: case XK_VAROPAQUE: case XK_STRING: case XK_ASSETCODE: case XK_STRKEY:
    return walk_bytes(w, t);
  case XK_STRUCT:
    for (uint32_t i = 0; !rc && i < t->count; i++) rc = walk(w, t->fields[i].type, depth + 1);
    return rc;
  case XK_UNION: case XK_ENUM:
    return walk_union(w, t, depth);
  case XK_ARRAY: case XK_FARRAY:
    v = t->n;
    if (t->kind == XK_ARRAY && (rc = emit32(w, &v))) return rc;
    if (v > t->n) return wk_fail(w, SCP_ERR_MALFORMED, "array length past its bound");
    for (uint32_t i = 0; !rc && i < v; i++) rc = walk(w, t->elem, depth + 1);
    return rc;
  case XK_OPTION:
    if ((rc = emit32(w, &v))) return rc;
    if (v > 1) return wk_fail(w, SCP_ERR_MALFORMED, "an optional flag other than 0 or 1");
    return v ? walk(w, t->elem, depth + 1) : SCP_OK;
  case XK_NONE:
    break;
  }
  return wk_fail(w, SCP_ERR_UNSUPPORTED, "a type scprof does not read");
}

int scp_xdr_writes(const scp_xdr_type *t, const uint8_t *p, size_t len, scp_xdr_write_fn fn, void *ctx,
                   scp_error *err) {
  wk w = {.p = p, .len = len, .fn = fn, .ctx = ctx, .err = err};
  int rc = walk(&w, t, 0);
  if (!rc && w.pos != len) rc = wk_fail(&w, SCP_ERR_MALFORMED, "trailing bytes");
  return rc ? w.rc : SCP_OK;
}
