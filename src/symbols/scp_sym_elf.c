/*
 * scp_sym_elf.c — the ELF container for the source mapper: BPF objects
 * (clang -target bpf -g -c) and linked sBPF programs.
 *
 * The ELF is read by hand (64-bit little-endian only: BPF and sBPF are
 * both), every offset checked against the file.  pcs are byte addresses as
 * DWARF and .symtab use them (sh_addr + offset; an object's .text starts at
 * 0).  Functions come from .symtab (else .dynsym), sorted by address; the
 * .debug_* sections go to libdw through the same in-memory ELF as WASM,
 * after the old-toolchain repair (scp_sym_repair.c) unless disabled or the
 * program is SBPF v3.
 */
#include "symbols/scp_sym_private.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#ifndef EM_SBPF
#define EM_SBPF 263
#endif
#define SBPF_V3_TEXT 0x100000000ULL
#define MAX_DEBUG_SECTIONS 32

typedef struct elf_shdr {
  const char *name;        /* points into the file, NUL-checked */
  uint32_t type;
  uint64_t flags, addr, offset, size;
  uint32_t link, info;
  uint64_t entsize;
} elf_shdr;

/* Section contents lie inside the file (SHT_NOBITS has none). */
static bool sec_in_file(const elf_shdr *sh, size_t len) {
  return sh->type == SHT_NOBITS ||
         (sh->offset <= len && sh->size <= len - sh->offset);
}

static const char *str_at(const uint8_t *elf, const elf_shdr *strtab,
                          uint64_t off) {
  if (!strtab || strtab->type == SHT_NOBITS || off >= strtab->size) return NULL;
  const char *s = (const char *)elf + strtab->offset + off;
  size_t max = (size_t)(strtab->size - off);
  return memchr(s, 0, max) ? s : NULL;
}

static int cmp_func(const void *a, const void *b) {
  const sym_func *x = a, *y = b;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  if (x->hi != y->hi) return x->hi > y->hi ? -1 : 1;   /* sized first */
  return strcmp(x->name, y->name);
}

/* Collect FUNC symbols that lie in executable sections. */
static int read_symbols(scp_sym *s, const uint8_t *elf, size_t len,
                        const elf_shdr *sh, size_t shnum, bool relocatable) {
  const elf_shdr *symtab = NULL;
  for (size_t i = 0; i < shnum && !symtab; i++)
    if (sh[i].type == SHT_SYMTAB) symtab = &sh[i];
  for (size_t i = 0; i < shnum && !symtab; i++)
    if (sh[i].type == SHT_DYNSYM) symtab = &sh[i];
  if (!symtab || symtab->link >= shnum) return SCP_OK;
  s->have_symtab = symtab->type == SHT_SYMTAB;
  const elf_shdr *strtab = &sh[symtab->link];
  if (!sec_in_file(symtab, len) || !sec_in_file(strtab, len)) return SCP_OK;
  size_t n = (size_t)(symtab->size / 24);
  for (size_t i = 1; i < n; i++) {
    const uint8_t *sym = elf + symtab->offset + i * 24;
    uint32_t name = scp_le32(sym);
    uint8_t info = sym[4];
    uint16_t shndx = scp_le16(sym + 6);
    uint64_t value = scp_le64(sym + 8), size = scp_le64(sym + 16);
    if (ELF64_ST_TYPE(info) != STT_FUNC || shndx == SHN_UNDEF || shndx >= shnum ||
        !(sh[shndx].flags & SHF_EXECINSTR))
      continue;
    const char *str = str_at(elf, strtab, name);
    if (!str || !*str) continue;
    uint64_t lo = relocatable ? sh[shndx].addr + value : value;
    uint64_t sec_end = sh[shndx].addr + sh[shndx].size;
    if (lo < sh[shndx].addr || lo >= sec_end) continue;
    uint64_t hi = size && size <= sec_end - lo ? lo + size : lo;  /* 0: later */
    if (!scp_grow(&s->funcs, &s->capfuncs, s->nfuncs + 1, sizeof *s->funcs))
      return SCP_ERR_NOMEM;
    const char *clean = scp_sym_clean_name(s, str, strlen(str));
    if (!clean) return SCP_ERR_NOMEM;
    s->funcs[s->nfuncs++] = (sym_func){.lo = lo, .hi = hi, .name = clean,
                                       .source = SCP_SRC_SYMTAB};
  }
  if (s->nfuncs) qsort(s->funcs, s->nfuncs, sizeof *s->funcs, cmp_func);
  /* One function per address (aliases share code); unsized symbols run to
   * the next symbol or their section's end; overlaps are clipped. */
  size_t out = 0;
  for (size_t i = 0; i < s->nfuncs; i++) {
    if (out && s->funcs[out - 1].lo == s->funcs[i].lo) continue;
    s->funcs[out++] = s->funcs[i];
  }
  s->nfuncs = out;
  for (size_t i = 0; i < s->nfuncs; i++) {
    sym_func *f = &s->funcs[i];
    uint64_t limit = UINT64_MAX;
    for (size_t k = 0; k < s->ncode; k++)
      if (f->lo >= s->code[k].lo && f->lo < s->code[k].hi) limit = s->code[k].hi;
    if (i + 1 < s->nfuncs && s->funcs[i + 1].lo < limit) limit = s->funcs[i + 1].lo;
    if (f->hi == f->lo || f->hi > limit) f->hi = limit;
    f->index = (uint32_t)i;
  }
  return SCP_OK;
}

/* The section header table: every section in the file, named from the
 * section-name table.  *out is calloc'd (the caller frees it). */
static int read_sections(const uint8_t *elf, size_t len, uint64_t shoff, size_t shnum,
                         size_t shstrndx, elf_shdr **out, scp_error *err) {
  elf_shdr *sh = *out = calloc(shnum ? shnum : 1, sizeof *sh);
  if (!sh) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < shnum; i++) {
    const uint8_t *h = elf + shoff + i * 64;
    sh[i] = (elf_shdr){.type = scp_le32(h + 4), .flags = scp_le64(h + 8),
                       .addr = scp_le64(h + 16), .offset = scp_le64(h + 24),
                       .size = scp_le64(h + 32), .link = scp_le32(h + 40),
                       .info = scp_le32(h + 44), .entsize = scp_le64(h + 56)};
    if (!sec_in_file(&sh[i], len))
      return scp_fail(err, SCP_ERR_MALFORMED, "ELF section %zu lies past the end of the file", i);
  }
  const elf_shdr *shstr = shstrndx < shnum ? &sh[shstrndx] : NULL;
  for (size_t i = 0; i < shnum; i++) {
    const uint8_t *h = elf + shoff + i * 64;
    sh[i].name = str_at(elf, shstr, scp_le32(h));
    if (!sh[i].name) sh[i].name = "";
  }
  return SCP_OK;
}

/* Code: every executable section, and the window they span; a split debug
 * file keeps the sections' addresses and sizes without their bytes
 * (SHT_NOBITS), which is all the mapper needs.  Returns whether one lies at
 * the sBPF v3 text address. */
static bool code_ranges(scp_sym *s, const elf_shdr *sh, size_t shnum, sym_addr_limits *lim) {
  bool v3 = false;
  for (size_t i = 0; i < shnum; i++) {
    if (!(sh[i].flags & SHF_EXECINSTR) ||
        (sh[i].type != SHT_PROGBITS && sh[i].type != SHT_NOBITS) ||
        sh[i].size == 0 || sh[i].addr > UINT64_MAX - sh[i].size)
      continue;
    s->code[s->ncode].lo = sh[i].addr;
    s->code[s->ncode].hi = sh[i].addr + sh[i].size;
    if (sh[i].addr < lim->min) lim->min = sh[i].addr;
    if (sh[i].addr + sh[i].size > lim->max) lim->max = sh[i].addr + sh[i].size;
    if (sh[i].addr >= SBPF_V3_TEXT) v3 = true;
    s->ncode++;
  }
  return v3;
}

/* The debug sections found, the copies the repair made, and what stops
 * them from being read. */
typedef struct elf_debug {
  sym_section sec[MAX_DEBUG_SECTIONS];
  size_t n;
  uint8_t *owned[MAX_DEBUG_SECTIONS];
  size_t nowned;
  bool compressed;
} elf_debug;

/* Debug sections; with repair, the ones the repair may touch are copied
 * and repaired first. */
static int collect_debug(scp_sym *s, const uint8_t *elf, const elf_shdr *sh, size_t shnum,
                         bool repair, elf_debug *d, scp_error *err) {
  uint8_t *info = NULL;
  size_t info_size = 0;
  const uint8_t *abbrev = NULL;
  size_t abbrev_size = 0;
  for (size_t i = 0; i < shnum && d->n < MAX_DEBUG_SECTIONS; i++) {
    if (strncmp(sh[i].name, ".debug_", 7) != 0 || sh[i].type == SHT_NOBITS)
      continue;
    if (sh[i].flags & SHF_COMPRESSED) {
      d->compressed = true;
      continue;
    }
    const uint8_t *data = elf + sh[i].offset;
    bool copy = repair && (!strcmp(sh[i].name, ".debug_info") ||
                           !strcmp(sh[i].name, ".debug_addr") ||
                           !strcmp(sh[i].name, ".debug_ranges") ||
                           !strcmp(sh[i].name, ".debug_line"));
    if (copy) {
      uint8_t *c = malloc(sh[i].size ? sh[i].size : 1);
      if (!c) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
      memcpy(c, data, sh[i].size);
      d->owned[d->nowned++] = c;
      data = c;
      if (!strcmp(sh[i].name, ".debug_info")) {
        info = c;
        info_size = sh[i].size;
      } else if (!strcmp(sh[i].name, ".debug_addr")) {
        s->repairs += scp_sym_repair_addr(c, sh[i].size);
      } else if (!strcmp(sh[i].name, ".debug_ranges")) {
        s->repairs += scp_sym_repair_ranges(c, sh[i].size);
      } else {
        s->repairs += scp_sym_repair_line(c, sh[i].size);
      }
    }
    if (!strcmp(sh[i].name, ".debug_abbrev")) {
      abbrev = data;
      abbrev_size = sh[i].size;
    }
    d->sec[d->n++] = (sym_section){.name = sh[i].name, .data = data, .size = sh[i].size};
  }
  if (info && abbrev)
    s->repairs += scp_sym_repair_info(info, info_size, abbrev, abbrev_size);
  return SCP_OK;
}

/* An object whose debug sections carry RELA relocations (x86-64, ...)
 * keeps its addends outside the data: unrelocated, every address and
 * string offset would be wrong.  (BPF objects use REL with the addend in
 * place, which reads correctly as it is.) */
static bool rela_debug(const elf_shdr *sh, size_t shnum) {
  bool any = false;
  for (size_t i = 0; i < shnum; i++)
    any |= sh[i].type == SHT_RELA && sh[i].info < shnum &&
           !strncmp(sh[sh[i].info].name, ".debug_", 7);
  return any;
}

/* Where the section header table is: the checks of the ELF header. */
typedef struct elf_head {
  uint16_t type, machine;
  uint32_t eflags;
  uint64_t shoff;
  size_t shnum, shstrndx;
} elf_head;

static int read_head(const uint8_t *elf, size_t len, elf_head *h, scp_error *err) {
  if (!elf || len < 64 || memcmp(elf, ELFMAG, SELFMAG) != 0)
    return scp_fail(err, SCP_ERR_MALFORMED, "not an ELF file");
  if (elf[EI_CLASS] != ELFCLASS64 || elf[EI_DATA] != ELFDATA2LSB)
    return scp_fail(err, SCP_ERR_UNSUPPORTED,
                    "only 64-bit little-endian ELF (BPF/sBPF) is supported");
  *h = (elf_head){.type = scp_le16(elf + 16), .machine = scp_le16(elf + 18),
                  .eflags = scp_le32(elf + 48), .shoff = scp_le64(elf + 40),
                  .shnum = scp_le16(elf + 60), .shstrndx = scp_le16(elf + 62)};
  uint16_t shentsize = scp_le16(elf + 58);
  if (h->shoff == 0)
    return scp_fail(err, SCP_ERR_MALFORMED, "ELF without section headers");
  if (shentsize != 64 || h->shoff > len || len - h->shoff < 64)
    return scp_fail(err, SCP_ERR_MALFORMED, "bad ELF section header table");
  /* Extended numbering: counts live in section header 0. */
  if (h->shnum == 0) h->shnum = (size_t)scp_le64(elf + h->shoff + 32);
  if (h->shstrndx == SHN_XINDEX) h->shstrndx = (size_t)scp_le32(elf + h->shoff + 40);
  if (h->shnum > (len - h->shoff) / 64)
    return scp_fail(err, SCP_ERR_MALFORMED, "ELF section headers past the end of the file");
  return SCP_OK;
}

int scp_sym_open_elf(const uint8_t *elf, size_t len, const scp_sym_opts *opts,
                     scp_sym **out, scp_error *err) {
  if (!out) return scp_fail(err, SCP_ERR_ARG, "no output pointer");
  *out = NULL;
  elf_head h;
  int hrc = read_head(elf, len, &h, err);
  if (hrc) return hrc;
  uint16_t type = h.type, machine = h.machine;
  uint32_t eflags = h.eflags;
  uint64_t shoff = h.shoff;
  size_t shnum = h.shnum, shstrndx = h.shstrndx;

  scp_sym *s = scp_sym_new(opts);
  elf_shdr *sh = NULL;
  elf_debug d = {0};
  int rc = SCP_OK;
  if (!s) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto fail;
  }
  if ((rc = read_sections(elf, len, shoff, shnum, shstrndx, &sh, err))) goto fail;
  s->code = calloc(shnum ? shnum : 1, sizeof *s->code);
  if (!s->code) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto fail;
  }
  sym_addr_limits lim = {.min = UINT64_MAX, .max = 0};
  bool v3 = code_ranges(s, sh, shnum, &lim) || eflags == 3;
  if ((rc = read_symbols(s, elf, len, sh, shnum, type == ET_REL)) != SCP_OK) {
    rc = scp_fail(err, rc, "out of memory");
    goto fail;
  }
  bool repair = (machine == EM_BPF || machine == EM_SBPF) && !v3 &&
                !s->opts.no_dwarf_repair;
  if ((rc = collect_debug(s, elf, sh, shnum, repair, &d, err))) goto fail;
  if (d.compressed) {
    scp_sym_warn(s, "compressed debug sections are not supported");
  } else if (rela_debug(sh, shnum)) {
    scp_sym_warn(s, "debug sections need RELA relocations (unlinked object): not used");
  } else if (d.n && lim.max > lim.min) {
    rc = scp_sym_load_dwarf(s, d.sec, d.n, true, &lim);
    if (rc == SCP_ERR_NOMEM) {
      rc = scp_fail(err, rc, "out of memory");
      goto fail;
    }
    /* say what is used instead, as for WASM */
    size_t n = strlen(s->warning);
    if (rc == SCP_ERR_DWARF && n)
      snprintf(s->warning + n, sizeof s->warning - n, "; %s, no source lines",
               s->nfuncs ? "function names from the symbol table" : "functions named by address");
    else if (rc == SCP_OK && s->dwarf_partial)
      snprintf(s->warning + n, sizeof s->warning - n, "; functions there: %s, no source lines",
               s->nfuncs ? "names from the symbol table" : "named by address");
  }
  if (lim.max > lim.min) scp_sym_set_window(s, lim.min, lim.max);
  for (size_t i = 0; i < d.nowned; i++) free(d.owned[i]);
  free(sh);
  *out = s;
  return SCP_OK;
fail:
  for (size_t i = 0; i < d.nowned; i++) free(d.owned[i]);
  free(sh);
  scp_sym_destroy(s);
  return rc;
}

/* ---- symbols from another file ----------------------------------------- */

static const elf_shdr *section_named(const elf_shdr *sh, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(sh[i].name, name)) return &sh[i];
  return NULL;
}

/* Every executable section of the program must be in dbg under its name at
 * the same address with the same size, and with the same bytes when dbg
 * has them: the addresses DWARF and .symtab use are then the program's. */
static int code_matches(const uint8_t *prog, const elf_shdr *ps, size_t pn, const uint8_t *dbg,
                        const elf_shdr *ds, size_t dn, scp_error *err) {
  size_t compared = 0;
  for (size_t i = 0; i < pn; i++) {
    const elf_shdr *p = &ps[i];
    if (!(p->flags & SHF_EXECINSTR) || p->type != SHT_PROGBITS || p->size == 0) continue;
    const elf_shdr *d = section_named(ds, dn, p->name);
    if (!d || !(d->flags & SHF_EXECINSTR))
      return scp_fail(err, SCP_ERR_ARG, "it has no %s section", p->name);
    if (d->addr != p->addr || d->size != p->size)
      return scp_fail(err, SCP_ERR_ARG,
                      "its %s is at 0x%llx, %llu bytes; the program's at 0x%llx, %llu bytes",
                      p->name, (unsigned long long)d->addr, (unsigned long long)d->size,
                      (unsigned long long)p->addr, (unsigned long long)p->size);
    if (d->type == SHT_PROGBITS && memcmp(dbg + d->offset, prog + p->offset, (size_t)p->size))
      return scp_fail(err, SCP_ERR_ARG, "its %s bytes differ from the program's", p->name);
    compared++;
  }
  if (!compared) return scp_fail(err, SCP_ERR_ARG, "the program has no code to compare");
  return SCP_OK;
}

int scp_sym_elf_matches(const uint8_t *prog, size_t plen, const uint8_t *dbg, size_t dlen,
                        scp_error *err) {
  elf_head ph, dh;
  elf_shdr *ps = NULL, *ds = NULL;
  int rc = read_head(prog, plen, &ph, err);
  if (!rc) rc = read_sections(prog, plen, ph.shoff, ph.shnum, ph.shstrndx, &ps, err);
  if (!rc && (rc = read_head(dbg, dlen, &dh, err)) == SCP_ERR_MALFORMED)
    rc = scp_fail(err, SCP_ERR_ARG, "not an ELF file");
  if (!rc) rc = read_sections(dbg, dlen, dh.shoff, dh.shnum, dh.shstrndx, &ds, err);
  if (!rc) rc = code_matches(prog, ps, ph.shnum, dbg, ds, dh.shnum, err);
  free(ps);
  free(ds);
  return rc;
}

static int cmp_lo(const void *a, const void *b) {
  const sym_func *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The end of the code section holding pc (0 when none does). */
static uint64_t code_end(const scp_sym *s, uint64_t pc) {
  for (size_t k = 0; k < s->ncode; k++)
    if (pc >= s->code[k].lo && pc < s->code[k].hi) return s->code[k].hi;
  return 0;
}

int scp_sym_add_entries(scp_sym *s, const uint64_t *pcs, const char *const *names, size_t n) {
  if (!s || s->have_symtab || s->nimports) return SCP_OK;
  /* chains resolved before the cut would name the old function */
  if (s->nchains > 2) return SCP_ERR_ARG;
  size_t had = s->nfuncs;
  for (size_t i = 0; i < n; i++) {
    if (!code_end(s, pcs[i])) continue;
    bool known = false;
    for (size_t k = 0; k < s->nfuncs && !known; k++) known = s->funcs[k].lo == pcs[i];
    if (known) continue;
    char buf[32];
    const char *name = names && names[i] && names[i][0] ? names[i] : NULL;
    if (!name) snprintf(buf, sizeof buf, "fn_0x%llx", (unsigned long long)pcs[i]);
    const char *in = name ? scp_sym_clean_name(s, name, strlen(name)) : scp_sym_intern(s, buf);
    if (!in || !scp_grow(&s->funcs, &s->capfuncs, s->nfuncs + 1, sizeof *s->funcs))
      return SCP_ERR_NOMEM;
    s->funcs[s->nfuncs++] = (sym_func){.lo = pcs[i], .hi = code_end(s, pcs[i]), .name = in,
                                       .source = name ? SCP_SRC_SYMTAB : SCP_SRC_RAW};
  }
  if (s->nfuncs == had) return SCP_OK;
  qsort(s->funcs, s->nfuncs, sizeof *s->funcs, cmp_lo);
  /* a function ends where the next one starts */
  for (size_t i = 0; i < s->nfuncs; i++) {
    sym_func *f = &s->funcs[i];
    if (i + 1 < s->nfuncs && s->funcs[i + 1].lo < f->hi) f->hi = s->funcs[i + 1].lo;
    f->index = (uint32_t)i;
  }
  return SCP_OK;
}

bool scp_sym_elf_debug_only(const uint8_t *elf, size_t len) {
  elf_head h;
  elf_shdr *sh = NULL;
  scp_error err;
  if (read_head(elf, len, &h, &err) || read_sections(elf, len, h.shoff, h.shnum, h.shstrndx, &sh, &err)) {
    free(sh);
    return false;
  }
  size_t empty = 0, full = 0;
  for (size_t i = 0; i < h.shnum; i++) {
    if (!(sh[i].flags & SHF_EXECINSTR) || sh[i].size == 0) continue;
    if (sh[i].type == SHT_NOBITS) empty++;
    else full++;
  }
  free(sh);
  return empty && !full;
}
