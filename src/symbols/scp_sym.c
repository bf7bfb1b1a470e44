/*
 * scp_sym.c — the source mapper's queries: inline chains per pc (cached),
 * function frames, demangling, and feeding .debug_* sections to libdw
 * through an in-memory ELF.
 */
#include "symbols/scp_sym_private.h"

#include <libelf.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

/* Key of a chain not shared with any other pc (see chain_key). */
#define KEY_NONE UINT64_MAX

/* Chains are carved out of blocks of this many frames. */
#define SYM_BLOCK_FRAMES 4096

/* ---- shared helpers --------------------------------------------------- */

const char *scp_sym_intern(scp_sym *s, const char *str) {
  uint32_t id = scp_strtab_intern(&s->strs, str ? str : "");
  return id == UINT32_MAX ? NULL : scp_strtab_get(&s->strs, id);
}

const char *scp_sym_intern_n(scp_sym *s, const char *str, size_t len) {
  uint32_t id = scp_strtab_intern_n(&s->strs, str, len);
  return id == UINT32_MAX ? NULL : scp_strtab_get(&s->strs, id);
}

void scp_sym_warn(scp_sym *s, const char *fmt, ...) {
  if (s->warning[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->warning, sizeof s->warning, fmt, ap);
  va_end(ap);
}

scp_sym *scp_sym_new(const scp_sym_opts *opts) {
  scp_sym *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  if (opts) s->opts = *opts;
  /* Reserve id 0 for "" so that "" interns like any other string. */
  if (!scp_sym_intern(s, "") ||
      !scp_grow(&s->chains, &s->capchains, 2, sizeof *s->chains)) {
    scp_strtab_free(&s->strs);
    free(s);
    return NULL;
  }
  /* Chain id 0: not resolved yet; id 1: the empty chain (no code). */
  s->chains[0] = s->chains[1] = (sym_chain){.frames = NULL, .n = 0};
  s->nchains = 2;
  s->last_key = KEY_NONE;
  return s;
}

void scp_sym_destroy(scp_sym *s) {
  if (!s) return;
  scp_sym_index_clear(s);
  free(s->funcs);
  free(s->code);
  free(s->cache);
  free(s->chains);
  for (size_t i = 0; i < s->npages; i++) free(s->pages[i]);
  free(s->pages);
  for (sym_block *b = s->blocks, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  scp_strtab_free(&s->strs);
  free(s);
}

int scp_sym_open(const uint8_t *bytes, size_t len, const scp_sym_opts *opts,
                 scp_sym **out, scp_error *err) {
  if (bytes && len >= 4 && memcmp(bytes, "\177ELF", 4) == 0)
    return scp_sym_open_elf(bytes, len, opts, out, err);
  return scp_sym_open_wasm(bytes, len, opts, out, err);
}

const char *scp_sym_warning(const scp_sym *s) {
  return s ? s->warning : "";
}

/* ---- demangling ------------------------------------------------------- */

/* The mangled part of name ("_Z..." / "_R..."), or NULL.  A Mach-O style
 * extra leading underscore is skipped: libiberty does not expect it. */
static const char *mangled_part(const char *name) {
  if (name[0] == '_' && name[1] == '_' && (name[2] == 'Z' || name[2] == 'R'))
    return name + 1;
  return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R') ? name : NULL;
}

const char *scp_sym_demangle(const char *name, bool keep_rust_hash, char *buf,
                             size_t len) {
  const char *mangled = name ? mangled_part(name) : NULL;
  if (!mangled || !buf || len == 0) return name;
  /* DMGL_AUTO tries Rust (legacy and v0) first, then C++; DMGL_RUST alone
   * would stop after Rust. */
  int flags = DMGL_PARAMS | DMGL_AUTO;
  /* DMGL_VERBOSE is what keeps the ::h<hash> of legacy Rust names. */
  if (keep_rust_hash) flags |= DMGL_VERBOSE;
  char *d = cplus_demangle(mangled, flags);
  if (!d) return name;
  snprintf(buf, len, "%s", d);
  free(d);
  return buf;
}

/* Names in the WASM name section are usually already demangled by the
 * linker, hash included: drop a trailing "::h" + 16 hex digits unless the
 * caller keeps hashes. */
const char *scp_sym_clean_name(scp_sym *s, const char *name, size_t len) {
  char small[512], buf[4096];
  /* The name is not NUL-terminated where it lives (WASM, ELF strtab copy). */
  char *raw = len < sizeof small ? small : malloc(len + 1);
  if (!raw) return NULL;
  memcpy(raw, name, len);
  raw[len] = 0;
  const char *d = scp_sym_demangle(raw, s->opts.keep_rust_hash, buf, sizeof buf);
  size_t n = strlen(d);
  if (!s->opts.keep_rust_hash && n > 19 && memcmp(d + n - 19, "::h", 3) == 0 &&
      strspn(d + n - 16, "0123456789abcdef") == 16)
    n -= 19;
  const char *r = scp_sym_intern_n(s, d, n);
  if (raw != small) free(raw);
  return r;
}

/* ---- in-memory ELF for libdw ------------------------------------------ */

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* Lay out a little-endian ELF (class 32 or 64, chosen by the address size
 * of the code) whose sections are exactly the debug sections given.  No
 * relocations: the data is used as it is.  Returns a malloc'd image. */
uint8_t *scp_sym_debug_elf(const sym_section *secs, size_t n, bool elf64,
                           size_t *size_out) {
  size_t ehsize = elf64 ? 64 : 52, shentsize = elf64 ? 64 : 40;
  size_t size = ehsize, strsize = 1 + sizeof ".shstrtab";
  for (size_t i = 0; i < n; i++) {
    if (secs[i].size > SIZE_MAX / 4 || size > SIZE_MAX / 4) return NULL;
    size += secs[i].size;
    strsize += strlen(secs[i].name) + 1;
  }
  size_t stroff = size;
  size += strsize;
  size = (size + 7) & ~(size_t)7;
  size_t shoff = size, shnum = n + 2;
  size += shnum * shentsize;
  if (!elf64 && size > UINT32_MAX) return NULL;
  uint8_t *img = calloc(1, size);
  if (!img) return NULL;

  memcpy(img, "\177ELF", 4);
  img[4] = elf64 ? ELFCLASS64 : ELFCLASS32;
  img[5] = ELFDATA2LSB;
  img[6] = EV_CURRENT;
  put16(img + 16, ET_REL);
  put16(img + 18, EM_NONE);
  put32(img + 20, EV_CURRENT);
  if (elf64) {
    put64(img + 40, shoff);
    put16(img + 52, (uint32_t)ehsize);
    put16(img + 58, (uint32_t)shentsize);
    put16(img + 60, (uint32_t)shnum);
    put16(img + 62, (uint32_t)(shnum - 1));
  } else {
    put32(img + 32, (uint32_t)shoff);
    put16(img + 40, (uint32_t)ehsize);
    put16(img + 46, (uint32_t)shentsize);
    put16(img + 48, (uint32_t)shnum);
    put16(img + 50, (uint32_t)(shnum - 1));
  }
  size_t dataoff = ehsize, nameoff = 1;
  char *strs = (char *)img + stroff;
  for (size_t i = 0; i <= n; i++) {
    bool last = i == n;
    const char *name = last ? ".shstrtab" : secs[i].name;
    uint64_t off = last ? stroff : dataoff, sz = last ? strsize : secs[i].size;
    uint32_t type = last ? SHT_STRTAB : SHT_PROGBITS;
    if (!last) {
      if (sz) memcpy(img + dataoff, secs[i].data, sz);
      dataoff += sz;
    }
    size_t nl = strlen(name) + 1;
    memcpy(strs + nameoff, name, nl);
    uint8_t *sh = img + shoff + (i + 1) * shentsize;
    put32(sh, (uint32_t)nameoff);
    put32(sh + 4, type);
    if (elf64) {
      put64(sh + 24, off);
      put64(sh + 32, sz);
      put64(sh + 48, 1);
    } else {
      put32(sh + 16, (uint32_t)off);
      put32(sh + 20, (uint32_t)sz);
      put32(sh + 32, 1);
    }
    nameoff += nl;
  }
  *size_out = size;
  return img;
}

/* The debug sections the index reads.  Location lists, frame tables,
 * macros and name indexes are left out of the ELF image: often half the
 * debug bytes, never needed for names, lines and inline chains. */
static bool section_needed(const char *name) {
  static const char *const needed[] = {
      ".debug_info", ".debug_abbrev", ".debug_line", ".debug_line_str",
      ".debug_str", ".debug_str_offsets", ".debug_addr", ".debug_ranges",
      ".debug_rnglists"};
  for (size_t i = 0; i < SCP_ARRAY_LEN(needed); i++)
    if (!strcmp(name, needed[i])) return true;
  return false;
}

/* Run scp_sym_check_units over the .debug_info of img, the image
 * scp_sym_debug_elf laid out from secs (their data in order after the ELF
 * header). */
static void check_units(uint8_t *img, const sym_section *secs, size_t n,
                        bool elf64, sym_unit_check *check) {
  size_t off = elf64 ? 64 : 52, info_off = 0, info_size = 0, abbrev_size = 0;
  bool have_info = false, have_abbrev = false;
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(secs[i].name, ".debug_info") && !have_info) {
      have_info = true;
      info_off = off;
      info_size = (size_t)secs[i].size;
    } else if (!strcmp(secs[i].name, ".debug_abbrev") && !have_abbrev) {
      have_abbrev = true;
      abbrev_size = (size_t)secs[i].size;
    }
    off += (size_t)secs[i].size;
  }
  scp_sym_check_units(img + info_off, have_info ? info_size : 0, have_abbrev,
                      abbrev_size, check);
}

int scp_sym_load_dwarf(scp_sym *s, const sym_section *all, size_t nall,
                       bool elf64, const sym_addr_limits *lim) {
  sym_section secs[32];
  size_t n = 0;
  bool has_info = false;
  for (size_t i = 0; i < nall && n < SCP_ARRAY_LEN(secs); i++) {
    if (!section_needed(all[i].name)) continue;
    has_info |= strcmp(all[i].name, ".debug_info") == 0;
    secs[n++] = all[i];
  }
  if (nall == 0) return SCP_OK;
  if (!has_info) {
    scp_sym_warn(s, "debug sections without .debug_info: no DWARF used");
    return SCP_ERR_DWARF;
  }
  size_t size = 0;
  uint8_t *img = scp_sym_debug_elf(secs, n, elf64, &size);
  if (!img) {
    scp_sym_warn(s, "debug sections too large to index");
    return SCP_ERR_NOMEM;
  }
  sym_unit_check check;
  check_units(img, secs, n, elf64, &check);
  int rc = SCP_ERR_DWARF;
  elf_version(EV_CURRENT);
  Elf *elf = elf_memory((char *)img, size);
  Dwarf *dw = NULL;
  if (!elf) {
    scp_sym_warn(s, "cannot read debug sections: %s", elf_errmsg(-1));
  } else if (!(dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL))) {
    scp_sym_warn(s, "unreadable DWARF: %s", dwarf_errmsg(-1));
  } else {
    rc = scp_sym_index_dwarf(s, dw, lim, &check);
  }
  if (dw) dwarf_end(dw);
  if (elf) elf_end(elf);
  free(img);
  return rc;
}

/* ---- lookups ---------------------------------------------------------- */

/* Rows of other units skipped before giving up on a line. */
#define SYM_MAX_ROW_SKIP 256

/* Index of the line row in effect at pc for code of unit cu: the last row
 * of that unit at or below pc, unless it ends a sequence (pc is then in a
 * gap); SIZE_MAX for none.  *next_addr is the address of the first row
 * above pc.  Tries the previous answer and its successor before a binary
 * search. */
static size_t row_index(scp_sym *s, uint64_t pc, uint32_t cu,
                        uint64_t *next_addr) {
  size_t n = s->nrows, r = s->hint_row, found = SIZE_MAX;
  for (int k = 0; k < 2 && r < n; k++, r++) {
    if (s->rows[r].addr <= pc && (r + 1 == n || s->rows[r + 1].addr > pc)) {
      found = r;
      break;
    }
  }
  if (found == SIZE_MAX) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (s->rows[mid].addr <= pc) lo = mid + 1;
      else hi = mid;
    }
    if (lo == 0) {
      *next_addr = n ? s->rows[0].addr : UINT64_MAX;
      return SIZE_MAX;
    }
    found = lo - 1;
  }
  s->hint_row = found;
  /* No row at all lies in (pc, next_addr): every pc there gets this answer. */
  *next_addr = found + 1 < n ? s->rows[found + 1].addr : UINT64_MAX;
  /* Overlapping rows of another unit are dead code: look past them. */
  for (size_t skipped = 0; s->rows[found].cu != cu; skipped++) {
    if (found == 0 || skipped == SYM_MAX_ROW_SKIP) return SIZE_MAX;
    found--;
  }
  return s->rows[found].end_sequence ? SIZE_MAX : found;
}

/* Index of the segment holding pc, or SIZE_MAX; hinted like row_index. */
static size_t seg_index(scp_sym *s, uint64_t pc) {
  size_t n = s->nsegs, g = s->hint_seg;
  for (int k = 0; k < 2 && g < n; k++, g++) {
    if (s->segs[g].lo <= pc && pc < s->segs[g].hi) {
      s->hint_seg = g;
      return g;
    }
  }
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->segs[mid].lo <= pc) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0 || pc >= s->segs[lo - 1].hi) return SIZE_MAX;
  s->hint_seg = lo - 1;
  return lo - 1;
}

static const sym_seg *seg_at(scp_sym *s, uint64_t pc) {
  size_t g = s->has_dwarf ? seg_index(s, pc) : SIZE_MAX;
  return g == SIZE_MAX ? NULL : &s->segs[g];
}

/* The container function whose code holds pc (functions with code are
 * sorted by address after the imports). */
static const sym_func *func_at(const scp_sym *s, uint64_t pc) {
  size_t lo = s->nimports, hi = s->nfuncs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->funcs[mid].lo <= pc) lo = mid + 1;
    else hi = mid;
  }
  if (lo == s->nimports) return NULL;
  const sym_func *f = &s->funcs[lo - 1];
  return pc >= f->lo && pc < f->hi ? f : NULL;
}

static void container_frame(const sym_func *f, scp_frame_info *out) {
  *out = (scp_frame_info){.name = f->name, .file = "", .source = f->source};
}

static void scope_frame(const sym_scope *sc, scp_frame_info *out) {
  *out = (scp_frame_info){
      .name = sc->name,
      .file = sc->decl_file,
      .decl_line = sc->decl_line,
      .decl_file = sc->decl_file,
      .inlined = sc->inlined,
      .source = SCP_SRC_DWARF,
  };
}

/* Last resort for ELF code no symbol covers: a frame named by its address
 * (one per distinct pc, so only binaries without any names pay for it). */
static size_t raw_addr_frame(scp_sym *s, uint64_t pc, scp_frame_info *f) {
  for (size_t i = 0; i < s->ncode; i++) {
    if (pc < s->code[i].lo || pc >= s->code[i].hi) continue;
    char buf[32];
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)pc);
    const char *name = scp_sym_intern(s, buf);
    if (!name) return 0;
    *f = (scp_frame_info){.name = name, .file = "", .source = SCP_SRC_RAW};
    return 1;
  }
  return 0;
}

/* What determines the chain at pc: its innermost scope segment g and line
 * row r (DWARF), else its container function.  Same key, same chain; every
 * pc in [pc, *run_end) has the same key. */
static uint64_t chain_key(scp_sym *s, uint64_t pc, size_t *g, size_t *r,
                          const sym_func **fn, uint64_t *run_end) {
  *g = s->has_dwarf ? seg_index(s, pc) : SIZE_MAX;
  *r = SIZE_MAX;
  *fn = NULL;
  *run_end = pc + 1;
  if (*g != SIZE_MAX) {
    uint64_t next;
    *r = row_index(s, pc, s->scopes[s->segs[*g].scope].cu, &next);
    *run_end = next < s->segs[*g].hi ? next : s->segs[*g].hi;
    return (uint64_t)*g << 32 | (*r == SIZE_MAX ? 0xffffffffu : (uint32_t)*r);
  }
  *fn = func_at(s, pc);
  return *fn ? (1ULL << 63) | (uint64_t)(*fn - s->funcs) : KEY_NONE;
}

/* Build the chain for a key's parts into f (room for SYM_MAX_CHAIN);
 * returns its length. */
static size_t build_chain(scp_sym *s, uint64_t pc, size_t g, size_t r,
                          const sym_func *fn, scp_frame_info *f) {
  if (g == SIZE_MAX) {
    if (!fn) return raw_addr_frame(s, pc, f);
    container_frame(fn, &f[0]);
    return 1;
  }
  const sym_scope *sc = &s->scopes[s->segs[g].scope];
  scope_frame(sc, &f[0]);
  /* The innermost frame's line is the line table's; line 0 means
   * compiler-generated code: the function without a line. */
  if (r != SIZE_MAX && s->rows[r].line) {
    f[0].line = s->rows[r].line;
    f[0].file = s->rows[r].file;
  }
  size_t n = 1;
  /* Each outer frame executes the call site of the frame inside it. */
  while (sc->parent != SYM_NONE && n < SYM_MAX_CHAIN) {
    const sym_scope *outer = &s->scopes[sc->parent];
    scope_frame(outer, &f[n]);
    f[n].line = sc->call_line;
    if (sc->call_file[0]) f[n].file = sc->call_file;
    n++;
    sc = outer;
  }
  return n;
}

static const scp_frame_info *store_frames(scp_sym *s, const scp_frame_info *f,
                                          size_t n) {
  sym_block *b = s->blocks;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > SYM_BLOCK_FRAMES ? n : SYM_BLOCK_FRAMES;
    b = malloc(sizeof *b + cap * sizeof b->frames[0]);
    if (!b) return NULL;
    b->next = s->blocks;
    b->used = 0;
    b->cap = cap;
    s->blocks = b;
  }
  scp_frame_info *dst = &b->frames[b->used];
  memcpy(dst, f, n * sizeof *f);
  b->used += n;
  return dst;
}

/* Resolve pc to a chain id (0 on OOM), shared by [pc, *run_end). */
static uint32_t resolve(scp_sym *s, uint64_t pc, uint64_t *run_end) {
  size_t g, r;
  const sym_func *fn;
  uint64_t key = chain_key(s, pc, &g, &r, &fn, run_end);
  if (key != KEY_NONE && key == s->last_key) return s->last_id;
  scp_frame_info f[SYM_MAX_CHAIN];
  size_t n = build_chain(s, pc, g, r, fn, f);
  if (n == 0) return 1;                       /* the shared empty chain */
  if (s->nchains >= UINT32_MAX ||
      !scp_grow(&s->chains, &s->capchains, s->nchains + 1, sizeof *s->chains))
    return 0;
  const scp_frame_info *stored = store_frames(s, f, n);
  if (!stored) return 0;
  uint32_t id = (uint32_t)s->nchains++;
  s->chains[id] = (sym_chain){.frames = stored, .n = (uint32_t)n};
  s->last_key = key;
  s->last_id = id;
  return id;
}

static sym_cache_slot *cache_find(const scp_sym *s, uint64_t pc) {
  size_t mask = s->capcache - 1;
  for (size_t i = scp_hash64(pc) & mask;; i = (i + 1) & mask)
    if (!s->cache[i].id || s->cache[i].pc == pc) return &s->cache[i];
}

static bool cache_grow(scp_sym *s) {
  if (s->capcache && (s->ncache + 1) * 4 < s->capcache * 3) return true;
  size_t ncap = s->capcache ? s->capcache * 2 : 1024;
  sym_cache_slot *old = s->cache;
  size_t oldcap = s->capcache;
  s->cache = calloc(ncap, sizeof *s->cache);
  if (!s->cache) {
    s->cache = old;
    return false;
  }
  s->capcache = ncap;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].id) *cache_find(s, old[i].pc) = old[i];
  free(old);
  return true;
}

/* The cache cell of pc: a page slot inside the window, else a hash slot.
 * NULL on OOM. */
static uint32_t *cache_cell(scp_sym *s, uint64_t pc) {
  if (pc >= s->win_lo && pc < s->win_hi) {
    uint64_t off = pc - s->win_lo;
    uint32_t **page = &s->pages[off >> SYM_PAGE_BITS];
    if (!*page && !(*page = calloc(SYM_PAGE_PCS, sizeof **page))) return NULL;
    return &(*page)[off & (SYM_PAGE_PCS - 1)];
  }
  if (!cache_grow(s)) return NULL;
  sym_cache_slot *slot = cache_find(s, pc);
  if (!slot->id) {
    slot->pc = pc;
    s->ncache++;
  }
  return &slot->id;
}

void scp_sym_set_window(scp_sym *s, uint64_t lo, uint64_t hi) {
  if (hi <= lo || hi - lo > SYM_MAX_WINDOW) return;
  size_t npages = (size_t)((hi - lo + SYM_PAGE_PCS - 1) >> SYM_PAGE_BITS);
  uint32_t **pages = calloc(npages, sizeof *pages);
  if (!pages) return;   /* no window: the hash serves every pc */
  s->pages = pages;
  s->npages = npages;
  s->win_lo = lo;
  s->win_hi = hi;
}

/* Longest run of pcs filled at once (bounds one lookup's latency). */
#define SYM_MAX_RUN (1u << 16)

/* Give the pcs [lo, hi) inside the window chain id, where not resolved yet
 * (a resolved pc keeps the chain pointer it handed out).  Profiles and scans
 * ask for neighbouring pcs: they then cost one load. */
static void fill_run(scp_sym *s, uint64_t lo, uint64_t hi, uint32_t id) {
  if (lo < s->win_lo || lo >= s->win_hi) return;
  if (hi > s->win_hi) hi = s->win_hi;
  if (hi > lo && hi - lo > SYM_MAX_RUN) hi = lo + SYM_MAX_RUN;
  for (uint64_t pc = lo; pc < hi; pc++) {
    uint64_t off = pc - s->win_lo;
    uint32_t **page = &s->pages[off >> SYM_PAGE_BITS];
    if (!*page && !(*page = calloc(SYM_PAGE_PCS, sizeof **page))) return;
    uint32_t *cell = &(*page)[off & (SYM_PAGE_PCS - 1)];
    if (!*cell) *cell = id;
  }
}

size_t scp_sym_chain(scp_sym *s, uint64_t pc, const scp_frame_info **chain) {
  *chain = NULL;
  if (!s) return 0;
  uint32_t *cell = cache_cell(s, pc);
  if (!cell) return 0;
  if (!*cell) {
    uint64_t run_end;
    uint32_t id = resolve(s, pc, &run_end);
    if (!id) {
      /* OOM: leave the cell unresolved (a hash slot must not stay empty
       * with its pc set, so it gets the empty chain). */
      if (!(pc >= s->win_lo && pc < s->win_hi)) *cell = 1;
      return 0;
    }
    *cell = id;
    fill_run(s, pc + 1, run_end, id);
  }
  const sym_chain *c = &s->chains[*cell];
  *chain = c->frames;
  return c->n;
}

/* The subprogram whose entry is exactly lo, else the outermost scope
 * holding lo; SYM_NONE when DWARF does not cover it. */
static uint32_t scope_of_function(scp_sym *s, uint64_t lo_pc) {
  size_t lo = 0, hi = s->nsubs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->scopes[s->subs[mid]].entry < lo_pc) lo = mid + 1;
    else hi = mid;
  }
  if (lo < s->nsubs && s->scopes[s->subs[lo]].entry == lo_pc) return s->subs[lo];
  const sym_seg *seg = seg_at(s, lo_pc);
  if (!seg) return SYM_NONE;
  uint32_t id = seg->scope;
  while (s->scopes[id].parent != SYM_NONE) id = s->scopes[id].parent;
  return id;
}

int scp_sym_function(scp_sym *s, uint32_t func_index, scp_frame_info *out) {
  if (!s || !out) return SCP_ERR_ARG;
  if (func_index >= s->nfuncs) return SCP_ERR_NOTFOUND;
  const sym_func *f = &s->funcs[func_index];
  uint32_t id = s->has_dwarf && f->hi > f->lo ? scope_of_function(s, f->lo)
                                              : SYM_NONE;
  if (id != SYM_NONE) {
    scope_frame(&s->scopes[id], out);
    out->inlined = 0;
  } else {
    container_frame(f, out);
  }
  return SCP_OK;
}

int scp_sym_function_at(scp_sym *s, uint64_t pc, scp_frame_info *out) {
  if (!s || !out) return SCP_ERR_ARG;
  uint32_t id = SYM_NONE;
  const sym_seg *seg = s->has_dwarf ? seg_at(s, pc) : NULL;
  if (seg)
    for (id = seg->scope; s->scopes[id].parent != SYM_NONE;)
      id = s->scopes[id].parent;
  if (id != SYM_NONE) {
    scope_frame(&s->scopes[id], out);
    out->inlined = 0;
    return SCP_OK;
  }
  const sym_func *f = func_at(s, pc);
  if (f) return scp_sym_function(s, f->index, out);
  const scp_frame_info *c;
  size_t n = scp_sym_chain(s, pc, &c);
  if (!n) return SCP_ERR_NOTFOUND;
  *out = c[n - 1];
  return SCP_OK;
}

uint32_t scp_sym_repaired(const scp_sym *s) {
  return s ? s->repairs : 0;
}

uint32_t scp_sym_function_count(const scp_sym *s) {
  return s ? (uint32_t)s->nfuncs : 0;
}

int scp_sym_function_range(const scp_sym *s, uint32_t func_index,
                           uint64_t *lo, uint64_t *hi) {
  if (!s || func_index >= s->nfuncs) return SCP_ERR_NOTFOUND;
  *lo = s->funcs[func_index].lo;
  *hi = s->funcs[func_index].hi;
  return SCP_OK;
}

bool scp_sym_has_dwarf(const scp_sym *s) {
  return s && s->has_dwarf;
}
