/*
 * host_fns_lifecycle.c — the lifecycle host functions that read or change
 * a contract's executable: get_contract_id, update_current_contract_wasm,
 * update_current_contract_executable_ref, extend_contract_instance_and_code
 * _ttl_v2, get_address_executable.
 *
 * rs-soroban-env v28: host.rs (the host functions), host/lifecycle.rs
 * (update_current_contract_executable, get_contract_id_hash),
 * host/data_helper.rs (extend_contract_*_ttl_v2), events/system_events.rs
 * (the "executable_update" event), builtin_contracts/common_types.rs (how
 * an executable becomes a Val).
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/core/host_lifecycle.h"

/* Declared sizes (host/declared_size.rs). */
enum {
  SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288, SIZE_CONTRACT_ID = 32,
  SIZE_SCADDRESS = 48
};

/* ---- get_contract_id ---------------------------------------------------------- */

/* get_contract_id_hash (lifecycle.rs): the deployer's ScAddress and the
 * salt, then the id as create_contract derives it; the Address object
 * last. */
HOSTFN(get_contract_id) {
  const scp_hobj *dep;
  uint8_t salt[32], addr[33], id[32], enc[33];
  int rc = scp_host_visit(h, a[0], &dep);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  memcpy(addr, dep->u.bytes, 33);
  rc = scp_lc_hash_input(h, a[1], salt);
  if (rc == SCP_OK) rc = scp_host_address_contract_id(h, addr, salt, id);
  if (rc != SCP_OK) return rc;
  enc[0] = 1;
  memcpy(enc + 1, id, 32);
  return scp_hf_add_bytes_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, ret);
}

/* ---- executables as contract values (common_types.rs) ----------------------- */

/* ContractExecutable::from_xdr then try_into_val: Wasm is the Vec
 * [Symbol("Wasm"), BytesN<32>], StellarAsset is [Symbol("StellarAsset")]
 * (a Symbol object: 12 characters), ExternalRef is [Symbol("ExternalRef"),
 * Map {owner: Address, tag: String}].  AddressExecutable (get_address
 * _executable) is the same for these two, plus [Symbol("Account")]. */
static int executable_val(scp_host *h, const scp_executable *e, uint64_t *out) {
  uint64_t v[2];
  int rc;
  switch (e->kind) {
  case SCP_EXEC_WASM:
    rc = scp_host_symbol_val(h, "Wasm", &v[0]);
    if (rc == SCP_OK) rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, e->hash, 32, &v[1]);
    return rc == SCP_OK ? scp_host_vec_new_from_slice(h, v, 2, out) : rc;
  case SCP_EXEC_STELLAR_ASSET:
    rc = scp_host_symbol_val(h, "StellarAsset", &v[0]);
    return rc == SCP_OK ? scp_host_vec_new_from_slice(h, v, 1, out) : rc;
  default: {
    /* ContractExecutableRef::from_xdr: the owner's Address object (no
     * clone charge), the tag's ScString clone and String object; then the
     * struct as a Map {owner, tag} in the Vec [Symbol("ExternalRef"), map] */
    uint64_t kv[2], keys[2];
    rc = scp_hf_add_bytes_obj(h, SCP_TAG_ADDRESS_OBJ, e->owner, 33, &kv[0]);
    if (rc == SCP_OK) rc = scp_lc_charge_string_clone(h, e->taglen);
    if (rc == SCP_OK) rc = scp_hf_add_bytes_obj(h, SCP_TAG_STRING_OBJ, e->tag, e->taglen, &kv[1]);
    if (rc == SCP_OK) rc = scp_host_symbol_val(h, "ExternalRef", &v[0]);
    if (rc == SCP_OK) rc = scp_host_symbol_val(h, "owner", &keys[0]);
    if (rc == SCP_OK) rc = scp_host_symbol_val(h, "tag", &keys[1]);
    if (rc == SCP_OK) rc = scp_host_map_new_from_slices(h, keys, kv, 2, &v[1]);
    return rc == SCP_OK ? scp_host_vec_new_from_slice(h, v, 2, out) : rc;
  }
  }
}

/* emit_update_contract_event: topics [Symbol("executable_update"), old,
 * new], data an empty Vec, recorded as contract_event records it (the
 * contract id as Bytes, the event buffer push). */
static int emit_update_event(scp_host *h, const scp_executable *old, const scp_executable *nw) {
  static const char topic[] = "executable_update";
  uint64_t t[3], ev[2];
  int rc = scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)topic,
                                          sizeof topic - 1, &t[0]);
  if (rc == SCP_OK) rc = executable_val(h, old, &t[1]);
  if (rc == SCP_OK) rc = executable_val(h, nw, &t[2]);
  if (rc == SCP_OK) rc = scp_host_vec_new_from_slice(h, t, 3, &ev[0]);
  if (rc == SCP_OK) rc = scp_host_vec_new_from_slice(h, NULL, 0, &ev[1]);
  uint64_t r;
  return rc == SCP_OK ? scp_hf_contract_event(h, ev, &r) : rc;
}

/* ---- update_current_contract_* --------------------------------------------------- */

/* update_current_contract_executable (lifecycle.rs): the current id, the
 * instance key, the instance read and clone, the event, then
 * store_contract_instance over the existing entry (has, get, the
 * LedgerEntry clone, Rc::metered_new, put with the old live-until; the
 * instance's storage map is kept). */
static int update_executable(scp_host *h, const scp_executable *nw) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "Current context has no contract ID");
  uint8_t id[32], kb[4];
  memcpy(id, h->frames[h->nframes - 1].contract_id, 32);
  scp_lkey ik;
  scp_lc_instance_key(id, &ik, kb);
  const scp_sentry *e;
  scp_executable old;
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_get(h, &ik, &e);
  if (rc != SCP_OK) return rc;
  rc = scp_lc_instance_from_entry(h, e, &old);
  if (rc == SCP_OK) rc = emit_update_event(h, &old, nw);
  bool has = false;
  if (rc == SCP_OK) rc = scp_storage_has(h, &ik, &has);
  if (rc == SCP_OK && !has)
    rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_MISSING_VALUE, "contract instance is missing");
  if (rc == SCP_OK) rc = scp_storage_get(h, &ik, &e);
  if (rc == SCP_OK) rc = scp_storage_clone_entry_charges(h, e);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
  if (rc != SCP_OK) return rc;
  uint32_t live_until = e->live_until, len;
  uint8_t *img;
  /* store_contract_instance(Some(executable), None): the storage map
   * stays as it is */
  rc = scp_lc_instance_image_keep(nw, e->val, e->vallen, &img, &len);
  if (rc != SCP_OK) return rc;
  rc = scp_storage_put(h, &ik, img, len, live_until);
  free(img);
  return rc;
}

HOSTFN(update_current_contract_wasm) {
  *ret = SCP_VAL_VOID;
  scp_executable nw = { .kind = SCP_EXEC_WASM };
  int rc = scp_lc_hash_input(h, a[0], nw.hash);
  if (rc == SCP_OK) rc = scp_lc_verify_wasm_exists(h, nw.hash);
  return rc == SCP_OK ? update_executable(h, &nw) : rc;
}

HOSTFN(update_current_contract_executable_ref) {
  *ret = SCP_VAL_VOID;
  scp_executable nw;
  int rc = scp_lc_exec_ref_from_inputs(h, a[0], a[1], &nw);
  if (rc == SCP_OK) rc = scp_lc_verify_exec_ref_exists(h, &nw);
  return rc == SCP_OK ? update_executable(h, &nw) : rc;
}

/* ---- extend_contract_instance_and_code_ttl_v2 ------------------------------------ */

enum { TTL_EXT_INSTANCE_AND_CODE = 0, TTL_EXT_INSTANCE = 1, TTL_EXT_CODE = 2 };

/* contract_id_from_address, the instance key, then the code (unless the
 * scope is Instance) before the instance (unless it is Code).  The scope
 * (ContractTtlExtension) was checked by the dispatcher. */
HOSTFN(extend_contract_instance_and_code_ttl_v2) {
  *ret = SCP_VAL_VOID;
  uint8_t kb[4];
  scp_lkey ik;
  int rc = scp_host_instance_key_of(h, a[0], &ik, kb);
  if (rc != SCP_OK) return rc;
  uint64_t scope = a[1];   /* a plain enum across the ABI */
  const scp_host_ttl x = { .v2 = true,
                           .p = { scp_hf_u32_arg(a[2]), scp_hf_u32_arg(a[3]), scp_hf_u32_arg(a[4]) } };
  if (scope != TTL_EXT_INSTANCE) rc = scp_host_extend_code(h, &ik, &x);
  if (rc == SCP_OK && scope != TTL_EXT_CODE) rc = scp_host_extend_ttl(h, &ik, &x);
  return rc;
}

/* ---- get_address_executable ------------------------------------------------------ */

/* scaddress_from_address, then for a contract the instance entry's
 * try_get_full (a missing entry is Void), its clone, and the executable as
 * an AddressExecutable value; for an account, whether its entry exists. */
HOSTFN(get_address_executable) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  if (o->u.bytes[0] == 0) {
    /* to_account_key (Rc::metered_new), then Storage::has; this host keeps
     * no account entries, so an account reads as absent unless seeded */
    scp_lkey ak = { .type = SCP_LK_ACCOUNT };
    memcpy(ak.id, o->u.bytes + 1, 32);
    bool has = false;
    rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
    if (rc == SCP_OK) rc = scp_storage_has(h, &ak, &has);
    if (rc != SCP_OK || !has) {
      *ret = SCP_VAL_VOID;
      return rc;
    }
    uint64_t sym;
    rc = scp_host_symbol_val(h, "Account", &sym);
    return rc == SCP_OK ? scp_host_vec_new_from_slice(h, &sym, 1, ret) : rc;
  }
  if (o->u.bytes[0] != 1)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR,
                        "Unexpected Address variant in get_address_executable");
  uint8_t kb[4];
  scp_lkey ik;
  scp_lc_instance_key(o->u.bytes + 1, &ik, kb);
  rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  const scp_sentry *e = NULL;
  if (rc == SCP_OK) rc = scp_storage_try_get(h, &ik, &e);
  if (rc != SCP_OK) return rc;
  if (!e) {
    *ret = SCP_VAL_VOID;
    return SCP_OK;
  }
  scp_executable ex;
  rc = scp_lc_instance_from_entry(h, e, &ex);
  /* an external reference shows as the Wasm it resolves to */
  if (rc == SCP_OK && ex.kind == SCP_EXEC_EXTERNAL_REF) {
    rc = scp_lc_resolve_ref(h, &ex, ex.hash);
    ex.kind = SCP_EXEC_WASM;
  }
  if (rc != SCP_OK) return rc;
  return executable_val(h, &ex, ret);
}
