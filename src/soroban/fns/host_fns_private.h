/*
 * host_fns_private.h — what the host function files share: host_fns.c,
 * host_fns_vec.c, host_fns_map.c, host_fns_buf.c, host_fns_crypto.c and
 * host_contract.c.  Not part of any public interface; every function here
 * has hidden visibility or is static inline.
 */
#ifndef SCP_HOST_FNS_PRIVATE_H
#define SCP_HOST_FNS_PRIVATE_H

#include <stdlib.h>

#include "soroban/core/host_private.h"

/* The body of host function `name` of env.json is scp_hf_<name>: host.c
 * has already checked and converted the arguments a[] (object handles are
 * absolute, so bodies call scp_host_visit on handles of the checked type)
 * and checks *ret after the body returns.  Declared here for every function
 * of host_fns.def; those not implemented yet (listed in host_fns.c) have no
 * definition, so registering one in run/host_links.c is a link error. */
#define A(t)
#define X(id, mod, field, name, argc, lo, hi, rtype, args) \
  SCP_HIDDEN int scp_hf_##name(scp_host *h, const uint64_t *a, uint64_t *ret);
#include "soroban/core/host_fns.def"
#undef X
#undef A

/* Opens the definition of host function `name` (grep for "HOSTFN(name)"). */
#define HOSTFN(name) int scp_hf_##name(scp_host *h, const uint64_t *a, uint64_t *ret)

/* A U32Val argument's value. */
static inline uint32_t scp_hf_u32_arg(uint64_t v) { return scp_val_major(v); }

/* The object of an absolute handle already visited (no visit, no charge). */
static inline const scp_hobj *scp_hf_objp(scp_host *h, uint64_t v) {
  return &h->objs[scp_val_handle(v) >> 1];
}

static inline uint64_t *scp_hf_vals_alloc(size_t n) {
  return malloc((n ? n : 1) * sizeof(uint64_t));
}

/* MeteredVector::from_exact_iter -> Vec<Val>::charge_deep_clone
 * (metered_vector.rs, metered_clone.rs): MemCpy(24) for the Vec itself,
 * then MemAlloc(8n) and MemCpy(8n) for its elements (8 = the declared
 * size of a Val, host/declared_size.rs). */
static inline int scp_hf_charge_vec_new(scp_host *h, uint64_t n) {
  return scp_host_charge_bulk_init(h, n, 8);
}

/* Bits needed for n (64 - leading zeros), as charge_binsearch. */
static inline uint64_t scp_hf_magnitude(uint64_t n) {
  return n ? 64 - (uint64_t)__builtin_clzll(n) : 0;
}

/* A new Vec object taking over vals (no charge here). */
/* Error(Crypto, InvalidInput) with the reference's text: what the curve,
 * pairing, Poseidon and signature functions raise on a malformed input. */
static inline int scp_hf_err_crypto(scp_host *h, const char *what) {
  return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT, "%s", what);
}

/* Linear-memory functions need a VM frame (host/mem_helper.rs). */
static inline int scp_hf_err_not_vm(scp_host *h) {
  return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INTERNAL_ERROR,
                      "attempt to access guest bytes in non-VM frame");
}

/* len Vals (8 bytes each) at pos of linear memory
 * (metered_vm_{read,write}_vals_*_linear_memory): the address arithmetic
 * first (Value/ArithDomain), then get_memory (WasmVm/MissingValue), then
 * the bounds (WasmVm/IndexBounds). */
static inline int scp_hf_lm_vals_range(scp_host *h, uint32_t pos, uint32_t len) {
  if (len > UINT32_MAX / 8 || (uint64_t)pos + 8ull * len > UINT32_MAX)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  int rc = scp_host_mem_get(h);
  if (rc == SCP_OK && (uint64_t)pos + 8ull * len > h->mem->len) rc = scp_host_mem_oob(h);
  return rc;
}

static inline int scp_hf_add_vec_obj(scp_host *h, uint64_t *vals, uint32_t len,
                                     uint64_t *out) {
  scp_hobj o = { .tag = SCP_TAG_VEC_OBJ, .len = len };
  o.u.vals = vals;
  return scp_host_add_obj(h, &o, out);
}

/* ---- host_fns_crypto.c: scalar fields (BLS12-381 Fr, or BN254 Fr when
 * bn254); elements are 4 words, most significant first.  from_val charges
 * *FrFromU256 (and visits an object), reducing mod r; to_val charges
 * *FrToU256 and makes the U256Val. */
SCP_HIDDEN int scp_hf_fr_from_val(scp_host *h, bool bn254, uint64_t v, uint64_t *x);
SCP_HIDDEN int scp_hf_fr_to_val(scp_host *h, bool bn254, const uint64_t *x, uint64_t *ret);
SCP_HIDDEN const uint64_t *scp_hf_fr_modulus(bool bn254);

/* compare_symbol_to_bytes (mem_helper.rs, host_fns_map.c): a Symbol
 * (Error(Value, UnexpectedType) otherwise) against bytes, MemCmp(min). */
SCP_HIDDEN int scp_hf_symbol_vs_bytes(scp_host *h, uint64_t sym, const uint8_t *p, uint32_t n,
                                      int *ord);

/* ---- host_fns.c ------------------------------------------------------- */

/* A new object holding a copy of p[0..len) (no charge here). */
SCP_HIDDEN int scp_hf_add_bytes_obj(scp_host *h, unsigned tag, const uint8_t *p,
                                    uint32_t len, uint64_t *out);
/* Error(Object, IndexBounds): validate_index_lt_bound / VEC_OOB. */
SCP_HIDDEN int scp_hf_err_index(scp_host *h, uint32_t i);
/* U64Val::try_from_val: small when it fits, else the checked
 * Env::obj_from_u64 (a new object, then its result check). */
SCP_HIDDEN int scp_hf_u64_val(scp_host *h, uint64_t x, uint64_t *ret);
/* visit_obj, then metered_clone of the 8-byte number: MemCpy(8). */
SCP_HIDDEN int scp_hf_obj_to_word(scp_host *h, uint64_t v, uint64_t *ret);

/* ---- host_fns_vec.c --------------------------------------------------- */

/* valid_range_from_start_end_bound (validity.rs): each end <= len
 * (Object/IndexBounds), then start <= end (Object/InvalidInput). */
SCP_HIDDEN int scp_hf_valid_range(scp_host *h, uint32_t start, uint32_t end, uint32_t len);
/* binary_search_by_pre_rust_182 (metered_vector.rs) over the entries of
 * vec or map object obj, `stride` words each (1 for vecs, 2 for maps),
 * comparing each probe to key (charged comparisons, no other charge).
 * *found / *pos as Result<usize, usize>. */
SCP_HIDDEN int scp_hf_binary_search(scp_host *h, uint64_t obj, uint32_t stride, uint64_t key,
                                    bool *found, uint32_t *pos);

/* ---- host_contract.c ---- */

/* The contract id of an address preimage, charged as get_contract_id_hash
 * and create_contract_with_optional_auth do: the ContractIdPreimage clone,
 * get_full_contract_id_preimage (get_ledger_network_id through Env, its
 * hash read), metered_hash_xdr (one ValSer per XDR write, SHA-256).  addr
 * is the host's address encoding; other than account / contract deployers
 * -> SCP_ERR_UNSUPPORTED. */
SCP_HIDDEN int scp_host_address_contract_id(scp_host *h, const uint8_t addr[33],
                                          const uint8_t salt[32], uint8_t id[32]);

/* call_n_internal with CallParams::default_internal_call (a reserved name
 * allowed, re-entry prohibited): delegate_account_auth's __check_auth. */
SCP_HIDDEN int scp_host_call_internal_prohibited(scp_host *h, const uint8_t id[32], const char *fn,
                                                 const uint64_t *args, uint32_t n, uint64_t *ret);
/* call_n_internal with internal_host_call (host_contract.c): no
 * reserved-name check, re-entry only into the calling contract itself
 * (ContractReentryMode::SelfAllowed; that case is not implemented). */
SCP_HIDDEN int scp_host_call_internal(scp_host *h, const uint8_t id[32], const char *fn,
                                      const uint64_t *args, uint32_t n, uint64_t *ret);

/* A TTL extension's arguments: Storage::extend_ttl's (threshold,
 * extend_to) or, v2, extend_ttl_v2's (extend_to, min_extension,
 * max_extension). */
typedef struct scp_host_ttl {
  bool v2;
  uint32_t p[3];
} scp_host_ttl;
/* Storage::extend_ttl or extend_ttl_v2 of k with x's arguments. */
SCP_HIDDEN int scp_host_extend_ttl(scp_host *h, const scp_lkey *k, const scp_host_ttl *x);
/* The code TTL of the contract whose instance key is ik, extended by x
 * (extend_contract_code_ttl_from_contract_id, extend_contract_code_ttl_v2). */
SCP_HIDDEN int scp_host_extend_code(scp_host *h, const scp_lkey *ik, const scp_host_ttl *x);
/* contract_id_from_address (the visit, the ScAddress clone, a contract
 * address only), then contract_instance_ledger_key into ik (kb its key
 * bytes). */
SCP_HIDDEN int scp_host_instance_key_of(scp_host *h, uint64_t addr, scp_lkey *ik, uint8_t kb[4]);

#endif
