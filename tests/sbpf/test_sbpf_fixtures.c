/*
 * test_sbpf_fixtures.c — the C fixtures (tests/fixtures/sbpf, linked by
 * tools/sbpf-link into SCP_BUILD/tests/fixtures/sbpf) through the loader,
 * the interpreter, the profile counters and the DWARF mapper, and the
 * loader's one-line rejections of damaged copies of them.
 *
 * Exact CU are counted by hand from the disassembly of Debian clang
 * 14.0.6's code for counter.c (llvm-objdump -d on counter.o); see
 * test_counter.  Syscall costs here are the stand-ins registered below
 * (100 CU each), so the numbers are the guest's instructions + 100 per
 * syscall; the real costs are the runtime's business.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "build_dir.h"
#include "sbpf/sbpf_private.h"
#include "symbols/scp_sym.h"

static uint8_t *slurp(const char *name, size_t *len) {
  char rel[256];
  snprintf(rel, sizeof rel, "tests/fixtures/sbpf/%s", name);
  uint8_t *data;
  scp_error err;
  if (scp_read_file(build_path(rel), &data, len, &err) != SCP_OK)
    fail_msg("%s: run make fixtures", err.msg);
  return data;
}

/* Stand-in syscalls: 100 CU each, logs counted. */
typedef struct calls { int log, log64, memcpy, sha; uint64_t last64[5]; } calls;

static int cost100(scp_sbpf_vm *vm, scp_error *err) {
  return scp_sbpf_vm_consume(vm, 100) ? scp_fail(err, SCP_ERR_BUDGET, "exceeded CUs") : SCP_OK;
}
static int sys_log(void *c, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *h;
  ((calls *)c)->log++;
  *r0 = 0;
  int rc = scp_sbpf_vm_translate(vm, a[0], a[1], false, &h, err);
  return rc ? rc : cost100(vm, err);
}
static int sys_log64(void *c, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  ((calls *)c)->log64++;
  memcpy(((calls *)c)->last64, a, 5 * sizeof *a);
  *r0 = 0;
  return cost100(vm, err);
}
static int sys_memcpy(void *c, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *d, *s;
  ((calls *)c)->memcpy++;
  *r0 = 0;
  int rc = scp_sbpf_vm_translate(vm, a[0], a[2], true, &d, err);
  if (!rc) rc = scp_sbpf_vm_translate(vm, a[1], a[2], false, &s, err);
  if (!rc) memmove(d, s, a[2]);
  return rc ? rc : cost100(vm, err);
}
static int sys_sha(void *c, scp_sbpf_vm *vm, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *out;
  ((calls *)c)->sha++;
  *r0 = 0;
  int rc = scp_sbpf_vm_translate(vm, a[2], 32, true, &out, err);
  if (!rc) memset(out, 0xab, 32);
  return rc ? rc : cost100(vm, err);
}

static scp_sbpf_loader *loader(calls *c) {
  scp_sbpf_loader *l;
  assert_int_equal(scp_sbpf_loader_create(NULL, &l), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(l, "sol_log_", sys_log, c, NULL), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(l, "sol_log_64_", sys_log64, c, NULL), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(l, "sol_memcpy_", sys_memcpy, c, NULL), SCP_OK);
  assert_int_equal(scp_sbpf_loader_register(l, "sol_sha256", sys_sha, c, NULL), SCP_OK);
  return l;
}

/* ---- the input region: the aligned serialization (sol.h) ----------------- */
typedef struct acct { uint8_t key, owner; bool signer, writable; uint64_t lamports, len; const uint8_t *data; } acct;

static size_t serialize(uint8_t *b, const acct *a, size_t n, const uint8_t *ix, size_t ixlen) {
  size_t o = 0;
  memset(b, 0, 65536);
  memcpy(b, &n, 8);
  o = 8;
  for (size_t i = 0; i < n; i++) {
    b[o] = 0xff; b[o + 1] = a[i].signer; b[o + 2] = a[i].writable;
    memset(b + o + 8, a[i].key, 32);
    memset(b + o + 40, a[i].owner, 32);
    memcpy(b + o + 72, &a[i].lamports, 8);
    memcpy(b + o + 80, &a[i].len, 8);
    if (a[i].len) memcpy(b + o + 88, a[i].data, a[i].len);
    o += 88 + a[i].len + 10240;
    o = (o + 7) & ~(size_t)7;
    memset(b + o, 0xff, 8);
    o += 8;
  }
  memcpy(b + o, &ixlen, 8);
  memcpy(b + o + 8, ix, ixlen);
  memset(b + o + 8 + ixlen, 0x77, 32);      /* program id */
  return o + 8 + ixlen + 32;
}

typedef struct run_out { int rc; uint64_t r0, used; scp_sbpf_trap trap; char msg[512]; } run_out;

static run_out run(const scp_sbpf_prog *p, uint8_t *in, size_t inlen, uint64_t limit, scp_tree *t) {
  run_out o = { 0 };
  uint64_t meter = limit;
  scp_sbpf_region r = { SCP_SBPF_MM_INPUT, in, inlen, true };
  scp_sbpf_vm_config cfg = { .meter = &meter, .input = &r, .ninput = 1, .tree = t, .module = 1 };
  scp_sbpf_vm *vm;
  scp_error err = { 0 };
  assert_int_equal(scp_sbpf_vm_create(p, &cfg, &vm, &err), SCP_OK);
  scp_sbpf_vm_set_reg(vm, 1, SCP_SBPF_MM_INPUT);
  o.rc = scp_sbpf_vm_run(vm, &o.r0, &err);
  o.trap = scp_sbpf_vm_trap(vm);
  o.used = limit - meter;
  snprintf(o.msg, sizeof o.msg, "%s", o.rc ? err.msg : "");
  scp_sbpf_vm_destroy(vm);
  return o;
}

static scp_sbpf_prog *load(const scp_sbpf_loader *l, const char *name, uint8_t **bytes, size_t *len) {
  *bytes = slurp(name, len);
  scp_sbpf_prog *p;
  scp_error err = { 0 };
  if (scp_sbpf_load(l, *bytes, *len, name, &p, &err)) fail_msg("%s", err.msg);
  return p;
}

/* counter.c, from the disassembly (pcs of counter.o):
 *   entrypoint, no accounts: 0-4 (jeq taken) 5, 22-24 3, 25-27 3,
 *   n <= 200: 42-43 2, mix_squares, 44-50 7 (sol_log_64_), 51-52 2 = 22;
 *   mix_squares(n >= 1): 53-56 4, 8 per iteration (57-64), exit 1 = 5 + 8n;
 *   mix_squares(0): 53, 54, 65 = 3.
 *   n = 10: 22 + 85 = 107 instructions + 100 = 207 CU.
 *   n = 0: 22 + 3 = 25 + 100 = 125 CU.
 *   n = 201 (error path): 0-4 5, 22-24 3, 25-27 3, 28-31 3 (lddw is one;
 *   sol_log_), 32-33 2, 51-52 2 = 18 + 100 = 118 CU, r0 = 7.
 * litesvm 1.5.0 (solana-sbpf 0.23, agave 4.3), given the same linked
 * counter.so and counter_v3.so, charges the same 207, 125 and 118 (sol_log_
 * and sol_log_64_ cost 100 there too). */
static void test_counter(void **state) {
  (void)state;
  calls c = { 0 };
  scp_sbpf_loader *l = loader(&c);
  static uint8_t in[65536];
  const char *names[] = { "counter.so", "counter_v3.so" };
  for (int v = 0; v < 2; v++) {
    uint8_t *bytes;
    size_t len;
    scp_sbpf_prog *p = load(l, names[v], &bytes, &len);
    assert_int_equal(scp_sbpf_prog_version(p), v ? SCP_SBPF_V3 : SCP_SBPF_V0);
    assert_int_equal(scp_sbpf_prog_machine(p), SCP_SBPF_EM_BPF);
    assert_int_equal(scp_sbpf_prog_nfuncs(p), 2);
    assert_string_equal(scp_sbpf_prog_func(p, 0)->name, "entrypoint");
    assert_string_equal(scp_sbpf_prog_func(p, 1)->name, "mix_squares");
    assert_int_equal(scp_sbpf_prog_func(p, 1)->pc, 53);
    assert_int_equal(scp_sbpf_prog_nsyscalls(p), 2);
    uint8_t n = 10;
    size_t inlen = serialize(in, NULL, 0, &n, 1);
    run_out o = run(p, in, inlen, 200000, NULL);
    assert_int_equal(o.rc, SCP_OK);
    assert_int_equal(o.r0, 0);
    assert_int_equal(o.used, 207);
    assert_int_equal(c.last64[0], 10);
    /* the meter at N-1, N, N+1 */
    o = run(p, in, inlen, 206, NULL);
    assert_int_equal(o.trap, SCP_SBPF_TRAP_EXCEEDED_MAX_INSTRUCTIONS);
    assert_int_equal(o.used, 206);
    o = run(p, in, inlen, 207, NULL);
    assert_int_equal(o.rc, SCP_OK);
    assert_int_equal(o.used, 207);
    o = run(p, in, inlen, 208, NULL);
    assert_int_equal(o.rc, SCP_OK);
    assert_int_equal(o.used, 207);
    n = 0;
    inlen = serialize(in, NULL, 0, &n, 1);
    o = run(p, in, inlen, 200000, NULL);
    assert_int_equal(o.used, 125);
    n = 201;
    inlen = serialize(in, NULL, 0, &n, 1);
    int logs = c.log;
    o = run(p, in, inlen, 200000, NULL);
    assert_int_equal(o.rc, SCP_OK);
    assert_int_equal(o.r0, 7);
    assert_int_equal(o.used, 118);
    assert_int_equal(c.log, logs + 1);
    /* profiled: the same CU, every one on exactly one node */
    n = 10;
    inlen = serialize(in, NULL, 0, &n, 1);
    scp_tree t;
    assert_int_equal(scp_tree_init(&t, 1), SCP_OK);
    o = run(p, in, inlen, 200000, &t);
    assert_int_equal(o.used, 207);
    assert_int_equal(scp_tree_total(&t, 0), 107);   /* guest only: syscalls are the runtime's nodes */
    assert_int_equal(t.n, 3);
    assert_int_equal(t.nodes[2].callee, 53);
    assert_int_equal(t.nodes[2].self[0], 85);
    scp_tree_free(&t);
    scp_sbpf_prog_free(p);
    free(bytes);
  }
  scp_sbpf_loader_destroy(l);
}

/* token.c: the state update lands in the input region; errors are r0. */
static void test_token(void **state) {
  (void)state;
  calls c = { 0 };
  scp_sbpf_loader *l = loader(&c);
  static uint8_t in[65536];
  const char *names[] = { "token.so", "token_v3.so" };
  uint64_t used[2];
  for (int v = 0; v < 2; v++) {
    uint8_t *bytes;
    size_t len;
    scp_sbpf_prog *p = load(l, names[v], &bytes, &len);
    uint8_t mint[8] = { 5 }, dest[72] = { 0 };
    dest[32] = 1;
    acct a[3] = {
      { 1, 0x77, false, true, 1000, sizeof mint, mint },
      { 2, 0x77, false, true, 1000, sizeof dest, dest },
      { 3, 0, true, false, 1000, 0, NULL },
    };
    uint8_t ix[9] = { 0, 40 };
    size_t inlen = serialize(in, a, 3, ix, sizeof ix);
    int logs = c.log;
    run_out o = run(p, in, inlen, 200000, NULL);
    assert_int_equal(o.rc, SCP_OK);
    assert_int_equal(o.r0, 0);
    /* the tag's name through the pointer table in .rodata, then "mint_to" */
    assert_int_equal(c.log, logs + 2);
    used[v] = o.used;
    uint64_t supply, balance;
    memcpy(&supply, in + 8 + 88, 8);
    size_t d1 = 8 + ((88 + 8 + 10240 + 7) & ~(size_t)7) + 8 + 88;
    memcpy(&balance, in + d1 + 32, 8);
    assert_int_equal(supply, 45);
    assert_int_equal(balance, 41);
    assert_int_equal(in[d1 + 40], 0xab);
    assert_int_equal(c.last64[1], 45);
    /* error paths */
    a[2].signer = false;
    inlen = serialize(in, a, 3, ix, sizeof ix);
    assert_int_equal(run(p, in, inlen, 200000, NULL).r0, 4);
    a[2].signer = true;
    a[0].writable = false;
    inlen = serialize(in, a, 3, ix, sizeof ix);
    assert_int_equal(run(p, in, inlen, 200000, NULL).r0, 2);
    a[0].writable = true;
    a[1].owner = 0x66;
    inlen = serialize(in, a, 3, ix, sizeof ix);
    assert_int_equal(run(p, in, inlen, 200000, NULL).r0, 3);
    a[1].owner = 0x77;
    memset(ix + 1, 0xff, 8);
    inlen = serialize(in, a, 3, ix, sizeof ix);
    assert_int_equal(run(p, in, inlen, 200000, NULL).r0, 5);
    /* copy: sol_memcpy_ of 32 bytes needs 32-byte data accounts */
    uint8_t big[32] = { 9, 8, 7 };
    a[0].data = big; a[0].len = 32;
    ix[0] = 1;
    inlen = serialize(in, a, 3, ix, 1);
    run_out oc = run(p, in, inlen, 200000, NULL);
    assert_int_equal(oc.r0, 0);
    assert_int_equal(in[d1 + 24 + 2], 7);
    scp_sbpf_prog_free(p);
    free(bytes);
  }
  /* v0 and v3 run the same instructions (only the call encodings differ) */
  assert_int_equal(used[0], used[1]);
  scp_sbpf_loader_destroy(l);
}

/* The mapper reads the fixture's DWARF: the square() body in mix_squares's
 * loop is an inline chain square <- mix_squares, with file:line. */
static void test_dwarf(void **state) {
  (void)state;
  const char *names[] = { "counter.so", "counter_v3.so" };
  for (int v = 0; v < 2; v++) {
    size_t len;
    uint8_t *bytes = slurp(names[v], &len);
    calls c;
    scp_sbpf_loader *l = loader(&c);
    scp_sbpf_prog *p;
    assert_int_equal(scp_sbpf_load(l, bytes, len, names[v], &p, NULL), SCP_OK);
    scp_sym *s;
    scp_error err;
    assert_int_equal(scp_sym_open_elf(bytes, len, NULL, &s, &err), SCP_OK);
    assert_true(scp_sym_has_dwarf(s));
    const scp_frame_info *chain;
    /* pc 59: r0 *= r0, square(i) inlined into the loop */
    size_t n = scp_sym_chain(s, scp_sbpf_prog_text_addr(p) + 8 * 59, &chain);
    assert_int_equal(n, 2);
    assert_string_equal(chain[0].name, "square");
    assert_int_equal(chain[0].inlined, 1);
    assert_string_equal(chain[1].name, "mix_squares");
    assert_non_null(strstr(chain[0].file, "counter.c"));
    assert_int_equal(chain[0].line, 8);        /* static inline u64 square(...) { return x * x; } */
    assert_int_equal(chain[1].line, 12);       /* the loop in mix_squares */
    /* the entrypoint's first instruction */
    n = scp_sym_chain(s, scp_sbpf_prog_text_addr(p), &chain);
    assert_true(n >= 1);
    assert_string_equal(chain[n - 1].name, "entrypoint");
    scp_sym_destroy(s);
    scp_sbpf_prog_free(p);
    scp_sbpf_loader_destroy(l);
    free(bytes);
  }
}

/* traps.c: every fault with the runtime's message.  Each message below is
 * what litesvm 1.5.0 logs ("Program ... failed: MESSAGE") for the same
 * linked program and instruction; the successful runs' CU are its numbers
 * too (17; 18 for tag 1 on v3, which reads its rodata at address 0; 21 for
 * tag 5 on v3, whose stack has no gaps).  A failing run's CU are the VM's
 * own count (the runtime then depletes the meter, which is its business). */
static void test_traps(void **state) {
  (void)state;
  static const struct {
    uint8_t tag;
    bool v3;
    int rc;
    uint64_t cu;
    const char *msg;
  } t[] = {
    { 0, false, SCP_ERR_TRAP, 16, "divide by zero at BPF instruction" },
    { 0, true, SCP_ERR_TRAP, 16, "divide by zero at BPF instruction" },
    { 1, false, SCP_ERR_TRAP, 16, "Access violation reading 8 bytes at address 0x0 (in unallocated region)" },
    { 1, true, SCP_OK, 18, "" },
    { 2, false, SCP_ERR_TRAP, 332, "exceeded max BPF to BPF call depth" },
    { 2, true, SCP_ERR_TRAP, 332, "exceeded max BPF to BPF call depth" },
    { 3, false, SCP_ERR_TRAP, 16, "Access violation writing 1 bytes at address 0x1000003c8 (in program region)" },
    { 3, true, SCP_ERR_TRAP, 16, "Access violation writing 1 bytes at address 0x0 (in allocated region)" },
    { 4, false, SCP_ERR_TRAP, 5000, "exceeded CUs meter at BPF instruction" },
    { 4, true, SCP_ERR_TRAP, 5000, "exceeded CUs meter at BPF instruction" },
    { 5, false, SCP_ERR_TRAP, 19, "Access violation in stack frame 1 at address 0x200001ff0 of size 1" },
    { 5, true, SCP_OK, 21, "" },
    { 6, false, SCP_OK, 17, "" },
    { 6, true, SCP_OK, 17, "" },
  };
  calls c;
  scp_sbpf_loader *l = loader(&c);
  static uint8_t in[65536];
  uint8_t *b0, *b3;
  size_t n0, n3;
  scp_sbpf_prog *p0 = load(l, "traps.so", &b0, &n0), *p3 = load(l, "traps_v3.so", &b3, &n3);
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    size_t inlen = serialize(in, NULL, 0, &t[i].tag, 1);
    run_out o = run(t[i].v3 ? p3 : p0, in, inlen, 5000, NULL);
    if (o.rc != t[i].rc || o.used != t[i].cu || strcmp(o.msg, t[i].msg))
      fail_msg("tag %u v%d: rc %d cu %llu '%s'", t[i].tag, t[i].v3 ? 3 : 0, o.rc,
               (unsigned long long)o.used, o.msg);
  }
  scp_sbpf_prog_free(p0);
  scp_sbpf_prog_free(p3);
  free(b0);
  free(b3);
  scp_sbpf_loader_destroy(l);
}

/* ---- loader rejections ------------------------------------------------- */

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* File offset of section `name`'s header. */
static size_t shdr_of(const uint8_t *b, const char *name) {
  uint64_t shoff = rd64(b + 40);
  uint16_t shnum, shstrndx;
  memcpy(&shnum, b + 60, 2);
  memcpy(&shstrndx, b + 62, 2);
  uint64_t strs = rd64(b + shoff + 64ull * shstrndx + 24);
  for (unsigned i = 0; i < shnum; i++) {
    uint32_t nm;
    memcpy(&nm, b + shoff + 64ull * i, 4);
    if (!strcmp((const char *)b + strs + nm, name)) return shoff + 64ull * i;
  }
  fail_msg("no section %s", name);
  return 0;
}

static void expect_reject(const scp_sbpf_loader *l, const uint8_t *b, size_t len, int code,
                          const char *msg) {
  scp_sbpf_prog *p;
  scp_error err = { 0 };
  int rc = scp_sbpf_load(l, b, len, "bad.so", &p, &err);
  if (rc != code || strcmp(err.msg, msg)) fail_msg("rc %d '%s', want %d '%s'", rc, err.msg, code, msg);
  assert_null(p);
  assert_null(strchr(err.msg, '\n'));
}

static void test_rejections(void **state) {
  (void)state;
  calls c;
  scp_sbpf_loader *l = loader(&c);
  size_t len;
  uint8_t *orig = slurp("counter.so", &len), *b = malloc(len);
  const char *oob = "bad.so: ELF error: Offset or value is out of bounds (ValueOutOfBounds)";
  /* truncated before e_flags, and in the middle */
  expect_reject(l, orig, 40, SCP_ERR_MALFORMED, oob);
  expect_reject(l, orig, len / 2, SCP_ERR_MALFORMED, oob);
  /* both machines load; any other is refused */
  memcpy(b, orig, len);
  b[18] = (uint8_t)SCP_SBPF_EM_SBPF; b[19] = SCP_SBPF_EM_SBPF >> 8;
  scp_sbpf_prog *p;
  assert_int_equal(scp_sbpf_load(l, b, len, "sbpf.so", &p, NULL), SCP_OK);
  assert_int_equal(scp_sbpf_prog_machine(p), SCP_SBPF_EM_SBPF);
  scp_sbpf_prog_free(p);
  b[18] = 0x3e; b[19] = 0;
  expect_reject(l, b, len, SCP_ERR_MALFORMED,
                "bad.so: ELF error: Incompatible ELF: wrong machine (WrongMachine)");
  /* ET_EXEC */
  memcpy(b, orig, len);
  b[16] = 2;
  expect_reject(l, b, len, SCP_ERR_MALFORMED, "bad.so: ELF error: Incompatible ELF: wrong type (WrongType)");
  /* an unknown relocation type in .rel.dyn */
  memcpy(b, orig, len);
  size_t rel = rd64(b + shdr_of(b, ".rel.dyn") + 24);
  b[rel + 8] = 5;
  expect_reject(l, b, len, SCP_ERR_MALFORMED,
                "bad.so: ELF error: Relocation failed, unknown type 5 (UnknownRelocation)");
  /* .text running past the end of the file: the parser first finds it
   * overlapping the section header table */
  memcpy(b, orig, len);
  uint64_t huge = len;
  memcpy(b + shdr_of(b, ".text") + 32, &huge, 8);
  expect_reject(l, b, len, SCP_ERR_MALFORMED,
                "bad.so: ELF error: Failed to parse ELF file: values overlap (FailedToParse)");
  /* .text beyond the end of the file */
  memcpy(b, orig, len);
  huge = 1ull << 40;
  memcpy(b + shdr_of(b, ".text") + 24, &huge, 8);
  expect_reject(l, b, len, SCP_ERR_MALFORMED, oob);
  /* the entrypoint outside .text */
  memcpy(b, orig, len);
  memset(b + 24, 0, 8);
  expect_reject(l, b, len, SCP_ERR_MALFORMED, "bad.so: ELF error: Entrypoint out of bounds (EntrypointOutOfBounds)");
  /* a version the loader does not enable */
  memcpy(b, orig, len);
  b[48] = 9;
  expect_reject(l, b, len, SCP_ERR_UNSUPPORTED,
                "bad.so: ELF error: Detected sbpf_version required by the executable which are not "
                "enabled (UnsupportedSBPFVersion)");
  /* e_flags 1 is sBPF v1 on the same lenient path; v2 moved the loads */
  memcpy(b, orig, len);
  b[48] = 1;
  assert_int_equal(scp_sbpf_load(l, b, len, "v1.so", &p, NULL), SCP_OK);
  assert_int_equal(scp_sbpf_prog_version(p), SCP_SBPF_V1);
  scp_sbpf_prog_free(p);
  b[48] = 2;
  expect_reject(l, b, len, SCP_ERR_INVALID,
                "bad.so: Verifier error: unknown eBPF opcode 0x79 (insn #2) (UnknownOpCode)");
  /* the verifier's reasons come through the same way */
  memcpy(b, orig, len);
  b[rd64(b + shdr_of(b, ".text") + 24)] = 0x06;
  expect_reject(l, b, len, SCP_ERR_INVALID,
                "bad.so: Verifier error: unknown eBPF opcode 0x6 (insn #0) (UnknownOpCode)");
  free(orig);
  /* v3: strict headers want EM_BPF and contiguous program headers */
  orig = slurp("counter_v3.so", &len);
  b = realloc(b, len);
  memcpy(b, orig, len);
  b[18] = (uint8_t)SCP_SBPF_EM_SBPF; b[19] = SCP_SBPF_EM_SBPF >> 8;
  expect_reject(l, b, len, SCP_ERR_MALFORMED,
                "bad.so: ELF error: Failed to parse ELF file: invalid file header (FailedToParse)");
  memcpy(b, orig, len);
  b[64 + 8] += 8;    /* first program header's p_offset */
  expect_reject(l, b, len, SCP_ERR_MALFORMED, "bad.so: ELF error: Invalid ELF program header (InvalidProgramHeader)");
  /* every truncation is refused cleanly */
  for (size_t cut = 0; cut < len; cut += 7) {
    scp_error err;
    int rc = scp_sbpf_load(l, orig, cut, "cut.so", &p, &err);
    if (rc == SCP_OK) scp_sbpf_prog_free(p);
  }
  free(orig);
  free(b);
  scp_sbpf_loader_destroy(l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_counter),
    cmocka_unit_test(test_token),
    cmocka_unit_test(test_dwarf),
    cmocka_unit_test(test_traps),
    cmocka_unit_test(test_rejections),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
