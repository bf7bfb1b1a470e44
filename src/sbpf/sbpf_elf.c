/*
 * sbpf_elf.c — the ELF side of loading, as solana-sbpf 0.23 elf.rs and
 * elf_parser/mod.rs do it, with agave's configuration (optimize_rodata off,
 * symbol labels off; reject_broken_elfs from the loader options).
 *
 * Two paths chosen by e_flags (the sBPF version):
 *   v0-v2, lenient: Elf64::parse (header, tables, section names, .dynamic),
 *     Executable::validate, then relocate(): every `call imm` with imm != -1
 *     becomes the key of its pc-relative target, then .rel.dyn's
 *     R_BPF_64_64 / R_BPF_64_RELATIVE / R_BPF_64_32 are applied; the
 *     read-only region is .text/.rodata/.data.rel.ro/.eh_frame laid out at
 *     their sh_addr from MM_BYTECODE on.
 *   v3, strict: fixed header, PT_LOAD rodata at 0 (optional) then PT_LOAD
 *     bytecode at MM_BYTECODE, contiguous after the program headers.
 *
 * Every failure is the first check the real loader fails, with its
 * ElfError variant and text.
 */
#include "sbpf/sbpf_private.h"

#include <stdlib.h>
#include <string.h>

enum {
  EHDR = 64, PHDR = 56, SHDR = 64, SYM = 24, REL = 16, DYN = 16,
  SHT_NULL = 0, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_DYNAMIC = 6, SHT_NOBITS = 8,
  SHT_DYNSYM = 11, PT_LOAD = 1, PT_DYNAMIC = 2, PF_X = 1, PF_R = 4,
  DT_NULL = 0, DT_SYMTAB = 6, DT_REL = 17, DT_RELSZ = 18, DT_RELENT = 19, DT_NUM = 35,
  ET_DYN = 3, STT_FUNC = 2, SHF_WRITE = 1, SHF_ALLOC = 2,
  SECTION_NAME_MAX = 16, SYMBOL_NAME_MAX = 64, DEBUG_NAME_MAX = 255
};

/* "ELF error: <ElfError text> (<variant>)" */
#define ELF_FAIL(err, code, variant, ...) sbpf_fail(err, code, "ELF", variant, __VA_ARGS__)

/* An ElfParserError, converted as From<ElfParserError> for ElfError does. */
typedef enum perr {
  P_OK, P_FILE_HEADER, P_PROGRAM_HEADER, P_SECTION_HEADER, P_STRING, P_TOO_LONG,
  P_OUT_OF_BOUNDS, P_SIZE, P_OVERLAP, P_ORDER, P_NO_SHSTRTAB, P_DYNAMIC, P_RELOCS,
  P_ALIGN, P_NO_STRTAB, P_NO_DYNSTR
} perr;

static int parser_fail(perr e, scp_error *err) {
  static const char *const text[] = {
    "", "invalid file header", "invalid program header", "invalid section header",
    "invalid string", "", "value out of bounds", "invalid size", "values overlap",
    "sections not in ascending order", "no section name string table found",
    "invalid dynamic section table", "invalid relocation table", "invalid alignment",
    "no string table", "no dynamic string table"
  };
  if (e == P_PROGRAM_HEADER)
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "InvalidProgramHeader", "Invalid ELF program header");
  if (e == P_OUT_OF_BOUNDS)
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "ValueOutOfBounds", "Offset or value is out of bounds");
  if (e == P_TOO_LONG)
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "FailedToParse",
                    "Failed to parse ELF file: Section or symbol name is longer than the maximum");
  return ELF_FAIL(err, SCP_ERR_MALFORMED, "FailedToParse", "Failed to parse ELF file: %s", text[e]);
}

typedef struct shdr {
  uint32_t name, type;
  uint64_t flags, addr, offset, size;
} shdr;

typedef struct phdr {
  uint32_t type, flags;
  uint64_t offset, vaddr, paddr, filesz, memsz;
} phdr;

typedef struct elf {
  const uint8_t *b;
  size_t len;
  uint16_t type, machine, phnum, shnum, shstrndx;
  uint64_t entry, phoff, shoff;
  uint32_t flags;
  shdr *sh;
  phdr *ph;
  const shdr *shstr, *symtab, *strtab, *dynstr;
  uint64_t dyn[DT_NUM];
  uint64_t rel_off, nrel;      /* .rel.dyn: file offset and count (nrel 0 = none) */
  const shdr *dynsym;
} elf;

static shdr read_shdr(const uint8_t *p) {
  return (shdr){ .name = scp_le32(p), .type = scp_le32(p + 4), .flags = scp_le64(p + 8),
                 .addr = scp_le64(p + 16), .offset = scp_le64(p + 24), .size = scp_le64(p + 32) };
}
static phdr read_phdr(const uint8_t *p) {
  return (phdr){ .type = scp_le32(p), .flags = scp_le32(p + 4), .offset = scp_le64(p + 8),
                 .vaddr = scp_le64(p + 16), .paddr = scp_le64(p + 24), .filesz = scp_le64(p + 32),
                 .memsz = scp_le64(p + 40) };
}

static bool overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1) {
  return !(a1 <= b0 || b1 <= a0);
}

/* Elf64::slice_from_bytes for elements of size `size`, alignment 8. */
static perr slice(const elf *e, uint64_t off, uint64_t len, unsigned size) {
  if (off + len < off) return P_OUT_OF_BOUNDS;
  if (len % size) return P_SIZE;
  if (off + len > e->len) return P_OUT_OF_BOUNDS;
  if (off % 8) return P_ALIGN;
  return P_OK;
}

/* Elf64::get_string_in_section: a NUL within max bytes and the section. */
static perr string_in(const elf *e, const shdr *s, uint64_t off, size_t max,
                      const char **out, size_t *n) {
  if (!s || s->type != SHT_STRTAB) return P_SECTION_HEADER;
  uint64_t start = s->offset + off, end = s->offset + s->size;
  if (start < s->offset || end < s->offset) return P_OUT_OF_BOUNDS;
  if (start + max < end) end = start + max;
  if (start > end || end > e->len) return P_OUT_OF_BOUNDS;
  const uint8_t *z = memchr(e->b + start, 0, (size_t)(end - start));
  if (!z) return P_TOO_LONG;
  *out = (const char *)e->b + start;
  *n = (size_t)(z - (e->b + start));
  return P_OK;
}

static bool name_is(const elf *e, const shdr *s, const char *want) {
  const char *nm;
  size_t n;
  return string_in(e, e->shstr, s->name, SECTION_NAME_MAX, &nm, &n) == P_OK &&
         n == strlen(want) && memcmp(nm, want, n) == 0;
}

static perr parse_dynamic(elf *e) {
  const uint8_t *tab = NULL;
  uint64_t tlen = 0;
  for (unsigned i = 0; i < e->phnum; i++)
    if (e->ph[i].type == PT_DYNAMIC) {
      if (slice(e, e->ph[i].offset, e->ph[i].filesz, DYN) == P_OK) {
        tab = e->b + e->ph[i].offset;
        tlen = e->ph[i].filesz;
      }
      break;
    }
  if (!tab)
    for (unsigned i = 0; i < e->shnum; i++)
      if (e->sh[i].type == SHT_DYNAMIC) {
        if (slice(e, e->sh[i].offset, e->sh[i].size, DYN) != P_OK) return P_DYNAMIC;
        tab = e->b + e->sh[i].offset;
        tlen = e->sh[i].size;
        break;
      }
  if (!tab) return P_OK;
  for (uint64_t o = 0; o + DYN <= tlen; o += DYN) {
    uint64_t tag = scp_le64(tab + o);
    if (tag == DT_NULL) break;
    if (tag < DT_NUM) e->dyn[tag] = scp_le64(tab + o + 8);
  }
  uint64_t va = e->dyn[DT_REL];
  if (va) {
    if (e->dyn[DT_RELENT] != REL || e->dyn[DT_RELSZ] == 0) return P_DYNAMIC;
    uint64_t off = 0;
    bool found = false;
    for (unsigned i = 0; i < e->phnum && !found; i++) {
      const phdr *p = &e->ph[i];
      if (va >= p->vaddr && va - p->vaddr < p->memsz) {
        off = va - p->vaddr + p->offset;
        found = true;
      }
    }
    for (unsigned i = 0; i < e->shnum && !found; i++)
      if (e->sh[i].addr == va) { off = e->sh[i].offset; found = true; }
    if (!found || slice(e, off, e->dyn[DT_RELSZ], REL) != P_OK) return P_DYNAMIC;
    e->rel_off = off;
    e->nrel = e->dyn[DT_RELSZ] / REL;
  }
  va = e->dyn[DT_SYMTAB];
  if (va) {
    const shdr *s = NULL;
    for (unsigned i = 0; i < e->shnum && !s; i++)
      if (e->sh[i].addr == va) s = &e->sh[i];
    if (!s) return P_DYNAMIC;
    if (s->type != SHT_SYMTAB && s->type != SHT_DYNSYM) return P_SECTION_HEADER;
    perr r = slice(e, s->offset, s->size, SYM);
    if (r) return r;
    e->dynsym = s;
  }
  return P_OK;
}

/* Elf64::parse. */
static perr parse(elf *e) {
  const uint8_t *b = e->b;
  if (e->len < EHDR) return P_OUT_OF_BOUNDS;
  e->type = scp_le16(b + 16); e->machine = scp_le16(b + 18);
  e->entry = scp_le64(b + 24); e->phoff = scp_le64(b + 32); e->shoff = scp_le64(b + 40);
  e->flags = scp_le32(b + 48);
  e->phnum = scp_le16(b + 56); e->shnum = scp_le16(b + 60); e->shstrndx = scp_le16(b + 62);
  if (memcmp(b, "\177ELF", 4) || b[4] != 2 || b[5] != 1 || b[6] != 1 || scp_le32(b + 20) != 1 ||
      scp_le16(b + 52) != EHDR || scp_le16(b + 54) != PHDR || scp_le16(b + 58) != SHDR ||
      e->shstrndx >= e->shnum)
    return P_FILE_HEADER;
  uint64_t ph0 = e->phoff, ph1 = ph0 + (uint64_t)PHDR * e->phnum;
  if (ph1 < ph0) return P_OUT_OF_BOUNDS;
  if (overlap(0, EHDR, ph0, ph1)) return P_OVERLAP;
  perr r = slice(e, ph0, ph1 - ph0, PHDR);
  if (r) return r;
  uint64_t sh0 = e->shoff, sh1 = sh0 + (uint64_t)SHDR * e->shnum;
  if (sh1 < sh0) return P_OUT_OF_BOUNDS;
  if (overlap(0, EHDR, sh0, sh1) || overlap(ph0, ph1, sh0, sh1)) return P_OVERLAP;
  if ((r = slice(e, sh0, sh1 - sh0, SHDR))) return r;
  e->ph = calloc(e->phnum + 1u, sizeof *e->ph);
  e->sh = calloc(e->shnum + 1u, sizeof *e->sh);
  if (!e->ph || !e->sh) return P_SIZE;  /* reported as OOM by the caller */
  for (unsigned i = 0; i < e->phnum; i++) e->ph[i] = read_phdr(b + ph0 + (uint64_t)i * PHDR);
  for (unsigned i = 0; i < e->shnum; i++) e->sh[i] = read_shdr(b + sh0 + (uint64_t)i * SHDR);
  if (e->shnum == 0 || e->sh[0].type != SHT_NULL) return P_SECTION_HEADER;
  uint64_t va = 0;
  for (unsigned i = 0; i < e->phnum; i++) {
    const phdr *p = &e->ph[i];
    if (p->type != PT_LOAD) continue;
    if (p->vaddr < va) return P_PROGRAM_HEADER;
    if (p->offset + p->filesz < p->offset || p->offset + p->filesz > e->len) return P_OUT_OF_BOUNDS;
    va = p->vaddr;
  }
  uint64_t off = 0;
  for (unsigned i = 0; i < e->shnum; i++) {
    const shdr *s = &e->sh[i];
    if (s->type == SHT_NOBITS) continue;
    uint64_t s1 = s->offset + s->size;
    if (s1 < s->offset) return P_OUT_OF_BOUNDS;
    if (overlap(s->offset, s1, 0, EHDR) || overlap(s->offset, s1, ph0, ph1) ||
        overlap(s->offset, s1, sh0, sh1))
      return P_OVERLAP;
    if (s->offset < off) return P_ORDER;
    off = s1;
    if (off > e->len) return P_OUT_OF_BOUNDS;
  }
  if (e->shstrndx) e->shstr = &e->sh[e->shstrndx];
  if (!e->shstr) return P_NO_SHSTRTAB;
  for (unsigned i = 0; i < e->shnum; i++) {
    const char *nm;
    size_t n;
    if ((r = string_in(e, e->shstr, e->sh[i].name, SECTION_NAME_MAX, &nm, &n))) return r;
    const shdr **slot = NULL;
    if (n == 7 && !memcmp(nm, ".symtab", 7)) slot = &e->symtab;
    else if (n == 7 && !memcmp(nm, ".strtab", 7)) slot = &e->strtab;
    else if (n == 7 && !memcmp(nm, ".dynstr", 7)) slot = &e->dynstr;
    if (slot) {
      if (*slot) return P_SECTION_HEADER;
      *slot = &e->sh[i];
    }
  }
  return parse_dynamic(e);
}

/* Executable::validate. */
static int validate(const elf *e, const shdr **text, scp_error *err) {
  const uint8_t *b = e->b;
  if (b[4] != 2) return ELF_FAIL(err, SCP_ERR_MALFORMED, "WrongClass", "Incompatible ELF: wrong class");
  if (b[5] != 1) return ELF_FAIL(err, SCP_ERR_MALFORMED, "WrongEndianess", "Incompatible ELF: wrong endianess");
  if (b[7] != 0) return ELF_FAIL(err, SCP_ERR_MALFORMED, "WrongAbi", "Incompatible ELF: wrong ABI");
  if (e->machine != SCP_SBPF_EM_BPF && e->machine != SCP_SBPF_EM_SBPF)
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "WrongMachine", "Incompatible ELF: wrong machine");
  if (e->type != ET_DYN)
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "WrongType", "Incompatible ELF: wrong type");
  unsigned ntext = 0;
  for (unsigned i = 0; i < e->shnum; i++) ntext += name_is(e, &e->sh[i], ".text");
  if (ntext != 1)
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "NotOneTextSection",
                    "Multiple or no text sections, consider removing llc option: -function-sections");
  for (unsigned i = 0; i < e->shnum; i++) {
    const char *nm;
    size_t n;
    const shdr *s = &e->sh[i];
    if (string_in(e, e->shstr, s->name, SECTION_NAME_MAX, &nm, &n)) continue;
    bool writable = (s->flags & (SHF_ALLOC | SHF_WRITE)) == (SHF_ALLOC | SHF_WRITE);
    if ((n >= 4 && !memcmp(nm, ".bss", 4)) ||
        (writable && n >= 5 && !memcmp(nm, ".data", 5) && !(n >= 9 && !memcmp(nm, ".data.rel", 9))))
      return ELF_FAIL(err, SCP_ERR_MALFORMED, "WritableSectionNotSupported",
                      "Found writable section (%.*s) in ELF, read-write data not supported", (int)n, nm);
  }
  for (unsigned i = 0; i < e->shnum; i++) {
    const shdr *s = &e->sh[i];
    if (s->offset + s->size < s->offset || s->offset + s->size > e->len)
      return parser_fail(P_OUT_OF_BOUNDS, err);
  }
  *text = NULL;
  for (unsigned i = 0; i < e->shnum && !*text; i++) {
    const char *nm;
    size_t n;
    perr r = string_in(e, e->shstr, e->sh[i].name, SECTION_NAME_MAX, &nm, &n);
    if (r) return parser_fail(r, err);
    if (n == 5 && !memcmp(nm, ".text", 5)) *text = &e->sh[i];
  }
  if (!(e->entry >= (*text)->addr && e->entry - (*text)->addr < (*text)->size))
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "EntrypointOutOfBounds", "Entrypoint out of bounds");
  return SCP_OK;
}

static int sym_at(const elf *e, uint32_t idx, uint8_t *info, uint32_t *name, uint64_t *value,
                  scp_error *err) {
  if (!e->dynsym || (uint64_t)idx >= e->dynsym->size / SYM)
    return ELF_FAIL(err, SCP_ERR_MALFORMED, "UnknownSymbol", "Unknown symbol with index %u", idx);
  const uint8_t *s = e->b + e->dynsym->offset + (uint64_t)idx * SYM;
  *name = scp_le32(s);
  *info = s[4];
  *value = scp_le64(s + 8);
  return SCP_OK;
}

static int oob(scp_error *err) { return parser_fail(P_OUT_OF_BOUNDS, err); }

/* Executable::relocate over the copy `m` of the file. */
static int relocate(scp_sbpf_prog *p, const elf *e, const shdr *text, uint8_t *m,
                    scp_error *err) {
  const scp_sbpf_loader *l = p->loader;
  uint64_t t0 = text->offset, tlen = text->type == SHT_NOBITS ? 0 : text->size;
  uint64_t n = tlen / 8;
  int rc;
  for (uint64_t i = 0; i < n; i++) {
    uint8_t *insn = m + t0 + i * 8;
    int32_t imm = (int32_t)scp_le32(insn + 4);
    if (insn[0] != 0x85 || imm == -1) continue;
    int64_t target = (int64_t)i + 1 + imm;
    if (target < 0 || target >= (int64_t)n)
      return ELF_FAIL(err, SCP_ERR_MALFORMED, "RelativeJumpOutOfBounds",
                      "Relative jump out of bounds at instruction #%llu", (unsigned long long)i);
    uint32_t key;
    if ((rc = sbpf_register_hashed(p, (uint32_t)target, false, &key, err))) return rc;
    scp_put_le32(insn + 4, key);
  }
  for (uint64_t r = 0; r < e->nrel; r++) {
    const uint8_t *rel = e->b + e->rel_off + r * REL;
    uint64_t off = scp_le64(rel), info = scp_le64(rel + 8);
    uint32_t type = (uint32_t)info, symi = (uint32_t)(info >> 32);
    uint64_t imm = off + 4;
    if (type == 1) {                      /* R_BPF_64_64 */
      if (imm + 4 < imm || imm + 4 > e->len) return oob(err);
      uint64_t refd = scp_le32(m + imm);
      uint8_t sinfo;
      uint32_t sname;
      uint64_t value;
      if ((rc = sym_at(e, symi, &sinfo, &sname, &value, err))) return rc;
      uint64_t addr = value + refd;
      if (addr < value) addr = UINT64_MAX;
      if (addr < SCP_SBPF_MM_REGION) addr += SCP_SBPF_MM_REGION;
      if (imm + 12 < imm || imm + 12 > e->len) return oob(err);
      scp_put_le32(m + imm, (uint32_t)addr);
      scp_put_le32(m + imm + 8, (uint32_t)(addr >> 32));
    } else if (type == 8) {               /* R_BPF_64_RELATIVE */
      if (off >= t0 && off < t0 + tlen) {
        if (imm + 12 < imm || imm + 12 > e->len) return oob(err);
        uint64_t refd = (uint64_t)scp_le32(m + imm + 8) << 32 | scp_le32(m + imm);
        if (refd == 0)
          return ELF_FAIL(err, SCP_ERR_MALFORMED, "InvalidVirtualAddress",
                          "Relocation failed, invalid referenced virtual address 0x0");
        if (refd < SCP_SBPF_MM_REGION) refd += SCP_SBPF_MM_REGION;
        scp_put_le32(m + imm, (uint32_t)refd);
        scp_put_le32(m + imm + 8, (uint32_t)(refd >> 32));
      } else {
        /* The legacy toolchain wrote only the low 32 bits of the address,
         * at r_offset + 4: the loader reads them there and stores the
         * whole 64-bit VM address at r_offset. */
        if (imm + 4 < imm || imm + 4 > e->len) return oob(err);
        uint64_t refd = SCP_SBPF_MM_REGION + scp_le32(m + imm);
        if (off + 8 < off || off + 8 > e->len) return oob(err);
        scp_put_le32(m + off, (uint32_t)refd);
        scp_put_le32(m + off + 4, (uint32_t)(refd >> 32));
      }
    } else if (type == 10) {              /* R_BPF_64_32 */
      uint8_t sinfo;
      uint32_t sname;
      uint64_t value;
      const char *nm;
      size_t nlen;
      if ((rc = sym_at(e, symi, &sinfo, &sname, &value, err))) return rc;
      if (!e->dynstr)
        return ELF_FAIL(err, SCP_ERR_MALFORMED, "UnknownSymbol", "Unknown symbol with index %u", sname);
      if (string_in(e, e->dynstr, sname, SYMBOL_NAME_MAX, &nm, &nlen))
        return ELF_FAIL(err, SCP_ERR_MALFORMED, "UnknownSymbol", "Unknown symbol with index %u", sname);
      uint32_t key;
      if ((sinfo & 0xf) == STT_FUNC && value != 0) {
        if (!(value >= text->addr && value - text->addr < text->size)) return oob(err);
        uint64_t target = (value - text->addr) / 8;
        if ((rc = sbpf_register_hashed(p, (uint32_t)target, false, &key, err))) return rc;
        sbpf_add_func(p, (uint32_t)target, nm, nlen);
      } else {
        key = scp_sbpf_hash(nm, nlen);
        if (l->opts.reject_broken_elfs && !sbpf_loader_find(l, key))
          return ELF_FAIL(err, SCP_ERR_MALFORMED, "UnresolvedSymbol",
                          "Unresolved symbol (%.*s) at instruction #%llu (ELF file offset 0x%llx)",
                          (int)nlen, nm, (unsigned long long)(off / 8), (unsigned long long)off);
      }
      if (imm + 4 < imm || imm + 4 > e->len) return oob(err);
      scp_put_le32(m + imm, key);
    } else if (type != 0) {
      return ELF_FAIL(err, SCP_ERR_MALFORMED, "UnknownRelocation",
                      "Relocation failed, unknown type %u", type);
    }
  }
  return SCP_OK;
}

/* Names for the profiler from .symtab FUNC symbols (labels only: the real
 * loader ignores them with symbol labels off). */
static void symtab_names(scp_sbpf_prog *p, const elf *e, uint64_t text_addr, uint64_t text_size) {
  if (!e->symtab || !e->strtab || slice(e, e->symtab->offset, e->symtab->size, SYM)) return;
  for (uint64_t o = 0; o + SYM <= e->symtab->size; o += SYM) {
    const uint8_t *s = e->b + e->symtab->offset + o;
    uint64_t value = scp_le64(s + 8);
    const char *nm;
    size_t n;
    if ((s[4] & 0xf) != STT_FUNC || value < text_addr || value - text_addr >= text_size) continue;
    if (string_in(e, e->strtab, scp_le32(s), DEBUG_NAME_MAX, &nm, &n) || n == 0) continue;
    sbpf_add_func(p, (uint32_t)((value - text_addr) / 8), nm, n);
  }
}

/* parse_ro_sections with optimize_rodata off: one buffer from address 0 to
 * the end of the last read-only section, mapped at MM_BYTECODE. */
static int ro_sections(scp_sbpf_prog *p, const elf *e, const uint8_t *m, scp_error *err) {
  uint64_t highest = 0, lowest = UINT64_MAX, fill = 0;
  bool invalid = false;
  for (unsigned i = 0; i < e->shnum; i++) {
    const shdr *s = &e->sh[i];
    if (!name_is(e, s, ".text") && !name_is(e, s, ".rodata") && !name_is(e, s, ".data.rel.ro") &&
        !name_is(e, s, ".eh_frame"))
      continue;
    if (s->addr != s->offset) invalid = true;
    if ((p->loader->opts.reject_broken_elfs && invalid) ||
        s->addr + SCP_SBPF_MM_REGION > SCP_SBPF_MM_STACK || s->addr > SCP_SBPF_MM_STACK)
      return oob(err);
    uint64_t len = s->type == SHT_NOBITS ? 0 : s->size;
    if (s->offset + len > e->len) return oob(err);
    if (s->addr < lowest) lowest = s->addr;
    if (s->addr + len > highest) highest = s->addr + len;
    fill += len;
  }
  if (p->loader->opts.reject_broken_elfs && lowest != UINT64_MAX && lowest + fill > highest)
    return oob(err);
  if (highest > e->len) return oob(err);
  p->ro_len = highest;
  p->ro_vaddr = SCP_SBPF_MM_BYTECODE;
  p->ro = calloc(1, highest ? highest : 1);
  if (!p->ro) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (unsigned i = 0; i < e->shnum; i++) {
    const shdr *s = &e->sh[i];
    if (s->type == SHT_NOBITS || !s->size) continue;
    if (!name_is(e, s, ".text") && !name_is(e, s, ".rodata") && !name_is(e, s, ".data.rel.ro") &&
        !name_is(e, s, ".eh_frame"))
      continue;
    memcpy(p->ro + s->addr, m + s->offset, (size_t)s->size);
  }
  return SCP_OK;
}

static int load_lenient(scp_sbpf_prog *p, elf *e, scp_error *err) {
  perr pr = parse(e);
  if (pr == P_SIZE && (!e->ph || !e->sh)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (pr) return parser_fail(pr, err);
  const shdr *text = NULL;
  int rc = validate(e, &text, err);
  if (rc) return rc;
  if ((p->loader->opts.reject_broken_elfs && text->addr != text->offset) ||
      text->addr + SCP_SBPF_MM_REGION >= SCP_SBPF_MM_STACK || text->addr >= SCP_SBPF_MM_STACK)
    return oob(err);
  uint8_t *m = malloc(e->len ? e->len : 1);
  if (!m) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  memcpy(m, e->b, e->len);
  if ((rc = relocate(p, e, text, m, err))) goto fail;
  uint64_t off = e->entry - text->addr;
  if (off % 8) {
    rc = ELF_FAIL(err, SCP_ERR_MALFORMED, "InvalidEntrypoint", "Invalid entrypoint");
    goto fail;
  }
  p->entry = (uint32_t)(off / 8);
  uint32_t key;
  if ((rc = sbpf_register_hashed(p, p->entry, true, &key, err))) goto fail;
  sbpf_add_func(p, p->entry, "entrypoint", 10);
  if ((rc = ro_sections(p, e, m, err))) goto fail;
  uint64_t tlen = text->type == SHT_NOBITS ? 0 : text->size;
  p->text_addr = text->addr;
  p->text_vaddr = SCP_SBPF_MM_REGION + text->addr;
  p->ninsns = (uint32_t)(tlen / 8);
  if (tlen / 8 > UINT32_MAX / 2) { rc = oob(err); goto fail; }
  p->text = malloc(tlen + 8);
  if (!p->text) { rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory"); goto fail; }
  memcpy(p->text, m + text->offset, (size_t)tlen);
  p->text_len_bytes = tlen;
  symtab_names(p, e, text->addr, tlen);
  /* .dynsym FUNC symbols name what .symtab does not (stripped programs). */
  if (e->dynsym && e->dynstr && !slice(e, e->dynsym->offset, e->dynsym->size, SYM))
    for (uint64_t o = 0; o + SYM <= e->dynsym->size; o += SYM) {
      const uint8_t *s = e->b + e->dynsym->offset + o;
      uint64_t value = scp_le64(s + 8);
      const char *nm;
      size_t n;
      if ((s[4] & 0xf) != STT_FUNC || value < text->addr || value - text->addr >= tlen) continue;
      if (string_in(e, e->dynstr, scp_le32(s), SYMBOL_NAME_MAX, &nm, &n) || n == 0) continue;
      sbpf_add_func(p, (uint32_t)((value - text->addr) / 8), nm, n);
    }
  rc = SCP_OK;
fail:
  free(m);
  return rc;
}

/* load_with_strict_parser. */
static int load_strict(scp_sbpf_prog *p, elf *e, scp_error *err) {
  const uint8_t *b = e->b;
  if (e->len < EHDR) return oob(err);
  e->machine = scp_le16(b + 18); e->entry = scp_le64(b + 24); e->phoff = scp_le64(b + 32);
  e->phnum = scp_le16(b + 56);
  uint64_t ph1 = EHDR + (uint64_t)PHDR * e->phnum;
  static const uint8_t pad[7];
  if (memcmp(b, "\177ELF", 4) || b[4] != 2 || b[5] != 1 || b[6] != 1 || b[7] != 0 ||
      b[8] != 0 || memcmp(b + 9, pad, 7) || e->machine != SCP_SBPF_EM_BPF ||
      scp_le32(b + 20) != 1 || e->phoff != EHDR || scp_le16(b + 52) != EHDR ||
      scp_le16(b + 54) != PHDR || e->phnum == 0 || ph1 > e->len)
    return parser_fail(P_FILE_HEADER, err);
  phdr ph[2];
  unsigned nph = e->phnum < 2 ? e->phnum : 2;
  for (unsigned i = 0; i < nph; i++) ph[i] = read_phdr(b + EHDR + (uint64_t)i * PHDR);
  bool skip_ro = ph[0].flags != PF_R;
  if (!skip_ro && e->phnum < 2) return parser_fail(P_FILE_HEADER, err);
  static const struct { uint32_t flags; uint64_t vaddr; } want[2] = {
    { .flags = PF_R, .vaddr = SCP_SBPF_MM_RODATA }, { .flags = PF_X, .vaddr = SCP_SBPF_MM_BYTECODE }
  };
  uint64_t expect = ph1;
  unsigned nexp = skip_ro ? 1 : 2;
  for (unsigned i = 0; i < nexp; i++) {
    const phdr *h = &ph[i];
    unsigned w = skip_ro ? 1 : i;
    if (h->type != PT_LOAD || h->flags != want[w].flags || h->offset != expect ||
        h->offset >= e->len || h->offset % 8 || h->vaddr != want[w].vaddr ||
        h->paddr != want[w].vaddr || h->filesz != h->memsz || h->filesz > e->len - h->offset ||
        h->filesz % 8 || h->memsz >= SCP_SBPF_MM_REGION)
      return parser_fail(P_PROGRAM_HEADER, err);
    expect += h->filesz;
  }
  const phdr *code = skip_ro ? &ph[0] : &ph[1];
  uint64_t ro_off = skip_ro ? ph1 : ph[0].offset, ro_len = skip_ro ? 0 : ph[0].filesz;
  uint64_t last = e->entry + 7;
  if (last < e->entry) last = UINT64_MAX;
  if (!(last >= code->vaddr && last - code->vaddr < code->memsz) || e->entry % 8)
    return parser_fail(P_FILE_HEADER, err);
  p->entry = (uint32_t)((e->entry - code->vaddr) / 8);
  p->text_addr = code->vaddr;
  p->text_vaddr = code->vaddr;
  p->ninsns = (uint32_t)(code->filesz / 8);
  p->text = malloc(code->filesz + 8);
  p->ro = malloc(ro_len ? ro_len : 1);
  if (!p->text || !p->ro) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  memcpy(p->text, b + code->offset, (size_t)code->filesz);
  p->text_len_bytes = code->filesz;
  memcpy(p->ro, b + ro_off, (size_t)ro_len);
  p->ro_len = ro_len;
  p->ro_vaddr = SCP_SBPF_MM_RODATA;
  sbpf_add_func(p, p->entry, "entrypoint", 10);
  /* Debug labels: section headers are optional in v3; read .symtab when
   * the lenient parser can make sense of them, for names only. */
  e->shoff = scp_le64(b + 40);
  e->shnum = scp_le16(b + 60);
  e->shstrndx = scp_le16(b + 62);
  uint64_t sh1 = e->shoff + (uint64_t)SHDR * e->shnum;
  if (e->shnum && e->shstrndx < e->shnum && sh1 >= e->shoff && sh1 <= e->len && !(e->shoff % 8)) {
    e->sh = calloc(e->shnum, sizeof *e->sh);
    if (e->sh) {
      for (unsigned i = 0; i < e->shnum; i++) e->sh[i] = read_shdr(b + e->shoff + (uint64_t)i * SHDR);
      e->shstr = &e->sh[e->shstrndx];
      for (unsigned i = 0; i < e->shnum; i++) {
        if (name_is(e, &e->sh[i], ".symtab") && !e->symtab) e->symtab = &e->sh[i];
        if (name_is(e, &e->sh[i], ".strtab") && !e->strtab) e->strtab = &e->sh[i];
      }
      symtab_names(p, e, code->vaddr, code->filesz);
    }
  }
  return SCP_OK;
}

int sbpf_elf_load(scp_sbpf_prog *p, const uint8_t *bytes, size_t len, scp_error *err) {
  elf e;
  memset(&e, 0, sizeof e);
  e.b = bytes;
  e.len = len;
  if (len < 52) return oob(err);
  uint32_t flags = scp_le32(bytes + 48);
  const scp_sbpf_loader_opts *o = &p->loader->opts;
  if (flags > 3 || flags < (uint32_t)o->min_version || flags > (uint32_t)o->max_version)
    return ELF_FAIL(err, SCP_ERR_UNSUPPORTED, "UnsupportedSBPFVersion",
                    "Detected sbpf_version required by the executable which are not enabled");
  p->version = (scp_sbpf_version)flags;
  p->machine = len >= 20 ? scp_le16(bytes + 18) : 0;
  int rc = p->version >= SCP_SBPF_V3 ? load_strict(p, &e, err) : load_lenient(p, &e, err);
  free(e.sh);
  free(e.ph);
  return rc;
}
