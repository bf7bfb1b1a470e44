/*
 * size.c — the size tree (scp_size.h): the nodes both container walkers
 * make, Rust paths folded into crate and module, and the profile built
 * from the raw tree with the symbol mapper as resolver, so that function
 * bytes split by inlined function and source line exactly as an
 * execution profile's cost does.
 */
#include "size/size_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t scp_size_node(size_b *b, uint32_t parent, const char *name) {
  if (parent == SCP_NODE_NONE) return SCP_NODE_NONE;
  uint32_t id = scp_strtab_intern(&b->names, name);
  uint32_t n = id == UINT32_MAX ? SCP_NODE_NONE
                                : scp_tree_enter(&b->t, parent, 0, SCP_KIND_VM, SIZE_MOD_NAMED, id);
  if (n == SCP_NODE_NONE) b->oom = true;
  return n;
}

void scp_size_self(size_b *b, uint32_t node, uint64_t n) {
  if (node != SCP_NODE_NONE) scp_tree_add(&b->t, node, 0, n);
}

void scp_size_part(size_b *b, uint32_t parent, const char *name, uint64_t n) {
  if (n) scp_size_self(b, scp_size_node(b, parent, name), n);
}

static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Length of the module part of a Rust-style path: the text before its
 * last "::" outside angle brackets ("core::fmt" of "core::fmt::write",
 * "<u32 as core::fmt::Debug>" of "<u32 as core::fmt::Debug>::fmt"); 0
 * when there is none (a C name, "func[3]"). */
static size_t module_len(const char *name) {
  int depth = 0;
  size_t last = 0;
  for (size_t i = 0; name[i]; i++) {
    char c = name[i];
    if (c == '<') depth++;
    else if (c == '>' && depth > 0 && !(i > 0 && name[i - 1] == '-')) depth--;
    else if (c == ':' && name[i + 1] == ':' && depth == 0) last = i++;
  }
  return last;
}

/* The crate of a module path: its first identifier followed by "::"
 * ("core" of "<u32 as core::fmt::Debug>", the self type's crate first). */
static size_t crate_of(const char *mod, size_t n, size_t *start) {
  for (size_t i = 0; i < n; i++) {
    if (!ident_char(mod[i]) || (i > 0 && ident_char(mod[i - 1]))) continue;
    size_t k = i;
    while (k < n && ident_char(mod[k])) k++;
    if (k + 1 < n && mod[k] == ':' && mod[k + 1] == ':') {
      *start = i;
      return k - i;
    }
  }
  *start = 0;
  return n;
}

/* The node a function named name hangs under: parent, or its crate and
 * module below parent. */
static uint32_t group_of(size_b *b, uint32_t parent, const char *name) {
  size_t mlen = module_len(name);
  if (!mlen) return parent;
  size_t cstart, clen = crate_of(name, mlen, &cstart);
  char label[512];
  snprintf(label, sizeof label, "crate:%.*s", (int)clen, name + cstart);
  uint32_t crate = scp_size_node(b, parent, label);
  if (clen == mlen) return crate;
  snprintf(label, sizeof label, "module:%.*s", (int)mlen, name);
  return scp_size_node(b, crate, label);
}

void scp_size_function(size_b *b, uint32_t parent, uint32_t func_index, uint64_t lo,
                       uint64_t hi, uint64_t step) {
  scp_frame_info fi;
  memset(&fi, 0, sizeof fi);
  if (scp_sym_function(b->s, func_index, &fi) != SCP_OK || !fi.name) fi.name = "";
  uint32_t at = group_of(b, parent, fi.name);
  if (at == SCP_NODE_NONE) return;
  uint32_t id = scp_tree_enter(&b->t, at, 0, SCP_KIND_GUEST, SIZE_MOD_CODE, func_index);
  if (id == SCP_NODE_NONE) {
    b->oom = true;
    return;
  }
  for (uint64_t pc = lo; pc < hi; pc += step) {
    uint64_t n = hi - pc < step ? hi - pc : step;
    if (!scp_tree_add_pc(&b->t, id, pc, &n)) b->oom = true;
  }
}

/* ---- the resolver: the mapper for code, names for the rest --------------- */

static int node_frame(void *ctx, const scp_tree_node *n, scp_frame_info *out) {
  size_b *b = ctx;
  if (n->kind == SCP_KIND_GUEST) {
    int rc = scp_sym_function(b->s, n->callee, out);
    if (rc != SCP_ERR_NOTFOUND) return rc;
  }
  out->source = SCP_SRC_HOST;
  out->name = n->kind == SCP_KIND_ROOT ? b->root_name : scp_strtab_get(&b->names, n->callee);
  return SCP_OK;
}

static size_t pc_chain(void *ctx, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  size_b *b = ctx;
  *chain = NULL;
  return module == SIZE_MOD_CODE ? scp_sym_chain(b->s, pc, chain) : 0;
}

static int finish(size_b *b, const char *format, scp_profile **out, scp_error *err) {
  static const scp_metric metric = {.name = "Size", .unit = "bytes", .limit = 0};
  if (scp_tree_total(&b->t, 0) != b->len)
    return scp_fail(err, SCP_ERR_INTERNAL, "the size tree holds %llu bytes of %zu",
                    (unsigned long long)scp_tree_total(&b->t, 0), b->len);
  scp_resolver r = {.ctx = b, .node_frame = node_frame, .pc_chain = pc_chain};
  int rc = scp_prof_build(&b->t, &metric, &r, out, err);
  if (rc) return rc;
  scp_profile *p = *out;
  char title[600], n[32];
  snprintf(title, sizeof title, "scprof size: %s", b->root_name);
  snprintf(n, sizeof n, "%zu", b->len);
  p->title = scp_strtab_intern_safe(&p->strs, title, strlen(title));
  if (p->title == UINT32_MAX || scp_prof_meta(p, "file", b->root_name) ||
      scp_prof_meta(p, "format", format) || scp_prof_meta(p, "bytes", n) ||
      scp_prof_meta(p, "debug info", scp_sym_has_dwarf(b->s) ? "DWARF" : "none"))
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  else if (scp_profile_total(p, 0) != b->len || !scp_prof_check(p))
    rc = scp_fail(err, SCP_ERR_INTERNAL, "the size profile does not add up");
  if (rc) {
    scp_profile_destroy(p);
    *out = NULL;
  }
  return rc;
}

int scp_size_build(const uint8_t *bytes, size_t len, const scp_size_opts *o,
                   scp_profile **out, scp_error *err) {
  *out = NULL;
  scp_size_opts none = {0};
  if (!o) o = &none;
  if (o->warn && o->warn_size) o->warn[0] = 0;
  size_b b;
  memset(&b, 0, sizeof b);
  b.bytes = bytes;
  b.len = len;
  b.root_name = o->name ? o->name : "module";
  bool wasm = len >= 4 && !memcmp(bytes, "\0asm", 4);
  int rc = scp_sym_open(bytes, len, &o->sym, &b.s, err);
  if (rc) return rc;
  if (scp_tree_init(&b.t, 1)) {
    scp_sym_destroy(b.s);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  rc = wasm ? scp_size_wasm(&b, err) : scp_size_elf(&b, err);
  if (!rc && b.oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (!rc) rc = finish(&b, wasm ? "WASM" : "ELF", out, err);
  /* an ELF is a Solana program: its report speaks Solana's words */
  if (!rc && !wasm) (*out)->chain = SCP_CHAIN_SOLANA;
  if (!rc && o->warn && o->warn_size) snprintf(o->warn, o->warn_size, "%s", scp_sym_warning(b.s));
  scp_tree_free(&b.t);
  scp_strtab_free(&b.names);
  scp_sym_destroy(b.s);
  return rc;
}
