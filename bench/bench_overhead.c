/*
 * bench_overhead.c — one call of run() in a workload, unprofiled or
 * profiled, for counting instructions under callgrind: timing on a shared
 * machine wanders, instruction counts do not (bench/run.sh).
 *
 *   bench_overhead FILE.wasm plain|profiled
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wasm/scp_wasm.h"

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: bench_overhead FILE.wasm plain|profiled\n"); return 2; }
  bool profiled = !strcmp(argv[2], "profiled");
  uint8_t *bytes;
  size_t len;
  scp_error err;
  scp_wasm_module *m;
  scp_wasm_instance *inst;
  if (scp_read_file(argv[1], &bytes, &len, &err) || scp_wasm_load(bytes, len, &m, &err) ||
      scp_wasm_instantiate(m, NULL, &inst, &err)) {
    fprintf(stderr, "%s: %s\n", argv[1], err.msg);
    return 1;
  }
  scp_tree tree;
  scp_tree_init(&tree, 2);
  if (profiled) scp_wasm_attach(inst, &tree, 0, 0, 4);
  scp_wasm_set_fuel(inst, UINT64_MAX / 2);
  uint8_t kind;
  uint32_t f;
  uint64_t r = 0;
  if (!scp_wasm_export_find(m, "run", 3, &kind, &f) || scp_wasm_call(inst, f, NULL, &r, &err)) {
    fprintf(stderr, "%s: run failed\n", argv[1]);
    return 1;
  }
  if (profiled) scp_wasm_settle(inst);
  printf("%llu\n", (unsigned long long)r);
  scp_tree_free(&tree);
  scp_wasm_instance_free(inst);
  scp_wasm_module_free(m);
  free(bytes);
  return 0;
}
