/*
 * host_footprint.c — a transaction's declared footprint enforced over the
 * storage (rs-soroban-env v28 storage.rs Footprint::enforce_access and
 * decorate_storage_error): a key outside it, or a write to one it declares
 * read-only, fails the access with Error(Storage, ExceededLimit).
 *
 * The storage keeps recording mode's map and charges (host_storage.c); the
 * declared footprint is only checked, uncharged, before each access is
 * recorded, so a run with a footprint costs what the same run without one
 * costs, up to the access the network would refuse.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_lifecycle.h"

void scp_storage_declared_free(scp_host *h) {
  for (size_t i = 0; i < h->ndeclared; i++) free(h->declared[i].k.key);
  free(h->declared);
  h->declared = NULL;
  h->ndeclared = 0;
}

int scp_storage_declare_footprint(scp_host *h, const scp_fentry *f, size_t n) {
  scp_storage_declared_free(h);
  h->declared = calloc(n + 1, sizeof *h->declared);
  if (!h->declared) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < n; i++) {
    scp_fentry *d = &h->declared[i];
    *d = f[i];
    d->k.key = NULL;
    if (f[i].k.keylen) {
      if (!(d->k.key = malloc(f[i].k.keylen))) return SCP_ERR_NOMEM;
      memcpy(d->k.key, f[i].k.key, f[i].k.keylen);
    }
    h->ndeclared = i + 1;
  }
  return SCP_OK;
}

/* get_key_type_string_for_error */
static const char *key_kind(const scp_lkey *k) {
  enum { SCV_LEDGER_KEY_CONTRACT_INSTANCE = 20, SCV_LEDGER_KEY_NONCE = 21 };
  switch (k->type) {
  case SCP_LK_CONTRACT_DATA: {
    uint32_t t = k->keylen >= 4 ? scp_be32(k->key) : 0;
    return t == SCV_LEDGER_KEY_CONTRACT_INSTANCE ? "contract instance"
         : t == SCV_LEDGER_KEY_NONCE ? "nonce" : "contract data key";
  }
  case SCP_LK_CONTRACT_CODE: return "contract code";
  case SCP_LK_ACCOUNT: return "account";
  case SCP_LK_TRUSTLINE: return "account trustline";
  default: return "ledger key";
  }
}

int scp_storage_footprint_check(scp_host *h, const scp_lkey *k, bool rw) {
  if (!h->declared) return SCP_OK;
  for (size_t i = 0; i < h->ndeclared; i++) {
    if (!scp_lkey_same(&h->declared[i].k, k)) continue;
    if (!rw || h->declared[i].rw) return SCP_OK;
    break;
  }
  return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_EXCEEDED_LIMIT, "trying to access %s outside of the footprint",
                      key_kind(k));
}
