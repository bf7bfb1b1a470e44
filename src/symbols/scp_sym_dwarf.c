/*
 * scp_sym_dwarf.c — the DWARF index of the source mapper, built once per
 * binary through elfutils libdw.
 *
 * One pass over every compile unit collects
 *   - scopes: each DW_TAG_subprogram / DW_TAG_inlined_subroutine that owns
 *     code, with its name, declaration and (inlined) call site, linked to
 *     the enclosing scope (lexical blocks and namespaces are looked through);
 *   - range pieces of those scopes, turned by a sweep into disjoint segments
 *     labelled with the innermost scope, so a pc needs one binary search;
 *   - the line-table rows of every CU, merged into one sorted array.
 * Tombstoned code of removed functions is dropped by address (limits).
 */
#include "symbols/scp_sym_private.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* A range piece before the sweep. */
typedef struct piece {
  uint64_t lo, hi;
  uint32_t scope;
  uint32_t depth;          /* scope nesting depth (subprogram = 0) */
} piece;

/* Name and declaration of an origin DIE, cached by DIE offset: many inlined
 * subroutines share one abstract origin, and demangling is not free. */
typedef struct origin_slot {
  Dwarf_Off off;
  const char *name, *decl_file;   /* name NULL = empty slot */
  uint32_t decl_line;
} origin_slot;

typedef struct index_ctx {
  scp_sym *s;
  sym_addr_limits lim;
  piece *pieces;  size_t npieces, cappieces;
  origin_slot *origins; size_t norigins, caporigins;
  uint32_t *order;                /* row insertion order, for a stable sort */
  uint32_t cu_index;              /* the current unit's index, */
  Dwarf_CU *cu;                   /* the unit, */
  Dwarf_Half version;             /* its DWARF version */
  Dwarf_Files *files;             /* and its file table */
  size_t nfiles;
  const char *comp_dir;           /* its DW_AT_comp_dir, or NULL */
  /* libdw hands out one pointer per file-table entry, so file names are
   * interned through a small cache keyed by that pointer. */
  struct { const char *src, *interned; } files_seen[64];
  int err;                        /* sticky: first failure */
  char why[200];                  /* what made the unit's DWARF unusable */
  char buf[4096];                 /* demangling */
} index_ctx;

static void ctx_fail(index_ctx *c, int code) {
  if (!c->err) c->err = code;
}

static const char *ctx_intern(index_ctx *c, const char *str) {
  const char *r = scp_sym_intern(c->s, str);
  if (!r) ctx_fail(c, SCP_ERR_NOMEM);
  return r;
}

static const char *unit_comp_dir(Dwarf_Die *cudie) {
  Dwarf_Attribute a;
  return dwarf_attr(cudie, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
}

/* Intern a file name returned by libdw (see files_seen).  libdw joins a
 * file with its include directory, but a relative directory (rustc writes
 * "src" for the crate's own files) stays relative: join it with the unit's
 * absolute DW_AT_comp_dir, so each file has one name and files of
 * different crates with the same relative name stay apart.  A relative
 * comp_dir (".", from -fdebug-prefix-map) leaves the name relative. */
/* Drop "." and "dir/.." from an absolute path in place: the same file
 * reached through include directories like "core/src/../../stdarch" and
 * "stdarch" gets one name. */
static void normalize_path(char *p) {
  if (p[0] != '/') return;
  char *out = p;          /* p[0] is '/', kept */
  const char *in = p;
  while (*in) {
    while (*in == '/') in++;
    const char *e = in;
    while (*e && *e != '/') e++;
    size_t n = (size_t)(e - in);
    if (n == 1 && in[0] == '.') {
      /* skip */
    } else if (n == 2 && in[0] == '.' && in[1] == '.') {
      while (out > p && *--out != '/') {}
    } else if (n) {
      *out++ = '/';
      memmove(out, in, n);
      out += n;
    }
    in = e;
  }
  if (out == p) *out++ = '/';
  *out = 0;
}

static const char *intern_file(index_ctx *c, const char *src, const char *comp_dir) {
  size_t slot = (size_t)(scp_hash64((uintptr_t)src) & 63);
  if (c->files_seen[slot].src == src && c->files_seen[slot].interned)
    return c->files_seen[slot].interned;
  char path[4096];
  const char *name = src;
  if (src[0] && src[0] != '/' && comp_dir && comp_dir[0] == '/') {
    const char *rel = src;
    size_t n = strlen(comp_dir);
    while (n > 1 && comp_dir[n - 1] == '/') n--;
    while (rel[0] == '.' && rel[1] == '/') rel += 2;
    if (snprintf(path, sizeof path, "%.*s/%s", (int)n, comp_dir, rel) < (int)sizeof path)
      name = path;
  } else if (src[0] == '/' && (strstr(src, "/./") || strstr(src, "/../")) &&
             snprintf(path, sizeof path, "%s", src) < (int)sizeof path) {
    name = path;
  }
  if (name == path) normalize_path(path);
  const char *r = ctx_intern(c, name);
  c->files_seen[slot].src = src;
  c->files_seen[slot].interned = r;
  return r;
}

static bool addr_valid(const index_ctx *c, uint64_t lo, uint64_t hi) {
  return lo < hi && lo >= c->lim.min && lo < c->lim.max;
}

/* ---- names ------------------------------------------------------------ */

/* The attributes of one DIE that naming needs, gathered in one pass over
 * its attribute list (each dwarf_attr call would rescan it). */
typedef struct die_attrs {
  Dwarf_Attribute origin, spec;
  const char *name, *linkage;
  Dwarf_Word decl_file, decl_line, call_file, call_line;
  bool has_origin, has_spec, has_decl_file, has_decl_line, has_call_file,
      has_call_line;
} die_attrs;

static int collect_attr(Dwarf_Attribute *a, void *arg) {
  die_attrs *d = arg;
  switch (dwarf_whatattr(a)) {
  case DW_AT_abstract_origin: d->origin = *a; d->has_origin = true; break;
  case DW_AT_specification: d->spec = *a; d->has_spec = true; break;
  case DW_AT_name: d->name = dwarf_formstring(a); break;
  case DW_AT_linkage_name:
  case DW_AT_MIPS_linkage_name: d->linkage = dwarf_formstring(a); break;
  case DW_AT_decl_file: d->has_decl_file = dwarf_formudata(a, &d->decl_file) == 0; break;
  case DW_AT_decl_line: d->has_decl_line = dwarf_formudata(a, &d->decl_line) == 0; break;
  case DW_AT_call_file: d->has_call_file = dwarf_formudata(a, &d->call_file) == 0; break;
  case DW_AT_call_line: d->has_call_line = dwarf_formudata(a, &d->call_line) == 0; break;
  default: break;
  }
  return DWARF_CB_OK;
}

static void collect(Dwarf_Die *die, die_attrs *d) {
  memset(d, 0, sizeof *d);
  dwarf_getattrs(die, collect_attr, d, 0);
}

/* A file-table entry of die's CU.  Index 0 means "none" before DWARF 5 and
 * the primary source file from DWARF 5 on (clang's BPF objects use it). */
static const char *cu_file(index_ctx *c, Dwarf_Die *die, Dwarf_Word idx) {
  Dwarf_Files *files = c->files;
  size_t n = c->nfiles;
  Dwarf_Half version = c->version;
  const char *comp_dir = c->comp_dir;
  if (die->cu != c->cu) {   /* declared in another unit */
    Dwarf_Die cu;
    if (!dwarf_diecu(die, &cu, NULL, NULL) ||
        dwarf_cu_info(die->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0 ||
        dwarf_getsrcfiles(&cu, &files, &n) != 0)
      return NULL;
    comp_dir = unit_comp_dir(&cu);
  }
  if (!files || idx >= n || (idx == 0 && version < 5)) return NULL;
  const char *src = dwarf_filesrc(files, (size_t)idx, NULL, NULL);
  return src ? intern_file(c, src, comp_dir) : NULL;
}

/* Name and declaration of the origin DIE o (already collected into d),
 * completed from its DW_AT_specification (C++/Rust out-of-line
 * definitions).  The name is the demangled linkage name when there is one
 * (Rust and C++ give the full path that way), else DW_AT_name. */
static void name_origin(index_ctx *c, Dwarf_Die *o, die_attrs *d,
                        sym_scope *sc) {
  Dwarf_Die spec_die, *decl_die = o;
  die_attrs sd;
  if (d->has_spec && (!d->name || !d->has_decl_file) &&
      dwarf_formref_die(&d->spec, &spec_die)) {
    collect(&spec_die, &sd);
    if (!d->name) d->name = sd.name;
    if (!d->linkage) d->linkage = sd.linkage;
    if (!d->has_decl_file && sd.has_decl_file) {
      d->has_decl_file = true;
      d->decl_file = sd.decl_file;
      decl_die = &spec_die;
    }
    if (!d->has_decl_line && sd.has_decl_line) {
      d->has_decl_line = true;
      d->decl_line = sd.decl_line;
    }
  }
  const char *name = d->name;
  if (d->linkage) {
    const char *dm = scp_sym_demangle(d->linkage, c->s->opts.keep_rust_hash,
                                      c->buf, sizeof c->buf);
    if (dm != d->linkage || !name) name = dm;
  }
  sc->name = ctx_intern(c, name ? name : "<unnamed>");
  const char *df = d->has_decl_file ? cu_file(c, decl_die, d->decl_file) : NULL;
  sc->decl_file = df ? df : "";
  sc->decl_line = d->has_decl_line && d->decl_line <= UINT32_MAX
                      ? (uint32_t)d->decl_line : 0;
}

static bool origin_lookup(index_ctx *c, Dwarf_Off off, origin_slot **slot) {
  if (c->caporigins == 0) return false;
  size_t mask = c->caporigins - 1;
  for (size_t i = scp_hash64(off) & mask;; i = (i + 1) & mask) {
    if (!c->origins[i].name || c->origins[i].off == off) {
      *slot = &c->origins[i];
      return c->origins[i].name != NULL;
    }
  }
}

static bool origin_grow(index_ctx *c) {
  if ((c->norigins + 1) * 4 < c->caporigins * 3) return true;
  size_t ncap = c->caporigins ? c->caporigins * 2 : 256;
  origin_slot *old = c->origins;
  size_t oldcap = c->caporigins;
  c->origins = calloc(ncap, sizeof *c->origins);
  if (!c->origins) {
    c->origins = old;
    return false;
  }
  c->caporigins = ncap;
  for (size_t i = 0; i < oldcap; i++) {
    if (!old[i].name) continue;
    origin_slot *slot;
    origin_lookup(c, old[i].off, &slot);
    *slot = old[i];
  }
  free(old);
  return true;
}

/* Fill name, declaration and call site of the scope DIE die.  Many inlined
 * subroutines share one abstract origin: its description is cached by DIE
 * offset. */
static void describe(index_ctx *c, Dwarf_Die *die, sym_scope *sc) {
  die_attrs d;
  collect(die, &d);
  if (sc->inlined) {
    if (d.has_call_line && d.call_line <= UINT32_MAX)
      sc->call_line = (uint32_t)d.call_line;
    const char *cf = d.has_call_file ? cu_file(c, die, d.call_file) : NULL;
    if (cf) sc->call_file = cf;
  }
  Dwarf_Die origin;
  if (!d.has_origin || !dwarf_formref_die(&d.origin, &origin)) {
    name_origin(c, die, &d, sc);
    return;
  }
  Dwarf_Off off = dwarf_dieoffset(&origin);
  origin_slot *slot = NULL;
  if (!origin_grow(c)) {
    ctx_fail(c, SCP_ERR_NOMEM);
    return;
  }
  if (origin_lookup(c, off, &slot)) {
    sc->name = slot->name;
    sc->decl_file = slot->decl_file;
    sc->decl_line = slot->decl_line;
    return;
  }
  die_attrs od;
  collect(&origin, &od);
  name_origin(c, &origin, &od, sc);
  if (!sc->name || !sc->decl_file) return;
  *slot = (origin_slot){.off = off, .name = sc->name, .decl_file = sc->decl_file,
                        .decl_line = sc->decl_line};
  c->norigins++;
}

/* ---- scopes and pieces ------------------------------------------------ */

/* Add the scope for die (a subprogram or inlined subroutine) with its valid
 * range pieces.  Returns its index, or SYM_NONE when it has no live code
 * (a declaration, an abstract instance, a removed function). */
static uint32_t add_scope(index_ctx *c, Dwarf_Die *die, bool inlined,
                          uint32_t parent, uint32_t depth) {
  scp_sym *s = c->s;
  uint32_t id = (uint32_t)s->nscopes;
  size_t first = c->npieces;
  uint64_t minlo = UINT64_MAX;
  Dwarf_Addr base, start, end;
  ptrdiff_t off = 0;
  while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
    if (end > c->lim.max) end = c->lim.max;
    if (!addr_valid(c, start, end)) continue;
    if (!scp_grow(&c->pieces, &c->cappieces, c->npieces + 1, sizeof *c->pieces)) {
      ctx_fail(c, SCP_ERR_NOMEM);
      return SYM_NONE;
    }
    c->pieces[c->npieces++] = (piece){.lo = start, .hi = end, .scope = id, .depth = depth};
    if (start < minlo) minlo = start;
  }
  /* off < 0: unreadable ranges; keep whatever pieces were read. */
  if (c->npieces == first) return SYM_NONE;
  if (id == SYM_NONE ||
      !scp_grow(&s->scopes, &s->capscopes, s->nscopes + 1, sizeof *s->scopes)) {
    ctx_fail(c, SCP_ERR_NOMEM);
    return SYM_NONE;
  }
  sym_scope *sc = &s->scopes[s->nscopes++];
  memset(sc, 0, sizeof *sc);
  sc->parent = parent;
  sc->cu = c->cu_index & 0x7fffffffu;
  sc->inlined = inlined;
  sc->call_file = "";
  sc->decl_file = "";
  /* The lowest live address; for a contiguous function that is low_pc, and
   * for a split one (DW_AT_ranges) DW_AT_low_pc is only a base anyway. */
  sc->entry = minlo;
  describe(c, die, sc);
  if (!sc->name) sc->name = "";
  if (!sc->decl_file) sc->decl_file = "";
  return id;
}

/* Pieces by start, outer (longer) first, then shallower scope first. */
static int cmp_piece(const void *a, const void *b) {
  const piece *x = a, *y = b;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  if (x->hi != y->hi) return x->hi > y->hi ? -1 : 1;       /* outer first */
  if (x->depth != y->depth) return x->depth < y->depth ? -1 : 1;
  return x->scope < y->scope ? -1 : x->scope > y->scope;
}

static void walk(index_ctx *c, Dwarf_Die *first, uint32_t parent,
                 uint32_t depth, int die_depth) {
  if (die_depth > SYM_MAX_DIE_DEPTH) {
    snprintf(c->why, sizeof c->why, "DIE nesting deeper than %d", SYM_MAX_DIE_DEPTH);
    ctx_fail(c, SCP_ERR_DWARF);
    return;
  }
  Dwarf_Die die = *first, child;
  do {
    if (c->err) return;
    uint32_t inner = parent, inner_depth = depth;
    size_t first_piece = c->npieces;
    bool descend, root = false;
    switch (dwarf_tag(&die)) {
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine: {
      /* An inlined subroutine outside any function is malformed; it then
       * stands alone like a subprogram. */
      bool inl = dwarf_tag(&die) == DW_TAG_inlined_subroutine && parent != SYM_NONE;
      uint32_t id = add_scope(c, &die, inl, inl ? parent : SYM_NONE,
                              inl ? depth + 1 : 0);
      /* Without live code the children hold no code either. */
      descend = id != SYM_NONE;
      root = descend && !inl;
      inner = id;
      inner_depth = inl ? depth + 1 : 0;
      break;
    }
    case DW_TAG_lexical_block:
    case DW_TAG_namespace:
    case DW_TAG_module:
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
    case DW_TAG_union_type:
    case DW_TAG_interface_type:
      descend = true;
      break;
    default:
      descend = false;
      break;
    }
    if (descend && dwarf_haschildren(&die) && dwarf_child(&die, &child) == 0)
      walk(c, &child, inner, inner_depth, die_depth + 1);
    /* Sort each function's pieces now, while they are few and hot: when
     * functions come in address order (the usual case) the whole array is
     * then sorted and the sweep needs no global sort. */
    if (root && c->npieces - first_piece > 1)
      qsort(c->pieces + first_piece, c->npieces - first_piece,
            sizeof *c->pieces, cmp_piece);
  } while (dwarf_siblingof(&die, &die) == 0);
}

/* ---- line rows -------------------------------------------------------- */

static const char *row_file(index_ctx *c, Dwarf_Line *l) {
  const char *src = dwarf_linesrc(l, NULL, NULL);
  const char *r = src ? intern_file(c, src, c->comp_dir) : "";
  return r ? r : "";
}

static void add_lines(index_ctx *c, Dwarf_Die *cudie) {
  scp_sym *s = c->s;
  Dwarf_Lines *lines;
  size_t n;
  if (dwarf_getsrclines(cudie, &lines, &n) != 0) {
    if (dwarf_hasattr(cudie, DW_AT_stmt_list))
      scp_sym_warn(s, "unreadable line table: %s", dwarf_errmsg(-1));
    return;
  }
  for (size_t i = 0; i < n && !c->err; i++) {
    Dwarf_Line *l = dwarf_onesrcline(lines, i);
    Dwarf_Addr addr;
    int lineno = 0;
    bool endseq = false;
    if (!l || dwarf_lineaddr(l, &addr) != 0) continue;
    dwarf_lineno(l, &lineno);
    dwarf_lineendsequence(l, &endseq);
    /* An end_sequence row may sit exactly at the end of the code. */
    if (addr < c->lim.min || addr > c->lim.max ||
        (addr == c->lim.max && !endseq))
      continue;
    if (!scp_grow(&s->rows, &s->caprows, s->nrows + 1, sizeof *s->rows)) {
      ctx_fail(c, SCP_ERR_NOMEM);
      return;
    }
    const char *file = row_file(c, l);
    if (!file) return;
    s->rows[s->nrows++] = (sym_row){.addr = addr, .file = file,
                                    .line = lineno > 0 ? (uint32_t)lineno : 0,
                                    .cu = c->cu_index & 0x7fffffffu, .end_sequence = endseq};
  }
}

/* ---- sorting and the segment sweep ------------------------------------ */


static bool emit_seg(scp_sym *s, uint64_t lo, uint64_t hi, uint32_t scope) {
  if (lo >= hi) return true;
  if (s->nsegs && s->segs[s->nsegs - 1].hi == lo &&
      s->segs[s->nsegs - 1].scope == scope) {
    s->segs[s->nsegs - 1].hi = hi;
    return true;
  }
  if (!scp_grow(&s->segs, &s->capsegs, s->nsegs + 1, sizeof *s->segs))
    return false;
  s->segs[s->nsegs++] = (sym_seg){.lo = lo, .hi = hi, .scope = scope};
  return true;
}

/* Turn nested pieces into disjoint segments labelled with the innermost
 * scope.  Pieces arrive sorted by (lo, outer first); a stack holds the open
 * ones.  A piece sticking out of its enclosing piece (malformed DWARF, or
 * two functions folded onto the same code) is clipped to it, so the result
 * is always disjoint. */
static int sweep(index_ctx *c) {
  scp_sym *s = c->s;
  bool in_order = true;
  for (size_t i = 1; i < c->npieces && in_order; i++)
    in_order = cmp_piece(&c->pieces[i - 1], &c->pieces[i]) <= 0;
  if (!in_order) qsort(c->pieces, c->npieces, sizeof *c->pieces, cmp_piece);
  piece *stack = malloc((c->npieces + 1) * sizeof *stack);
  if (!stack) return SCP_ERR_NOMEM;
  size_t top = 0;
  uint64_t cursor = 0;
  bool ok = true;
  for (size_t i = 0; i < c->npieces && ok; i++) {
    piece p = c->pieces[i];
    while (top && stack[top - 1].hi <= p.lo) {
      ok = ok && emit_seg(s, cursor, stack[top - 1].hi, stack[top - 1].scope);
      cursor = stack[top - 1].hi;
      top--;
    }
    if (top) {
      piece *t = &stack[top - 1];
      if (p.hi > t->hi) p.hi = t->hi;
      ok = ok && emit_seg(s, cursor, p.lo, t->scope);
    }
    cursor = p.lo;
    stack[top++] = p;
  }
  while (top && ok) {
    ok = emit_seg(s, cursor, stack[top - 1].hi, stack[top - 1].scope);
    if (stack[top - 1].hi > cursor) cursor = stack[top - 1].hi;
    top--;
  }
  free(stack);
  return ok ? SCP_OK : SCP_ERR_NOMEM;
}

static int cmp_row(const void *a, const void *b, void *arg) {
  const sym_row *rows = arg;
  const uint32_t *x = a, *y = b;
  const sym_row *rx = &rows[*x], *ry = &rows[*y];
  if (rx->addr != ry->addr) return rx->addr < ry->addr ? -1 : 1;
  /* At one address an end_sequence row comes before the row starting the
   * next sequence, so a lookup lands in the new sequence. */
  if (rx->end_sequence != ry->end_sequence) return rx->end_sequence ? -1 : 1;
  return *x < *y ? -1 : *x > *y;
}

static int sort_rows(index_ctx *c) {
  scp_sym *s = c->s;
  if (s->nrows == 0) return SCP_OK;
  /* libdw hands each CU's rows sorted the same way, and CUs usually come in
   * address order: then the concatenation is sorted already. */
  bool in_order = true;
  for (size_t i = 1; i < s->nrows && in_order; i++) {
    const sym_row *a = &s->rows[i - 1], *b = &s->rows[i];
    in_order = a->addr < b->addr ||
             (a->addr == b->addr && a->end_sequence >= b->end_sequence);
  }
  if (in_order) return SCP_OK;
  if (s->nrows > UINT32_MAX) return SCP_ERR_NOMEM;
  c->order = malloc(s->nrows * sizeof *c->order);
  if (!c->order) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < s->nrows; i++) c->order[i] = (uint32_t)i;
  qsort_r(c->order, s->nrows, sizeof *c->order, cmp_row, s->rows);
  sym_row *sorted = malloc(s->nrows * sizeof *sorted);
  if (!sorted) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < s->nrows; i++) sorted[i] = s->rows[c->order[i]];
  free(s->rows);
  s->rows = sorted;
  s->caprows = s->nrows;
  return SCP_OK;
}

static int cmp_sub(const void *a, const void *b, void *arg) {
  const sym_scope *sc = arg;
  const uint32_t *x = a, *y = b;
  if (sc[*x].entry != sc[*y].entry) return sc[*x].entry < sc[*y].entry ? -1 : 1;
  return *x < *y ? -1 : *x > *y;
}

static int index_subprograms(scp_sym *s) {
  size_t n = 0;
  for (size_t i = 0; i < s->nscopes; i++) n += !s->scopes[i].inlined;
  s->subs = malloc((n ? n : 1) * sizeof *s->subs);
  if (!s->subs) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < s->nscopes; i++)
    if (!s->scopes[i].inlined) s->subs[s->nsubs++] = (uint32_t)i;
  if (s->nsubs) qsort_r(s->subs, s->nsubs, sizeof *s->subs, cmp_sub, s->scopes);
  return SCP_OK;
}

/* ---- entry points ----------------------------------------------------- */

void scp_sym_index_clear(scp_sym *s) {
  free(s->scopes); s->scopes = NULL; s->nscopes = s->capscopes = 0;
  free(s->segs);   s->segs = NULL;   s->nsegs = s->capsegs = 0;
  free(s->subs);   s->subs = NULL;   s->nsubs = 0;
  free(s->rows);   s->rows = NULL;   s->nrows = s->caprows = 0;
  s->has_dwarf = false;
}

/* ---- the units -------------------------------------------------------- */

typedef enum unit_step { UNIT_END, UNIT_OK, UNIT_REFUSED, UNIT_STOP } unit_step;

/* A walk over the units of .debug_info by header offset.  A refused header
 * (see scp_sym_units.c) is stepped over by its length, so the units after
 * it are still read. */
typedef struct unit_walk {
  Dwarf *dw;
  const sym_unit_check *check;
  Dwarf_Off off;                  /* the next unit header; -1 at the end */
} unit_walk;

/* The unit at w->off: UNIT_OK with its CU DIE, version and type, or
 * UNIT_REFUSED (a damaged header: w->off moves past it), UNIT_STOP (no way
 * to the units from there on), UNIT_END.  *unit_off is its offset. */
static unit_step unit_next(unit_walk *w, Dwarf_Die *cudie, Dwarf_Half *version,
                           uint8_t *unit_type, Dwarf_Off *unit_off) {
  Dwarf_Off off = w->off, next;
  size_t hsize;
  Dwarf_Half ver;
  *unit_off = off;
  if (off == (Dwarf_Off)-1) return UNIT_END;
  if (off >= w->check->stop) return UNIT_STOP;
  int rc = dwarf_next_unit(w->dw, off, &next, &hsize, &ver, NULL, NULL, NULL, NULL, NULL);
  if (rc > 0) return UNIT_END;
  if (rc < 0) return UNIT_STOP;
  w->off = next;
  /* libdw interns units in section order and only on demand: it must meet
   * a refused unit too, or it would try it again for the next one. */
  Dwarf_Die die;
  bool found = dwarf_offdie(w->dw, off + hsize, &die) != NULL;
  if (ver < 2 || ver > 5 || !found) return UNIT_REFUSED;
  if (dwarf_cu_info(die.cu, version, unit_type, cudie, NULL, NULL, NULL, NULL) != 0)
    return UNIT_REFUSED;
  return UNIT_OK;
}

/* Line rows of every unit, to allocate them once: growing a large array by
 * doubling copies it again and again.  libdw keeps each unit's table, so
 * this parses nothing twice. */
static size_t count_rows(Dwarf *dw, const sym_unit_check *check) {
  unit_walk w = {.dw = dw, .check = check, .off = 0};
  Dwarf_Die cudie;
  Dwarf_Half version;
  uint8_t unit_type;
  Dwarf_Off off;
  size_t nrows = 0;
  unit_step st;
  while ((st = unit_next(&w, &cudie, &version, &unit_type, &off)) == UNIT_OK ||
         st == UNIT_REFUSED) {
    Dwarf_Lines *lines;
    size_t n;
    if (st == UNIT_OK && dwarf_getsrclines(&cudie, &lines, &n) == 0) nrows += n;
  }
  return nrows;
}

/* A unit whose DWARF cannot be used loses only itself: what it added is
 * taken back, so its functions fall back to the name section, and the
 * first such unit is named in the warning. */
typedef struct unit_mark {
  size_t rows, scopes, pieces;
} unit_mark;

static void drop_unit(index_ctx *c, const unit_mark *m, size_t *nbad, char *first, size_t cap) {
  c->s->nrows = m->rows;
  c->s->nscopes = m->scopes;
  c->npieces = m->pieces;
  c->err = 0;
  if (!(*nbad)++) snprintf(first, cap, "%s", c->why);
}

/* Index one unit: its line rows and its scopes.  A unit whose first DIE
 * has no abbreviation, or whose DIEs nest too deep, is dropped. */
static void index_unit(index_ctx *c, Dwarf *dw, Dwarf_Die *cudie, Dwarf_Half version,
                       unsigned long long unit_off, size_t *ncus, size_t *nbad,
                       char *first_bad, size_t cap) {
  scp_sym *s = c->s;
  int tag = dwarf_tag(cudie);
  unit_mark mark = {.rows = s->nrows, .scopes = s->nscopes, .pieces = c->npieces};
  if (tag == DW_TAG_invalid) {
    /* the unit's first DIE names an abbreviation its table does not
     * have: .debug_abbrev (or the unit's offset into it) is damaged */
    Dwarf_Off abbrev = 0, unit_next_off;
    size_t hsize;
    dwarf_next_unit(dw, unit_off, &unit_next_off, &hsize, NULL, &abbrev, NULL, NULL, NULL, NULL);
    snprintf(c->why, sizeof c->why, "damaged .debug_abbrev at offset 0x%llx (the unit at "
             ".debug_info offset 0x%llx): %s", (unsigned long long)abbrev, unit_off,
             dwarf_errmsg(-1));
    drop_unit(c, &mark, nbad, first_bad, cap);
    (*ncus)++;
    return;
  }
  if (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit) return;
  c->cu_index = (uint32_t)(*ncus)++;
  c->cu = cudie->cu;
  c->version = version;
  c->files = NULL;
  c->nfiles = 0;
  c->comp_dir = unit_comp_dir(cudie);
  if (dwarf_getsrcfiles(cudie, &c->files, &c->nfiles) != 0) {
    c->files = NULL;
    c->nfiles = 0;
  }
  add_lines(c, cudie);
  Dwarf_Die child;
  if (!c->err && dwarf_haschildren(cudie) && dwarf_child(cudie, &child) == 0)
    walk(c, &child, SYM_NONE, 0, 0);
  if (c->err == SCP_ERR_DWARF) {
    size_t n = strlen(c->why);
    snprintf(c->why + n, sizeof c->why - n, " (the unit at .debug_info offset 0x%llx)", unit_off);
    drop_unit(c, &mark, nbad, first_bad, cap);
  }
}

int scp_sym_index_dwarf(scp_sym *s, Dwarf *dw, const sym_addr_limits *lim,
                        const sym_unit_check *check) {
  index_ctx c = {.s = s, .lim = *lim};
  size_t ncus = 0, nbad = 0;
  char first_bad[400] = "";
  size_t nrows = count_rows(dw, check);
  /* Scopes and their pieces are fewer than rows in compiled code: reserve
   * that much (untouched capacity costs no page faults). */
  if (nrows && (!scp_grow(&s->rows, &s->caprows, nrows, sizeof *s->rows) ||
                !scp_grow(&c.pieces, &c.cappieces, nrows, sizeof *c.pieces) ||
                !scp_grow(&s->scopes, &s->capscopes, nrows / 2, sizeof *s->scopes)))
    c.err = SCP_ERR_NOMEM;
  unit_walk w = {.dw = dw, .check = check, .off = 0};
  Dwarf_Die cudie;
  Dwarf_Half version;
  uint8_t unit_type;
  Dwarf_Off off;
  unit_step st = UNIT_END;
  while (!c.err && (st = unit_next(&w, &cudie, &version, &unit_type, &off)) != UNIT_END) {
    unsigned long long unit_off = off;
    if (st == UNIT_OK) {
      index_unit(&c, dw, &cudie, version, unit_off, &ncus, &nbad, first_bad, sizeof first_bad);
      continue;
    }
    /* a damaged header: this unit is lost, and when its length cannot be
     * used, so are the ones after it */
    const char *why = st == UNIT_STOP && off == check->stop ? check->stop_why
                      : off == check->first ? check->why : dwarf_errmsg(-1);
    if (!nbad++)
      snprintf(first_bad, sizeof first_bad, "damaged .debug_info at offset 0x%llx: %s (%s)",
               unit_off, why, st == UNIT_STOP ? "this unit and those after it" : "this unit only");
    if (st == UNIT_STOP) break;
  }
  if (!c.err && nbad && s->nscopes == 0) {
    scp_sym_warn(s, "%s", first_bad);   /* nothing left: no DWARF at all */
    c.err = SCP_ERR_DWARF;
  }
  if (!c.err && nbad) {
    scp_sym_warn(s, "%s", first_bad);
    s->dwarf_partial = true;
  }
  if (!c.err && ncus == 0 && s->nscopes == 0) {
    scp_sym_warn(s, "DWARF has no compile units");
    c.err = SCP_ERR_DWARF;
  }
  if (!c.err) c.err = sweep(&c);
  if (!c.err) c.err = sort_rows(&c);
  if (!c.err) c.err = index_subprograms(s);
  free(c.pieces);
  free(c.origins);
  free(c.order);
  if (c.err) {
    if (c.err == SCP_ERR_NOMEM) scp_sym_warn(s, "out of memory indexing DWARF");
    scp_sym_index_clear(s);
    return c.err;
  }
  s->has_dwarf = true;
  return SCP_OK;
}
