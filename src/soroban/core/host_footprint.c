/*
 * host_footprint.c — a transaction's declared footprint (rs-soroban-env
 * v28 storage.rs decorate_storage_error): a key outside it, or a write to
 * one it declares read-only, fails the access with Error(Storage,
 * ExceededLimit).  The enforcing storage that checks it, with its
 * charges, is host_enforce.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_lifecycle.h"

void scp_storage_declared_free(scp_host *h) {
  for (size_t i = 0; i < h->ndeclared; i++) free(h->declared[i].k.key);
  free(h->declared);
  h->declared = NULL;
  h->ndeclared = h->capdeclared = 0;
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

int scp_storage_footprint_error(scp_host *h, const scp_lkey *k) {
  return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_EXCEEDED_LIMIT, "trying to access %s outside of the footprint",
                      key_kind(k));
}
