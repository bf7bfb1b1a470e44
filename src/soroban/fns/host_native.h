/*
 * host_native.h — the Env interface as native contract code sees it
 * (host_native.c): host functions called as Env methods and the EnvBase
 * slice helpers.  The Stellar Asset Contract and auth's account checks
 * make their host calls through it.  Hidden internals.
 */
#ifndef SCP_HOST_NATIVE_H
#define SCP_HOST_NATIVE_H

#include "soroban/core/host_private.h"

/* Debugging aid: built with -DSCP_SAC_TRACE, every Env call of the SAC
 * prints the budget after it, in the golden traces' terms. */
#ifdef SCP_SAC_TRACE
#include <stdio.h>
#define SAC_TRACE(h, what) \
  fprintf(stderr, "sac %-28s cpu:%llu mem:%llu objs:%zu\n", (what), \
          (unsigned long long)(h)->budget->cpu, (unsigned long long)(h)->budget->mem, (h)->nobjs)
#else
#define SAC_TRACE(h, what) ((void)0)
#endif

/* ---- host_native.c ------------------------------------------------------- */

/* A host function called as an Env method (Host's Env impl): the
 * arguments' checks, the body, the result's check; no DispatchHostFunction
 * charge.  SCP_ERR_UNSUPPORTED when we do not implement it. */
SCP_HIDDEN int scp_native_env(scp_host *h, const char *fn, const uint64_t *args, uint64_t *ret);
SCP_HIDDEN int scp_native_env0(scp_host *h, const char *fn, uint64_t *ret);
SCP_HIDDEN int scp_native_env1(scp_host *h, const char *fn, uint64_t a, uint64_t *ret);
SCP_HIDDEN int scp_native_env2(scp_host *h, const char *fn, uint64_t a, uint64_t b, uint64_t *ret);
SCP_HIDDEN int scp_native_env3(scp_host *h, const char *fn, uint64_t a, uint64_t b, uint64_t c,
                            uint64_t *ret);

/* EnvBase::symbol_index_in_strs (host.rs): every str compared to the
 * symbol (compare_symbol_to_bytes), the first match's index; none is
 * Error(Value, InvalidInput). */
SCP_HIDDEN int scp_native_symbol_index(scp_host *h, uint64_t sym, const char *const *strs,
                                    uint32_t n, uint32_t *idx);
/* EnvBase::map_new_from_slices (data_helper.rs map_new_from_slices_impl,
 * dense): the Vec<(Val, Val)>, each key through Symbol::try_from_val, each
 * value checked, HostMap::from_map_with_host, the object. */
SCP_HIDDEN int scp_native_map_new(scp_host *h, const char *const *keys, const uint64_t *vals,
                               uint32_t n, uint64_t *out);
/* EnvBase::map_unpack_to_slice (data_helper.rs map_unpack_impl, dense). */
SCP_HIDDEN int scp_native_map_unpack(scp_host *h, uint64_t map, const char *const *keys,
                                  uint32_t n, uint64_t *vals);
/* map_unpack_impl's order check before key i > 0, dense or sparse: a
 * Budget compare of keys[i - 1] and keys[i] as strs (MemCmp of the shorter
 * length), Error(Object, InvalidInput) unless keys[i - 1] < keys[i]. */
SCP_HIDDEN int scp_native_keys_ascending(scp_host *h, const char *const *keys, uint32_t i);
/* Symbol::try_from_val(&str): a small symbol, else symbol_new_from_slice. */
SCP_HIDDEN int scp_native_symbol(scp_host *h, const char *s, uint64_t *out);
/* (A,).try_into_val / (A, B).try_into_val: vec_new_from_slice. */
SCP_HIDDEN int scp_native_vec(scp_host *h, const uint64_t *vals, uint32_t n, uint64_t *out);
/* An object the host adds itself (add_host_object, MemAlloc of one
 * HostObject): bytes copied, no further charge. */
SCP_HIDDEN int scp_native_new_obj(scp_host *h, unsigned tag, const uint8_t *p, uint32_t len,
                               uint64_t *out);
/* String / BytesN::to_array: string_len or nothing, then *_copy_to_slice. */
SCP_HIDDEN int scp_native_string_to_array(scp_host *h, uint64_t s, uint8_t *out, uint32_t n);
SCP_HIDDEN int scp_native_bytes_to_array(scp_host *h, uint64_t b, uint8_t *out, uint32_t n);
/* BytesN::<n>::try_from_val: bytes_len, which must be n
 * (Error(Value, UnexpectedSize) otherwise). */
SCP_HIDDEN int scp_native_bytesn(scp_host *h, uint64_t b, uint32_t n);

#endif
