/*
 * test_size.c — the size tree (src/size): a module written byte by byte
 * here, so every node's size is worked out by hand from the WASM binary
 * format (independent of scprof's reading of it); every cut of it either
 * refused as malformed or still summing to its length; an ELF fixture
 * with a section moved onto another refused; non-modules refused.
 * tests/e2e/size.sh checks the real fixtures against wasm-objdump and
 * llvm-objdump.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../build_dir.h"
#include "size/scp_size.h"

/* header 8; Type 2+5; Function 2+2; Memory 2+3; Code 2+9 (count 1, body
 * size 1, body 7: no locals, i32.const 42, drop, i32.const 7, end); Data
 * 2+10 (count 1, kind 0, i32.const 16 end, size 1, "abcd"); custom "foo"
 * 2+6 (name 1+3, "xy").  55 bytes. */
static const uint8_t module[] = {
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f,
    0x03, 0x02, 0x01, 0x00,
    0x05, 0x03, 0x01, 0x00, 0x01,
    0x0a, 0x09, 0x01, 0x07, 0x00, 0x41, 0x2a, 0x1a, 0x41, 0x07, 0x0b,
    0x0b, 0x0a, 0x01, 0x00, 0x41, 0x10, 0x0b, 0x04, 0x61, 0x62, 0x63, 0x64,
    0x00, 0x06, 0x03, 0x66, 0x6f, 0x6f, 0x78, 0x79};

/* The child of node `at` whose frame is named name, or SCP_NODE_NONE. */
static uint32_t child(const scp_profile *p, uint32_t at, const char *name) {
  for (uint32_t c = p->nodes[at].first_child; c != SCP_NODE_NONE; c = p->nodes[c].next_sibling)
    if (!strcmp(scp_prof_str(p, p->frames[p->nodes[c].frame].name), name)) return c;
  return SCP_NODE_NONE;
}

/* Total of the node at a '/'-separated path of names from the root. */
static uint64_t total_at(const scp_profile *p, const char *path) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  uint32_t at = 0;
  for (char *s = strtok(buf, "/"); s; s = strtok(NULL, "/")) {
    at = child(p, at, s);
    if (at == SCP_NODE_NONE) fail_msg("no node %s in %s", s, path);
  }
  return p->nodes[at].total[0];
}

static void test_module_by_hand(void **state) {
  (void)state;
  scp_profile *p = NULL;
  scp_error err = {0};
  scp_size_opts o = {.name = "hand.wasm"};
  assert_int_equal(scp_size_build(module, sizeof module, &o, &p, &err), SCP_OK);
  assert_int_equal(sizeof module, 55);
  assert_int_equal(scp_profile_total(p, 0), 55);
  assert_string_equal(scp_prof_str(p, p->frames[p->nodes[0].frame].name), "hand.wasm");
  assert_int_equal(total_at(p, "[wasm header]"), 8);
  assert_int_equal(total_at(p, "Type"), 7);
  assert_int_equal(total_at(p, "Type/[section header]"), 2);
  assert_int_equal(total_at(p, "Function"), 4);
  assert_int_equal(total_at(p, "Memory"), 5);
  assert_int_equal(total_at(p, "Code"), 11);
  assert_int_equal(total_at(p, "Code/[section header]"), 2);
  assert_int_equal(total_at(p, "Code/[body sizes]"), 2);
  assert_int_equal(total_at(p, "Code/func[0]"), 7);
  assert_int_equal(total_at(p, "Data"), 12);
  assert_int_equal(total_at(p, "Data/[segment headers]"), 6);
  assert_int_equal(total_at(p, "Data/data[0]"), 4);
  assert_int_equal(total_at(p, "Custom:foo"), 8);
  assert_int_equal(total_at(p, "Custom:foo/[section header]"), 2);
  assert_true(scp_prof_check(p));
  scp_profile_destroy(p);
}

/* Every prefix is refused as malformed or, when it ends on a section
 * boundary (a module of fewer sections), sums to its own length. */
static void test_every_cut(void **state) {
  (void)state;
  size_t whole = 0;
  for (size_t n = 0; n < sizeof module; n++) {
    scp_profile *p = NULL;
    scp_error err = {0};
    int rc = scp_size_build(module, n, NULL, &p, &err);
    if (rc == SCP_OK) {
      assert_int_equal(scp_profile_total(p, 0), n);
      whole++;
    } else {
      assert_int_equal(rc, SCP_ERR_MALFORMED);
      assert_null(p);
      assert_true(err.msg[0] != 0);
    }
    scp_profile_destroy(p);
  }
  assert_int_equal(whole, 6);   /* cut after the header or a section: 8, 15, 19, 24, 35, 47 */
}

static void test_not_a_module(void **state) {
  (void)state;
  static const uint8_t junk[] = "not a module at all";
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_size_build(junk, sizeof junk, NULL, &p, &err), SCP_ERR_MALFORMED);
  assert_null(p);
  uint8_t bad[sizeof module];
  memcpy(bad, module, sizeof bad);
  bad[26] = 0x02;   /* the Code section claims a second body */
  assert_int_equal(scp_size_build(bad, sizeof bad, NULL, &p, &err), SCP_ERR_MALFORMED);
  assert_null(p);
}

/* An sBPF fixture with its second section's offset set to its first's:
 * two sections claim the same bytes, which is refused, not counted twice. */
static void test_elf_overlap(void **state) {
  (void)state;
  uint8_t *elf = NULL;
  size_t len = 0;
  scp_error err = {0};
  assert_int_equal(scp_read_file(build_path("tests/fixtures/sbpf/counter.so"), &elf, &len, &err),
                   SCP_OK);
  scp_profile *p = NULL;
  assert_int_equal(scp_size_build(elf, len, NULL, &p, &err), SCP_OK);
  assert_int_equal(scp_profile_total(p, 0), len);
  scp_profile_destroy(p);
  uint64_t shoff = scp_le64(elf + 40);
  memcpy(elf + shoff + 2 * 64 + 24, elf + shoff + 1 * 64 + 24, 8);
  assert_int_equal(scp_size_build(elf, len, NULL, &p, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "overlap"));
  assert_null(p);
  free(elf);
}

/* Marked against no run at all: every code byte (the one 7-byte body)
 * never ran, nothing else is code; a second mark is refused. */
static void test_mark_nothing_ran(void **state) {
  (void)state;
  scp_profile *p = NULL;
  scp_error err = {0};
  assert_int_equal(scp_size_build(module, sizeof module, NULL, &p, &err), SCP_OK);
  scp_size_mark_result r;
  assert_int_equal(scp_size_mark(p, NULL, 0, &r, &err), SCP_OK);
  assert_int_equal(r.code, 7);
  assert_int_equal(r.never_run, 7);
  assert_int_equal(r.functions, 1);
  assert_int_equal(r.functions_ran, 0);
  assert_int_equal(p->nmetrics, 2);
  assert_string_equal(p->metrics[1].name, "Never run");
  assert_int_equal(scp_profile_total(p, 0), 55);
  assert_int_equal(scp_profile_total(p, 1), 7);
  assert_true(scp_prof_check(p));
  assert_int_equal(scp_size_mark(p, NULL, 0, &r, &err), SCP_ERR_ARG);
  scp_profile_destroy(p);
}

/* Deploy figures worked out by hand from the rules, each from its source:
 * solana-rent Rent::minimum_balance = ((128 + n) * 3,480) as f64 * 2.0
 * (ACCOUNT_STORAGE_OVERHEAD, DEFAULT_LAMPORTS_PER_BYTE_YEAR,
 * DEFAULT_EXEMPTION_THRESHOLD); UpgradeableLoaderState size_of_program 36,
 * size_of_programdata_metadata 45, size_of_buffer_metadata 37; the CLI's
 * calculate_max_chunk_size: 1,232 (PACKET_DATA_SIZE) - 259 (one signature
 * 65, header 3, four keys 129, blockhash 32, two instructions 1 + 8 + 21)
 * - 1 = 972; 5,000 lamports a signature. */
static void test_solana_deploy(void **state) {
  (void)state;
  scp_size_deploy d;
  scp_size_solana_deploy(100312, &d);          /* litesvm's token.so */
  assert_int_equal(d.program_rent, (128 + 36) * 6960);          /* 1,141,440 */
  assert_int_equal(d.program_rent, 1141440);
  assert_int_equal(d.programdata_rent, (128 + 45 + 100312) * 6960);
  assert_int_equal(d.programdata_rent, 699375600);
  assert_int_equal(d.buffer_rent, (128 + 37 + 100312) * 6960);
  assert_int_equal(d.chunk, 972);
  assert_int_equal(d.writes, 104);             /* 103 x 972 = 100,116 < 100,312 */
  assert_int_equal(d.deploy_fee, (2 + 104 + 2) * 5000);
  assert_int_equal(d.redeploy_fee, (2 + 104 + 1) * 5000);
  scp_size_solana_deploy(972, &d);
  assert_int_equal(d.writes, 1);
  scp_size_solana_deploy(973, &d);
  assert_int_equal(d.writes, 2);
  scp_size_solana_deploy(0, &d);
  assert_int_equal(d.writes, 0);
  assert_int_equal(d.programdata_rent, 173 * 6960);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_module_by_hand),
      cmocka_unit_test(test_every_cut),
      cmocka_unit_test(test_not_a_module),
      cmocka_unit_test(test_elf_overlap),
      cmocka_unit_test(test_mark_nothing_ran),
      cmocka_unit_test(test_solana_deploy),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
