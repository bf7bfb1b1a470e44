/*
 * fuzz_sbpf.h — one input through the sBPF loader and a bounded run.
 * Byte 0 picks the container: 0-3 = raw .text of that sBPF version (the
 * rest of the input, as Executable::new_from_text_bytes takes it), else the
 * whole input is an ELF for the loader (lenient v0-v2 or strict v3 by its
 * e_flags).  A program that loads runs under a 4,000-CU meter with a 1 KiB
 * writable input region, stand-in syscalls that translate guest memory,
 * and a profile tree, once with each dispatch mode.  Beyond the sanitizers
 * it traps when the two modes disagree, when a failure has no message, or
 * when the profile's CU differ from the instructions executed.  Used by the
 * libFuzzer target (fuzz_sbpf.c, `make fuzz`) and the corpus replay.
 */
#ifndef SCP_FUZZ_SBPF_H
#define SCP_FUZZ_SBPF_H

#include <string.h>

#include "sbpf/sbpf_private.h"

/* sol_log_-like: reads [r1, r1 + r2) and charges 100. */
static int fuzz_sbpf_read(void *ctx, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0,
                          scp_error *err) {
  uint8_t *h;
  (void)ctx;
  *r0 = 0;
  int rc = scp_sbpf_vm_translate(vm, a[0], a[1] & 0xffff, false, &h, err);
  if (rc) return rc;
  return scp_sbpf_vm_consume(vm, 100) ? scp_fail(err, SCP_ERR_BUDGET, "out of CU") : SCP_OK;
}

/* sol_memset_-like: writes [r1, r1 + r3) with r2. */
static int fuzz_sbpf_write(void *ctx, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0,
                           scp_error *err) {
  uint8_t *h;
  (void)ctx;
  *r0 = 0;
  int rc = scp_sbpf_vm_translate(vm, a[0], a[2] & 0xffff, true, &h, err);
  if (rc) return rc;
  memset(h, (int)a[1], (size_t)(a[2] & 0xffff));
  return scp_sbpf_vm_consume(vm, 10) ? scp_fail(err, SCP_ERR_BUDGET, "out of CU") : SCP_OK;
}

typedef struct fuzz_sbpf_result {
  int rc;
  scp_sbpf_trap trap;
  uint64_t r0, meter, insns, profiled;
} fuzz_sbpf_result;

static inline fuzz_sbpf_result fuzz_sbpf_run(const scp_sbpf_prog *p, bool sw) {
  fuzz_sbpf_result res = { 0 };
  static uint8_t input[1024];
  memset(input, 0x5a, sizeof input);
  uint64_t meter = 4000;
  scp_sbpf_region in = { SCP_SBPF_MM_INPUT, input, sizeof input, true };
  scp_tree tree;
  if (scp_tree_init(&tree, 1) != SCP_OK) return res;
  scp_sbpf_vm_config cfg = { .meter = &meter, .input = &in, .ninput = 1, .tree = &tree, .module = 1 };
  scp_sbpf_vm *vm;
  scp_error err;
  if (scp_sbpf_vm_create(p, &cfg, &vm, &err) == SCP_OK) {
    scp_sbpf_vm_set_switch_dispatch(vm, sw);
    scp_sbpf_vm_set_reg(vm, 1, SCP_SBPF_MM_INPUT);
    err.msg[0] = 0;
    res.rc = scp_sbpf_vm_run(vm, &res.r0, &err);
    if (res.rc != SCP_OK && !err.msg[0] && scp_sbpf_vm_trap(vm) != SCP_SBPF_TRAP_SYSCALL)
      __builtin_trap();
    res.trap = scp_sbpf_vm_trap(vm);
    res.meter = meter;
    res.insns = scp_sbpf_vm_insns(vm);
    res.profiled = scp_tree_total(&tree, 0);
    if (res.rc != SCP_ERR_NOMEM && res.profiled != res.insns) __builtin_trap();
    scp_sbpf_vm_destroy(vm);
  }
  scp_tree_free(&tree);
  return res;
}

static inline void fuzz_sbpf_one(const uint8_t *data, size_t size) {
  scp_sbpf_loader *l;
  if (!size || scp_sbpf_loader_create(NULL, &l) != SCP_OK) return;
  scp_sbpf_loader_register(l, "sol_log_", fuzz_sbpf_read, NULL, NULL);
  scp_sbpf_loader_register(l, "sol_memset_", fuzz_sbpf_write, NULL, NULL);
  scp_sbpf_prog *p = NULL;
  scp_error err;
  err.msg[0] = 0;
  int rc = data[0] < 4 ? sbpf_load_text(l, data + 1, size - 1, (scp_sbpf_version)data[0], &p, &err)
                       : scp_sbpf_load(l, data, size, "fuzz.so", &p, &err);
  if (rc != SCP_OK && (!err.msg[0] || strchr(err.msg, '\n'))) __builtin_trap();
  if (rc == SCP_OK) {
    fuzz_sbpf_result a = fuzz_sbpf_run(p, false), b = fuzz_sbpf_run(p, true);
    if (a.rc != b.rc || a.trap != b.trap || a.r0 != b.r0 || a.meter != b.meter || a.insns != b.insns)
      __builtin_trap();
    scp_sbpf_prog_free(p);
  }
  scp_sbpf_loader_destroy(l);
}

#endif
