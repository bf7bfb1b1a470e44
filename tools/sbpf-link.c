/*
 * sbpf-link — the fixture linker: one BPF relocatable object (clang -target
 * bpf -O2 -g -gdwarf-4 -c) in, one Solana program out, laid out as Solana's
 * own toolchain lays programs out.  Debian's lld links BPF only in part (lld
 * 14 rejects the call relocation R_BPF_64_32 in shared objects, lld 19 the
 * machine), so the project builds its fixtures with this tool.
 *
 *   sbpf-link [--v3] [--machine N] [--no-debug] -o OUT.so IN.o
 *
 * sBPF v0 (default): ET_DYN, e_machine EM_BPF (247, or N), e_flags 0.
 *   Sections at sh_addr == sh_offset: .text at 0x120 after four program
 *   headers (PT_LOAD text, PT_LOAD rodata, PT_LOAD dynamic data,
 *   PT_DYNAMIC), then .rodata, .dynsym, .dynstr, .rel.dyn, .dynamic.
 *   Calls between functions become pc-relative `call imm` (the loader
 *   turns them into keys); a call to an undefined symbol (a syscall) keeps
 *   imm -1 and gets an R_BPF_64_32 entry against a .dynsym entry naming
 *   it; an lddw of a .rodata/.text address gets the ELF address in its two
 *   immediates and an R_BPF_64_RELATIVE entry; a 64-bit pointer inside
 *   .rodata is written the way the old toolchain wrote it (the low 32
 *   address bits in the upper half of the slot) with an R_BPF_64_RELATIVE
 *   entry, which the loader repairs.
 * sBPF v3 (--v3): the strict layout of SIMD-0189: e_machine EM_BPF,
 *   e_flags 3, PT_LOAD PF_R rodata at vaddr 0 (when there is rodata) then
 *   PT_LOAD PF_X text at 0x1_0000_0000, contiguous after the program
 *   headers; no relocations: syscalls are `call imm` with src 0 and imm =
 *   murmur3(name), local calls keep src 1 and their pc-relative imm.
 *
 * Both keep the DWARF sections (relocated to the output addresses) and a
 * .symtab of the object's functions, so the source mapper finds file:line
 * and inline chains.  DWARF 5's .debug_str_offsets has an 18-byte name,
 * longer than solana-sbpf's 16-byte section-name limit: build with
 * -gdwarf-4.  Writable data (.data, .bss) is refused, as the loader would.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/scp_util.h"  /* byte order and murmur3 only (inline): the tool links no library */

#define R_BPF_64_64 1
#define R_BPF_64_ABS64 2
#define R_BPF_64_ABS32 3
#define R_BPF_64_RELATIVE 8
#define R_BPF_64_32 10

static const char *in_name;

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "sbpf-link: %s: ", in_name ? in_name : "");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static uint64_t align(uint64_t x, uint64_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

static uint32_t murmur3(const char *s) { return scp_murmur3_32(s, strlen(s)); }

/* ---- a growable byte buffer --------------------------------------------- */
typedef struct buf { uint8_t *d; size_t n, cap; } buf;
static void put(buf *b, const void *p, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 64;
    if (!(b->d = realloc(b->d, b->cap))) die("out of memory");
  }
  if (p) memcpy(b->d + b->n, p, n);
  else memset(b->d + b->n, 0, n);
  b->n += n;
}
static void pad_to(buf *b, size_t off) { if (b->n < off) put(b, NULL, off - b->n); }
static uint32_t add_str(buf *b, const char *s) {
  uint32_t at = (uint32_t)b->n;
  put(b, s, strlen(s) + 1);
  return at;
}

/* ---- the input object ---------------------------------------------------- */
typedef struct isec {
  const char *name;
  uint32_t type, link, info;
  uint64_t flags, off, size, align, entsize;
  uint64_t out_addr;           /* where its first byte lands (address) */
  int kind;                    /* 0 drop, 1 text, 2 rodata, 3 debug */
  uint8_t *data;               /* a private, relocatable copy */
  int out_index;               /* output section (debug) */
} isec;

static uint8_t *obj;
static size_t obj_len;
static isec *secs;
static unsigned nsecs;
static const uint8_t *symtab, *strtab;
static uint64_t nsyms;

static const uint8_t *sym(uint32_t i) {
  if (i >= nsyms) die("relocation against symbol %u of %llu", i, (unsigned long long)nsyms);
  return symtab + 24ull * i;
}
static const char *sym_name(const uint8_t *s) { return (const char *)strtab + scp_le32(s); }

static void read_object(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) die("cannot open");
  fseek(f, 0, SEEK_END);
  obj_len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  obj = malloc(obj_len + 1);
  if (!obj || fread(obj, 1, obj_len, f) != obj_len) die("cannot read");
  fclose(f);
  if (obj_len < 64 || memcmp(obj, "\177ELF\2\1", 6) || scp_le16(obj + 16) != 1 ||
      scp_le16(obj + 18) != 247)
    die("not a 64-bit little-endian BPF relocatable object");
  uint64_t shoff = scp_le64(obj + 40);
  nsecs = scp_le16(obj + 60);
  unsigned shstrndx = scp_le16(obj + 62);
  if (shoff + 64ull * nsecs > obj_len || shstrndx >= nsecs) die("bad section headers");
  secs = calloc(nsecs, sizeof *secs);
  const uint8_t *shs = obj + shoff + 64ull * shstrndx;
  const char *names = (const char *)obj + scp_le64(shs + 24);
  for (unsigned i = 0; i < nsecs; i++) {
    const uint8_t *h = obj + shoff + 64ull * i;
    isec *s = &secs[i];
    s->name = names + scp_le32(h);
    s->type = scp_le32(h + 4);
    s->flags = scp_le64(h + 8);
    s->off = scp_le64(h + 24);
    s->size = scp_le64(h + 32);
    s->link = scp_le32(h + 40);
    s->info = scp_le32(h + 44);
    s->align = scp_le64(h + 48);
    s->entsize = scp_le64(h + 56);
    if (s->type != 8 && s->off + s->size > obj_len) die("section %s past the end", s->name);
    if (s->type == 2) {
      symtab = obj + s->off;
      nsyms = s->size / 24;
      strtab = obj + scp_le64(obj + shoff + 64ull * s->link + 24);
    }
    if (!strcmp(s->name, ".text")) s->kind = 1;
    else if (!strncmp(s->name, ".rodata", 7)) s->kind = 2;
    else if (!strncmp(s->name, ".debug_", 7)) s->kind = 3;
    else if ((!strncmp(s->name, ".data", 5) || !strncmp(s->name, ".bss", 4)) && s->size)
      die("writable section %s: the sBPF loader refuses read-write data", s->name);
    else if (s->type == 1 && (s->flags & 4) && s->size)
      die("code outside .text (%s): build without -ffunction-sections", s->name);
    if (s->kind) {
      s->data = malloc(s->size + 8);
      if (s->type != 8) memcpy(s->data, obj + s->off, s->size);
      else memset(s->data, 0, s->size);
    }
  }
  if (!symtab) die("no symbol table");
}

static isec *text_sec(void) {
  for (unsigned i = 0; i < nsecs; i++)
    if (secs[i].kind == 1) return &secs[i];
  die("no .text");
  return NULL;
}

/* ---- linking -------------------------------------------------------------- */
static bool v3;
static unsigned machine = 247;
static bool keep_debug = true;

typedef struct dynrel { uint64_t off; uint32_t type, sym; } dynrel;
static dynrel *rels;
static size_t nrels;
static const char **dynnames;   /* .dynsym names from index 1: entrypoint, then syscalls */
static size_t ndyn;

static void add_rel(uint64_t off, uint32_t type, uint32_t s) {
  rels = realloc(rels, (nrels + 1) * sizeof *rels);
  rels[nrels++] = (dynrel){ off, type, s };
}

static uint32_t dyn_index(const char *name) {
  for (size_t i = 0; i < ndyn; i++)
    if (!strcmp(dynnames[i], name)) return (uint32_t)(i + 1);
  dynnames = realloc(dynnames, (ndyn + 1) * sizeof *dynnames);
  dynnames[ndyn++] = name;
  return (uint32_t)ndyn;
}

/* Address of symbol s in the output (0 for an undefined one). */
static uint64_t sym_addr(const uint8_t *s, bool *defined) {
  uint16_t shndx = scp_le16(s + 6);
  *defined = shndx != 0 && shndx < nsecs && secs[shndx].kind;
  return *defined ? secs[shndx].out_addr + scp_le64(s + 8) : 0;
}

static void relocate_text(isec *text, uint64_t text_addr) {
  for (unsigned r = 0; r < nsecs; r++) {
    if (secs[r].type != 9 || &secs[secs[r].info] != text) continue;
    const uint8_t *rel = obj + secs[r].off;
    for (uint64_t k = 0; k + 16 <= secs[r].size; k += 16) {
      uint64_t off = scp_le64(rel + k), info = scp_le64(rel + k + 8);
      uint32_t type = (uint32_t)info;
      const uint8_t *s = sym((uint32_t)(info >> 32));
      bool def;
      uint64_t addr = sym_addr(s, &def);
      uint8_t *insn = text->data + off;
      if (off + 8 > text->size) die("relocation past .text");
      if (type == R_BPF_64_64) {
        if (!def) die("lddw of undefined symbol %s", sym_name(s));
        addr += scp_le32(insn + 4);
        scp_put_le32(insn + 4, (uint32_t)addr);
        scp_put_le32(insn + 12, (uint32_t)(addr >> 32));
        if (!v3) add_rel(text_addr + off, R_BPF_64_RELATIVE, 0);
      } else if (type == R_BPF_64_32) {
        if (def) {
          int64_t rel_pc = (int64_t)((addr - text_addr) / 8) - (int64_t)(off / 8) - 1;
          scp_put_le32(insn + 4, (uint32_t)(int32_t)rel_pc);
        } else if (v3) {
          insn[1] &= 0x0f;                      /* src 0: a static syscall */
          scp_put_le32(insn + 4, murmur3(sym_name(s)));
        } else {
          insn[1] &= 0x0f;
          scp_put_le32(insn + 4, 0xffffffffu);
          add_rel(text_addr + off, R_BPF_64_32, dyn_index(sym_name(s)));
        }
      } else {
        die("unsupported relocation type %u in .text", type);
      }
    }
  }
}

static void relocate_data(isec *target) {
  for (unsigned r = 0; r < nsecs; r++) {
    if (secs[r].type != 9 || &secs[secs[r].info] != target) continue;
    const uint8_t *rel = obj + secs[r].off;
    for (uint64_t k = 0; k + 16 <= secs[r].size; k += 16) {
      uint64_t off = scp_le64(rel + k), info = scp_le64(rel + k + 8);
      uint32_t type = (uint32_t)info;
      bool def;
      uint64_t addr = sym_addr(sym((uint32_t)(info >> 32)), &def);
      if (type == R_BPF_64_ABS64) {
        if (off + 8 > target->size) die("relocation past %s", target->name);
        uint64_t v = addr + scp_le64(target->data + off);
        if (target->kind == 2 && !v3) {
          /* the old toolchain's form: the loader reads the low 32 bits
           * from the upper half and writes MM_PROGRAM_START + them */
          scp_put_le64(target->data + off, v << 32);
          add_rel(target->out_addr + off, R_BPF_64_RELATIVE, 0);
        } else {
          scp_put_le64(target->data + off, v);
        }
      } else if (type == R_BPF_64_ABS32) {
        if (off + 4 > target->size) die("relocation past %s", target->name);
        scp_put_le32(target->data + off, (uint32_t)(addr + scp_le32(target->data + off)));
      } else if (type != 0) {
        die("unsupported relocation type %u in %s", type, target->name);
      }
    }
  }
}

/* ---- output --------------------------------------------------------------- */
typedef struct osec {
  const char *name;
  uint32_t type, link, info;
  uint64_t flags, addr, off, size, align, entsize;
} osec;

static osec out[64];
static unsigned nout = 1;

static unsigned add_sec(osec s) {
  if (nout == 64) die("too many sections");
  out[nout] = s;
  return nout++;
}

static void phdr(buf *b, size_t at, uint32_t type, uint32_t flags, uint64_t off, uint64_t vaddr,
                 uint64_t size) {
  uint8_t *p = b->d + at;
  scp_put_le32(p, type); scp_put_le32(p + 4, flags); scp_put_le64(p + 8, off);
  scp_put_le64(p + 16, vaddr); scp_put_le64(p + 24, vaddr);
  scp_put_le64(p + 32, size); scp_put_le64(p + 40, size); scp_put_le64(p + 48, 8);
}

static uint64_t entry_value(isec *text) {
  for (uint64_t i = 0; i < nsyms; i++) {
    const uint8_t *s = symtab + 24 * i;
    if (!strcmp(sym_name(s), "entrypoint") && &secs[scp_le16(s + 6)] == text)
      return scp_le64(s + 8);
  }
  die("no entrypoint function in .text");
  return 0;
}

/* Lay out the rodata input sections from addr on; returns the end. */
static uint64_t place_rodata(uint64_t addr) {
  for (unsigned i = 0; i < nsecs; i++)
    if (secs[i].kind == 2) {
      addr = align(addr, secs[i].align ? secs[i].align : 1);
      secs[i].out_addr = addr;
      addr += secs[i].size;
    }
  return addr;
}

static void put_rodata(buf *b, uint64_t base_off, uint64_t base_addr) {
  for (unsigned i = 0; i < nsecs; i++)
    if (secs[i].kind == 2) {
      pad_to(b, base_off + (secs[i].out_addr - base_addr));
      put(b, secs[i].data, secs[i].size);
    }
}

static void write_tail(buf *b, isec *text, unsigned text_index, uint64_t text_addr,
                       uint64_t entry_addr) {
  /* DWARF, relocated to the output addresses */
  if (keep_debug)
    for (unsigned i = 0; i < nsecs; i++)
      if (secs[i].kind == 3) {
        relocate_data(&secs[i]);
        size_t off = b->n;
        put(b, secs[i].data, secs[i].size);
        add_sec((osec){ secs[i].name, 1, 0, 0, 0, 0, off, secs[i].size, 1, 0 });
      }
  /* .symtab: the object's functions (locals first), with output addresses */
  buf st = { 0 }, ss = { 0 };
  put(&ss, "", 1);
  uint8_t zero[24] = { 0 };
  put(&st, zero, 24);
  uint32_t nlocal = 1;
  for (int pass = 0; pass < 2; pass++)
    for (uint64_t i = 0; i < nsyms; i++) {
      const uint8_t *s = symtab + 24 * i;
      bool global = (s[4] >> 4) != 0;
      if ((s[4] & 0xf) != 2 || &secs[scp_le16(s + 6)] != text || global != (pass == 1)) continue;
      uint8_t e[24] = { 0 };
      scp_put_le32(e, add_str(&ss, sym_name(s)));
      e[4] = s[4];
      scp_put_le16(e + 6, (uint16_t)text_index);
      scp_put_le64(e + 8, text_addr + scp_le64(s + 8));
      scp_put_le64(e + 16, scp_le64(s + 16));
      put(&st, e, 24);
      if (pass == 0) nlocal++;
    }
  (void)entry_addr;
  pad_to(b, align(b->n, 8));
  unsigned symi = add_sec((osec){ ".symtab", 2, 0, nlocal, 0, 0, b->n, st.n, 8, 24 });
  put(b, st.d, st.n);
  out[symi].link = add_sec((osec){ ".strtab", 3, 0, 0, 0, 0, b->n, ss.n, 1, 0 });
  put(b, ss.d, ss.n);
  free(st.d);
  free(ss.d);
  /* .shstrtab and the section header table */
  buf names = { 0 };
  put(&names, "", 1);
  unsigned shstr = add_sec((osec){ ".shstrtab", 3, 0, 0, 0, 0, 0, 0, 1, 0 });
  uint32_t name_at[64] = { 0 };
  for (unsigned i = 1; i < nout; i++) name_at[i] = add_str(&names, out[i].name);
  out[shstr].off = b->n;
  out[shstr].size = names.n;
  put(b, names.d, names.n);
  free(names.d);
  pad_to(b, align(b->n, 8));
  uint64_t shoff = b->n;
  for (unsigned i = 0; i < nout; i++) {
    uint8_t h[64] = { 0 };
    if (i) {
      scp_put_le32(h, name_at[i]); scp_put_le32(h + 4, out[i].type);
      scp_put_le64(h + 8, out[i].flags); scp_put_le64(h + 16, out[i].addr);
      scp_put_le64(h + 24, out[i].off); scp_put_le64(h + 32, out[i].size);
      scp_put_le32(h + 40, out[i].link); scp_put_le32(h + 44, out[i].info);
      scp_put_le64(h + 48, out[i].align); scp_put_le64(h + 56, out[i].entsize);
    }
    put(b, h, 64);
  }
  scp_put_le64(b->d + 40, shoff);
  scp_put_le16(b->d + 58, 64);
  scp_put_le16(b->d + 60, (uint16_t)nout);
  scp_put_le16(b->d + 62, (uint16_t)shstr);
}

static void header(buf *b, unsigned phnum, uint32_t flags, uint64_t entry) {
  uint8_t h[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
  scp_put_le16(h + 16, 3);                 /* ET_DYN */
  scp_put_le16(h + 18, (uint16_t)machine);
  scp_put_le32(h + 20, 1);
  scp_put_le64(h + 24, entry);
  scp_put_le64(h + 32, 64);
  scp_put_le32(h + 48, flags);
  scp_put_le16(h + 52, 64);
  scp_put_le16(h + 54, 56);
  scp_put_le16(h + 56, (uint16_t)phnum);
  put(b, h, 64);
  put(b, NULL, 56ull * phnum);
}

static void link_v0(buf *b) {
  isec *text = text_sec();
  const uint64_t text_addr = 64 + 56 * 4;   /* 0x120 */
  text->out_addr = text_addr;
  uint64_t ro_addr = align(text_addr + text->size, 8);
  uint64_t ro_end = place_rodata(ro_addr);
  dyn_index("entrypoint");   /* .dynsym[1]: the entrypoint, defined */
  relocate_text(text, text_addr);
  for (unsigned i = 0; i < nsecs; i++)
    if (secs[i].kind == 2) relocate_data(&secs[i]);
  uint64_t entry_addr = text_addr + entry_value(text);
  header(b, 4, 0, entry_addr);
  put(b, text->data, text->size);
  unsigned text_index = add_sec((osec){ ".text", 1, 0, 0, 6, text_addr, text_addr, text->size, 8, 0 });
  pad_to(b, ro_addr);
  put_rodata(b, ro_addr, ro_addr);
  if (ro_end > ro_addr)
    add_sec((osec){ ".rodata", 1, 0, 0, 2, ro_addr, ro_addr, ro_end - ro_addr, 8, 0 });
  /* dynamic data */
  pad_to(b, align(b->n, 8));
  uint64_t dyn0 = b->n;
  buf dstr = { 0 };
  put(&dstr, "", 1);
  buf dsym = { 0 };
  uint8_t zero[24] = { 0 };
  put(&dsym, zero, 24);
  for (size_t i = 0; i < ndyn; i++) {
    uint8_t e[24] = { 0 };
    scp_put_le32(e, add_str(&dstr, dynnames[i]));
    if (i == 0) {
      e[4] = 0x12;                 /* GLOBAL FUNC */
      scp_put_le16(e + 6, (uint16_t)text_index);
      scp_put_le64(e + 8, entry_addr);
    } else {
      e[4] = 0x10;                 /* GLOBAL NOTYPE, undefined: a syscall */
    }
    put(&dsym, e, 24);
  }
  uint64_t dynsym_off = b->n;
  put(b, dsym.d, dsym.n);
  unsigned dynsym_i = add_sec((osec){ ".dynsym", 11, 0, 1, 2, dynsym_off, dynsym_off, dsym.n, 8, 24 });
  uint64_t dynstr_off = b->n;
  put(b, dstr.d, dstr.n);
  out[dynsym_i].link = add_sec((osec){ ".dynstr", 3, 0, 0, 2, dynstr_off, dynstr_off, dstr.n, 1, 0 });
  pad_to(b, align(b->n, 8));
  uint64_t rel_off = b->n;
  for (size_t i = 0; i < nrels; i++) {
    uint8_t e[16];
    scp_put_le64(e, rels[i].off);
    scp_put_le64(e + 8, (uint64_t)rels[i].sym << 32 | rels[i].type);
    put(b, e, 16);
  }
  if (nrels)
    add_sec((osec){ ".rel.dyn", 9, dynsym_i, 0, 2, rel_off, rel_off, 16 * nrels, 8, 16 });
  uint64_t dynamic_off = b->n;
  uint64_t tags[][2] = {
    { 6, dynsym_off }, { 11, 24 }, { 5, dynstr_off }, { 10, dstr.n },
    { 17, rel_off }, { 18, 16 * nrels }, { 19, 16 }, { 0, 0 }
  };
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
    if (!nrels && tags[i][0] >= 17 && tags[i][0] <= 19) continue;
    uint8_t e[16];
    scp_put_le64(e, tags[i][0]);
    scp_put_le64(e + 8, tags[i][1]);
    put(b, e, 16);
  }
  add_sec((osec){ ".dynamic", 6, out[dynsym_i].link, 0, 3, dynamic_off, dynamic_off,
                  b->n - dynamic_off, 8, 16 });
  uint64_t dyn_end = b->n;
  free(dstr.d);
  free(dsym.d);
  phdr(b, 64, 1, 5, text_addr, text_addr, text->size);
  phdr(b, 64 + 56, 1, 4, ro_addr, ro_addr, ro_end - ro_addr);
  phdr(b, 64 + 112, 1, 4, dyn0, dyn0, dyn_end - dyn0);
  phdr(b, 64 + 168, 2, 6, dynamic_off, dynamic_off, dyn_end - dynamic_off);
  write_tail(b, text, text_index, text_addr, entry_addr);
}

static void link_v3(buf *b) {
  isec *text = text_sec();
  uint64_t ro_size = align(place_rodata(0), 8);
  unsigned phnum = ro_size ? 2 : 1;
  uint64_t ro_off = 64 + 56ull * phnum, text_off = ro_off + ro_size;
  const uint64_t text_addr = 0x100000000ull;
  text->out_addr = text_addr;
  relocate_text(text, text_addr);
  for (unsigned i = 0; i < nsecs; i++)
    if (secs[i].kind == 2) relocate_data(&secs[i]);
  uint64_t entry_addr = text_addr + entry_value(text);
  header(b, phnum, 3, entry_addr);
  put_rodata(b, ro_off, 0);
  pad_to(b, text_off);
  if (ro_size) {
    phdr(b, 64, 1, 4, ro_off, 0, ro_size);
    add_sec((osec){ ".rodata", 1, 0, 0, 2, 0, ro_off, ro_size, 8, 0 });
  }
  phdr(b, 64 + 56ull * (phnum - 1), 1, 1, text_off, text_addr, text->size);
  put(b, text->data, text->size);
  unsigned text_index = add_sec((osec){ ".text", 1, 0, 0, 6, text_addr, text_off, text->size, 8, 0 });
  write_tail(b, text, text_index, text_addr, entry_addr);
}

int main(int argc, char **argv) {
  const char *outp = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--v3")) v3 = true;
    else if (!strcmp(argv[i], "--no-debug")) keep_debug = false;
    else if (!strcmp(argv[i], "--machine") && i + 1 < argc) machine = (unsigned)strtoul(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) outp = argv[++i];
    else if (argv[i][0] != '-' && !in_name) in_name = argv[i];
    else {
      fprintf(stderr, "usage: sbpf-link [--v3] [--machine N] [--no-debug] -o OUT.so IN.o\n");
      return 2;
    }
  }
  if (!in_name || !outp) {
    fprintf(stderr, "usage: sbpf-link [--v3] [--machine N] [--no-debug] -o OUT.so IN.o\n");
    return 2;
  }
  read_object(in_name);
  buf b = { 0 };
  if (v3) link_v3(&b);
  else link_v0(&b);
  FILE *f = fopen(outp, "wb");
  if (!f || fwrite(b.d, 1, b.n, f) != b.n || fclose(f)) die("cannot write %s", outp);
  for (unsigned i = 0; i < nsecs; i++) free(secs[i].data);
  free(secs);
  free(obj);
  free(rels);
  free(dynnames);
  free(b.d);
  return 0;
}
