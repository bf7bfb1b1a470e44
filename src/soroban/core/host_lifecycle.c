/*
 * host_lifecycle.c — contract instances and executables as the ledger
 * keeps them: an instance image parsed and built, the instance, code and
 * executable-reference (CAP-85) keys, the checks that Wasm or a reference
 * exists, and the clone charges; used by storage, instance storage,
 * contract calls and auth.  The lifecycle host functions are in
 * fns/host_fns_lifecycle.c.
 *
 * rs-soroban-env v28: host/data_helper.rs (executable_ref_*, verify_*,
 * store_contract_instance), host/lifecycle.rs.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "soroban/core/host_private.h"
#include "soroban/core/host_lifecycle.h"

/* Declared sizes (host/declared_size.rs). */
enum {
  SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288, SIZE_CONTRACT_ID = 32, SIZE_HASH = 32,
  SIZE_SCADDRESS = 48, SIZE_SCSTRING = 24, SIZE_CONTRACT_INSTANCE = 96,
  SIZE_CONTRACT_ID_PREIMAGE = 80, SIZE_CONTRACT_EXECUTABLE = 72
};

enum { SCV_BYTES = 13, SCV_CONTRACT_INSTANCE = 19, SCV_EXECUTABLE_TAG = 22 };

static void wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* ---- images and keys ------------------------------------------------------ */

bool scp_lc_parse_instance(const uint8_t *img, uint32_t len, scp_executable *e) {
  memset(e, 0, sizeof *e);
  if (len < 8 || scp_be32(img) != SCV_CONTRACT_INSTANCE) return false;
  uint32_t kind = scp_be32(img + 4), at = 8;
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
    uint32_t ak = scp_be32(img + at);
    at += 4;
    if (ak == 0) {   /* account: PublicKey ed25519 */
      if (len < at + 4 || scp_be32(img + at)) return false;
      at += 4;
    } else if (ak != 1) {
      return false;
    }
    if (len < at + 32 + 4) return false;
    e->owner[0] = (uint8_t)ak;
    memcpy(e->owner + 1, img + at, 32);
    at += 32;
    uint32_t n = scp_be32(img + at);
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
int scp_lc_charge_string_clone(scp_host *h, uint32_t n) {
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
  if (rc == SCP_OK) rc = scp_lc_charge_string_clone(h, e->taglen);
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
  if (ent->vallen < 8 || scp_be32(ent->val) != SCV_BYTES)
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR,
                        "executable reference entry does not contain a Wasm hash");
  if (scp_be32(ent->val + 4) != 32 || ent->vallen < 40)
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
  if (rc == SCP_OK) rc = scp_lc_charge_string_clone(h, t->len);
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
