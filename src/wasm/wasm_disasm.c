/*
 * wasm_disasm.c — one operator of a loaded module as text, for annotate's
 * listing of code without source lines: "i32.add", "local.get 2",
 * "i64.load offset=8", "call 5", "br_if 1".  It reads the module's own
 * bytes at a code-section offset (the pc the profile keeps), so the text
 * is the operator as written, not the engine's fused internal form; the
 * names of numeric, load and store operators come from wasm_ops.def.
 */
#include "wasm/wasm_private.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The def names of the one-byte operators wasm_ops.def lists, and each
 * load/store's natural alignment (log2 of its width) plus one (0: not a
 * memory operator). */
static const char *const def_names[256] = {
#define UN(n, b, i, o, e) [b] = #n,
#define BIN(n, b, i, o, e) [b] = #n,
#define TRAP_BIN(n, b, i, o) [b] = #n,
#define LOAD(n, b, o, s, e) [b] = #n,
#define STORE(n, b, i, s) [b] = #n,
#include "wasm/wasm_ops.def"
};

#define LOG2_WIDTH(s) ((s) == 8 ? 3 : (s) == 4 ? 2 : (s) == 2 ? 1 : 0)
static const uint8_t mem_natural[256] = {
#define LOAD(n, b, o, s, e) [b] = 1 + LOG2_WIDTH(s),
#define STORE(n, b, i, s) [b] = 1 + LOG2_WIDTH(s),
#include "wasm/wasm_ops.def"
};
#undef LOG2_WIDTH

/* "I64_EXTEND_I32_S" as the text format spells it: "i64.extend_i32_s". */
static void text_name(const char *def, char *out, size_t size) {
  size_t i = 0;
  bool dot = false;
  for (; def[i] && i + 1 < size; i++) {
    char ch = (char)tolower((unsigned char)def[i]);
    if (ch == '_' && !dot) { ch = '.'; dot = true; }
    out[i] = ch;
  }
  out[i] = 0;
}

/* The function whose body holds pc (code-section offset), NULL if none:
 * bodies are laid out in function order, so a binary search finds it. */
static const wasm_func *func_at(const scp_wasm_module *m, uint64_t pc) {
  uint32_t lo = 0, hi = m->nfuncs - m->nfunc_imports;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->funcs[mid].body_end <= pc) lo = mid + 1;
    else hi = mid;
  }
  return lo < m->nfuncs - m->nfunc_imports && m->funcs[lo].body_start <= pc ? &m->funcs[lo] : NULL;
}

static const char *valtype_name(uint8_t t) {
  return t == SCP_WASM_I32 ? "i32" : t == SCP_WASM_I64 ? "i64" : "?";
}

/* The operands of br_table: its labels, then the default, cut with "..."
 * when the buffer runs out. */
static int put_br_table(const uint8_t *p, const uint8_t *end, char *buf, size_t size) {
  uint32_t n = 0, l = 0;
  if (!scp_leb_u32(&p, end, &n)) return -1;
  size_t len = (size_t)snprintf(buf, size, "br_table");
  for (uint64_t i = 0; i <= n; i++) {
    if (!scp_leb_u32(&p, end, &l)) return -1;
    char one[16];
    int k = snprintf(one, sizeof one, " %u", l);
    if (len + (size_t)k + 4 >= size) return (int)(len + (size_t)snprintf(buf + len, size - len, " ..."));
    memcpy(buf + len, one, (size_t)k + 1);
    len += (size_t)k;
  }
  return (int)len;
}

/* The 0xfc-prefixed operators Soroban's wasmi accepts (bulk memory). */
static int put_misc(const uint8_t *p, const uint8_t *end, char *buf, size_t size) {
  uint32_t sub = 0, a = 0;
  if (!scp_leb_u32(&p, end, &sub)) return -1;
  switch (sub) {
  case 8: return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "memory.init %u", a) : -1;
  case 9: return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "data.drop %u", a) : -1;
  case 10: return snprintf(buf, size, "memory.copy");
  case 11: return snprintf(buf, size, "memory.fill");
  case 12: return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "table.init %u", a) : -1;
  case 13: return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "elem.drop %u", a) : -1;
  case 14: return snprintf(buf, size, "table.copy");
  default: return -1;
  }
}

static int put_block(const char *what, const uint8_t *p, const uint8_t *end, char *buf, size_t size) {
  if (p >= end) return -1;
  if (*p == 0x40) return snprintf(buf, size, "%s", what);
  return snprintf(buf, size, "%s (result %s)", what, valtype_name(*p));
}

/* A load or store: its name, then offset= and align= as the text format
 * writes them (each only when it is not the default). */
static int put_memop(uint8_t op, const uint8_t *p, const uint8_t *end, char *buf, size_t size) {
  char name[24];
  uint32_t align = 0, offset = 0;
  if (!scp_leb_u32(&p, end, &align) || !scp_leb_u32(&p, end, &offset)) return -1;
  text_name(def_names[op], name, sizeof name);
  int n = snprintf(buf, size, "%s", name);
  if (n >= 0 && offset && (size_t)n < size) n += snprintf(buf + n, size - (size_t)n, " offset=%u", offset);
  if (n >= 0 && align != mem_natural[op] - 1u && align < 32 && (size_t)n < size)
    n += snprintf(buf + n, size - (size_t)n, " align=%u", 1u << align);
  return n;
}

typedef struct namer {
  scp_wasm_import_namer fn;
  void *ctx;
} namer;

static int put_call(const scp_wasm_module *m, uint32_t f, const namer *nm, char *buf, size_t size) {
  if (f >= m->nfunc_imports) return snprintf(buf, size, "call %u", f);
  const scp_wasm_import *im = &m->imports[m->func_import[f]];
  const char *name = nm->fn ? nm->fn(nm->ctx, im) : NULL;
  if (name) return snprintf(buf, size, "call %u (%s)", f, name);
  return snprintf(buf, size, "call %u (import %s.%s)", f, im->module, im->field);
}

static int put_op(const scp_wasm_module *m, const uint8_t *p, const uint8_t *end, const namer *nm,
                  char *buf, size_t size) {
  uint8_t op = *p++;
  uint32_t a = 0;
  int32_t s32 = 0;
  int64_t s64 = 0;
  switch (op) {
  case 0x00: return snprintf(buf, size, "unreachable");
  case 0x01: return snprintf(buf, size, "nop");
  case 0x02: return put_block("block", p, end, buf, size);
  case 0x03: return put_block("loop", p, end, buf, size);
  case 0x04: return put_block("if", p, end, buf, size);
  case 0x05: return snprintf(buf, size, "else");
  case 0x0b: return snprintf(buf, size, "end");
  case 0x0c: return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "br %u", a) : -1;
  case 0x0d: return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "br_if %u", a) : -1;
  case 0x0e: return put_br_table(p, end, buf, size);
  case 0x0f: return snprintf(buf, size, "return");
  case 0x10: return scp_leb_u32(&p, end, &a) ? put_call(m, a, nm, buf, size) : -1;
  case 0x11: return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "call_indirect (type %u)", a) : -1;
  case 0x1a: return snprintf(buf, size, "drop");
  case 0x1b: return snprintf(buf, size, "select");
  case 0x20: case 0x21: case 0x22: {
    static const char *const v[] = {"local.get", "local.set", "local.tee"};
    return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "%s %u", v[op - 0x20], a) : -1;
  }
  case 0x23: case 0x24:
    return scp_leb_u32(&p, end, &a) ? snprintf(buf, size, "global.%s %u", op == 0x23 ? "get" : "set", a) : -1;
  case 0x3f: return snprintf(buf, size, "memory.size");
  case 0x40: return snprintf(buf, size, "memory.grow");
  case 0x41: return scp_leb_s32(&p, end, &s32) ? snprintf(buf, size, "i32.const %d", s32) : -1;
  case 0x42: return scp_leb_s64(&p, end, &s64) ? snprintf(buf, size, "i64.const %lld", (long long)s64) : -1;
  case 0xfc: return put_misc(p, end, buf, size);
  default: break;
  }
  if (mem_natural[op]) return put_memop(op, p, end, buf, size);
  if (!def_names[op]) return -1;
  char name[24];
  text_name(def_names[op], name, sizeof name);
  return snprintf(buf, size, "%s", name);
}

size_t scp_wasm_disasm(const scp_wasm_module *m, uint64_t pc, scp_wasm_import_namer name_import,
                       void *ctx, char *buf, size_t size) {
  if (!size) return 0;
  buf[0] = 0;
  const wasm_func *f = m ? func_at(m, pc) : NULL;
  if (!f) return 0;
  int n;
  if (pc == f->body_start) {
    /* the locals declaration: where a call's entry fuel is booked */
    n = snprintf(buf, size, "(function entry, %u locals)", f->nlocals);
  } else {
    const uint8_t *code = m->bytes + m->code_offset;
    namer nm = {.fn = name_import, .ctx = ctx};
    n = put_op(m, code + pc, code + f->body_end, &nm, buf, size);
  }
  if (n < 0) {
    buf[0] = 0;
    return 0;
  }
  return (size_t)n < size ? (size_t)n : size - 1;
}
