/*
 * scp_sym_repair.c — undo the DWARF damage of old Solana toolchains before
 * libdw sees it (spec/sbpf/sbpf.txt §6-7, DESIGN.md "Source mapping").
 *
 * The legacy linker applied 64-bit relocations in debug sections as "only
 * the low 32 bits, shifted 32 bits to the left".  So an address field holds
 * (addr << 32) (+ possibly a low half), and (x >> 32) + (x & 0xffffffff)
 * gives the address back.  Such values cannot be real addresses of a V0-V2
 * program (everything lives below 4 GiB), so every 8-byte address >= 2^32
 * is folded; tombstones (-1, -2) are left alone.  The caller skips all this
 * for SBPF v3, whose text really lives at 0x1_0000_0000.
 *
 * The same toolchains zeroed the 2-byte DW_AT_frame_base expression of
 * subprograms (DW_FORM_exprloc "01 5a", DW_OP_reg10); a zero length there
 * shifts the rest of the DIE stream, so it is restored before parsing.
 *
 * Line programs' DW_LNE_set_address operands were relocated the same way
 * and are folded too.
 *
 * Everything here works on private copies and checks every bound: on input
 * it does not understand it stops and leaves the rest untouched.
 */
#include "symbols/scp_sym_private.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* A DWARF offset: 4 bytes in 32-bit DWARF, 8 in 64-bit. */
static uint64_t get_offset(const uint8_t *p, unsigned osize) {
  return osize == 8 ? scp_le64(p) : scp_le32(p);
}

/* Fold the 8-byte address at p when it is damaged; returns 1 if changed. */
static uint32_t fold_at(uint8_t *p) {
  uint64_t x = scp_le64(p);
  if (x <= 0xffffffffu || x >= UINT64_MAX - 1) return 0;
  scp_put_le64(p, (x >> 32) + (x & 0xffffffffu));
  return 1;
}

/* DWARF unit header length: returns the unit's end or NULL. */
static const uint8_t *unit_end(const uint8_t **pp, const uint8_t *end,
                               unsigned *offset_size) {
  const uint8_t *p = *pp;
  if (end - p < 4) return NULL;
  uint64_t len = scp_le32(p);
  p += 4;
  *offset_size = 4;
  if (len == 0xffffffffu) {
    if (end - p < 8) return NULL;
    len = scp_le64(p);
    p += 8;
    *offset_size = 8;
  } else if (len >= 0xfffffff0u) {
    return NULL;
  }
  if (len > (uint64_t)(end - p)) return NULL;
  *pp = p;
  return p + len;
}

uint32_t scp_sym_repair_addr(uint8_t *data, size_t size) {
  uint32_t fixed = 0;
  const uint8_t *end = data + size, *p = data;
  while (p < end) {
    unsigned osize;
    const uint8_t *uend = unit_end(&p, end, &osize);
    if (!uend || uend - p < 4) break;
    unsigned addr_size = p[2], seg_size = p[3];
    p += 4;
    if (addr_size == 8) {
      for (; (size_t)(uend - p) >= seg_size + 8u; p += seg_size + 8)
        fixed += fold_at(data + (p + seg_size - data));
    }
    p = uend;
  }
  return fixed;
}

uint32_t scp_sym_repair_ranges(uint8_t *data, size_t size) {
  /* DWARF 4 range lists of a 64-bit target: pairs of 8-byte values, (0, 0)
   * ends a list, (-1, base) selects a base address. */
  uint32_t fixed = 0;
  for (size_t off = 0; off + 16 <= size; off += 16) {
    uint64_t a = scp_le64(data + off);
    if (a != UINT64_MAX) fixed += fold_at(data + off);
    fixed += fold_at(data + off + 8);
  }
  return fixed;
}

/* ---- .debug_info ------------------------------------------------------ */

typedef struct abbrev {
  uint64_t code;
  uint64_t tag;
  const uint8_t *attrs;    /* (attr, form[, implicit const]) pairs */
} abbrev;

typedef struct cursor {
  const uint8_t *p, *end;
} cursor;

static bool skip_uleb(cursor *c) {
  /* Not scp_leb_u64: DWARF allows padded (overlong) LEBs. */
  while (c->p < c->end)
    if (!(*c->p++ & 0x80)) return true;
  return false;
}

static bool skip(cursor *c, uint64_t n) {
  if (n > (uint64_t)(c->end - c->p)) return false;
  c->p += n;
  return true;
}

static bool read_uleb_lax(cursor *c, uint64_t *v) {
  uint64_t r = 0;
  unsigned shift = 0;
  while (c->p < c->end) {
    uint8_t b = *c->p++;
    if (shift < 64) r |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

/* Parse the abbreviation table at abbrev_data[off...]. */
static abbrev *parse_abbrevs(const uint8_t *data, size_t size, uint64_t off,
                             size_t *count) {
  *count = 0;
  if (off >= size) return NULL;
  cursor c = {.p = data + off, .end = data + size};
  abbrev *tab = NULL;
  size_t cap = 0;
  for (;;) {
    uint64_t code, tag, attr, form, dummy;
    if (!read_uleb_lax(&c, &code) || code == 0) break;
    if (!read_uleb_lax(&c, &tag) || !skip(&c, 1)) break;
    const uint8_t *attrs = c.p;
    bool ok = true;
    for (;;) {
      if (!read_uleb_lax(&c, &attr) || !read_uleb_lax(&c, &form)) { ok = false; break; }
      if (attr == 0 && form == 0) break;
      if (form == DW_FORM_implicit_const && !read_uleb_lax(&c, &dummy)) { ok = false; break; }
    }
    if (!ok || !scp_grow(&tab, &cap, *count + 1, sizeof *tab)) break;
    tab[(*count)++] = (abbrev){.code = code, .tag = tag, .attrs = attrs};
  }
  return tab;
}

static const abbrev *find_abbrev(const abbrev *tab, size_t n, uint64_t code) {
  if (code >= 1 && code <= n && tab[code - 1].code == code) return &tab[code - 1];
  for (size_t i = 0; i < n; i++)
    if (tab[i].code == code) return &tab[i];
  return NULL;
}

/* Skip one attribute value of form at c (for DW_FORM_addr, fold it). */
static bool skip_value(cursor *c, uint64_t form, unsigned addr_size,
                       unsigned osize, uint8_t *base, uint32_t *fixed) {
  uint64_t n;
  switch (form) {
  case DW_FORM_addr:
    if (addr_size == 8 && c->end - c->p >= 8)
      *fixed += fold_at(base + (c->p - base));
    return skip(c, addr_size);
  case DW_FORM_flag_present: case DW_FORM_implicit_const: return true;
  case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
  case DW_FORM_strx1: case DW_FORM_addrx1: return skip(c, 1);
  case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2:
  case DW_FORM_addrx2: return skip(c, 2);
  case DW_FORM_strx3: case DW_FORM_addrx3: return skip(c, 3);
  case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
  case DW_FORM_strx4: case DW_FORM_addrx4: return skip(c, 4);
  case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8:
  case DW_FORM_ref_sup8: return skip(c, 8);
  case DW_FORM_data16: return skip(c, 16);
  case DW_FORM_strp: case DW_FORM_sec_offset: case DW_FORM_ref_addr:
  case DW_FORM_strp_sup: case DW_FORM_line_strp:
  case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt: return skip(c, osize);
  case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata:
  case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx:
  case DW_FORM_rnglistx: case DW_FORM_GNU_addr_index:
  case DW_FORM_GNU_str_index: return skip_uleb(c);
  case DW_FORM_string:
    while (c->p < c->end)
      if (*c->p++ == 0) return true;
    return false;
  case DW_FORM_block1:
    if (c->p >= c->end) return false;
    n = *c->p++;
    return skip(c, n);
  case DW_FORM_block2:
    if (c->end - c->p < 2) return false;
    n = scp_le16(c->p);
    c->p += 2;
    return skip(c, n);
  case DW_FORM_block4:
    if (c->end - c->p < 4) return false;
    n = scp_le32(c->p);
    c->p += 4;
    return skip(c, n);
  case DW_FORM_block: case DW_FORM_exprloc:
    return read_uleb_lax(c, &n) && skip(c, n);
  default:
    return false;
  }
}

/* Walk the DIEs of one unit, folding addresses and restoring frame bases.
 * Stops at the first thing it cannot parse. */
static void repair_unit(uint8_t *base, cursor c, unsigned addr_size,
                        unsigned osize, const abbrev *tab, size_t ntab,
                        const uint8_t *abbrev_end, uint32_t *fixed) {
  while (c.p < c.end) {
    uint64_t code;
    if (!read_uleb_lax(&c, &code)) return;
    if (code == 0) continue;
    const abbrev *ab = find_abbrev(tab, ntab, code);
    if (!ab) return;
    cursor a = {.p = ab->attrs, .end = abbrev_end};
    for (;;) {
      uint64_t attr, form, dummy;
      if (!read_uleb_lax(&a, &attr) || !read_uleb_lax(&a, &form)) return;
      if (attr == 0 && form == 0) break;
      if (form == DW_FORM_implicit_const && !read_uleb_lax(&a, &dummy)) return;
      if (form == DW_FORM_indirect && !read_uleb_lax(&c, &form)) return;
      if (form == DW_FORM_exprloc && attr == DW_AT_frame_base &&
          ab->tag == DW_TAG_subprogram && c.end - c.p >= 2 && c.p[0] == 0 &&
          c.p[1] == 0) {
        uint8_t *w = base + (c.p - base);
        w[0] = 0x01;
        w[1] = DW_OP_reg10;
        (*fixed)++;
      }
      if (!skip_value(&c, form, addr_size, osize, base, fixed)) return;
    }
  }
}

/* ---- .debug_line ------------------------------------------------------ */

/* Walk one line program's opcodes, folding DW_LNE_set_address operands. */
static uint32_t repair_program(uint8_t *base, const uint8_t *p, const uint8_t *end,
                               unsigned opcode_base, const uint8_t *std_lengths) {
  uint32_t fixed = 0;
  cursor c = {.p = p, .end = end};
  while (c.p < c.end) {
    uint8_t op = *c.p++;
    uint64_t n, v;
    if (op == 0) {                                   /* extended */
      if (!read_uleb_lax(&c, &n) || n == 0 || n > (uint64_t)(c.end - c.p)) break;
      if (c.p[0] == DW_LNE_set_address && n == 9)
        fixed += fold_at(base + (c.p + 1 - base));
      c.p += n;
    } else if (op == DW_LNS_fixed_advance_pc) {
      if (!skip(&c, 2)) break;
    } else if (op < opcode_base) {                   /* standard: ULEB args */
      for (unsigned i = 0; i < std_lengths[op - 1]; i++)
        if (!read_uleb_lax(&c, &v)) return fixed;
    }                                                /* special: no operands */
  }
  return fixed;
}

uint32_t scp_sym_repair_line(uint8_t *data, size_t size) {
  uint32_t fixed = 0;
  const uint8_t *end = data + size, *p = data;
  while (p < end) {
    unsigned osize;
    const uint8_t *uend = unit_end(&p, end, &osize);
    if (!uend || uend - p < 2) break;
    uint64_t version = scp_le16(p);
    const uint8_t *h = p + 2;
    if (version < 2 || version > 5) { p = uend; continue; }
    if (version == 5) h += 2;                        /* address, segment size */
    if ((size_t)(uend - h) < osize) break;
    uint64_t header_length = get_offset(h, osize);
    h += osize;
    if (header_length > (uint64_t)(uend - h)) break;
    const uint8_t *program = h + header_length;
    /* min_inst_length, [max_ops v4+], default_is_stmt, line_base,
     * line_range, opcode_base, standard_opcode_lengths[opcode_base - 1] */
    size_t fixed_fields = version >= 4 ? 6 : 5;
    if ((size_t)(program - h) < fixed_fields) break;
    unsigned opcode_base = h[fixed_fields - 1];
    const uint8_t *lengths = h + fixed_fields;
    if (opcode_base == 0 || (size_t)(program - lengths) < opcode_base - 1u) break;
    fixed += repair_program(data, program, uend, opcode_base, lengths);
    p = uend;
  }
  return fixed;
}

uint32_t scp_sym_repair_info(uint8_t *info, size_t size, const uint8_t *abbrev_data,
                             size_t abbrev_size) {
  uint32_t fixed = 0;
  const uint8_t *end = info + size, *p = info;
  while (p < end) {
    unsigned osize;
    const uint8_t *uend = unit_end(&p, end, &osize);
    if (!uend || uend - p < 2) break;
    cursor c = {.p = p, .end = uend};
    uint64_t version = scp_le16(c.p), abbrev_off, unit_type = DW_UT_compile;
    unsigned addr_size;
    c.p += 2;
    if (version >= 2 && version <= 4) {
      if ((size_t)(c.end - c.p) < osize + 1u) break;
      abbrev_off = get_offset(c.p, osize);
      addr_size = c.p[osize];
      c.p += osize + 1;
    } else if (version == 5) {
      if ((size_t)(c.end - c.p) < osize + 2u) break;
      unit_type = c.p[0];
      addr_size = c.p[1];
      abbrev_off = get_offset(c.p + 2, osize);
      c.p += 2 + osize;
      if (unit_type == DW_UT_skeleton || unit_type == DW_UT_split_compile)
        c.p = (size_t)(c.end - c.p) >= 8 ? c.p + 8 : c.end;
      else if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
        c.p = (size_t)(c.end - c.p) >= 8u + osize ? c.p + 8 + osize : c.end;
    } else {
      p = uend;
      continue;
    }
    size_t ntab;
    abbrev *tab = parse_abbrevs(abbrev_data, abbrev_size, abbrev_off, &ntab);
    if (tab)
      repair_unit(info, c, addr_size, osize, tab, ntab,
                  abbrev_data + abbrev_size, &fixed);
    free(tab);
    p = uend;
  }
  return fixed;
}
