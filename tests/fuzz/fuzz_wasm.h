/*
 * fuzz_wasm.h — one input through every parser and the interpreter:
 * decode + validate + compile, instantiate, call every exported function
 * (zero arguments, a small fuel tank, host imports that answer 0), then
 * symbolize every code address; and the contractspecv0 decoder, on the
 * module's section and on the bytes taken as a bare section.  Used by the libFuzzer target
 * (fuzz_wasm.c, `make fuzz`) and by the corpus replay in the tests.
 */
#ifndef SCP_FUZZ_WASM_H
#define SCP_FUZZ_WASM_H

#include <string.h>

#include "soroban/run/scp_spec.h"
#include "symbols/scp_sym.h"
#include "wasm/scp_wasm.h"
#include "wasm/wasm_private.h"

static int fuzz_host(void *ctx, scp_wasm_instance *inst, uint32_t imp, uint64_t *args,
                     scp_error *err) {
  (void)ctx; (void)inst; (void)imp; (void)err;
  args[0] = 0;
  return SCP_OK;
}

static int fuzz_grow(void *ctx, scp_wasm_instance *inst, uint64_t cur, uint64_t want) {
  (void)ctx; (void)inst; (void)cur;
  return want > 64u * 65536 ? SCP_ERR_LIMIT : SCP_OK;   /* keep memory small */
}

static inline void fuzz_wasm_one(const uint8_t *data, size_t size) {
  scp_error err;
  scp_wasm_module *m = NULL;
  if (scp_wasm_load(data, size, &m, &err) == SCP_OK) {
    uint64_t globals[64] = {0};
    scp_wasm_env env = {fuzz_host, fuzz_grow, NULL, globals};
    scp_wasm_instance *inst = NULL;
    if (m->nglobal_imports <= 64 && scp_wasm_instantiate(m, &env, &inst, &err) == SCP_OK) {
      scp_tree tree;
      if (scp_tree_init(&tree, 2) == SCP_OK) {
        scp_wasm_attach(inst, &tree, 0, 0, 4);
        for (uint32_t i = 0; i < m->nexports; i++) {
          if (m->exports[i].kind != SCP_EXT_FUNC) continue;
          uint64_t args[32] = {0}, res[1];
          const uint8_t *ps, *rs;
          uint32_t np, nr;
          scp_wasm_func_sig(m, m->exports[i].index, &ps, &np, &rs, &nr);
          if (np > 32) continue;
          scp_wasm_set_fuel(inst, 200000);
          scp_wasm_call(inst, m->exports[i].index, args, res, &err);
        }
        scp_wasm_settle(inst);
        scp_tree_free(&tree);
      }
      scp_wasm_instance_free(inst);
    }
    scp_wasm_module_free(m);
  }
  /* the mapper reads the container on its own: run it even on modules
   * the engine rejects */
  scp_sym *s = NULL;
  if (scp_sym_open_wasm(data, size, NULL, &s, &err) == SCP_OK) {
    const scp_frame_info *chain;
    for (uint64_t pc = 0; pc < size && pc < 4096; pc++) scp_sym_chain(s, pc, &chain);
    scp_frame_info fi;
    for (uint32_t f = 0; f < 64; f++) scp_sym_function(s, f, &fi);
    scp_sym_destroy(s);
  }
  scp_spec *spec = NULL;
  if (scp_spec_from_wasm(data, size, "fuzz", &spec, &err) == SCP_OK) scp_spec_free(spec);
  if (scp_spec_parse(data, size, 0, "fuzz", &spec, &err) == SCP_OK) {
    scp_buf b = {0};
    for (size_t k = 0; k < spec->nfns; k++) scp_spec_fn_format(&spec->fns[k], &b);
    scp_buf_free(&b);
    scp_spec_free(spec);
  }
}

#endif
