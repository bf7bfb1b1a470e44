/*
 * wasm_fuse.h — folding an operator into the internal instruction k
 * emitted before it; each returns false, leaving k as it was, when k has
 * no such fused form.
 */
#ifndef SCP_WASM_FUSE_H
#define SCP_WASM_FUSE_H

#include "wasm/wasm_private.h"

bool wasm_fuse_set(scp_ins *k, uint32_t idx);       /* then local.set idx */
bool wasm_fuse_tee(scp_ins *k, uint32_t idx);       /* then local.tee idx */
bool wasm_fuse_br_if(scp_ins *k, uint32_t target);  /* then br_if to target */

#endif
