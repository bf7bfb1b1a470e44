/*
 * bench_engine.c — guest-heavy workloads in our engine, unprofiled and
 * profiled, against wabt's wasm-interp measured in the same run.
 *
 *   bench_engine FILE.wasm...     (each exports run: [] -> [i64])
 *
 * Prints, per workload: operators executed, time and Mops/s unprofiled and
 * profiled (best of 3), profiling overhead, wasm-interp time and the ratio
 * of wasm-interp's time to our profiled time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wasm/scp_wasm.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One timed call of run(); with a tree when profiled.  Returns seconds. */
static double run_once(const scp_wasm_module *m, uint32_t f, bool profiled, uint64_t *ops,
                       uint64_t *result) {
  scp_error err;
  scp_wasm_instance *inst;
  if (scp_wasm_instantiate(m, NULL, &inst, &err)) { fprintf(stderr, "%s\n", err.msg); exit(1); }
  scp_tree tree;
  scp_tree_init(&tree, 2);
  if (profiled) scp_wasm_attach(inst, &tree, 0, 0, 4);
  scp_wasm_set_fuel(inst, UINT64_MAX / 2);
  double t0 = now();
  int rc = scp_wasm_call(inst, f, NULL, result, &err);
  if (profiled) scp_wasm_settle(inst);
  double t = now() - t0;
  if (rc) { fprintf(stderr, "%s\n", err.msg); exit(1); }
  if (profiled) *ops = scp_wasm_ops_settled(inst);
  scp_tree_free(&tree);
  scp_wasm_instance_free(inst);
  return t;
}

static double best_of(const scp_wasm_module *m, uint32_t f, bool profiled, uint64_t *ops,
                      uint64_t *result) {
  double best = 1e30;
  for (int i = 0; i < 3; i++) {
    double t = run_once(m, f, profiled, ops, result);
    if (t < best) best = t;
  }
  return best;
}

static double wasm_interp(const char *path) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "wasm-interp '%s' --run-all-exports >/dev/null 2>&1", path);
  double t0 = now();
  if (system(cmd) != 0) return -1;
  return now() - t0;
}

int main(int argc, char **argv) {
  printf("%-10s %12s %9s %9s %9s %9s %9s %11s %9s\n", "workload", "ops", "plain s", "prof s",
         "Mops/s", "overhead", "interp s", "interp/prof", "result");
  for (int i = 1; i < argc; i++) {
    uint8_t *bytes;
    size_t len;
    scp_error err;
    scp_wasm_module *m;
    if (scp_read_file(argv[i], &bytes, &len, &err) || scp_wasm_load(bytes, len, &m, &err)) {
      fprintf(stderr, "%s: %s\n", argv[i], err.msg);
      return 1;
    }
    uint8_t kind;
    uint32_t f;
    if (!scp_wasm_export_find(m, "run", 3, &kind, &f)) { fprintf(stderr, "%s: no run\n", argv[i]); return 1; }
    uint64_t ops = 0, r1 = 0, r2 = 0;
    double plain = best_of(m, f, false, &ops, &r1);
    double prof = best_of(m, f, true, &ops, &r2);
    double interp = wasm_interp(argv[i]);
    const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    printf("%-10.*s %12llu %9.3f %9.3f %9.0f %8.1f%% %9.2f %10.1fx %9s\n",
           (int)(strlen(name) - 5), name, (unsigned long long)ops, plain, prof,
           (double)ops / prof / 1e6, (prof / plain - 1) * 100, interp,
           interp > 0 ? interp / prof : 0, r1 == r2 ? "same" : "DIFFERS");
    scp_wasm_module_free(m);
    free(bytes);
  }
  return 0;
}
