/*
 * scp_sym_units.c — unit headers of .debug_info that libdw would refuse,
 * found before libdw reads the section.
 *
 * libdw interns units one after the other from the start of the section,
 * and a header it refuses for anything but its version stops it for good:
 * one damaged header would hide every unit after it, all DWARF when it is
 * the first.  A header refused only for its version is stepped over by its
 * unit_length, so every other refused header whose length is still usable
 * gets the version 0xffff in the private copy libdw reads: then libdw, and
 * the index after it, skip exactly that unit.
 *
 * A length that cannot be used (a reserved value, one shorter than the
 * header, one running past the section) leaves no way to find the next
 * unit: the scan stops there and the index drops the units from there on.
 *
 * The checks are libdw's own (__libdw_next_unit): anything it accepts is
 * left alone, so an intact section is never changed.
 */
#include "symbols/scp_sym_private.h"

#include <dwarf.h>
#include <stdio.h>

static uint64_t get_le(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static bool known_unit_type(unsigned t) {
  return t == DW_UT_compile || t == DW_UT_partial || t == DW_UT_skeleton ||
         t == DW_UT_split_compile || t == DW_UT_type || t == DW_UT_split_type;
}

static void note_first(sym_unit_check *out, uint64_t off, const char *why) {
  if (out->first != UINT64_MAX) return;
  out->first = off;
  snprintf(out->why, sizeof out->why, "%s", why);
}

/* The header of the unit at u (len bytes after its length field, offsets
 * of osize bytes): NULL when libdw accepts it, else what is wrong (in buf).
 * *short_unit: the header does not fit in the unit, so its length is bad. */
static const char *header_fault(const uint8_t *u, uint64_t len, unsigned osize,
                                uint64_t info_size, bool have_abbrev,
                                size_t abbrev_size, char *buf, size_t cap,
                                bool *short_unit) {
  *short_unit = false;
  unsigned version = (unsigned)get_le(u, 2);
  if (version < 2 || version > 5) {
    snprintf(buf, cap, "unknown DWARF version %u", version);
    return buf;
  }
  uint64_t hsize = 2 + osize + 1;     /* version, abbrev offset, address size */
  unsigned ut = DW_UT_compile;
  const uint8_t *abbrev_at = u + 2;
  if (version == 5) {
    if (len < 3) {
      *short_unit = true;
      return "unit length shorter than its header";
    }
    ut = u[2];
    if (!known_unit_type(ut)) {
      snprintf(buf, cap, "unknown unit type 0x%x", ut);
      return buf;
    }
    abbrev_at = u + 4;
    hsize = 2 + 2 + osize;
    if (ut == DW_UT_skeleton || ut == DW_UT_split_compile) hsize += 8;
    if (ut == DW_UT_type || ut == DW_UT_split_type) hsize += 8 + osize;
  }
  if (len < hsize) {
    *short_unit = true;
    return "unit length shorter than its header";
  }
  uint64_t abbrev = get_le(abbrev_at, osize);
  if (!have_abbrev) return "no .debug_abbrev";
  if (abbrev > abbrev_size) {
    snprintf(buf, cap, "abbreviation offset 0x%llx past .debug_abbrev (0x%zx bytes)",
             (unsigned long long)abbrev, abbrev_size);
    return buf;
  }
  if (ut == DW_UT_type || ut == DW_UT_split_type) {
    /* relative to the unit start, like libdw's own check */
    uint64_t die = get_le(abbrev_at + osize + 8, osize), header = hsize + (osize == 8 ? 12 : 4);
    if (die < header || die > info_size) {
      snprintf(buf, cap, "type DIE offset 0x%llx outside the unit", (unsigned long long)die);
      return buf;
    }
  }
  return NULL;
}

void scp_sym_check_units(uint8_t *info, size_t size, bool have_abbrev,
                         size_t abbrev_size, sym_unit_check *out) {
  out->first = out->stop = UINT64_MAX;
  out->why[0] = out->stop_why[0] = 0;
  uint64_t off = 0;
  char buf[sizeof out->why];
  /* libdw ends the section where fewer than 5 bytes are left */
  while (off + 4 < size) {
    uint8_t *p = info + off;
    uint64_t len = get_le(p, 4);
    unsigned osize = 4, lenfield = 4;
    const char *stop = NULL;
    if (len == 0xffffffffu) {
      osize = 8;
      lenfield = 12;
      if (size - off < 12) stop = "64-bit unit length cut off by the end of the section";
      else len = get_le(p + 4, 8);
    } else if (len >= 0xfffffff0u) {
      snprintf(buf, sizeof buf, "reserved unit length 0x%llx", (unsigned long long)len);
      stop = buf;
    }
    if (!stop && len > size - off - lenfield) {
      snprintf(buf, sizeof buf, "unit length 0x%llx past the end of the section (0x%zx bytes)",
               (unsigned long long)len, size);
      stop = buf;
    }
    if (!stop && len < 2) stop = "unit length shorter than its header";
    bool short_unit = false;
    const char *fault = NULL;
    if (!stop) {
      fault = header_fault(p + lenfield, len, osize, size, have_abbrev, abbrev_size,
                           buf, sizeof buf, &short_unit);
      if (short_unit) stop = fault;
    }
    if (stop) {
      out->stop = off;
      snprintf(out->stop_why, sizeof out->stop_why, "%s", stop);
      note_first(out, off, stop);
      return;
    }
    if (fault) {
      note_first(out, off, fault);
      unsigned version = (unsigned)get_le(p + lenfield, 2);
      if (version >= 2 && version <= 5) {      /* libdw would stop here */
        p[lenfield] = 0xff;
        p[lenfield + 1] = 0xff;
      }
    }
    off += lenfield + len;
  }
}
