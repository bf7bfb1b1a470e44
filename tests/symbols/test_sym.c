/*
 * test_sym.c — the source mapper (src/symbols) on clang-built fixtures and
 * hand-built modules and ELF files.
 *
 * Fixture line numbers come from tests/fixtures/wasm/sym_inline.c (marked
 * "LINE n" there), also tests/symbols/sym_unit2.c and sym_cpp.cc.
 * Addresses are not hard-coded: each test walks every pc of a function body
 * and checks every chain it finds, and that each expected inline shape
 * occurs with its exact (function, file, line) frames.
 *
 * The WASM fixtures come from the Makefile (SCP_BUILD/tests/fixtures/wasm).
 * Builds the Makefile has no rule for (BPF objects, a module linked from a
 * DWARF 4 and a DWARF 5 unit, C++) are made here with $CLANG / $CLANGXX
 * (default clang, clang++) into SCP_BUILD/tests/symbols, from sources under
 * $SCP_SRCDIR (default: the current directory, the repository root).
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
#include "symbols/scp_sym_private.h"   /* the repair functions */
#include "sym_fixture.h"

#include <dwarf.h>

/* Lines of tests/fixtures/wasm/sym_inline.c. */
enum {
  L_MIX_DECL = 13, L_MIX_BODY = 14,
  L_TWICE_DECL = 17, L_TWICE_CALL1 = 18, L_TWICE_CALL2 = 19,
  L_ACC_DECL = 22, L_ACC_LOOP = 24, L_ACC_CALL = 26, L_ACC_RET = 28,
  L_SCALE_DECL = 31, L_SCALE_BODY = 32,
  L_RUN_DECL = 35, L_RUN_ACC = 36, L_RUN_SCALE = 37, L_RUN_MIX = 38,
};

/* Function indices: host_log is the one import. */
enum { F_HOST_LOG, F_ACCUMULATE, F_SCALE, F_RUN, F_COUNT };

static blob load_fixture(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/tests/fixtures/wasm/%s", build_dir(), name);
  blob b = {0};
  scp_error err = {0};
  if (scp_read_file(path, &b.data, &b.len, &err) != SCP_OK)
    fail_msg("fixture missing (run make fixtures): %s", err.msg);
  return b;
}

static void assert_frame(const scp_frame_info *f, const char *name,
                         uint32_t line, uint8_t inlined) {
  assert_string_equal(f->name, name);
  assert_int_equal(f->line, line);
  assert_int_equal(f->inlined, inlined);
  assert_int_equal(f->source, SCP_SRC_DWARF);
  assert_string_equal(base(f->file), "sym_inline.c");
  assert_non_null(f->decl_file);
  assert_string_equal(base(f->decl_file), "sym_inline.c");
}

static bool same_frame(const scp_frame_info *a, const scp_frame_info *b) {
  return !strcmp(a->name, b->name) && !strcmp(a->file, b->file) &&
         a->line == b->line && a->decl_line == b->decl_line &&
         a->inlined == b->inlined && a->source == b->source;
}

static bool line_in(uint32_t line, const uint32_t *set, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (set[i] == line) return true;
  return false;
}

/* ---- DWARF 4 and 5: the same source, the same answers ------------------ */

static void check_function_frames(scp_sym *s) {
  static const struct { const char *name; uint32_t decl; } want[F_COUNT] = {
      {"host_log", 0}, {"accumulate", L_ACC_DECL}, {"scale", L_SCALE_DECL},
      {"run", L_RUN_DECL}};
  assert_int_equal(scp_sym_function_count(s), F_COUNT);
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, F_HOST_LOG, &f), SCP_OK);
  assert_string_equal(f.name, "host_log");
  assert_int_equal(f.source, SCP_SRC_NAMESEC);
  for (int i = F_ACCUMULATE; i < F_COUNT; i++) {
    assert_int_equal(scp_sym_function(s, (uint32_t)i, &f), SCP_OK);
    assert_string_equal(f.name, want[i].name);
    assert_int_equal(f.decl_line, want[i].decl);
    assert_int_equal(f.source, SCP_SRC_DWARF);
    assert_int_equal(f.inlined, 0);
    assert_string_equal(base(f.file), "sym_inline.c");
  }
  assert_int_equal(scp_sym_function(s, F_COUNT, &f), SCP_ERR_NOTFOUND);
}

/* accumulate: mix inlined into twice_mix inlined into the loop.  step is
 * the instruction granularity (1 for WASM bytes, 8 for BPF slots). */
static void check_accumulate(scp_sym *s, uint32_t index, uint64_t step) {
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, index, &lo, &hi), SCP_OK);
  assert_true(hi > lo);
  size_t depth_count[4] = {0}, via18 = 0, via19 = 0, twice19 = 0;
  for (uint64_t pc = lo; pc < hi; pc += step) {
    const scp_frame_info *c;
    size_t n = scp_sym_chain(s, pc, &c);
    assert_true(n >= 1 && n <= 3);
    depth_count[n]++;
    static const uint32_t own[] = {0, L_ACC_DECL, L_ACC_LOOP, L_ACC_RET};
    switch (n) {
    case 1:
      assert_string_equal(c[0].name, "accumulate");
      assert_int_equal(c[0].inlined, 0);
      assert_true(line_in(c[0].line, own, 4));
      break;
    case 2: {
      static const uint32_t twice[] = {0, L_TWICE_CALL2};
      assert_string_equal(c[0].name, "twice_mix");
      assert_true(line_in(c[0].line, twice, 2));
      assert_int_equal(c[0].decl_line, L_TWICE_DECL);
      assert_frame(&c[1], "accumulate", L_ACC_CALL, 0);
      if (c[0].line == L_TWICE_CALL2) {  /* the add after the second mix */
        assert_frame(&c[0], "twice_mix", L_TWICE_CALL2, 1);
        twice19++;
      }
      break;
    }
    case 3: {
      static const uint32_t mixl[] = {0, L_MIX_BODY};
      assert_string_equal(c[0].name, "mix");
      assert_true(line_in(c[0].line, mixl, 2));
      assert_int_equal(c[0].inlined, 1);
      assert_int_equal(c[0].decl_line, L_MIX_DECL);
      assert_string_equal(c[1].name, "twice_mix");
      assert_int_equal(c[1].inlined, 1);
      assert_int_equal(c[1].decl_line, L_TWICE_DECL);
      assert_true(c[1].line == L_TWICE_CALL1 || c[1].line == L_TWICE_CALL2);
      assert_frame(&c[2], "accumulate", L_ACC_CALL, 0);
      assert_int_equal(c[2].decl_line, L_ACC_DECL);
      if (c[0].line == L_MIX_BODY) {  /* a * 31 or b * 17 of a mix */
        assert_frame(&c[0], "mix", L_MIX_BODY, 1);
        via18 += c[1].line == L_TWICE_CALL1;
        via19 += c[1].line == L_TWICE_CALL2;
      }
      break;
    }
    }
  }
  assert_true(depth_count[1] > 0);
  assert_true(depth_count[2] > 0);
  assert_true(depth_count[3] > 0);
  /* Both inlined calls of mix carry code on their own lines. */
  assert_true(via18 > 0 && via19 > 0 && twice19 > 0);

  /* The function's first byte is on the declaration line. */
  const scp_frame_info *c;
  assert_int_equal(scp_sym_chain(s, lo, &c), 1);
  assert_frame(&c[0], "accumulate", L_ACC_DECL, 0);
}

static void check_scale_and_run(scp_sym *s, uint32_t scale, uint32_t run,
                                uint64_t step) {
  uint64_t lo, hi;
  const scp_frame_info *c;
  size_t body_lines = 0;
  assert_int_equal(scp_sym_function_range(s, scale, &lo, &hi), SCP_OK);
  for (uint64_t pc = lo; pc < hi; pc += step) {
    static const uint32_t ok[] = {0, L_SCALE_DECL, L_SCALE_BODY};
    assert_int_equal(scp_sym_chain(s, pc, &c), 1);
    assert_frame(&c[0], "scale", c[0].line, 0);
    assert_true(line_in(c[0].line, ok, 3));
    body_lines += c[0].line == L_SCALE_BODY;
  }
  assert_true(body_lines > 0);

  size_t inl = 0, own_lines[3] = {0};
  assert_int_equal(scp_sym_function_range(s, run, &lo, &hi), SCP_OK);
  for (uint64_t pc = lo; pc < hi; pc += step) {
    size_t n = scp_sym_chain(s, pc, &c);
    assert_true(n == 1 || n == 2);
    if (n == 1) {
      static const uint32_t ok[] = {0, L_RUN_DECL, L_RUN_ACC, L_RUN_SCALE,
                                    L_RUN_MIX};
      assert_string_equal(c[0].name, "run");
      assert_true(line_in(c[0].line, ok, 5));
      if (c[0].line >= L_RUN_ACC) own_lines[c[0].line - L_RUN_ACC]++;
      continue;
    }
    assert_string_equal(c[0].name, "mix");
    assert_true(c[0].line == 0 || c[0].line == L_MIX_BODY);
    assert_frame(&c[1], "run", L_RUN_MIX, 0);
    if (c[0].line == L_MIX_BODY) {
      assert_frame(&c[0], "mix", L_MIX_BODY, 1);
      inl++;
    }
  }
  assert_true(inl > 0);
  assert_true(own_lines[0] > 0 && own_lines[1] > 0 && own_lines[2] > 0);
}

/* The one pc in [lo, hi) of code (code[0] is pc base) whose bytes match
 * pattern (0x100 in pattern = any byte); fails unless exactly one. */
static uint64_t find_insn(const uint8_t *code, uint64_t base, uint64_t lo,
                          uint64_t hi, const uint16_t *pattern, size_t n) {
  uint64_t found = UINT64_MAX;
  size_t hits = 0;
  for (uint64_t pc = lo; pc + n <= hi; pc++) {
    size_t k = 0;
    while (k < n && (pattern[k] == 0x100 || code[pc - base + k] == pattern[k])) k++;
    if (k == n) {
      found = pc;
      hits++;
    }
  }
  assert_int_equal(hits, 1);
  return found;
}

/* Exact chains at instructions found by their bytes: in run, the multiply
 * by 31 is mix's body inlined at line 38; in scale, the call of host_log is
 * scale's own line 32. */
static void check_exact_pcs(scp_sym *s, const uint8_t *code, uint64_t base,
                            const uint16_t *mul31, size_t nmul, uint64_t mul_at,
                            uint32_t scale, uint32_t run,
                            const uint16_t *call, size_t ncall) {
  uint64_t lo, hi;
  const scp_frame_info *c;
  assert_int_equal(scp_sym_function_range(s, run, &lo, &hi), SCP_OK);
  uint64_t pc = find_insn(code, base, lo, hi, mul31, nmul) + mul_at;
  assert_int_equal(scp_sym_chain(s, pc, &c), 2);
  assert_frame(&c[0], "mix", L_MIX_BODY, 1);
  assert_frame(&c[1], "run", L_RUN_MIX, 0);
  assert_int_equal(scp_sym_function_range(s, scale, &lo, &hi), SCP_OK);
  pc = find_insn(code, base, lo, hi, call, ncall);
  assert_int_equal(scp_sym_chain(s, pc, &c), 1);
  assert_frame(&c[0], "scale", L_SCALE_BODY, 0);
}

static void check_outside_and_cache(scp_sym *s) {
  const scp_frame_info *c = (const scp_frame_info *)1, *again;
  assert_int_equal(scp_sym_chain(s, 0, &c), 0);   /* the body-count LEB */
  assert_null(c);
  assert_int_equal(scp_sym_chain(s, UINT64_MAX, &c), 0);
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, F_RUN, &lo, &hi), SCP_OK);
  assert_int_equal(scp_sym_chain(s, hi, &c), 0);  /* end of the code */
  size_t n = scp_sym_chain(s, lo + 1, &c);
  assert_int_equal(scp_sym_chain(s, lo + 1, &again), n);
  assert_ptr_equal(c, again);   /* cached, same storage */
}

/* The Code section payload of a module (pc 0 is its first byte). */
static const uint8_t *code_payload(const blob *b) {
  const uint8_t *p = b->data + 8, *end = b->data + b->len;
  while (p < end) {
    uint8_t id = *p++;
    uint32_t len;
    assert_true(scp_leb_u32(&p, end, &len));
    if (id == 10) return p;
    p += len;
  }
  fail_msg("no code section");
  return NULL;
}

static void check_inline_fixture(const char *name) {
  /* i32.const 31; i32.mul (the pc of the mul) and call 0 (host_log). */
  static const uint16_t mul31[] = {0x41, 0x1f, 0x6c};
  static const uint16_t call0[] = {0x10, 0x80, 0x80, 0x80, 0x80, 0x00};
  blob b = load_fixture(name);
  scp_sym *s = open_blob(&b, NULL);
  assert_true(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "");
  check_function_frames(s);
  check_accumulate(s, F_ACCUMULATE, 1);
  check_scale_and_run(s, F_SCALE, F_RUN, 1);
  check_exact_pcs(s, code_payload(&b), 0, mul31, 3, 2, F_SCALE, F_RUN, call0, 6);
  check_outside_and_cache(s);
  scp_sym_destroy(s);
  free(b.data);
}

static void test_dwarf4_inline_chains(void **state) {
  (void)state;
  check_inline_fixture("sym_inline.wasm");
}

static void test_dwarf5_inline_chains(void **state) {
  (void)state;
  check_inline_fixture("sym_inline_dwarf5.wasm");
}

/* Pointers returned earlier stay valid while many more chains are cached
 * (the cache grows and new frame blocks are allocated). */
static void test_chain_storage_stable(void **state) {
  (void)state;
  blob b = load_fixture("sym_inline.wasm");
  scp_sym *s = open_blob(&b, NULL);
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, F_ACCUMULATE, &lo, &hi), SCP_OK);
  const scp_frame_info *first;
  size_t n = scp_sym_chain(s, lo, &first);
  assert_int_equal(n, 1);
  /* Out-of-code pcs are cached too: 20000 distinct entries. */
  for (uint64_t pc = 1u << 20; pc < (1u << 20) + 20000; pc++) {
    const scp_frame_info *c;
    assert_int_equal(scp_sym_chain(s, pc, &c), 0);
  }
  for (uint64_t pc = lo; pc < hi; pc++) {
    const scp_frame_info *c;
    assert_true(scp_sym_chain(s, pc, &c) >= 1);
  }
  assert_string_equal(first->name, "accumulate");
  assert_int_equal(first->line, L_ACC_DECL);
  scp_sym_destroy(s);
  free(b.data);
}

/* The answer for a pc does not depend on what was asked before (the
 * search hints and the run cache): ascending, descending and scattered
 * lookups in three mappers give identical chains at every pc. */
static void test_lookup_order_independent(void **state) {
  (void)state;
  blob b = load_fixture("sym_inline.wasm");
  scp_sym *up = open_blob(&b, NULL), *down = open_blob(&b, NULL),
          *scattered = open_blob(&b, NULL);
  uint64_t lo, hi, end;
  assert_int_equal(scp_sym_function_range(up, F_ACCUMULATE, &lo, &hi), SCP_OK);
  assert_int_equal(scp_sym_function_range(up, F_RUN, &hi, &end), SCP_OK);
  size_t n = (size_t)(end + 8 - lo);   /* a few pcs past the code too */
  const scp_frame_info **ca = calloc(n, sizeof *ca), **cb = calloc(n, sizeof *cb),
                       **cc = calloc(n, sizeof *cc);
  size_t *na = calloc(n, sizeof *na), *nb = calloc(n, sizeof *nb),
         *nc = calloc(n, sizeof *nc);
  assert_true(ca && cb && cc && na && nb && nc);
  for (size_t i = 0; i < n; i++) na[i] = scp_sym_chain(up, lo + i, &ca[i]);
  for (size_t i = n; i-- > 0;) nb[i] = scp_sym_chain(down, lo + i, &cb[i]);
  for (size_t k = 0, i = 0; k < n; k++, i = (i + 97) % n)   /* 97 is coprime */
    nc[i] = scp_sym_chain(scattered, lo + i, &cc[i]);
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(na[i], nb[i]);
    assert_int_equal(na[i], nc[i]);
    for (size_t k = 0; k < na[i]; k++) {
      assert_true(same_frame(&ca[i][k], &cb[i][k]));
      assert_true(same_frame(&ca[i][k], &cc[i][k]));
    }
  }
  free(ca); free(cb); free(cc); free(na); free(nb); free(nc);
  scp_sym_destroy(up);
  scp_sym_destroy(down);
  scp_sym_destroy(scattered);
  free(b.data);
}

/* ---- fallbacks --------------------------------------------------------- */

static void test_name_section_fallback(void **state) {
  (void)state;
  static const char *names[F_COUNT] = {"host_log", "accumulate", "scale", "run"};
  blob b = load_fixture("sym_inline_nodebug.wasm");
  scp_sym *s = open_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "");   /* no DWARF is no problem */
  assert_int_equal(scp_sym_function_count(s), F_COUNT);
  for (uint32_t i = 0; i < F_COUNT; i++) {
    scp_frame_info f;
    assert_int_equal(scp_sym_function(s, i, &f), SCP_OK);
    assert_string_equal(f.name, names[i]);
    assert_int_equal(f.source, SCP_SRC_NAMESEC);
    assert_string_equal(f.file, "");
    assert_int_equal(f.decl_line, 0);
    if (i == F_HOST_LOG) continue;
    uint64_t lo, hi;
    assert_int_equal(scp_sym_function_range(s, i, &lo, &hi), SCP_OK);
    for (uint64_t pc = lo; pc < hi; pc++) {
      const scp_frame_info *c;
      assert_int_equal(scp_sym_chain(s, pc, &c), 1);
      assert_string_equal(c[0].name, names[i]);
      assert_int_equal(c[0].line, 0);
      assert_int_equal(c[0].inlined, 0);
      assert_int_equal(c[0].source, SCP_SRC_NAMESEC);
      assert_string_equal(c[0].file, "");
    }
  }
  scp_sym_destroy(s);
  free(b.data);
}

static void test_raw_fallback(void **state) {
  (void)state;
  blob b = load_fixture("sym_inline_stripped.wasm");
  scp_sym *s = open_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_int_equal(scp_sym_function_count(s), F_COUNT);
  scp_frame_info f;
  /* An import keeps its import-section field name. */
  assert_int_equal(scp_sym_function(s, F_HOST_LOG, &f), SCP_OK);
  assert_string_equal(f.name, "host_log");
  /* Stripped of its name section, a function the module exports is called
   * by its export name (all three are exported). */
  static const char *const want_names[F_COUNT] = {
      [F_ACCUMULATE] = "accumulate", [F_SCALE] = "scale", [F_RUN] = "run"};
  for (uint32_t i = F_ACCUMULATE; i < F_COUNT; i++) {
    const char *want = want_names[i];
    assert_int_equal(scp_sym_function(s, i, &f), SCP_OK);
    assert_string_equal(f.name, want);
    assert_int_equal(f.source, SCP_SRC_EXPORT);
    uint64_t lo, hi;
    assert_int_equal(scp_sym_function_range(s, i, &lo, &hi), SCP_OK);
    const scp_frame_info *c;
    assert_int_equal(scp_sym_chain(s, hi - 1, &c), 1);
    assert_string_equal(c[0].name, want);
    assert_int_equal(c[0].source, SCP_SRC_EXPORT);
    assert_int_equal(c[0].line, 0);
  }
  scp_sym_destroy(s);
  free(b.data);
}

/* ---- hand-built modules: exact offsets and name handling --------------- */

typedef struct mbuf {
  uint8_t b[512];
  size_t n;
} mbuf;

static void put(mbuf *m, const void *p, size_t n) {
  assert_true(m->n + n <= sizeof m->b);
  memcpy(m->b + m->n, p, n);
  m->n += n;
}

static void put_byte(mbuf *m, uint8_t v) { put(m, &v, 1); }

static void put_leb(mbuf *m, uint32_t v) {
  do {
    uint8_t byte = v & 0x7f;
    v >>= 7;
    put_byte(m, byte | (v ? 0x80 : 0));
  } while (v);
}

static void put_str(mbuf *m, const char *s) {
  put_leb(m, (uint32_t)strlen(s));
  put(m, s, strlen(s));
}

static void put_section(mbuf *m, uint8_t id, const mbuf *payload) {
  put_byte(m, id);
  put_leb(m, (uint32_t)payload->n);
  put(m, payload->b, payload->n);
}

/* A module with 2 imported functions (plus a memory import between them)
 * and 3 bodies of sizes 2, 4 and 200 (a 2-byte size LEB), named by a name
 * section holding a legacy Rust mangled name, an already-demangled name
 * with its hash, and a v0 name; body 3 is unnamed. */
static void build_module(mbuf *m, bool with_names) {
  static const uint8_t header[8] = {0, 'a', 's', 'm', 1, 0, 0, 0};
  mbuf imp = {0}, code = {0}, names = {0}, sub = {0};
  m->n = 0;
  put(m, header, sizeof header);
  put_leb(&imp, 3);
  put_str(&imp, "env"); put_str(&imp, "a"); put_byte(&imp, 0); put_leb(&imp, 0);
  put_str(&imp, "env"); put_str(&imp, "mem"); put_byte(&imp, 2);
  put_byte(&imp, 1); put_leb(&imp, 1); put_leb(&imp, 2);
  put_str(&imp, "env"); put_str(&imp, "b"); put_byte(&imp, 0); put_leb(&imp, 0);
  put_section(m, 2, &imp);
  put_leb(&code, 3);
  put_leb(&code, 2); put_byte(&code, 0); put_byte(&code, 0x0b);
  put_leb(&code, 4); put_byte(&code, 0); put_byte(&code, 0x01);
  put_byte(&code, 0x01); put_byte(&code, 0x0b);
  put_leb(&code, 200); put_byte(&code, 0);
  for (int i = 0; i < 199; i++) put_byte(&code, i == 198 ? 0x0b : 0x01);
  put_section(m, 10, &code);
  if (!with_names) return;
  put_str(&names, "name");
  put_leb(&sub, 3);
  put_leb(&sub, 2); put_str(&sub, "_ZN3foo3bar17h0123456789abcdefE");
  put_leb(&sub, 3); put_str(&sub, "baz::qux::h00112233445566ff");
  put_leb(&sub, 99); put_str(&sub, "out_of_range_is_ignored");
  put_byte(&names, 1);
  put_leb(&names, (uint32_t)sub.n);
  put(&names, sub.b, sub.n);
  put_section(m, 0, &names);
}

static void test_hand_built_offsets_and_names(void **state) {
  (void)state;
  mbuf m;
  build_module(&m, true);
  scp_sym *s = NULL;
  scp_error err = {0};
  assert_int_equal(scp_sym_open_wasm(m.b, m.n, NULL, &s, &err), SCP_OK);
  assert_int_equal(scp_sym_function_count(s), 5);
  /* Payload: count(1) | size(1) body[2] | size(1) body[4] | size(2) body[200] */
  static const uint64_t want[5][2] = {{0, 0}, {0, 0}, {2, 4}, {5, 9}, {11, 211}};
  for (uint32_t i = 0; i < 5; i++) {
    uint64_t lo = 77, hi = 77;
    assert_int_equal(scp_sym_function_range(s, i, &lo, &hi), SCP_OK);
    assert_int_equal(lo, want[i][0]);
    assert_int_equal(hi, want[i][1]);
  }
  uint64_t lo = 77, hi = 77;
  assert_int_equal(scp_sym_function_range(s, 5, &lo, &hi), SCP_ERR_NOTFOUND);
  assert_int_equal(lo, 77);

  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, 0, &f), SCP_OK);
  assert_string_equal(f.name, "a");
  assert_int_equal(scp_sym_function(s, 1, &f), SCP_OK);
  assert_string_equal(f.name, "b");
  assert_int_equal(scp_sym_function(s, 2, &f), SCP_OK);
  assert_string_equal(f.name, "foo::bar");
  assert_int_equal(f.source, SCP_SRC_NAMESEC);
  assert_int_equal(scp_sym_function(s, 3, &f), SCP_OK);
  assert_string_equal(f.name, "baz::qux");
  assert_int_equal(scp_sym_function(s, 4, &f), SCP_OK);
  assert_string_equal(f.name, "func[4]");
  assert_int_equal(f.source, SCP_SRC_RAW);

  /* Chains by pc: every body byte, nothing in between. */
  const scp_frame_info *c;
  assert_int_equal(scp_sym_chain(s, 0, &c), 0);
  assert_int_equal(scp_sym_chain(s, 1, &c), 0);   /* size LEB of body 0 */
  assert_int_equal(scp_sym_chain(s, 2, &c), 1);
  assert_string_equal(c[0].name, "foo::bar");
  assert_int_equal(scp_sym_chain(s, 3, &c), 1);
  assert_int_equal(scp_sym_chain(s, 4, &c), 0);
  assert_int_equal(scp_sym_chain(s, 8, &c), 1);
  assert_string_equal(c[0].name, "baz::qux");
  assert_int_equal(scp_sym_chain(s, 9, &c), 0);
  assert_int_equal(scp_sym_chain(s, 10, &c), 0);
  assert_int_equal(scp_sym_chain(s, 11, &c), 1);
  assert_string_equal(c[0].name, "func[4]");
  assert_int_equal(scp_sym_chain(s, 210, &c), 1);
  assert_int_equal(scp_sym_chain(s, 211, &c), 0);
  scp_sym_destroy(s);

  /* keep_rust_hash keeps both kinds of hash. */
  scp_sym_opts opts = {.keep_rust_hash = true};
  assert_int_equal(scp_sym_open_wasm(m.b, m.n, &opts, &s, &err), SCP_OK);
  assert_int_equal(scp_sym_function(s, 2, &f), SCP_OK);
  assert_string_equal(f.name, "foo::bar::h0123456789abcdef");
  assert_int_equal(scp_sym_function(s, 3, &f), SCP_OK);
  assert_string_equal(f.name, "baz::qux::h00112233445566ff");
  scp_sym_destroy(s);
}

/* ---- malformed input: an error or a fallback, never a crash ------------ */

static void expect_malformed(const uint8_t *p, size_t n) {
  scp_sym *s = (scp_sym *)1;
  scp_error err = {0};
  assert_int_equal(scp_sym_open_wasm(p, n, NULL, &s, &err), SCP_ERR_MALFORMED);
  assert_null(s);
  assert_int_equal(err.code, SCP_ERR_MALFORMED);
  assert_true(err.msg[0] != 0);
}

static void test_malformed_container(void **state) {
  (void)state;
  static const uint8_t bad_version[8] = {0, 'a', 's', 'm', 2, 0, 0, 0};
  expect_malformed(NULL, 0);
  expect_malformed((const uint8_t *)"\0asm", 4);
  expect_malformed((const uint8_t *)"\0elf\1\0\0\0", 8);
  expect_malformed(bad_version, sizeof bad_version);

  mbuf m;
  build_module(&m, false);
  /* Every proper prefix that cuts a section is rejected; only cuts at a
   * section boundary (after the header, after the import section) open. */
  size_t ok = 0;
  for (size_t n = 8; n < m.n; n++) {
    scp_sym *s = NULL;
    scp_error err = {0};
    int rc = scp_sym_open_wasm(m.b, n, NULL, &s, &err);
    assert_true(rc == SCP_OK || rc == SCP_ERR_MALFORMED);
    if (rc == SCP_OK) ok++;
    scp_sym_destroy(s);
  }
  assert_int_equal(ok, 2);

  /* A body size running past the section.  Layout: header(8), import id,
   * size(1), payload, code id, size(2: 211 bytes), count, first body size. */
  mbuf bad = m;
  size_t code_at = 8 + 2 + bad.b[9];
  assert_int_equal(bad.b[code_at], 10);
  assert_int_equal(bad.b[code_at + 3], 3);
  assert_int_equal(bad.b[code_at + 4], 2);
  bad.b[code_at + 4] = 0x7f;              /* first body size: 2 -> 127 */
  expect_malformed(bad.b, bad.n);

  /* An unknown section id. */
  bad = m;
  bad.b[code_at] = 0x42;
  expect_malformed(bad.b, bad.n);

  /* A count that promises more bodies than there are bytes. */
  bad = m;
  bad.b[code_at + 3] = 0x7f;
  expect_malformed(bad.b, bad.n);

  /* A broken name section costs the names, not the module. */
  build_module(&m, true);
  bad = m;
  size_t names_at = m.n - 4;
  while (names_at > 0 && memcmp(m.b + names_at, "name", 4) != 0) names_at--;
  assert_int_equal(bad.b[names_at + 4], 1);   /* function-names subsection */
  bad.b[names_at + 5] = 0x7f;                 /* its size: past the end */
  scp_sym *s = NULL;
  scp_error err = {0};
  assert_int_equal(scp_sym_open_wasm(bad.b, bad.n, NULL, &s, &err), SCP_OK);
  assert_true(strstr(scp_sym_warning(s), "name section") != NULL);
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, 2, &f), SCP_OK);
  assert_string_equal(f.name, "func[2]");
  scp_sym_destroy(s);
}

static void assert_fallback_names(scp_sym *s) {
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, F_ACCUMULATE, &lo, &hi), SCP_OK);
  for (uint64_t pc = lo; pc < hi; pc++) {
    const scp_frame_info *c;
    assert_int_equal(scp_sym_chain(s, pc, &c), 1);
    assert_string_equal(c[0].name, "accumulate");
    assert_int_equal(c[0].source, SCP_SRC_NAMESEC);
  }
}

static void test_broken_dwarf_falls_back(void **state) {
  (void)state;
  blob b = load_fixture("sym_inline.wasm");
  size_t size;
  uint8_t *info = find_custom(&b, ".debug_info", &size);
  assert_true(size > 16);
  /* A DWARF version no one knows: libdw refuses the unit. */
  uint8_t saved[2] = {info[4], info[5]};
  info[4] = 0x63;
  info[5] = 0;
  scp_sym *s = open_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_true(scp_sym_warning(s)[0] != 0);
  assert_fallback_names(s);
  scp_sym_destroy(s);
  info[4] = saved[0];
  info[5] = saved[1];

  /* An abbreviation table offset past .debug_abbrev. */
  saved[0] = info[6];
  saved[1] = info[7];
  info[6] = 0xf0;
  info[7] = 0xff;
  s = open_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_true(scp_sym_warning(s)[0] != 0);
  assert_fallback_names(s);
  scp_sym_destroy(s);
  info[6] = saved[0];
  info[7] = saved[1];

  /* No .debug_info at all, but other debug sections: renamed section. */
  uint8_t *name = info - (sizeof ".debug_info" - 1);
  memcpy(name, ".debug_xxxx", sizeof ".debug_xxxx" - 1);
  s = open_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_true(strstr(scp_sym_warning(s), ".debug_info") != NULL);
  assert_fallback_names(s);
  scp_sym_destroy(s);
  free(b.data);
}

/* Deterministic garbage in every debug section: open succeeds (with or
 * without DWARF) and every pc of every body still gets a chain whose
 * outermost frame is a function. */
static void test_garbled_dwarf_never_crashes(void **state) {
  (void)state;
  static const char *secs[] = {".debug_info", ".debug_line", ".debug_abbrev",
                               ".debug_ranges", ".debug_str"};
  blob b = load_fixture("sym_inline.wasm");
  uint8_t *orig = malloc(b.len);
  assert_non_null(orig);
  memcpy(orig, b.data, b.len);
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  for (int round = 0; round < 300; round++) {
    memcpy(b.data, orig, b.len);
    size_t size;
    uint8_t *p = find_custom(&b, secs[round % 5], &size);
    for (int k = 0; k < 1 + round % 4; k++) {
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      p[(rng >> 33) % size] ^= (uint8_t)(1u << ((rng >> 20) & 7));
    }
    scp_sym *s = open_blob(&b, NULL);
    for (uint32_t i = F_ACCUMULATE; i < F_COUNT; i++) {
      uint64_t lo, hi;
      assert_int_equal(scp_sym_function_range(s, i, &lo, &hi), SCP_OK);
      for (uint64_t pc = lo; pc < hi; pc++) {
        const scp_frame_info *c;
        size_t n = scp_sym_chain(s, pc, &c);
        assert_true(n >= 1);
        assert_int_equal(c[n - 1].inlined, 0);
        assert_non_null(c[n - 1].name);
      }
    }
    scp_sym_destroy(s);
  }
  free(orig);
  free(b.data);
}

/* ---- ELF: BPF objects built by clang from the same fixture source ------ */

/* Compile tests/fixtures/wasm/sym_inline.c for BPF (the Makefile only
 * builds WASM fixtures; the same source keeps the same line numbers). */
static blob build_bpf(const char *tag, const char *flags) {
  char out[512];
  snprintf(out, sizeof out, "%s/tests/symbols/sym_inline_%s.o", build_dir(), tag);
  return sym_build(out, "mkdir -p '%s/tests/symbols' && %s -target bpf -O2 %s -c "
                   "'%s/tests/fixtures/wasm/sym_inline.c' -o '%s'",
                   build_dir(), sym_env("CLANG", "clang"), flags, sym_env("SCP_SRCDIR", "."), out);
}

typedef struct tsec {
  const char *name;
  uint32_t type, info;
  uint64_t addr, off, size;
} tsec;

/* The section headers of a (trusted, test-built) ELF64. */
static size_t sections(const blob *b, tsec *out, size_t max) {
  uint64_t shoff = scp_le64(b->data + 40);
  size_t n = (size_t)(b->data[60] | b->data[61] << 8);
  size_t stridx = (size_t)(b->data[62] | b->data[63] << 8);
  assert_true(n <= max && shoff + n * 64 <= b->len);
  const uint8_t *strh = b->data + shoff + stridx * 64;
  const char *strs = (const char *)b->data + scp_le64(strh + 24);
  for (size_t i = 0; i < n; i++) {
    const uint8_t *h = b->data + shoff + i * 64;
    uint32_t name = (uint32_t)(h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24);
    out[i] = (tsec){strs + name, (uint32_t)(h[4] | h[5] << 8),
                    (uint32_t)(h[44] | h[45] << 8), scp_le64(h + 16), scp_le64(h + 24),
                    scp_le64(h + 32)};
  }
  return n;
}

static const tsec *section(const tsec *secs, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(secs[i].name, name)) return &secs[i];
  return NULL;
}

static uint32_t find_function(scp_sym *s, const char *name) {
  for (uint32_t i = 0; i < scp_sym_function_count(s); i++) {
    scp_frame_info f;
    assert_int_equal(scp_sym_function(s, i, &f), SCP_OK);
    if (!strcmp(f.name, name)) return i;
  }
  fail_msg("no function %s", name);
  return 0;
}

/* Apply the old Solana linker's damage (spec/sbpf/sbpf.txt §6: 64-bit
 * relocations wrote "only the low 32 bits, shifted 32 bits to the left")
 * to every R_BPF_64_ABS64 target in the named debug section, found through
 * the object's own relocations, independently of the code under test.
 * With zero_frame_base, also zero the 2-byte DW_AT_frame_base "01 5a" that
 * follows low_pc (8 bytes) and high_pc (data4) in subprogram DIEs.
 * Returns how many fields were damaged. */
static unsigned damage(blob *b, const char *target, bool zero_frame_base,
                       unsigned *frame_bases) {
  tsec secs[64];
  size_t n = sections(b, secs, 64);
  const tsec *tgt = section(secs, n, target);
  assert_non_null(tgt);
  size_t tgt_index = (size_t)(tgt - secs);
  unsigned count = 0;
  *frame_bases = 0;
  for (size_t i = 0; i < n; i++) {
    if (secs[i].type != 9 /* SHT_REL */ || secs[i].info != tgt_index) continue;
    for (uint64_t r = 0; r + 16 <= secs[i].size; r += 16) {
      const uint8_t *rel = b->data + secs[i].off + r;
      uint64_t off = scp_le64(rel), type = scp_le64(rel + 8) & 0xffffffffu;
      if (type != 2 /* R_BPF_64_ABS64 */) continue;
      assert_true(off + 8 <= tgt->size);
      uint8_t *p = b->data + tgt->off + off;
      uint64_t x = scp_le64(p);
      if (x != 0) {
        scp_put_le64(p, (x & 0xffffffffu) << 32);
        count++;
      }
      if (zero_frame_base && off + 14 <= tgt->size && p[12] == 0x01 &&
          p[13] == 0x5a) {
        p[12] = p[13] = 0;
        (*frame_bases)++;
      }
    }
  }
  return count + *frame_bases;
}

/* Compare the chains of every instruction of .text; returns the number of
 * pcs whose chains differ. */
static size_t mapping_diff(scp_sym *a, scp_sym *b, uint64_t text_size) {
  size_t diff = 0;
  for (uint64_t pc = 0; pc < text_size; pc += 8) {
    const scp_frame_info *ca, *cb;
    size_t na = scp_sym_chain(a, pc, &ca), nb = scp_sym_chain(b, pc, &cb);
    bool same = na == nb;
    for (size_t i = 0; same && i < na; i++) same = same_frame(&ca[i], &cb[i]);
    diff += !same;
  }
  return diff;
}

static uint64_t text_size(const blob *b) {
  tsec secs[64];
  size_t n = sections(b, secs, 64);
  const tsec *text = section(secs, n, ".text");
  assert_non_null(text);
  assert_true(text->size > 0 && text->size % 8 == 0);
  return text->size;
}

static void check_bpf(scp_sym *s, const blob *b) {
  assert_true(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "");
  assert_int_equal(scp_sym_repaired(s), 0);
  assert_int_equal(scp_sym_function_count(s), 3);   /* host_log is undefined */
  uint32_t acc = find_function(s, "accumulate");
  uint32_t scale = find_function(s, "scale"), run = find_function(s, "run");
  /* Sorted by address, as in the source. */
  assert_int_equal(acc, 0);
  assert_int_equal(scale, 1);
  assert_int_equal(run, 2);
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, run, &f), SCP_OK);
  assert_int_equal(f.decl_line, L_RUN_DECL);
  assert_int_equal(f.source, SCP_SRC_DWARF);
  check_accumulate(s, acc, 8);
  check_scale_and_run(s, scale, run, 8);
  /* rX *= 31 (ALU64 MUL K, imm 31) and call -1 (the unrelocated host_log). */
  static const uint16_t mul31[] = {0x27, 0x100, 0, 0, 0x1f, 0, 0, 0};
  static const uint16_t call[] = {0x85, 0x10, 0, 0, 0xff, 0xff, 0xff, 0xff};
  tsec secs[64];
  size_t nsecs = sections(b, secs, 64);
  const tsec *text = section(secs, nsecs, ".text");
  check_exact_pcs(s, b->data + text->off, 0, mul31, 8, 0, scale, run, call, 8);
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, run, &lo, &hi), SCP_OK);
  const scp_frame_info *c;
  assert_int_equal(scp_sym_chain(s, hi, &c), 0);     /* end of .text */
  assert_int_equal(scp_sym_function_at(s, hi - 8, &f), SCP_OK);
  assert_string_equal(f.name, "run");
  assert_int_equal(scp_sym_function_at(s, hi, &f), SCP_ERR_NOTFOUND);
}

static void test_bpf_dwarf4_and_5(void **state) {
  (void)state;
  blob b4 = build_bpf("dwarf4", "-g -gdwarf-4");
  blob b5 = build_bpf("dwarf5", "-g -gdwarf-5");
  scp_sym *s4 = open_elf_blob(&b4, NULL), *s5 = open_elf_blob(&b5, NULL);
  check_bpf(s4, &b4);
  check_bpf(s5, &b5);
  assert_int_equal(text_size(&b4), text_size(&b5));
  assert_int_equal(mapping_diff(s4, s5, text_size(&b4)), 0);
  scp_sym_destroy(s4);
  scp_sym_destroy(s5);
  free(b4.data);
  free(b5.data);
}

static void check_repair(const char *tag, const char *flags, const char *target,
                         bool frame_base) {
  blob good = build_bpf(tag, flags);
  blob bad = {malloc(good.len), good.len};
  assert_non_null(bad.data);
  memcpy(bad.data, good.data, good.len);
  unsigned frame_bases, none;
  unsigned damaged = damage(&bad, target, frame_base, &frame_bases);
  assert_true(damaged >= 3);
  if (frame_base) assert_int_equal(frame_bases, 3);   /* one per function */
  /* The line program's DW_LNE_set_address is relocated the same way; in an
   * object it is .text+0, which the shift leaves 0 (test_repair_rules
   * covers the line walker with a non-zero address). */
  damaged += damage(&bad, ".debug_line", false, &none);
  uint64_t size = text_size(&good);

  scp_sym *ref = open_elf_blob(&good, NULL);
  scp_sym *fixed = open_elf_blob(&bad, NULL);
  assert_int_equal(scp_sym_repaired(ref), 0);
  assert_int_equal(scp_sym_repaired(fixed), damaged);
  assert_true(scp_sym_has_dwarf(fixed));
  assert_int_equal(mapping_diff(ref, fixed, size), 0);
  for (uint32_t i = 0; i < scp_sym_function_count(ref); i++) {
    scp_frame_info a, b;
    assert_int_equal(scp_sym_function(ref, i, &a), SCP_OK);
    assert_int_equal(scp_sym_function(fixed, i, &b), SCP_OK);
    assert_true(same_frame(&a, &b));
  }

  /* Left unrepaired, the damage really does break the mapping. */
  scp_sym_opts raw = {.no_dwarf_repair = true};
  scp_sym *broken = open_elf_blob(&bad, &raw);
  assert_int_equal(scp_sym_repaired(broken), 0);
  assert_true(mapping_diff(ref, broken, size) > 0);
  scp_sym_destroy(broken);

  /* SBPF v3 (e_flags 3): addresses >= 4 GiB are real, nothing is folded. */
  bad.data[48] = 3;
  scp_sym *v3 = open_elf_blob(&bad, NULL);
  assert_int_equal(scp_sym_repaired(v3), 0);
  assert_true(mapping_diff(ref, v3, size) > 0);
  scp_sym_destroy(v3);
  /* Nor when .text itself lives at 0x1_0000_0000 (v3 layout). */
  bad.data[48] = 0;
  tsec secs[64];
  size_t nsecs = sections(&bad, secs, 64);
  const tsec *text = section(secs, nsecs, ".text");
  uint8_t *text_hdr = bad.data + scp_le64(bad.data + 40) + (size_t)(text - secs) * 64;
  scp_put_le64(text_hdr + 16, 0x100000000ULL);
  v3 = open_elf_blob(&bad, NULL);
  assert_int_equal(scp_sym_repaired(v3), 0);
  scp_sym_destroy(v3);

  scp_sym_destroy(ref);
  scp_sym_destroy(fixed);
  free(good.data);
  free(bad.data);
}

/* The repair rules on hand-made sections, exact values. */
static void test_repair_rules(void **state) {
  (void)state;
  uint8_t r[80];
  /* .debug_ranges: base selection (-1, damaged base), a damaged pair, a
   * damaged pair with a low half (sum), a tombstone pair, the end (0, 0). */
  static const uint64_t in[10] = {UINT64_MAX, 0x120ULL << 32,
                                  0x10ULL << 32, 0x20ULL << 32,
                                  (0x100ULL << 32) | 0x8, 0x30,
                                  UINT64_MAX - 1, UINT64_MAX - 1, 0, 0};
  static const uint64_t want[10] = {UINT64_MAX, 0x120, 0x10, 0x20, 0x108, 0x30,
                                    UINT64_MAX - 1, UINT64_MAX - 1, 0, 0};
  for (int i = 0; i < 10; i++) scp_put_le64(r + 8 * i, in[i]);
  assert_int_equal(scp_sym_repair_ranges(r, sizeof r), 4);
  for (int i = 0; i < 10; i++) assert_int_equal(scp_le64(r + 8 * i), want[i]);

  /* .debug_addr (DWARF 5): one 64-bit unit, then a 32-bit one (untouched). */
  uint8_t a[64] = {0};
  a[0] = 28; a[4] = 5; a[6] = 8; a[7] = 0;          /* length, v5, 8, 0 */
  scp_put_le64(a + 8, 0x120ULL << 32);
  scp_put_le64(a + 16, 0x40);
  scp_put_le64(a + 24, UINT64_MAX - 1);
  a[32] = 12; a[36] = 5; a[38] = 4;                  /* 32-bit unit */
  a[40] = 0; a[41] = 0; a[42] = 0; a[43] = 0x7f;     /* 0x7f000000 */
  a[44] = 1;
  assert_int_equal(scp_sym_repair_addr(a, 48), 1);
  assert_int_equal(scp_le64(a + 8), 0x120);
  assert_int_equal(scp_le64(a + 16), 0x40);
  assert_int_equal(scp_le64(a + 24), UINT64_MAX - 1);
  assert_int_equal(a[43], 0x7f);
  /* A unit length past the end: nothing is touched. */
  a[0] = 200;
  scp_put_le64(a + 8, 0x120ULL << 32);
  assert_int_equal(scp_sym_repair_addr(a, 48), 0);
  assert_int_equal(scp_le64(a + 8), 0x120ULL << 32);

  /* .debug_line (DWARF 4): header, then set_address (damaged), a special
   * opcode, advance_pc, end_sequence; then set_address (fine). */
  static const uint8_t hdr[] = {
      0, 0, 0, 0,          /* unit_length, patched below */
      4, 0,                /* version 4 */
      0, 0, 0, 0,          /* header_length, patched below */
      1, 1, 1, 0xfb, 14, 13,           /* min_inst, max_ops, is_stmt, ... */
      0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1,  /* standard_opcode_lengths */
      0,                   /* no include directories */
      0,                   /* no files */
  };
  uint8_t l[128] = {0};
  memcpy(l, hdr, sizeof hdr);
  size_t at = sizeof hdr;
  l[6] = (uint8_t)(sizeof hdr - 10);
  l[at++] = 0; l[at++] = 9; l[at++] = DW_LNE_set_address;
  scp_put_le64(l + at, 0x120ULL << 32); at += 8;
  l[at++] = 0x20;                                     /* special opcode */
  l[at++] = DW_LNS_advance_pc; l[at++] = 0x88; l[at++] = 0x01;
  l[at++] = 0; l[at++] = 1; l[at++] = DW_LNE_end_sequence;
  l[at++] = 0; l[at++] = 9; l[at++] = DW_LNE_set_address;
  scp_put_le64(l + at, 0x200); at += 8;
  l[0] = (uint8_t)(at - 4);
  assert_int_equal(scp_sym_repair_line(l, at), 1);
  assert_int_equal(scp_le64(l + sizeof hdr + 3), 0x120);
  assert_int_equal(scp_le64(l + at - 8), 0x200);
}

static void test_bpf_repair_dwarf4_info(void **state) {
  (void)state;
  check_repair("dwarf4", "-g -gdwarf-4", ".debug_info", true);
}

static void test_bpf_repair_dwarf5_addr(void **state) {
  (void)state;
  check_repair("dwarf5", "-g -gdwarf-5", ".debug_addr", false);
}

/* Deterministic garbage in the debug sections of a BPF object, with the
 * repair's own DIE walker running over it (damaged copies: addresses up in
 * the high half, so the repair has work to do).  Open always succeeds and
 * every instruction keeps a chain ending in a function. */
static void test_bpf_garbled_dwarf_never_crashes(void **state) {
  (void)state;
  static const char *names[] = {".debug_info", ".debug_abbrev", ".debug_line",
                                ".debug_str", ".debug_loc"};
  blob good = build_bpf("dwarf4", "-g -gdwarf-4");
  unsigned fb;
  damage(&good, ".debug_info", true, &fb);
  blob b = {malloc(good.len), good.len};
  assert_non_null(b.data);
  tsec secs[64];
  size_t n = sections(&good, secs, 64);
  uint64_t size = text_size(&good);
  uint64_t rng = 0x2545f4914f6cdd1dULL;
  for (int round = 0; round < 300; round++) {
    memcpy(b.data, good.data, good.len);
    const tsec *sec = section(secs, n, names[round % 5]);
    assert_non_null(sec);
    for (int k = 0; k < 1 + round % 6; k++) {
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      b.data[sec->off + (rng >> 33) % sec->size] ^= (uint8_t)(1u << ((rng >> 20) & 7));
    }
    scp_sym *s = open_elf_blob(&b, NULL);
    for (uint64_t pc = 0; pc < size; pc += 8) {
      const scp_frame_info *c;
      size_t len = scp_sym_chain(s, pc, &c);
      assert_true(len >= 1);
      assert_int_equal(c[len - 1].inlined, 0);
    }
    scp_sym_destroy(s);
  }
  free(b.data);
  free(good.data);
}

static void test_elf_symtab_fallback(void **state) {
  (void)state;
  blob dbg = build_bpf("dwarf4", "-g -gdwarf-4");
  blob nodbg = build_bpf("nodebug", "-g0");
  scp_sym *d = open_elf_blob(&dbg, NULL), *s = open_elf_blob(&nodbg, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "");
  static const char *names[] = {"accumulate", "scale", "run"};
  assert_int_equal(scp_sym_function_count(s), 3);
  for (uint32_t i = 0; i < 3; i++) {
    scp_frame_info f;
    assert_int_equal(scp_sym_function(s, i, &f), SCP_OK);
    assert_string_equal(f.name, names[i]);
    assert_int_equal(f.source, SCP_SRC_SYMTAB);
    /* .symtab sizes give the same ranges DWARF does. */
    uint64_t lo, hi, dlo, dhi;
    assert_int_equal(scp_sym_function_range(s, i, &lo, &hi), SCP_OK);
    assert_int_equal(scp_sym_function_range(d, i, &dlo, &dhi), SCP_OK);
    assert_int_equal(lo, dlo);
    assert_int_equal(hi, dhi);
    for (uint64_t pc = lo; pc < hi; pc += 8) {
      const scp_frame_info *c;
      assert_int_equal(scp_sym_chain(s, pc, &c), 1);
      assert_string_equal(c[0].name, names[i]);
      assert_int_equal(c[0].source, SCP_SRC_SYMTAB);
      assert_int_equal(c[0].line, 0);
    }
  }
  scp_sym_destroy(s);
  scp_sym_destroy(d);
  free(dbg.data);
  free(nodbg.data);
}

/* An x86-64 object: its debug sections need RELA relocations, so DWARF is
 * refused with a warning and .symtab names the functions. */
static void test_elf_rela_object_falls_back(void **state) {
  (void)state;
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/tests/symbols", build_dir());
  snprintf(path, sizeof path, "%s/sym_inline_x86.o", dir);
  blob b = sym_build(path, "mkdir -p '%s' && %s --target=x86_64-linux-gnu -O2 -g -c "
                     "'%s/tests/fixtures/wasm/sym_inline.c' -o '%s'",
                     dir, sym_env("CLANG", "clang"), sym_env("SCP_SRCDIR", "."), path);
  scp_sym *s = open_elf_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_non_null(strstr(scp_sym_warning(s), "RELA"));
  uint32_t run = find_function(s, "run");
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, run, &f), SCP_OK);
  assert_int_equal(f.source, SCP_SRC_SYMTAB);
  scp_sym_destroy(s);
  free(b.data);
}

/* A minimal ELF64: .text of 3 slots at 0x120 and, optionally, a .symtab
 * with one mangled FUNC symbol covering the first slot. */
static size_t build_elf(uint8_t *img, size_t cap, bool with_symtab) {
  static const char shstr[] = "\0.text\0.shstrtab\0.symtab\0.strtab";
  static const char strtab[] = "\0_ZN3foo3bar17h0123456789abcdefE";
  memset(img, 0, cap);
  size_t text = 64, str = text + 24, sym = 160, sstr = sym + 48, sh = 256;
  size_t nsec = with_symtab ? 5 : 3;
  assert_true(sh + nsec * 64 <= cap);
  memcpy(img, "\177ELF\2\1\1", 7);
  img[16] = 1;                       /* ET_REL */
  img[18] = 247;                     /* EM_BPF */
  img[20] = 1;
  scp_put_le64(img + 40, sh);
  img[52] = 64; img[58] = 64; img[60] = (uint8_t)nsec; img[62] = 2;
  memset(img + text, 0x95, 24);      /* three "exit" slots */
  memcpy(img + str, shstr, sizeof shstr);
  uint8_t *h = img + sh + 64;        /* [1] .text */
  h[0] = 1; h[4] = 1; h[8] = 6; scp_put_le64(h + 16, 0x120); scp_put_le64(h + 24, text); scp_put_le64(h + 32, 24);
  h = img + sh + 128;                /* [2] .shstrtab */
  h[0] = 7; h[4] = 3; scp_put_le64(h + 24, str); scp_put_le64(h + 32, sizeof shstr);
  if (with_symtab) {
    h = img + sh + 192;              /* [3] .symtab -> [4] .strtab */
    h[0] = 17; h[4] = 2; scp_put_le64(h + 24, sym); scp_put_le64(h + 32, 48); h[40] = 4; h[56] = 24;
    h = img + sh + 256;
    h[0] = 25; h[4] = 3; scp_put_le64(h + 24, sstr); scp_put_le64(h + 32, sizeof strtab);
    memcpy(img + sstr, strtab, sizeof strtab);
    uint8_t *s1 = img + sym + 24;    /* symbol 1: FUNC in section 1 */
    s1[0] = 1; s1[4] = 0x12; s1[6] = 1; scp_put_le64(s1 + 8, 0); scp_put_le64(s1 + 16, 8);
  }
  return sh + nsec * 64;
}

static void test_elf_hand_built(void **state) {
  (void)state;
  uint8_t img[640];
  size_t len = build_elf(img, sizeof img, true);
  blob b = {img, len};
  scp_sym *s = open_elf_blob(&b, NULL);
  assert_false(scp_sym_has_dwarf(s));
  assert_int_equal(scp_sym_function_count(s), 1);
  const scp_frame_info *c;
  assert_int_equal(scp_sym_chain(s, 0x120, &c), 1);
  assert_string_equal(c[0].name, "foo::bar");
  assert_int_equal(c[0].source, SCP_SRC_SYMTAB);
  assert_int_equal(scp_sym_chain(s, 0x128, &c), 1);  /* past the symbol */
  assert_string_equal(c[0].name, "0x128");
  assert_int_equal(c[0].source, SCP_SRC_RAW);
  assert_int_equal(scp_sym_chain(s, 0x138, &c), 0);  /* past .text */
  assert_int_equal(scp_sym_chain(s, 0x118, &c), 0);
  scp_sym_destroy(s);

  len = build_elf(img, sizeof img, false);
  b.len = len;
  s = open_elf_blob(&b, NULL);
  assert_int_equal(scp_sym_function_count(s), 0);
  assert_int_equal(scp_sym_chain(s, 0x130, &c), 1);
  assert_string_equal(c[0].name, "0x130");
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, 0, &f), SCP_ERR_NOTFOUND);
  scp_sym_destroy(s);

  /* Truncations: an error or a usable mapper, never a crash. */
  len = build_elf(img, sizeof img, true);
  for (size_t n = 0; n < len; n++) {
    scp_error err = {0};
    s = NULL;
    int rc = scp_sym_open_elf(img, n, NULL, &s, &err);
    assert_true(rc == SCP_OK || rc == SCP_ERR_MALFORMED);
    assert_true(rc != SCP_OK || s != NULL);
    scp_sym_destroy(s);
  }
  /* scp_sym_open picks the container by its magic. */
  s = NULL;
  assert_int_equal(scp_sym_open(img, len, NULL, &s, NULL), SCP_OK);
  assert_int_equal(scp_sym_function_count(s), 1);
  scp_sym_destroy(s);
  mbuf m;
  build_module(&m, true);
  assert_int_equal(scp_sym_open(m.b, m.n, NULL, &s, NULL), SCP_OK);
  assert_int_equal(scp_sym_function_count(s), 5);
  scp_sym_destroy(s);
  assert_int_equal(scp_sym_open((const uint8_t *)"MZ\0\0", 4, NULL, &s, NULL),
                   SCP_ERR_MALFORMED);
  scp_error err = {0};
  img[4] = 1;                                        /* ELFCLASS32 */
  assert_int_equal(scp_sym_open_elf(img, len, NULL, &s, &err), SCP_ERR_UNSUPPORTED);
  assert_null(s);
  assert_int_equal(scp_sym_open_elf((const uint8_t *)"\0asm\1\0\0\0", 8, NULL, &s, &err),
                   SCP_ERR_MALFORMED);
}

/* ---- mixed units, tombstones ------------------------------------------ */

/* sym_inline.c with DWARF 4 and tests/symbols/sym_unit2.c with DWARF 5,
 * linked into one module by wasm-ld, which drops unused_helper and leaves
 * its DWARF tombstoned (low_pc and line sequence at 0xffffffff). */
static void test_mixed_units_and_tombstones(void **state) {
  (void)state;
  const char *clang = sym_env("CLANG", "clang"), *src = sym_env("SCP_SRCDIR", ".");
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/tests/symbols", build_dir());
  snprintf(path, sizeof path, "%s/mixed.wasm", dir);
  blob b = sym_build(path,
           "mkdir -p '%s' && "
           "%s --target=wasm32 -O2 -g -gdwarf-4 -c '%s/tests/fixtures/wasm/sym_inline.c' -o '%s/mixed_a.o' && "
           "%s --target=wasm32 -O2 -g -gdwarf-5 -c '%s/tests/symbols/sym_unit2.c' -o '%s/mixed_b.o' && "
           "%s --target=wasm32 -nostdlib -Wl,--no-entry -Wl,--export-dynamic "
           "-Wl,--allow-undefined '%s/mixed_a.o' '%s/mixed_b.o' -o '%s'",
           dir, clang, src, dir, clang, src, dir, clang, dir, dir, path);
  /* The removed function's DWARF really is in the file. */
  assert_non_null(memmem(b.data, b.len, "unused_helper", 13));

  scp_sym *s = open_blob(&b, NULL);
  assert_true(scp_sym_has_dwarf(s));
  assert_string_equal(scp_sym_warning(s), "");
  assert_int_equal(scp_sym_function_count(s), 5);
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, 4, &f), SCP_OK);
  assert_string_equal(f.name, "sum_squares");
  assert_int_equal(f.decl_line, 18);
  assert_string_equal(base(f.file), "sym_unit2.c");
  /* The DWARF 4 unit still maps as on its own. */
  check_accumulate(s, F_ACCUMULATE, 1);
  check_scale_and_run(s, F_SCALE, F_RUN, 1);

  size_t inl = 0;
  for (uint32_t i = 0; i < 5; i++) {
    uint64_t lo, hi;
    assert_int_equal(scp_sym_function_range(s, i, &lo, &hi), SCP_OK);
    for (uint64_t pc = lo; pc < hi; pc++) {
      const scp_frame_info *c;
      size_t n = scp_sym_chain(s, pc, &c);
      assert_true(n >= 1);
      for (size_t k = 0; k < n; k++) assert_string_not_equal(c[k].name, "unused_helper");
      if (i != 4) continue;
      assert_string_equal(c[n - 1].name, "sum_squares");
      if (n == 2 && c[0].line == 15) {
        assert_string_equal(c[0].name, "square");
        assert_string_equal(base(c[0].file), "sym_unit2.c");
        assert_int_equal(c[1].line, 21);
        assert_string_equal(base(c[1].file), "sym_unit2.c");
        inl++;
      }
    }
  }
  assert_true(inl > 0);

  /* Other linkers tombstone with 0: move the dead function's line sequence
   * (DW_LNE_set_address 0xffffffff) and its .debug_addr low_pc there.  Its
   * rows now overlap accumulate's, but belong to the other unit: the
   * mapping must not change. */
  blob z = {malloc(b.len), b.len};
  assert_non_null(z.data);
  memcpy(z.data, b.data, b.len);
  static const uint8_t set_dead[] = {0, 5, DW_LNE_set_address, 0xff, 0xff, 0xff, 0xff};
  uint8_t *seq = memmem(z.data, z.len, set_dead, sizeof set_dead);
  assert_non_null(seq);
  memset(seq + 3, 0, 4);
  size_t addr_size;
  uint8_t *addr = find_custom(&z, ".debug_addr", &addr_size);
  uint8_t *dead = memmem(addr, addr_size, "\xff\xff\xff\xff", 4);
  assert_non_null(dead);
  memset(dead, 0, 4);
  scp_sym *s0 = open_blob(&z, NULL);
  size_t compared = 0;
  for (uint32_t i = 0; i < 5; i++) {
    uint64_t lo, hi;
    assert_int_equal(scp_sym_function_range(s, i, &lo, &hi), SCP_OK);
    for (uint64_t pc = lo; pc < hi; pc++) {
      const scp_frame_info *ca, *cb;
      size_t na = scp_sym_chain(s, pc, &ca), nb = scp_sym_chain(s0, pc, &cb);
      assert_int_equal(na, nb);
      for (size_t k = 0; k < na; k++) assert_true(same_frame(&ca[k], &cb[k]));
      compared++;
    }
  }
  assert_true(compared > 400);
  scp_sym_destroy(s0);
  free(z.data);
  scp_sym_destroy(s);
  free(b.data);
}

/* One unit with DWARF, one without: the second unit's functions fall back
 * to the name section while the first keeps its lines. */
static void test_partial_dwarf(void **state) {
  (void)state;
  const char *clang = sym_env("CLANG", "clang"), *src = sym_env("SCP_SRCDIR", ".");
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/tests/symbols", build_dir());
  snprintf(path, sizeof path, "%s/partial.wasm", dir);
  blob b = sym_build(path,
           "mkdir -p '%s' && "
           "%s --target=wasm32 -O2 -g -c '%s/tests/fixtures/wasm/sym_inline.c' -o '%s/partial_a.o' && "
           "%s --target=wasm32 -O2 -g0 -c '%s/tests/symbols/sym_unit2.c' -o '%s/partial_b.o' && "
           "%s --target=wasm32 -nostdlib -Wl,--no-entry -Wl,--export-dynamic "
           "-Wl,--allow-undefined '%s/partial_a.o' '%s/partial_b.o' -o '%s'",
           dir, clang, src, dir, clang, src, dir, clang, dir, dir, path);
  scp_sym *s = open_blob(&b, NULL);
  assert_true(scp_sym_has_dwarf(s));
  assert_int_equal(scp_sym_function_count(s), 5);
  check_accumulate(s, F_ACCUMULATE, 1);
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, 4, &f), SCP_OK);
  assert_string_equal(f.name, "sum_squares");
  assert_int_equal(f.source, SCP_SRC_NAMESEC);
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, 4, &lo, &hi), SCP_OK);
  for (uint64_t pc = lo; pc < hi; pc++) {
    const scp_frame_info *c;
    assert_int_equal(scp_sym_chain(s, pc, &c), 1);
    assert_string_equal(c[0].name, "sum_squares");
    assert_int_equal(c[0].source, SCP_SRC_NAMESEC);
    assert_int_equal(c[0].line, 0);
    assert_int_equal(scp_sym_function_at(s, pc, &f), SCP_OK);
    assert_string_equal(f.name, "sum_squares");
  }
  scp_sym_destroy(s);
  free(b.data);
}

/* C++: names are the demangled linkage names, with parameters. */
static void test_cpp_linkage_names(void **state) {
  (void)state;
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/tests/symbols", build_dir());
  snprintf(path, sizeof path, "%s/sym_cpp.wasm", dir);
  blob b = sym_build(path, "mkdir -p '%s' && %s --target=wasm32 -O2 -g -nostdlib "
                     "-fno-exceptions -Wl,--no-entry -Wl,--export-dynamic "
                     "'%s/tests/symbols/sym_cpp.cc' -o '%s'",
                     dir, sym_env("CLANGXX", "clang++"), sym_env("SCP_SRCDIR", "."), path);
  scp_sym *s = open_blob(&b, NULL);
  static const char norm2[] = "geo::norm2(geo::Point const&)";
  static const char dot[] = "geo::dot(geo::Point const&, geo::Point const&)";
  uint32_t fn = find_function(s, norm2);
  scp_frame_info f;
  assert_int_equal(scp_sym_function(s, fn, &f), SCP_OK);
  assert_int_equal(f.decl_line, 9);
  assert_int_equal(f.source, SCP_SRC_DWARF);
  uint64_t lo, hi;
  assert_int_equal(scp_sym_function_range(s, fn, &lo, &hi), SCP_OK);
  size_t body = 0;
  for (uint64_t pc = lo; pc < hi; pc++) {
    const scp_frame_info *c;
    size_t n = scp_sym_chain(s, pc, &c);
    assert_true(n == 1 || n == 2);
    assert_string_equal(c[n - 1].name, norm2);
    if (n == 2) {
      assert_string_equal(c[0].name, dot);
      assert_int_equal(c[0].decl_line, 5);
      assert_int_equal(c[1].line, 10);
      body += c[0].line == 7;
    }
  }
  assert_true(body > 0);
  scp_sym_destroy(s);
  free(b.data);
}

/* ---- demangling -------------------------------------------------------- */

static void test_demangle(void **state) {
  (void)state;
  char buf[256];
  static const struct { const char *in, *out, *out_hash; } cases[] = {
      /* Rust legacy */
      {"_ZN4core3fmt9Formatter3pad17h0123456789abcdefE",
       "core::fmt::Formatter::pad", "core::fmt::Formatter::pad::h0123456789abcdef"},
      {"_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$"
       "4drop17h1a2b3c4d5e6f7a8bE",
       "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop",
       "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop::h1a2b3c4d5e6f7a8b"},
      /* Rust v0: the hash is the crate disambiguator */
      {"_RNvNtCs1234_7mycrate3foo3bar", "mycrate::foo::bar",
       "mycrate[3c1c0]::foo::bar"},
      {"_RINvCs1234_7mycrate4funcmEB2_", "mycrate::func::<u32>",
       "mycrate[3c1c0]::func::<u32>"},
      /* C++ (with parameters), also with a Mach-O underscore */
      {"_ZN2ns3fooEi", "ns::foo(int)", "ns::foo(int)"},
      {"__ZN2ns3fooEv", "ns::foo()", "ns::foo()"},
      {"_ZNK3Foo3getERKSt6vectorIiSaIiEE",
       "Foo::get(std::vector<int, std::allocator<int> > const&) const",
       "Foo::get(std::vector<int, std::allocator<int> > const&) const"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_string_equal(scp_sym_demangle(cases[i].in, false, buf, sizeof buf),
                        cases[i].out);
    assert_string_equal(scp_sym_demangle(cases[i].in, true, buf, sizeof buf),
                        cases[i].out_hash);
  }
  /* Not mangled: the very same pointer back. */
  static const char *plain[] = {"main", "accumulate", "_Z", "_R", "_Z9trunc", "_RNvC", ""};
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
    assert_ptr_equal(scp_sym_demangle(plain[i], false, buf, sizeof buf), plain[i]);
  assert_null(scp_sym_demangle(NULL, false, buf, sizeof buf));
  /* A small buffer truncates, terminated. */
  char small[8];
  assert_string_equal(scp_sym_demangle("_ZN2ns3fooEi", false, small, sizeof small),
                      "ns::foo");
}

/* A module without symbols: the resolvers pass its NULL mapper as it is. */
static void test_no_mapper(void **state) {
  (void)state;
  const scp_frame_info *chain = (const scp_frame_info *)state;   /* not NULL */
  scp_frame_info fi = {.name = "kept"};
  assert_int_equal(scp_sym_chain(NULL, 0x10, &chain), 0);
  assert_null(chain);
  assert_int_equal(scp_sym_function(NULL, 0, &fi), SCP_ERR_ARG);
  assert_int_equal(scp_sym_function_at(NULL, 0x10, &fi), SCP_ERR_ARG);
  assert_string_equal(fi.name, "kept");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_mapper),
      cmocka_unit_test(test_dwarf4_inline_chains),
      cmocka_unit_test(test_dwarf5_inline_chains),
      cmocka_unit_test(test_chain_storage_stable),
      cmocka_unit_test(test_lookup_order_independent),
      cmocka_unit_test(test_name_section_fallback),
      cmocka_unit_test(test_raw_fallback),
      cmocka_unit_test(test_hand_built_offsets_and_names),
      cmocka_unit_test(test_malformed_container),
      cmocka_unit_test(test_broken_dwarf_falls_back),
      cmocka_unit_test(test_garbled_dwarf_never_crashes),
      cmocka_unit_test(test_bpf_dwarf4_and_5),
      cmocka_unit_test(test_repair_rules),
      cmocka_unit_test(test_bpf_repair_dwarf4_info),
      cmocka_unit_test(test_bpf_repair_dwarf5_addr),
      cmocka_unit_test(test_bpf_garbled_dwarf_never_crashes),
      cmocka_unit_test(test_elf_symtab_fallback),
      cmocka_unit_test(test_elf_rela_object_falls_back),
      cmocka_unit_test(test_elf_hand_built),
      cmocka_unit_test(test_mixed_units_and_tombstones),
      cmocka_unit_test(test_partial_dwarf),
      cmocka_unit_test(test_cpp_linkage_names),
      cmocka_unit_test(test_demangle),
  };
  return cmocka_run_group_tests_name("symbols", tests, NULL, NULL);
}
