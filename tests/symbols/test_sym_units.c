/*
 * test_sym_units.c — DWARF units that the source mapper loses one at a
 * time: damaged unit headers (src/symbols/scp_sym_units.c and the unit walk
 * of scp_sym_dwarf.c) and DIEs nested past SYM_MAX_DIE_DEPTH.
 *
 * The three-unit module is linked here with $CLANG (default clang) from
 * tests/fixtures/wasm/sym_inline.c and tests/symbols/sym_unit2.c (under
 * $SCP_SRCDIR, default the repository root) into SCP_BUILD/tests/symbols;
 * the deep-nesting modules are written by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "symbols/scp_sym.h"
#include "build_dir.h"
#include "symbols/scp_sym_private.h"   /* SYM_MAX_DIE_DEPTH */
#include "sym_fixture.h"

#include <dwarf.h>

/* Function indices: host_log is the one import; then sym_inline.c's,
 * then sum_squares (second unit) and sum_squares2 (third). */
enum { F_HOST_LOG, F_ACCUMULATE, F_SCALE, F_RUN, F_SUM, F_SUM2, F_UNITS };

/* A sym_inline.c function keeps its DWARF: its name and declaration line,
 * every pc inside it, and source lines of sym_inline.c. */
static void check_inline_dwarf(scp_sym *s, uint32_t index, const char *name,
                               uint32_t decl) {
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, index, &f), SCP_OK);
  assert_string_equal(f.name, name);
  assert_int_equal(f.source, SCP_SRC_DWARF);
  assert_int_equal(f.decl_line, decl);
  assert_string_equal(base(f.file), "sym_inline.c");
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, index, &lo, &hi), SCP_OK);
  size_t lines = 0;
  for (uint64_t pc = lo; pc < hi; pc++) {
    const scp_frame_info *c;
    size_t n = scp_sym_chain(s, pc, &c);
    assert_true(n >= 1);
    assert_string_equal(c[n - 1].name, name);
    assert_int_equal(c[n - 1].source, SCP_SRC_DWARF);
    if (c[0].line > decl && !strcmp(base(c[0].file), "sym_inline.c")) lines++;
  }
  assert_true(lines > 0);
}

static void check_inline_unit(scp_sym *s) {
  check_inline_dwarf(s, F_ACCUMULATE, "accumulate", 22);
  check_inline_dwarf(s, F_SCALE, "scale", 31);
  check_inline_dwarf(s, F_RUN, "run", 35);
}

/* ---- damaged unit headers --------------------------------------------- */

/* Three units: sym_inline.c in DWARF 4, sym_unit2.c in DWARF 5 and
 * sym_unit2.c again, renamed (sum_squares2), in DWARF 4. */
static blob build_three_units(void) {
  const char *clang = sym_env("CLANG", "clang"), *src = sym_env("SCP_SRCDIR", ".");
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/tests/symbols", build_dir());
  snprintf(path, sizeof path, "%s/units.wasm", dir);
  return sym_build(path,
           "mkdir -p '%s' && "
           "%s --target=wasm32 -O2 -g -gdwarf-4 -c '%s/tests/fixtures/wasm/sym_inline.c' -o '%s/unit_a.o' && "
           "%s --target=wasm32 -O2 -g -gdwarf-5 -c '%s/tests/symbols/sym_unit2.c' -o '%s/unit_b.o' && "
           "%s --target=wasm32 -O2 -g -gdwarf-4 -Dsum_squares=sum_squares2 -Dunused_helper=unused_helper2 "
           "-c '%s/tests/symbols/sym_unit2.c' -o '%s/unit_c.o' && "
           "%s --target=wasm32 -nostdlib -Wl,--no-entry -Wl,--export-dynamic "
           "-Wl,--allow-undefined '%s/unit_a.o' '%s/unit_b.o' '%s/unit_c.o' -o '%s'",
           dir, clang, src, dir, clang, src, dir, clang, src, dir, clang, dir, dir, dir, path);
}

/* A sym_unit2.c function keeps its DWARF: name, declaration, and square
 * inlined at line 21 with its body at line 15. */
static void check_unit2_dwarf(scp_sym *s, uint32_t index, const char *name) {
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, index, &f), SCP_OK);
  assert_string_equal(f.name, name);
  assert_int_equal(f.source, SCP_SRC_DWARF);
  assert_int_equal(f.decl_line, 18);
  assert_string_equal(base(f.file), "sym_unit2.c");
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, index, &lo, &hi), SCP_OK);
  size_t inl = 0;
  for (uint64_t pc = lo; pc < hi; pc++) {
    const scp_frame_info *c;
    size_t n = scp_sym_chain(s, pc, &c);
    assert_true(n >= 1);
    assert_string_equal(c[n - 1].name, name);
    if (n == 2 && c[0].line == 15 && !strcmp(c[0].name, "square") && c[1].line == 21) inl++;
  }
  assert_true(inl > 0);
}

/* Every pc of the function falls back to its name-section name. */
static void check_namesec(scp_sym *s, uint32_t index, const char *name) {
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, index, &f), SCP_OK);
  assert_string_equal(f.name, name);
  assert_int_equal(f.source, SCP_SRC_NAMESEC);
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, index, &lo, &hi), SCP_OK);
  for (uint64_t pc = lo; pc < hi; pc++) {
    const scp_frame_info *c;
    assert_int_equal(scp_sym_chain(s, pc, &c), 1);
    assert_string_equal(c[0].name, name);
    assert_int_equal(c[0].source, SCP_SRC_NAMESEC);
    assert_int_equal(c[0].line, 0);
  }
}

static const char *const partial_tail =
    "; functions there: names from the name section, no source lines";

/* b still has DWARF, and the warning want */
static scp_sym *open_damaged(const blob *b, const char *want) {
  scp_sym *s = open_blob(b, NULL);
  assert_true(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), want);
  return s;
}

/* A damaged unit header loses only that unit when its unit_length still
 * says where the next unit starts, the first unit's included: the units
 * after it keep their names and lines, its functions fall back to the
 * name section, and the warning names the unit's .debug_info offset, what
 * is wrong and the fallback.  A length that cannot be used loses the units
 * from there on, and the warning says so. */
static void test_damaged_unit_header_loses_only_itself(void **state) {
  (void)state;
  blob good = build_three_units();
  blob b = {malloc(good.len), good.len};
  assert_non_null(b.data);
  size_t size, abbrev_size;
  memcpy(b.data, good.data, b.len);
  uint8_t *info = find_custom(&b, ".debug_info", &size);
  find_custom(&b, ".debug_abbrev", &abbrev_size);
  /* unit 0 (DWARF 4): length, version at +4, abbrev offset at +6; unit 1
   * (DWARF 5): length, version, unit type at +6, address size, abbrev
   * offset at +8; unit 2 (DWARF 4) */
  size_t u1 = 4 + scp_le32(info), u2 = u1 + 4 + scp_le32(info + u1);
  assert_true(u2 + 12 < size && u2 + 4 + scp_le32(info + u2) == size);
  assert_int_equal(info[4], 4);
  assert_int_equal(info[u1 + 4], 5);
  assert_int_equal(info[u2 + 4], 4);
  scp_sym *s = open_blob(&b, NULL);
  assert_string_equal(scp_sym_warning(s), "");
  assert_int_equal(scp_sym_function_count(s), F_UNITS);
  check_unit2_dwarf(s, F_SUM, "sum_squares");
  check_unit2_dwarf(s, F_SUM2, "sum_squares2");
  scp_sym_destroy(s);

  char want[400];
  /* The first unit: an unknown version, then an abbreviation offset past
   * .debug_abbrev.  Both later units keep their DWARF. */
  for (int kind = 0; kind < 2; kind++) {
    memcpy(b.data, good.data, b.len);
    if (kind == 0) {
      info[4] = 99;
      snprintf(want, sizeof want, "damaged .debug_info at offset 0x0: unknown DWARF "
               "version 99 (this unit only)%s", partial_tail);
    } else {
      scp_put_le32(info + 6, 0xeeeeeeee);
      snprintf(want, sizeof want, "damaged .debug_info at offset 0x0: abbreviation offset "
               "0xeeeeeeee past .debug_abbrev (0x%zx bytes) (this unit only)%s",
               abbrev_size, partial_tail);
    }
    s = open_damaged(&b, want);
    check_namesec(s, F_ACCUMULATE, "accumulate");
    check_namesec(s, F_SCALE, "scale");
    check_namesec(s, F_RUN, "run");
    check_unit2_dwarf(s, F_SUM, "sum_squares");
    check_unit2_dwarf(s, F_SUM2, "sum_squares2");
    scp_sym_destroy(s);
  }

  /* The middle unit: an unknown DWARF 5 unit type (libdw would take the
   * header and hand back no unit DIE), then an abbreviation offset. */
  for (int kind = 0; kind < 2; kind++) {
    memcpy(b.data, good.data, b.len);
    if (kind == 0) {
      info[u1 + 6] = 0x7f;
      snprintf(want, sizeof want, "damaged .debug_info at offset 0x%zx: unknown unit type "
               "0x7f (this unit only)%s", u1, partial_tail);
    } else {
      scp_put_le32(info + u1 + 8, 0xeeeeeeee);
      snprintf(want, sizeof want, "damaged .debug_info at offset 0x%zx: abbreviation offset "
               "0xeeeeeeee past .debug_abbrev (0x%zx bytes) (this unit only)%s", u1,
               abbrev_size, partial_tail);
    }
    s = open_damaged(&b, want);
    check_inline_unit(s);
    check_namesec(s, F_SUM, "sum_squares");
    check_unit2_dwarf(s, F_SUM2, "sum_squares2");
    scp_sym_destroy(s);
  }

  /* Lengths that cannot be used: in the middle unit (past the section, or
   * shorter than the header) the first unit stays and the last is lost
   * with it; in the first unit (a reserved value) nothing is left. */
  for (int kind = 0; kind < 2; kind++) {
    memcpy(b.data, good.data, b.len);
    if (kind == 0) {
      scp_put_le32(info + u1, 0x7fffffff);
      snprintf(want, sizeof want, "damaged .debug_info at offset 0x%zx: unit length "
               "0x7fffffff past the end of the section (0x%zx bytes) (this unit and those "
               "after it)%s", u1, size, partial_tail);
    } else {
      scp_put_le32(info + u1, 5);
      snprintf(want, sizeof want, "damaged .debug_info at offset 0x%zx: unit length shorter "
               "than its header (this unit and those after it)%s", u1, partial_tail);
    }
    s = open_damaged(&b, want);
    check_inline_unit(s);
    check_namesec(s, F_SUM, "sum_squares");
    check_namesec(s, F_SUM2, "sum_squares2");
    scp_sym_destroy(s);
  }
  memcpy(b.data, good.data, b.len);
  scp_put_le32(info, 0xfffffff3);
  s = open_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "damaged .debug_info at offset 0x0: reserved unit "
                      "length 0xfffffff3 (this unit and those after it); function names from "
                      "the name section, no source lines");
  check_namesec(s, F_ACCUMULATE, "accumulate");
  check_namesec(s, F_SUM2, "sum_squares2");
  scp_sym_destroy(s);

  /* Every unit refused: no DWARF, the first one named. */
  memcpy(b.data, good.data, b.len);
  info[4] = info[u1 + 4] = info[u2 + 4] = 1;
  s = open_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "damaged .debug_info at offset 0x0: unknown DWARF "
                      "version 1 (this unit only); function names from the name section, no "
                      "source lines");
  scp_sym_destroy(s);
  free(b.data);
  free(good.data);
}

/* ---- an ELF's damaged unit ---------------------------------------------- */

/* The data of section want of a (trusted, test-built) little-endian ELF64. */
static uint8_t *elf_section(blob *b, const char *want, size_t *size) {
  const uint8_t *d = b->data;
  uint64_t shoff = scp_le64(d + 40);
  size_t n = (size_t)(d[60] | d[61] << 8), stridx = (size_t)(d[62] | d[63] << 8);
  assert_true(shoff + n * 64 <= b->len && stridx < n);
  const char *strs = (const char *)d + scp_le64(d + shoff + stridx * 64 + 24);
  for (size_t i = 0; i < n; i++) {
    const uint8_t *h = d + shoff + i * 64;
    if (strcmp(strs + scp_le32(h), want)) continue;
    *size = (size_t)scp_le64(h + 32);
    return b->data + scp_le64(h + 24);
  }
  fail_msg("no section %s", want);
  return NULL;
}

/* A BPF object (sym_inline.c, one unit) whose unit header is damaged: the
 * warning names it and says the functions keep their symbol-table names. */
static void test_elf_damaged_unit(void **state) {
  (void)state;
  char out[512];
  snprintf(out, sizeof out, "%s/tests/symbols/units_bpf.o", build_dir());
  blob b = sym_build(out, "mkdir -p '%s/tests/symbols' && %s -target bpf -O2 -g "
                     "-gdwarf-4 -c '%s/tests/fixtures/wasm/sym_inline.c' -o '%s'", build_dir(),
                     sym_env("CLANG", "clang"), sym_env("SCP_SRCDIR", "."), out);
  scp_error err = {0};
  size_t size;
  uint8_t *info = elf_section(&b, ".debug_info", &size);
  assert_int_equal(info[4], 4);
  info[4] = 99;
  scp_sym *s = NULL;
  assert_int_equal(scp_sym_open_elf(b.data, b.len, NULL, &s, &err), SCP_OK);
  assert_false(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "damaged .debug_info at offset 0x0: unknown DWARF "
                      "version 99 (this unit only); function names from the symbol table, no "
                      "source lines");
  scp_frame_info f;
  bool found = false;
  for (uint32_t i = 0; i < scp_sym_function_count(s); i++) {
    assert_int_equal(scp_sym_function(s, i, &f), SCP_OK);
    if (strcmp(f.name, "accumulate")) continue;
    found = true;
    assert_int_equal(f.source, SCP_SRC_SYMTAB);
  }
  assert_true(found);
  scp_sym_destroy(s);
  free(b.data);
}

/* ---- DIE nesting past the limit --------------------------------------- */

/* A growable byte buffer for hand-built DWARF. */
typedef struct dbuf {
  uint8_t *b;
  size_t n, cap;
} dbuf;

static void dput(dbuf *d, const void *p, size_t n) {
  assert_true(scp_grow(&d->b, &d->cap, d->n + n, 1));
  memcpy(d->b + d->n, p, n);
  d->n += n;
}

static void dbyte(dbuf *d, uint8_t v) { dput(d, &v, 1); }

static void dleb(dbuf *d, uint32_t v) {
  do {
    uint8_t byte = v & 0x7f;
    v >>= 7;
    dbyte(d, byte | (v ? 0x80 : 0));
  } while (v);
}

static void d32(dbuf *d, uint32_t v) {
  uint8_t b[4];
  scp_put_le32(b, v);
  dput(d, b, 4);
}

static void dcstr(dbuf *d, const char *s) { dput(d, s, strlen(s) + 1); }

static void dsection(dbuf *m, uint8_t id, const char *custom, const dbuf *payload) {
  dbyte(m, id);
  size_t name = custom ? 1 + strlen(custom) : 0;
  dleb(m, (uint32_t)(name + payload->n));
  if (custom) {
    dleb(m, (uint32_t)strlen(custom));
    dput(m, custom, strlen(custom));
  }
  dput(m, payload->b, payload->n);
}

/* Abbreviations: 1 compile unit (name), 2 namespace with children,
 * 3 subprogram (name, low_pc, high_pc as a length), 4 namespace. */
static void deep_abbrevs(dbuf *a) {
  static const uint8_t tab[] = {
      1, DW_TAG_compile_unit, DW_CHILDREN_yes, DW_AT_name, DW_FORM_string, 0, 0,
      2, DW_TAG_namespace, DW_CHILDREN_yes, 0, 0,
      3, DW_TAG_subprogram, DW_CHILDREN_no, DW_AT_name, DW_FORM_string,
      DW_AT_low_pc, DW_FORM_addr, DW_AT_high_pc, DW_FORM_data4, 0, 0,
      4, DW_TAG_namespace, DW_CHILDREN_no, 0, 0,
      0};
  dput(a, tab, sizeof tab);
}

/* A DWARF 4 unit with the subprogram fn over [lo, hi), then namespaces
 * nested depth deep. */
static void deep_unit(dbuf *info, int depth, const char *fn, uint32_t lo, uint32_t hi) {
  size_t start = info->n;
  d32(info, 0);                        /* unit_length, patched below */
  dbyte(info, 4); dbyte(info, 0);      /* version */
  d32(info, 0);                        /* abbreviation offset */
  dbyte(info, 4);                      /* address size */
  dbyte(info, 1); dcstr(info, fn);
  dbyte(info, 3); dcstr(info, fn); d32(info, lo); d32(info, hi - lo);
  for (int i = 0; i < depth; i++) dbyte(info, i + 1 < depth ? 2 : 4);
  for (int i = 0; i + 1 < depth; i++) dbyte(info, 0);
  dbyte(info, 0);                      /* end of the unit's children */
  scp_put_le32(info->b + start, (uint32_t)(info->n - start - 4));
}

/* Two bodies of 4 bytes, at [2, 6) and [7, 11) of the code payload, named
 * deep_ns and good_ns by the name section; in DWARF, deep_fn's unit nests
 * its namespaces `depth` deep and good_fn's unit has none.  deep_first:
 * deep_fn's unit comes first.  Returns the offset of deep_fn's unit. */
static size_t build_deep_module(dbuf *m, int depth, bool deep_first) {
  static const uint8_t header[8] = {0, 'a', 's', 'm', 1, 0, 0, 0};
  dbuf code = {0}, names = {0}, sub = {0}, abbrev = {0}, info = {0};
  m->n = 0;
  dput(m, header, sizeof header);
  dleb(&code, 2);
  for (int i = 0; i < 2; i++) {
    dleb(&code, 4);
    dbyte(&code, 0); dbyte(&code, 0x01); dbyte(&code, 0x01); dbyte(&code, 0x0b);
  }
  dsection(m, 10, NULL, &code);
  dleb(&sub, 2);
  dleb(&sub, 0); dleb(&sub, 7); dput(&sub, "deep_ns", 7);
  dleb(&sub, 1); dleb(&sub, 7); dput(&sub, "good_ns", 7);
  dbyte(&names, 1);
  dleb(&names, (uint32_t)sub.n);
  dput(&names, sub.b, sub.n);
  dsection(m, 0, "name", &names);
  deep_abbrevs(&abbrev);
  size_t deep_off = 0;
  if (!deep_first) deep_unit(&info, 0, "good_fn", 7, 11);
  deep_off = info.n;
  deep_unit(&info, depth, "deep_fn", 2, 6);
  if (deep_first) deep_unit(&info, 0, "good_fn", 7, 11);
  dsection(m, 0, ".debug_abbrev", &abbrev);
  dsection(m, 0, ".debug_info", &info);
  free(code.b); free(names.b); free(sub.b); free(abbrev.b); free(info.b);
  return deep_off;
}

/* A unit whose DIEs nest deeper than SYM_MAX_DIE_DEPTH loses only itself,
 * first or second: the other unit keeps its DWARF, the deep unit's
 * function falls back to the name section, and the warning names the
 * unit's offset and the fallback.  Nesting right at the limit is fine. */
static void test_die_depth_limit_loses_only_its_unit(void **state) {
  (void)state;
  dbuf m = {0};
  for (int deep_first = 1; deep_first >= 0; deep_first--) {
    size_t off = build_deep_module(&m, SYM_MAX_DIE_DEPTH + 2, deep_first);
    scp_sym *s = NULL;
    scp_error err = {0};
    assert_int_equal(scp_sym_open_wasm(m.b, m.n, NULL, &s, &err), SCP_OK);
    char want[300];
    snprintf(want, sizeof want, "DIE nesting deeper than %d (the unit at .debug_info offset "
             "0x%zx); functions there: names from the name section, no source lines",
             SYM_MAX_DIE_DEPTH, off);
    assert_string_equal(scp_sym_warning(s), want);
    assert_true(scp_sym_has_dwarf(s));
    scp_frame_info f;
    assert_int_equal(scp_sym_function(s, 0, &f), SCP_OK);
    assert_string_equal(f.name, "deep_ns");
    assert_int_equal(f.source, SCP_SRC_NAMESEC);
    assert_int_equal(scp_sym_function(s, 1, &f), SCP_OK);
    assert_string_equal(f.name, "good_fn");
    assert_int_equal(f.source, SCP_SRC_DWARF);
    const scp_frame_info *c;
    for (uint64_t pc = 2; pc < 6; pc++) {
      assert_int_equal(scp_sym_chain(s, pc, &c), 1);
      assert_string_equal(c[0].name, "deep_ns");
      assert_int_equal(c[0].source, SCP_SRC_NAMESEC);
    }
    for (uint64_t pc = 7; pc < 11; pc++) {
      assert_int_equal(scp_sym_chain(s, pc, &c), 1);
      assert_string_equal(c[0].name, "good_fn");
      assert_int_equal(c[0].source, SCP_SRC_DWARF);
    }
    scp_sym_destroy(s);
  }
  build_deep_module(&m, SYM_MAX_DIE_DEPTH + 1, true);
  scp_sym *s = NULL;
  scp_error err = {0};
  assert_int_equal(scp_sym_open_wasm(m.b, m.n, NULL, &s, &err), SCP_OK);
  assert_string_equal(scp_sym_warning(s), "");
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, 0, &f), SCP_OK);
  assert_string_equal(f.name, "deep_fn");
  assert_int_equal(f.source, SCP_SRC_DWARF);
  scp_sym_destroy(s);
  free(m.b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_damaged_unit_header_loses_only_itself),
      cmocka_unit_test(test_die_depth_limit_loses_only_its_unit),
      cmocka_unit_test(test_elf_damaged_unit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
