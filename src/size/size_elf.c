/*
 * size_elf.c — the size tree of a 64-bit little-endian ELF file, an sBPF
 * program or a BPF object (scp_size.h): the headers, the section header
 * table and every section's file bytes, and what lies between them as
 * padding.  Executable sections are split into the symbol mapper's
 * functions (the symbol table's, one per address, overlaps clipped).
 */
#include "size/size_private.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A piece of the file: [off, off + size), what it is, and for a section
 * its index (else -1). */
typedef struct piece {
  uint64_t off, size;
  const char *name;
  long sec;
} piece;

static int cmp_piece(const void *a, const void *b) {
  const piece *x = a, *y = b;
  if (x->off != y->off) return x->off < y->off ? -1 : 1;
  return x->size < y->size ? -1 : x->size > y->size;
}

typedef struct elf_view {
  uint64_t shoff, phoff;
  size_t shnum, phnum, shstrndx;
  uint16_t phentsize;
} elf_view;

static const uint8_t *shdr(const size_b *b, const elf_view *v, size_t i) {
  return b->bytes + v->shoff + i * 64;
}

static const char *sec_name(const size_b *b, const elf_view *v, size_t i, char *buf,
                            size_t size) {
  uint32_t at = scp_le32(shdr(b, v, i));
  if (v->shstrndx < v->shnum) {
    const uint8_t *st = shdr(b, v, v->shstrndx);
    uint64_t off = scp_le64(st + 24), n = scp_le64(st + 32);
    if (scp_le32(st + 4) != SHT_NOBITS && off <= b->len && n <= b->len - off && at < n) {
      const char *s = (const char *)b->bytes + off + at;
      const char *z = memchr(s, 0, (size_t)(n - at));
      if (z && z > s) {
        snprintf(buf, size, "%.*s", (int)(z - s), s);
        return buf;
      }
    }
  }
  snprintf(buf, size, "section[%zu]", i);
  return buf;
}

static int read_view(size_b *b, elf_view *v, scp_error *err) {
  const uint8_t *e = b->bytes;
  if (e[EI_CLASS] != ELFCLASS64 || e[EI_DATA] != ELFDATA2LSB)
    return scp_fail(err, SCP_ERR_UNSUPPORTED, "only 64-bit little-endian ELF is supported");
  v->phoff = scp_le64(e + 32);
  v->shoff = scp_le64(e + 40);
  v->phentsize = scp_le16(e + 54);
  v->phnum = scp_le16(e + 56);
  v->shnum = scp_le16(e + 60);
  v->shstrndx = scp_le16(e + 62);
  if (v->shoff && (v->shoff > b->len || b->len - v->shoff < 64 || scp_le16(e + 58) != 64))
    return scp_fail(err, SCP_ERR_MALFORMED, "bad ELF section header table");
  if (!v->shoff) v->shnum = 0;
  else if (v->shnum == 0) v->shnum = (size_t)scp_le64(e + v->shoff + 32);
  if (v->shoff && v->shstrndx == SHN_XINDEX) v->shstrndx = scp_le32(e + v->shoff + 40);
  if (v->shnum > (b->len - v->shoff) / 64)
    return scp_fail(err, SCP_ERR_MALFORMED, "ELF section headers past the end of the file");
  uint64_t ph = (uint64_t)v->phnum * v->phentsize;
  if (v->phnum && (v->phoff > b->len || ph > b->len - v->phoff))
    return scp_fail(err, SCP_ERR_MALFORMED, "ELF program headers past the end of the file");
  return SCP_OK;
}

/* The functions of executable section i ([addr, addr + size) in pc
 * units), each claimed once; the bytes none covers are "[no symbol]". */
static void walk_code(size_b *b, uint32_t node, uint64_t addr, uint64_t size, bool *claimed) {
  uint64_t covered = 0;
  uint32_t nf = scp_sym_function_count(b->s);
  for (uint32_t f = 0; f < nf; f++) {
    uint64_t lo, hi;
    if (claimed[f] || scp_sym_function_range(b->s, f, &lo, &hi) || hi <= lo || lo < addr ||
        hi - addr > size)
      continue;
    claimed[f] = true;
    covered += hi - lo;
    scp_size_function(b, node, f, lo, hi, 8);
  }
  scp_size_part(b, node, "[no symbol]", size - covered);
}

static int collect(size_b *b, const elf_view *v, piece *pc, size_t *np, scp_error *err) {
  size_t n = 0;
  pc[n++] = (piece){.off = 0, .size = 64, .name = "[ELF header]", .sec = -1};
  if (v->phnum)
    pc[n++] = (piece){.off = v->phoff, .size = (uint64_t)v->phnum * v->phentsize,
                      .name = "[program headers]", .sec = -1};
  if (v->shnum)
    pc[n++] = (piece){.off = v->shoff, .size = (uint64_t)v->shnum * 64,
                      .name = "[section headers]", .sec = -1};
  for (size_t i = 0; i < v->shnum; i++) {
    const uint8_t *h = shdr(b, v, i);
    uint64_t off = scp_le64(h + 24), size = scp_le64(h + 32);
    if (scp_le32(h + 4) == SHT_NOBITS || scp_le32(h + 4) == SHT_NULL || size == 0) continue;
    if (off > b->len || size > b->len - off)
      return scp_fail(err, SCP_ERR_MALFORMED, "ELF section %zu lies past the end of the file",
                      i);
    pc[n++] = (piece){.off = off, .size = size, .name = NULL, .sec = (long)i};
  }
  qsort(pc, n, sizeof *pc, cmp_piece);
  for (size_t i = 1; i < n; i++)
    if (pc[i].off < pc[i - 1].off + pc[i - 1].size)
      return scp_fail(err, SCP_ERR_MALFORMED, "ELF pieces overlap at offset %llu",
                      (unsigned long long)pc[i].off);
  *np = n;
  return SCP_OK;
}

int scp_size_elf(size_b *b, scp_error *err) {
  elf_view v = {0};
  int rc = read_view(b, &v, err);
  if (rc) return rc;
  piece *pc = calloc(v.shnum + 3, sizeof *pc);
  bool *claimed = calloc(scp_sym_function_count(b->s) + 1, sizeof *claimed);
  size_t n = 0;
  if (!pc || !claimed) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  if ((rc = collect(b, &v, pc, &n, err))) goto done;
  uint64_t at = 0, pad = 0;
  for (size_t i = 0; i < n; i++) {
    pad += pc[i].off - at;
    at = pc[i].off + pc[i].size;
    if (pc[i].name) {
      scp_size_part(b, 0, pc[i].name, pc[i].size);
      continue;
    }
    char name[256];
    const uint8_t *h = shdr(b, &v, (size_t)pc[i].sec);
    uint32_t node = scp_size_node(b, 0, sec_name(b, &v, (size_t)pc[i].sec, name, sizeof name));
    if ((scp_le64(h + 8) & SHF_EXECINSTR) && scp_le32(h + 4) == SHT_PROGBITS)
      walk_code(b, node, scp_le64(h + 16), pc[i].size, claimed);
    else
      scp_size_self(b, node, pc[i].size);
  }
  pad += b->len - at;
  scp_size_part(b, 0, "[padding]", pad);
done:
  free(pc);
  free(claimed);
  return rc;
}
