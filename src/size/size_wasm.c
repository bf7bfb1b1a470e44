/*
 * size_wasm.c — the size tree of a WASM module (scp_size.h): the module's
 * own layout, section by section, read far enough to split Code into
 * function bodies and Data into segments.  Nothing is validated beyond
 * what that needs: a size walk is not the VM's decoder, and a module the
 * VM would refuse still has bytes worth counting, as long as every length
 * field stays inside its section.
 */
#include "size/size_private.h"

#include <stdio.h>
#include <string.h>

static const char *const section_names[] = {
    "Custom", "Type", "Import", "Function", "Table", "Memory", "Global",
    "Export", "Start", "Elem", "Code", "Data", "DataCount", "Tag"};

/* One section's payload [p, end), offsets into the module. */
typedef struct wsec {
  size_b *b;
  const uint8_t *base, *p, *end;
  uint32_t node;
} wsec;

static int bad(const wsec *w, scp_error *err, const char *what) {
  return scp_fail(err, SCP_ERR_MALFORMED, "%s at offset %zu", what,
                  (size_t)(w->p - w->b->bytes));
}

/* The vector count at the start of Code and Data, booked with the
 * per-item headers (node "what"), which is made here. */
static bool read_count(wsec *w, uint32_t *count, const char *what, uint32_t *node) {
  const uint8_t *q = w->p;
  if (!scp_leb_u32(&w->p, w->end, count)) return false;
  *node = scp_size_node(w->b, w->node, what);
  scp_size_self(w->b, *node, (uint64_t)(w->p - q));
  return true;
}

static int walk_code(wsec *w, scp_error *err) {
  uint32_t count, sizes;
  if (!read_count(w, &count, "[body sizes]", &sizes))
    return bad(w, err, "Code section: bad function count");
  uint32_t nfuncs = scp_sym_function_count(w->b->s);
  if (count > nfuncs) return bad(w, err, "Code section: more bodies than functions");
  uint32_t first = nfuncs - count;
  for (uint32_t k = 0; k < count; k++) {
    const uint8_t *q = w->p;
    uint32_t n;
    if (!scp_leb_u32(&w->p, w->end, &n)) return bad(w, err, "Code section: bad body size");
    if (n > (size_t)(w->end - w->p)) return bad(w, err, "Code section: body past the section's end");
    scp_size_self(w->b, sizes, (uint64_t)(w->p - q));
    uint64_t lo = (uint64_t)(w->p - w->base), hi = lo + n, slo, shi;
    /* the mapper reads the same bodies: its ranges must be these */
    if (scp_sym_function_range(w->b->s, first + k, &slo, &shi) || slo != lo || shi != hi)
      return bad(w, err, "Code section: body does not match the module's functions");
    scp_size_function(w->b, w->node, first + k, lo, hi, 1);
    w->p += n;
  }
  return w->p == w->end ? SCP_OK : bad(w, err, "Code section: bytes after the last body");
}

/* A constant expression: i32/i64.const or global.get, then end. */
static bool skip_const_expr(wsec *w) {
  int64_t v;
  uint32_t g;
  for (;;) {
    if (w->p >= w->end) return false;
    uint8_t op = *w->p++;
    if (op == 0x0b) return true;
    if (op == 0x41 || op == 0x42) {
      if (!scp_leb_s64(&w->p, w->end, &v)) return false;
    } else if (op == 0x23) {
      if (!scp_leb_u32(&w->p, w->end, &g)) return false;
    } else {
      return false;
    }
  }
}

static int walk_data(wsec *w, scp_error *err) {
  uint32_t count, heads;
  if (!read_count(w, &count, "[segment headers]", &heads))
    return bad(w, err, "Data section: bad segment count");
  for (uint32_t k = 0; k < count; k++) {
    const uint8_t *q = w->p;
    uint32_t flags, mem, n;
    if (!scp_leb_u32(&w->p, w->end, &flags) || flags > 2)
      return bad(w, err, "Data section: bad segment kind");
    if (flags == 2 && !scp_leb_u32(&w->p, w->end, &mem))
      return bad(w, err, "Data section: bad memory index");
    if (flags != 1 && !skip_const_expr(w))
      return bad(w, err, "Data section: unsupported offset expression");
    if (!scp_leb_u32(&w->p, w->end, &n) || n > (size_t)(w->end - w->p))
      return bad(w, err, "Data section: segment past the section's end");
    scp_size_self(w->b, heads, (uint64_t)(w->p - q));
    char name[32];
    snprintf(name, sizeof name, "data[%u]", k);
    scp_size_part(w->b, w->node, name, n);
    w->p += n;
  }
  return w->p == w->end ? SCP_OK : bad(w, err, "Data section: bytes after the last segment");
}

/* "Custom:NAME" for a custom section (its name's bytes are payload). */
static int custom_name(wsec *w, char *buf, size_t size, scp_error *err) {
  const uint8_t *q = w->p;
  uint32_t n;
  if (!scp_leb_u32(&q, w->end, &n) || n > (size_t)(w->end - q))
    return bad(w, err, "custom section: bad name");
  char raw[256];
  size_t k = n < sizeof raw - 1 ? n : sizeof raw - 1;
  memcpy(raw, q, k);
  raw[k] = 0;
  for (size_t i = 0; i < k; i++)
    if ((unsigned char)raw[i] < 0x20 || raw[i] == 0x7f) raw[i] = '?';
  snprintf(buf, size, "Custom:%s", raw);
  return SCP_OK;
}

int scp_size_wasm(size_b *b, scp_error *err) {
  if (b->len < 8) return scp_fail(err, SCP_ERR_MALFORMED, "WASM header cut short");
  scp_size_part(b, 0, "[wasm header]", 8);
  const uint8_t *p = b->bytes + 8, *end = b->bytes + b->len;
  while (p < end) {
    wsec w = {.b = b, .base = NULL, .p = p, .end = end, .node = SCP_NODE_NONE};
    uint8_t id = *w.p++;
    uint32_t n;
    if (id >= SCP_ARRAY_LEN(section_names)) return bad(&w, err, "unknown section id");
    if (!scp_leb_u32(&w.p, end, &n) || n > (size_t)(end - w.p))
      return bad(&w, err, "section past the end of the module");
    w.base = w.p;
    w.end = w.p + n;
    char name[300];
    snprintf(name, sizeof name, "%s", section_names[id]);
    int rc = id == 0 ? custom_name(&w, name, sizeof name, err) : SCP_OK;
    if (rc) return rc;
    w.node = scp_size_node(b, 0, name);
    scp_size_part(b, w.node, "[section header]", (uint64_t)(w.base - p));
    if (id == 10) rc = walk_code(&w, err);
    else if (id == 11) rc = walk_data(&w, err);
    else scp_size_self(b, w.node, n);
    if (rc) return rc;
    p = w.end;
  }
  return SCP_OK;
}
