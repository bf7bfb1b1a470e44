/*
 * fuel_harness.c — the harness of the WASM fuel tests (fuel_harness.h),
 * compiled once and linked into test_fuel and test_fused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wasm/fuel_harness.h"
#include "build_dir.h"
#include "run_tool.h"

bool use_switch;

/* ---- harness ----------------------------------------------------------- */


static uint8_t *read_all(const char *path, size_t *len) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* wat -> $SCP_BUILD/fuel/NAME.wasm -> scp_wasm_module. */
static scp_wasm_module *compile_wat(const char *name, const char *wat) {
  char dir[1024], watp[1200], wasmp[1200];
  snprintf(dir, sizeof dir, "%.1000s/fuel", build_dir());
  mkdir(build_dir(), 0777);
  mkdir(dir, 0777);
  snprintf(watp, sizeof watp, "%s/%.100s.wat", dir, name);
  snprintf(wasmp, sizeof wasmp, "%s/%.100s.wasm", dir, name);
  FILE *f = fopen(watp, "w");
  assert_non_null(f);
  fputs(wat, f);
  fclose(f);
  char *argv[] = {"wat2wasm", watp, "-o", wasmp, NULL};
  if (run_tool(argv, false) != 0) {
    print_message("wat2wasm failed on %s\n", watp);
    fail();
  }
  size_t len;
  uint8_t *bytes = read_all(wasmp, &len);
  assert_non_null(bytes);
  scp_wasm_module *m = NULL;
  scp_error err = {0};
  int rc = scp_wasm_load(bytes, len, &m, &err);
  free(bytes);
  if (rc != SCP_OK) {
    print_message("%s: scp_wasm_load: %s (status %d)\n", wasmp, err.msg, rc);
    fail();
  }
  return m;
}

/* Import "env" "h": (i32) -> i32, returns its argument plus one. */
static int host_call(void *ctx, scp_wasm_instance *inst, uint32_t import_index,
                     uint64_t *args, scp_error *err) {
  fuel_mod *fm = ctx;
  fm->host_calls++;
  fm->last_import = import_index;
  args[0] = (uint32_t)(args[0] + 1);
  return SCP_OK;
}

/* Soroban's ResourceLimiter::memory_growing: SCP_ERR_LIMIT = "no" (-1). */
static int grow_hook(void *ctx, scp_wasm_instance *inst, uint64_t cur_bytes,
                     uint64_t desired_bytes) {
  fuel_mod *fm = ctx;
  fm->grow_calls++;
  fm->grow_cur = cur_bytes;
  fm->grow_desired = desired_bytes;
  return fm->grow_status ? fm->grow_status : fm->refuse_grow ? SCP_ERR_LIMIT : SCP_OK;
}

void fm_open(fuel_mod *fm, const char *name, const char *wat) {
  memset(fm, 0, sizeof *fm);
  fm->m = compile_wat(name, wat);
  static const uint64_t global_imports[4] = {1000, 2000, 3000, 4000};
  scp_wasm_env env = {host_call, grow_hook, fm, global_imports};
  scp_error err = {0};
  int rc = scp_wasm_instantiate(fm->m, &env, &fm->inst, &err);
  if (rc != SCP_OK) {
    print_message("%s: scp_wasm_instantiate: %s (status %d)\n", name, err.msg, rc);
    fail();
  }
  scp_wasm_set_switch_dispatch(fm->inst, use_switch);
}

void fm_close(fuel_mod *fm) {
  scp_wasm_instance_free(fm->inst);
  scp_wasm_module_free(fm->m);
}

void fm_open_tree(fuel_mod *fm, scp_tree *t, unsigned nmetrics, const char *name,
                  const char *wat) {
  fm_open(fm, name, wat);
  assert_int_equal(scp_tree_init(t, nmetrics), SCP_OK);
  scp_wasm_attach(fm->inst, t, 0, 1, 4);
}

void fm_close_tree(fuel_mod *fm, scp_tree *t) {
  scp_wasm_attach(fm->inst, NULL, 0, 0, 0);
  fm_close(fm);
  scp_tree_free(t);
}

static uint32_t fm_func(fuel_mod *fm, const char *name) {
  uint8_t kind;
  uint32_t index;
  assert_true(scp_wasm_export_find(fm->m, name, strlen(name), &kind, &index));
  assert_int_equal(kind, SCP_EXT_FUNC);
  return index;
}

/* Call export `fn` with tank `fuel`; returns the status and the fuel this
 * call consumed, and checks that the tank went down by exactly that. */
int fm_call(fuel_mod *fm, const char *fn, const uint64_t *args,
                   uint64_t *result, uint64_t fuel, uint64_t *consumed) {
  uint32_t f = fm_func(fm, fn);
  uint64_t res[4] = {0};
  scp_error err = {0};
  scp_wasm_set_fuel(fm->inst, fuel);
  uint64_t before = scp_wasm_fuel_consumed(fm->inst);
  int rc = scp_wasm_call(fm->inst, f, args, res, &err);
  *consumed = scp_wasm_fuel_consumed(fm->inst) - before;
  assert_int_equal(scp_wasm_fuel(fm->inst), fuel - *consumed);
  if (result) *result = res[0];
  return rc;
}

/* Fuel of one successful call with big fuel. */
uint64_t fuel_of(fuel_mod *fm, const char *fn, const uint64_t *args,
                        uint64_t *result) {
  uint64_t consumed;
  int rc = fm_call(fm, fn, args, result, BIG_FUEL, &consumed);
  if (rc != SCP_OK)
    print_message("%s(%llu): status %d, trap \"%s\" after %llu fuel\n", fn,
                  args ? (unsigned long long)args[0] : 0ULL, rc,
                  scp_trap_text(scp_wasm_last_trap(fm->inst)), (unsigned long long)consumed);
  assert_int_equal(rc, SCP_OK);
  return consumed;
}

/* ---- profiling: exact per-pc costs --------------------------------------- */

static uint64_t leb(const uint8_t **p) {
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    uint8_t b = *(*p)++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

size_t body_ops(const uint8_t *wasm, size_t len, uint32_t func, op_pc *out,
                       size_t cap) {
  const uint8_t *p = wasm + 8, *end = wasm + len;
  while (p < end) {
    uint8_t id = *p++;
    uint64_t size = leb(&p);
    if (id != 10) { p += size; continue; }
    const uint8_t *payload = p;
    uint64_t nbodies = leb(&p);
    for (uint64_t k = 0; k < nbodies; k++) {
      uint64_t bsize = leb(&p);
      const uint8_t *bend = p + bsize;
      if (k != func) { p = bend; continue; }
      uint64_t groups = leb(&p);
      for (uint64_t g = 0; g < groups; g++) { leb(&p); p++; }
      size_t n = 0;
      while (p < bend && n < cap) {
        out[n].pc = (uint64_t)(p - payload);
        uint8_t op = *p++;
        out[n++].op = op;
        switch (op) {
        case 0x02: case 0x03: case 0x04: p++; break;           /* blocktype */
        case 0x0c: case 0x0d: case 0x10: case 0x20: case 0x21: case 0x22:
        case 0x23: case 0x24: case 0x41: leb(&p); break;
        case 0xfc: leb(&p); leb(&p); break;                    /* memory.fill 0 */
        case 0x28: case 0x29: case 0x2c: case 0x2d: case 0x2e: case 0x2f: case 0x30:
        case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x36: case 0x37:
        case 0x3a: case 0x3b: case 0x3c: case 0x3d: case 0x3e:
          leb(&p); leb(&p); break;                                  /* memarg */
        case 0x42: leb(&p); break;                                  /* i64.const */
        default: break;                                        /* no immediates */
        }
      }
      return n;
    }
  }
  return 0;
}

/* The binary compile_wat made of module `name`, to read its operators. */
uint8_t *wat_binary(const char *name, size_t *len) {
  char path[1200];
  snprintf(path, sizeof path, "%.1000s/fuel/%.100s.wasm", build_dir(), name);
  uint8_t *bin = read_all(path, len);
  assert_non_null(bin);
  return bin;
}

uint32_t find_guest(scp_tree *t, uint32_t callee) {
  for (size_t i = 0; i < t->n; i++)
    if (t->nodes[i].kind == SCP_KIND_GUEST && t->nodes[i].callee == callee)
      return (uint32_t)i;
  return SCP_NODE_NONE;
}

uint64_t pc_cost(scp_tree *t, uint32_t node, uint64_t pc) {
  uint64_t c = 0;
  scp_tree_node *nd = scp_tree_at(t, node);
  for (uint32_t i = 0; i < nd->npcs; i++)
    if (nd->pcs[i].pc == pc) c += nd->pcs[i].cost0;
  return c;
}

uint64_t pc_runs(scp_tree *t, uint32_t node, uint64_t pc) {
  uint64_t c = 0;
  scp_tree_node *nd = scp_tree_at(t, node);
  for (uint32_t i = 0; i < nd->npcs; i++)
    if (nd->pcs[i].pc == pc) c += nd->pcs[i].runs;
  return c;
}

static int setup_goto(void **state) { use_switch = false; return 0; }
static int setup_switch(void **state) { use_switch = true; return 0; }

int fuel_run_both_builds(const char *group, const fuel_case *cases, size_t n) {
  enum { NAME_MAX_LEN = 80 };
  char (*names)[NAME_MAX_LEN] = calloc(2 * n, sizeof *names);
  struct CMUnitTest *tests = calloc(2 * n, sizeof *tests);
  if (!names || !tests) {
    free(names);
    free(tests);
    return 1;
  }
  for (size_t i = 0; i < 2 * n; i++) {
    bool sw = i >= n;
    snprintf(names[i], sizeof names[i], "%s%s", cases[i % n].name, sw ? "/switch" : "");
    tests[i] = (struct CMUnitTest){.name = names[i], .test_func = cases[i % n].fn,
                                   .setup_func = sw ? setup_switch : setup_goto};
  }
  int rc = _cmocka_run_group_tests(group, tests, 2 * n, NULL, NULL);
  free(tests);
  free(names);
  return rc;
}
