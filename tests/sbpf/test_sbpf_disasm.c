/*
 * test_sbpf_disasm.c — scp_sbpf_prog_disasm on counter.c's program (the
 * Makefile's fixture, v0 and v3).  Independent evidence: mix_squares'
 * loop as llvm-objdump -d prints it for counter.o (the same operations,
 * registers and immediates; objdump's own spelling differs: "r0 *= r0"),
 * at the addresses llvm-readelf gives .text (0x120 in v0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "build_dir.h"
#include "sbpf/scp_sbpf.h"

static int no_call(void *c, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  *r0 = 0;
  return SCP_OK;
}

static scp_sbpf_prog *load(scp_sbpf_loader **l, const char *name, uint8_t **bytes) {
  char rel[256];
  size_t len;
  scp_error err = {0};
  snprintf(rel, sizeof rel, "tests/fixtures/sbpf/%s", name);
  if (scp_read_file(build_path(rel), bytes, &len, &err)) fail_msg("%s: run make fixtures", err.msg);
  assert_int_equal(scp_sbpf_loader_create(NULL, l), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(*l, "sol_log_", no_call, NULL, NULL), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(*l, "sol_log_64_", no_call, NULL, NULL), SCP_OK);
  scp_sbpf_prog *p = NULL;
  if (scp_sbpf_load(*l, *bytes, len, name, &p, &err)) fail_msg("%s", err.msg);
  return p;
}

static const char *at(const scp_sbpf_prog *p, uint32_t pc) {
  static char buf[96];
  scp_sbpf_prog_disasm(p, pc, buf, sizeof buf);
  return buf;
}

#define PC(addr) ((uint32_t)(((addr) - 0x120) / 8))

static void test_counter_v0(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  uint8_t *bytes;
  scp_sbpf_prog *p = load(&l, "counter.so", &bytes);
  /* by address (.text at 0x120); objdump: "r3 = r1", "r2 = *(u64 *)(r1 +
   * 0)", "if r2 == 0 goto +17" (to pc 22, 0x1d0) */
  assert_string_equal(at(p, PC(0x120)), "mov64r r3, r1");
  assert_string_equal(at(p, PC(0x130)), "ldxdw r2, [r1+0]");
  assert_string_equal(at(p, PC(0x140)), "jeqi r2, 0, 0x1d0");
  assert_string_equal(at(p, PC(0x1e8)), "ldxb r6, [r4+16]");
  assert_string_equal(at(p, PC(0x278)), "call 0x2c8");
  assert_string_equal(at(p, PC(0x2b0)), "syscall sol_log_64_");
  assert_string_equal(at(p, PC(0x2c0)), "exit");
  /* mix_squares' loop body: "r0 *= r0", "r3 >>= 3", "if r1 > r2 goto -8" */
  assert_string_equal(at(p, PC(0x2f8)), "mul64r r0, r0");
  assert_string_equal(at(p, PC(0x308)), "rsh64i r3, 3");
  assert_string_equal(at(p, PC(0x320)), "jgtr r1, r2, 0x2e8");
  /* past the end, and a buffer too small */
  char small[5];
  assert_int_equal(scp_sbpf_prog_disasm(p, scp_sbpf_prog_ninsns(p), small, sizeof small), 0);
  assert_string_equal(small, "");
  assert_int_equal(scp_sbpf_prog_disasm(p, 0, small, sizeof small), 4);
  assert_string_equal(small, "mov6");
  scp_sbpf_prog_free(p);
  scp_sbpf_loader_destroy(l);
  free(bytes);
}

static void test_counter_v3(void **state) {
  (void)state;
  scp_sbpf_loader *l;
  uint8_t *bytes;
  scp_sbpf_prog *p = load(&l, "counter_v3.so", &bytes);
  /* the same loop in the v3 layout: a pc-relative call, text at 2^32 */
  bool mul = false, call = false, sys = false;
  for (uint32_t pc = 0; pc < scp_sbpf_prog_ninsns(p); pc++) {
    mul |= !strcmp(at(p, pc), "mul64r r0, r0");
    call |= !strncmp(at(p, pc), "call 0x1000", 11);
    sys |= !strcmp(at(p, pc), "syscall sol_log_64_");
  }
  assert_true(mul && call && sys);
  scp_sbpf_prog_free(p);
  scp_sbpf_loader_destroy(l);
  free(bytes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_counter_v0),
      cmocka_unit_test(test_counter_v3),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
