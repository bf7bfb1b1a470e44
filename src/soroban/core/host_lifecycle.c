/*
 * host_lifecycle.c — contract executables and the lifecycle host functions
 * that change or read them: get_contract_id, update_current_contract_wasm,
 * update_current_contract_executable_ref, extend_contract_instance_and_code
 * _ttl_v2, get_address_executable, and the executable-reference (CAP-85)
 * helpers that create, call and storage use.
 *
 * rs-soroban-env v28: host.rs (the host functions), host/lifecycle.rs
 * (update_current_contract_executable, get_contract_id_hash),
 * host/data_helper.rs (executable_ref_*, verify_*, store_contract_instance,
 * extend_contract_*_ttl_v2), events/system_events.rs (the
 * "executable_update" event), builtin_contracts/common_types.rs (how an
 * executable becomes a Val), host/metered_xdr.rs (ValSer once per XDR
 * write, which is why the contract-id preimage is charged write by write).
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/core/host_lifecycle.h"

/* Declared sizes (host/declared_size.rs). */
enum {
  SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288, SIZE_CONTRACT_ID = 32, SIZE_HASH = 32,
  SIZE_SCADDRESS = 48, SIZE_SCSTRING = 24, SIZE_CONTRACT_INSTANCE = 96,
  SIZE_CONTRACT_ID_PREIMAGE = 80, SIZE_CONTRACT_EXECUTABLE = 72
};

enum { SCV_BYTES = 13, SCV_CONTRACT_INSTANCE = 19, SCV_EXECUTABLE_TAG = 22 };

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* ---- images and keys ------------------------------------------------------ */

bool scp_lc_parse_instance(const uint8_t *img, uint32_t len, scp_executable *e) {
  memset(e, 0, sizeof *e);
  if (len < 8 || rd32(img) != SCV_CONTRACT_INSTANCE) return false;
  uint32_t kind = rd32(img + 4), at = 8;
  e->kind = (uint8_t)kind;
  switch (kind) {
  case SCP_EXEC_WASM:
    if (len < at + 32) return false;
    memcpy(e->hash, img + at, 32);
    return true;
  case SCP_EXEC_STELLAR_ASSET:
    return true;
  case SCP_EXEC_EXTERNAL_REF: {
    if (len < at + 4) return false;
    uint32_t ak = rd32(img + at);
    at += 4;
    if (ak == 0) {   /* account: PublicKey ed25519 */
      if (len < at + 4 || rd32(img + at)) return false;
      at += 4;
    } else if (ak != 1) {
      return false;
    }
    if (len < at + 32 + 4) return false;
    e->owner[0] = (uint8_t)ak;
    memcpy(e->owner + 1, img + at, 32);
    at += 32;
    uint32_t n = rd32(img + at);
    at += 4;
    if (n > SCP_EXEC_TAG_MAX || len < at + n) return false;
    memcpy(e->tag, img + at, n);
    e->taglen = n;
    return true;
  }
  default:
    return false;
  }
}

int scp_lc_instance_image(const scp_executable *e, uint8_t **out, uint32_t *len) {
  uint8_t *p = calloc(1, 8 + 4 + 4 + 32 + 4 + SCP_EXEC_TAG_MAX + 4 + 4);
  if (!p) return SCP_ERR_NOMEM;
  wr32(p, SCV_CONTRACT_INSTANCE);
  wr32(p + 4, e->kind);
  uint32_t at = 8;
  if (e->kind == SCP_EXEC_WASM) {
    memcpy(p + at, e->hash, 32);
    at += 32;
  } else if (e->kind == SCP_EXEC_EXTERNAL_REF) {
    wr32(p + at, e->owner[0]);
    at += 4;
    if (e->owner[0] == 0) at += 4;   /* PUBLIC_KEY_TYPE_ED25519 = 0 */
    memcpy(p + at, e->owner + 1, 32);
    at += 32;
    wr32(p + at, e->taglen);
    at += 4;
    memcpy(p + at, e->tag, e->taglen);
    at += e->taglen + (4 - e->taglen % 4) % 4;
  }
  at += 4;   /* storage: None */
  *out = p;
  *len = at;
  return SCP_OK;
}

uint32_t scp_lc_instance_storage_at(const scp_executable *e) {
  uint32_t at = 8;
  if (e->kind == SCP_EXEC_WASM) at += 32;
  else if (e->kind == SCP_EXEC_EXTERNAL_REF)
    at += 4 + (e->owner[0] == 0 ? 4 : 0) + 32 + 4 + e->taglen + (4 - e->taglen % 4) % 4;
  return at;
}

int scp_lc_instance_image_keep(const scp_executable *e, const uint8_t *old, uint32_t oldlen,
                               uint8_t **out, uint32_t *len) {
  scp_executable oe;
  uint8_t *head;
  uint32_t hlen;
  int rc = scp_lc_instance_image(e, &head, &hlen);
  if (rc != SCP_OK) return rc;
  uint32_t at = scp_lc_parse_instance(old, oldlen, &oe) ? scp_lc_instance_storage_at(&oe) : oldlen;
  if (at >= oldlen) {   /* no Option<ScMap> to keep: the new image's None */
    *out = head;
    *len = hlen;
    return SCP_OK;
  }
  uint8_t *img = malloc(hlen - 4 + (oldlen - at));
  if (!img) {
    free(head);
    return SCP_ERR_NOMEM;
  }
  memcpy(img, head, hlen - 4);
  memcpy(img + hlen - 4, old + at, oldlen - at);
  free(head);
  *out = img;
  *len = hlen - 4 + (oldlen - at);
  return SCP_OK;
}

void scp_lc_instance_key(const uint8_t id[32], scp_lkey *k, uint8_t kb[4]) {
  wr32(kb, 20);   /* ScVal::LedgerKeyContractInstance */
  *k = (scp_lkey){ .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = kb,
                   .keylen = 4 };
  memcpy(k->id, id, 32);
}

void scp_lc_code_key(const uint8_t hash[32], scp_lkey *k) {
  *k = (scp_lkey){ .type = SCP_LK_CONTRACT_CODE };
  memcpy(k->id, hash, 32);
}

/* ScString::metered_clone: the string itself, then its Vec<u8>. */
static int charge_string_clone(scp_host *h, uint32_t n) {
  int rc = scp_host_charge_copy(h, 1, SIZE_SCSTRING);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, 1);
  return rc;
}

int scp_lc_charge_instance_clone(scp_host *h, const scp_executable *e) {
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_INSTANCE);
  if (rc == SCP_OK && e->kind == SCP_EXEC_EXTERNAL_REF) {
    rc = scp_host_charge_alloc(h, e->taglen, 1);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, e->taglen, 1);
  }
  return rc;
}

int scp_lc_instance_from_entry(scp_host *h, const scp_sentry *e, scp_executable *ex) {
  if (!scp_lc_parse_instance(e->val, e->vallen, ex))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR,
                        "ledger entry for contract instance does not contain contract instance");
  int rc = scp_lc_charge_instance_clone(h, ex);
  return rc == SCP_OK ? scp_storage_instance_substructure(h, e->val, e->vallen) : rc;
}

int scp_lc_exec_ref_key(scp_host *h, const scp_executable *e, scp_lkey *k) {
  memset(k, 0, sizeof *k);
  int rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc == SCP_OK) rc = charge_string_clone(h, e->taglen);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc != SCP_OK) return rc;
  if (e->owner[0] != 1)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT,
                        "executable references to an account's storage cannot exist");
  uint32_t padded = e->taglen + (4 - e->taglen % 4) % 4;
  k->key = calloc(1, 8 + padded);
  if (!k->key) return SCP_ERR_NOMEM;
  wr32(k->key, SCV_EXECUTABLE_TAG);
  wr32(k->key + 4, e->taglen);
  memcpy(k->key + 8, e->tag, e->taglen);
  k->keylen = 8 + padded;
  k->type = SCP_LK_CONTRACT_DATA;
  k->dur = SCP_DUR_PERSISTENT;
  memcpy(k->id, e->owner + 1, 32);
  return SCP_OK;
}

int scp_lc_resolve_ref(scp_host *h, const scp_executable *e, uint8_t hash[32]) {
  scp_lkey k;
  const scp_sentry *ent;
  int rc = scp_lc_exec_ref_key(h, e, &k);
  if (rc == SCP_OK) rc = scp_storage_get(h, &k, &ent);
  scp_lkey_free(&k);
  if (rc != SCP_OK) return rc;
  if (ent->vallen < 8 || rd32(ent->val) != SCV_BYTES)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR,
                        "executable reference entry does not contain a Wasm hash");
  if (rd32(ent->val + 4) != 32 || ent->vallen < 40)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "expected fixed-length bytes slice, got slice with different size");
  memcpy(hash, ent->val + 8, 32);
  return scp_host_charge_copy(h, 1, SIZE_HASH);
}

/* hash_from_bytesobj_input: visit, the size check, MemCpy(32). */
static int hash_input(scp_host *h, uint64_t obj, uint8_t out[32]) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, obj, &o);
  if (rc != SCP_OK) return rc;
  if (o->len != 32)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_SIZE,
                        "expected fixed-length bytes slice, got slice with different size");
  memcpy(out, o->u.bytes, 32);
  return scp_host_charge_copy(h, 1, 32);
}

int scp_lc_verify_wasm_exists(scp_host *h, const uint8_t hash[32]) {
  scp_lkey ck;
  bool has = false;
  scp_lc_code_key(hash, &ck);
  int rc = scp_host_charge_copy(h, 1, SIZE_HASH);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_has(h, &ck, &has);
  if (rc == SCP_OK && !has)
    rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_MISSING_VALUE, "Wasm does not exist");
  return rc;
}

int scp_lc_validate_exec_ref_put(scp_host *h, uint64_t v) {
  if (scp_val_tag_of(v) != SCP_TAG_BYTES_OBJ)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INVALID_INPUT,
                        "executable reference value must be a 32-byte Wasm hash");
  uint8_t hash[32];
  int rc = hash_input(h, v, hash);
  return rc == SCP_OK ? scp_lc_verify_wasm_exists(h, hash) : rc;
}

int scp_lc_exec_ref_from_inputs(scp_host *h, uint64_t owner, uint64_t tag, scp_executable *e) {
  const scp_hobj *o, *t;
  memset(e, 0, sizeof *e);
  e->kind = SCP_EXEC_EXTERNAL_REF;
  int rc = scp_host_visit(h, owner, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  if (o->u.bytes[0] > 1) {
    snprintf(h->errmsg, sizeof h->errmsg,
             "executable owners other than accounts and contracts are not supported");
    return SCP_ERR_UNSUPPORTED;
  }
  memcpy(e->owner, o->u.bytes, 33);
  rc = scp_host_visit(h, tag, &t);
  if (rc == SCP_OK) rc = charge_string_clone(h, t->len);
  if (rc != SCP_OK) return rc;
  if (t->len > SCP_EXEC_TAG_MAX) {
    snprintf(h->errmsg, sizeof h->errmsg, "executable tags over %d bytes are not supported",
             SCP_EXEC_TAG_MAX);
    return SCP_ERR_UNSUPPORTED;
  }
  memcpy(e->tag, t->u.bytes, t->len);
  e->taglen = t->len;
  return SCP_OK;
}

int scp_lc_verify_exec_ref_exists(scp_host *h, const scp_executable *e) {
  scp_lkey k;
  bool has = false;
  int rc = scp_lc_exec_ref_key(h, e, &k);
  if (rc == SCP_OK) rc = scp_storage_has(h, &k, &has);
  scp_lkey_free(&k);
  if (rc == SCP_OK && !has)
    rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_MISSING_VALUE,
                      "executable reference entry does not exist");
  return rc;
}

/* ---- get_contract_id ---------------------------------------------------------- */

int scp_lc_address_contract_id(scp_host *h, const uint8_t addr[33], const uint8_t salt[32],
                               uint8_t id[32]) {
  if (addr[0] > 1) {
    snprintf(h->errmsg, sizeof h->errmsg,
             "deployers other than accounts and contracts are not supported");
    return SCP_ERR_UNSUPPORTED;
  }
  /* get_ledger_network_id is called through Env: the body, then its
   * result's CheckedEnvArg (a VisitObject), as create_asset_contract's
   * traces show (1,031 CPU between the nested call and ret) */
  uint64_t nidobj;
  uint8_t nid[32];
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID_PREIMAGE);
  if (rc == SCP_OK) rc = scp_hf_get_ledger_network_id(h, NULL, &nidobj);
  if (rc == SCP_OK) rc = scp_host_check_val(h, nidobj);
  if (rc == SCP_OK) rc = hash_input(h, nidobj, nid);
  if (rc != SCP_OK) return rc;
  /* HashIdPreimage::ContractId: envelope type, network id, preimage type,
   * ScAddress type, [PublicKey type], the key or contract id, the salt --
   * metered_write_xdr charges each write_all on its own */
  static const uint32_t writes_account[] = { 4, 32, 4, 4, 4, 32, 32 };
  static const uint32_t writes_contract[] = { 4, 32, 4, 4, 32, 32 };
  const uint32_t *w = addr[0] == 0 ? writes_account : writes_contract;
  size_t nw = addr[0] == 0 ? 7 : 6, total = 0;
  for (size_t i = 0; rc == SCP_OK && i < nw; i++) {
    rc = scp_host_charge(h, SCP_COST_ValSer, w[i]);
    total += w[i];
  }
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeSha256Hash, (int64_t)total);
  if (rc == SCP_OK) scp_host_contract_id(h, addr[0] == 1, addr + 1, salt, id);
  return rc;
}

int scp_lc_charge_executable_clone(scp_host *h, const scp_executable *e) {
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_EXECUTABLE);
  if (rc == SCP_OK && e->kind == SCP_EXEC_EXTERNAL_REF) {
    rc = scp_host_charge_alloc(h, e->taglen, 1);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, e->taglen, 1);
  }
  return rc;
}

int scp_lc_hash_input(scp_host *h, uint64_t obj, uint8_t out[32]) {
  return hash_input(h, obj, out);
}

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
  rc = hash_input(h, a[1], salt);
  if (rc == SCP_OK) rc = scp_lc_address_contract_id(h, addr, salt, id);
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
    if (rc == SCP_OK) rc = charge_string_clone(h, e->taglen);
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
  int rc = hash_input(h, a[0], nw.hash);
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

/* extend_contract_code_ttl_v2 (data_helper.rs): the instance read; Wasm:
 * the code entry; ExternalRef: the reference entry, then the code it
 * resolves to; StellarAsset: nothing. */
static int extend_code_v2(scp_host *h, const scp_lkey *ik, const uint32_t *p) {
  const scp_sentry *e;
  scp_executable ex;
  int rc = scp_storage_get(h, ik, &e);
  if (rc != SCP_OK) return rc;
  rc = scp_lc_instance_from_entry(h, e, &ex);
  if (rc != SCP_OK || ex.kind == SCP_EXEC_STELLAR_ASSET) return rc;
  scp_lkey ck;
  if (ex.kind == SCP_EXEC_EXTERNAL_REF) {
    scp_lkey rk;
    rc = scp_lc_exec_ref_key(h, &ex, &rk);
    if (rc == SCP_OK) rc = scp_storage_extend_ttl_v2(h, &rk, p[0], p[1], p[2]);
    scp_lkey_free(&rk);
    if (rc == SCP_OK) rc = scp_lc_resolve_ref(h, &ex, ex.hash);
    if (rc != SCP_OK) return rc;
  }
  scp_lc_code_key(ex.hash, &ck);
  rc = scp_host_charge_copy(h, 1, SIZE_HASH);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  return rc == SCP_OK ? scp_storage_extend_ttl_v2(h, &ck, p[0], p[1], p[2]) : rc;
}

/* contract_id_from_address, the instance key, then the code (unless the
 * scope is Instance) before the instance (unless it is Code).  The scope
 * (ContractTtlExtension) was checked by the dispatcher. */
HOSTFN(extend_contract_instance_and_code_ttl_v2) {
  *ret = SCP_VAL_VOID;
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc == SCP_OK && o->u.bytes[0] != 1)
    rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT, "not a contract address");
  if (rc != SCP_OK) return rc;
  uint8_t kb[4];
  scp_lkey ik;
  scp_lc_instance_key(o->u.bytes + 1, &ik, kb);
  rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  uint64_t scope = a[1];   /* a plain enum across the ABI */
  uint32_t p[3] = { scp_hf_u32_arg(a[2]), scp_hf_u32_arg(a[3]), scp_hf_u32_arg(a[4]) };
  if (rc == SCP_OK && scope != TTL_EXT_INSTANCE) rc = extend_code_v2(h, &ik, p);
  if (rc == SCP_OK && scope != TTL_EXT_CODE) rc = scp_storage_extend_ttl_v2(h, &ik, p[0], p[1], p[2]);
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
