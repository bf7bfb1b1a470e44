/*
 * test_sym_split.c — symbols from another file (scp_sym_elf_matches,
 * scp_sym_wasm_matches, scp_sym_elf_debug_only) and functions cut at call
 * targets (scp_sym_add_entries), on the Makefile's fixtures split here with
 * llvm-objcopy (--strip-all, --only-keep-debug) and wasm-strip into
 * SCP_BUILD/tests/symbols.
 *
 * Independent evidence: the mapper over the split debug file answers every
 * pc of the program exactly as the mapper over the unstripped program (two
 * readings of different bytes); counter.c's layout (mix_squares at 0x2c8,
 * the code's end at 0x330) is llvm-readelf's.  The refusal texts are pins.
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
#include "sym_fixture.h"

/* tool FLAGS on BUILD/in into BUILD/tests/symbols/out, read back */
static blob split(const char *tool, const char *in, const char *out) {
  char dst[1024], src[1024];
  snprintf(src, sizeof src, "%s/%s", build_dir(), in);
  snprintf(dst, sizeof dst, "%s/tests/symbols/%s", build_dir(), out);
  if (!strcmp(tool, "wasm-strip"))
    return sym_build(dst, "mkdir -p %s/tests/symbols && cp %s %s && wasm-strip %s", build_dir(), src, dst, dst);
  return sym_build(dst, "mkdir -p %s/tests/symbols && %s %s %s", build_dir(), tool, src, dst);
}

static void free_blob(blob *b) { free(b->data); }

static bool same_chain(const scp_frame_info *a, size_t na, const scp_frame_info *b, size_t nb) {
  if (na != nb) return false;
  for (size_t i = 0; i < na; i++)
    if (strcmp(a[i].name, b[i].name) || strcmp(a[i].file, b[i].file) || a[i].line != b[i].line ||
        a[i].inlined != b[i].inlined || a[i].source != b[i].source)
      return false;
  return true;
}

static void test_debug_file_answers_as_the_program(void **state) {
  (void)state;
  blob prog = sym_read(build_path("tests/fixtures/sbpf/counter.so"));
  blob dbg = split("llvm-objcopy --only-keep-debug", "tests/fixtures/sbpf/counter.so", "counter.debug");
  scp_error err = {0};
  assert_int_equal(scp_sym_elf_matches(prog.data, prog.len, dbg.data, dbg.len, &err), SCP_OK);
  assert_true(scp_sym_elf_debug_only(dbg.data, dbg.len));
  assert_false(scp_sym_elf_debug_only(prog.data, prog.len));
  scp_sym *a = open_elf_blob(&prog, NULL), *b = open_elf_blob(&dbg, NULL);
  assert_true(scp_sym_has_dwarf(b));
  size_t lines = 0;
  for (uint64_t pc = 0x120; pc < 0x330; pc += 8) {
    const scp_frame_info *ca, *cb;
    size_t na = scp_sym_chain(a, pc, &ca), nb = scp_sym_chain(b, pc, &cb);
    assert_true(na >= 1);
    assert_true(same_chain(ca, na, cb, nb));
    lines += ca[0].line != 0;
  }
  assert_true(lines > 0);
  scp_sym_destroy(a);
  scp_sym_destroy(b);
  free_blob(&prog);
  free_blob(&dbg);
}

static void test_other_programs_refused(void **state) {
  (void)state;
  blob prog = sym_read(build_path("tests/fixtures/sbpf/counter.so"));
  blob token = sym_read(build_path("tests/fixtures/sbpf/token.so"));
  blob v3 = sym_read(build_path("tests/fixtures/sbpf/counter_v3.so"));
  blob wasm = sym_read(build_path("tests/fixtures/wasm/sym_inline.wasm"));
  scp_error err = {0};
  assert_int_equal(scp_sym_elf_matches(prog.data, prog.len, token.data, token.len, &err), SCP_ERR_ARG);
  assert_string_equal(err.msg, "its .text is at 0x120, 1648 bytes; the program's at 0x120, 528 bytes");
  assert_int_equal(scp_sym_elf_matches(prog.data, prog.len, v3.data, v3.len, &err), SCP_ERR_ARG);
  assert_int_equal(scp_sym_elf_matches(prog.data, prog.len, wasm.data, wasm.len, &err), SCP_ERR_ARG);
  assert_string_equal(err.msg, "not an ELF file");
  /* one byte of code changed */
  prog.data[0x128] ^= 1;
  blob orig = sym_read(build_path("tests/fixtures/sbpf/counter.so"));
  assert_int_equal(scp_sym_elf_matches(orig.data, orig.len, prog.data, prog.len, &err), SCP_ERR_ARG);
  assert_string_equal(err.msg, "its .text bytes differ from the program's");
  free_blob(&orig);
  free_blob(&prog);
  free_blob(&token);
  free_blob(&v3);
  free_blob(&wasm);
}

static void test_wasm_matches(void **state) {
  (void)state;
  blob full = sym_read(build_path("tests/fixtures/wasm/sym_inline.wasm"));
  blob stripped = split("wasm-strip", "tests/fixtures/wasm/sym_inline.wasm", "sym_inline_ws.wasm");
  blob other = sym_read(build_path("tests/fixtures/wasm/walk.wasm"));
  scp_error err = {0};
  assert_true(stripped.len < full.len);
  assert_int_equal(scp_sym_wasm_matches(stripped.data, stripped.len, full.data, full.len, &err), SCP_OK);
  assert_int_equal(scp_sym_wasm_matches(stripped.data, stripped.len, other.data, other.len, &err), SCP_ERR_ARG);
  assert_non_null(strstr(err.msg, "section differs from the contract's"));
  free_blob(&full);
  free_blob(&stripped);
  free_blob(&other);
}

static void assert_function_at(scp_sym *s, uint64_t pc, const char *name, scp_source src) {
  scp_frame_info f;
  assert_int_equal(scp_sym_function_at(s, pc, &f), SCP_OK);
  assert_string_equal(f.name, name);
  assert_int_equal(f.source, src);
}

static void test_call_targets_cut_functions(void **state) {
  (void)state;
  blob strip = split("llvm-objcopy --strip-all", "tests/fixtures/sbpf/counter.so", "counter_stripped.so");
  blob full = sym_read(build_path("tests/fixtures/sbpf/counter.so"));
  const uint64_t pcs[] = {0x120, 0x2c8, 0x5000};
  const char *names[] = {"entrypoint", NULL, "outside"};
  scp_sym *s = open_elf_blob(&strip, NULL);
  /* .dynsym's entrypoint alone runs to the end of the code */
  uint64_t lo = 0, hi = 0;
  assert_int_equal(scp_sym_function_count(s), 1);
  assert_int_equal(scp_sym_add_entries(s, pcs, names, 3), SCP_OK);
  assert_int_equal(scp_sym_function_count(s), 2);
  assert_int_equal(scp_sym_function_range(s, 0, &lo, &hi), SCP_OK);
  assert_true(lo == 0x120 && hi == 0x2c8);
  assert_int_equal(scp_sym_function_range(s, 1, &lo, &hi), SCP_OK);
  assert_true(lo == 0x2c8 && hi == 0x330);
  assert_function_at(s, 0x2c0, "entrypoint", SCP_SRC_SYMTAB);
  assert_function_at(s, 0x2c8, "fn_0x2c8", SCP_SRC_RAW);
  assert_function_at(s, 0x328, "fn_0x2c8", SCP_SRC_RAW);
  /* the chains say the same; once one is cached, nothing changes */
  const scp_frame_info *c;
  assert_int_equal(scp_sym_chain(s, 0x2d0, &c), 1);
  assert_string_equal(c[0].name, "fn_0x2c8");
  assert_int_equal(scp_sym_add_entries(s, pcs, names, 3), SCP_ERR_ARG);
  scp_sym_destroy(s);
  /* with .symtab the symbols stand */
  s = open_elf_blob(&full, NULL);
  uint32_t n = scp_sym_function_count(s);
  assert_int_equal(scp_sym_add_entries(s, pcs, names, 3), SCP_OK);
  assert_int_equal(scp_sym_function_count(s), n);
  scp_sym_destroy(s);
  free_blob(&strip);
  free_blob(&full);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_debug_file_answers_as_the_program),
      cmocka_unit_test(test_other_programs_refused),
      cmocka_unit_test(test_wasm_matches),
      cmocka_unit_test(test_call_targets_cut_functions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
