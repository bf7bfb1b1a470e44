/*
 * host_entry_xdr.c — a storage entry's LedgerKey and LedgerEntry binaries
 * (host_private.h): what the snapshot writer saves and what the network's
 * teardown encodes (host_teardown.c).  Code entries carry the module's
 * cost inputs (ext v1), as an upload on protocol 21 and later stores
 * them, unless v0.
 */
#include <string.h>

#include "soroban/core/host_lifecycle.h"
#include "wasm/scp_wasm.h"

static void put_padded(scp_buf *b, const uint8_t *p, size_t n) {
  static const uint8_t zero[4];
  scp_buf_put(b, p, n);
  scp_buf_put(b, zero, (4 - n % 4) % 4);
}

/* the key's body after its arm: the LedgerKeyContractData / ContractCode /
 * Account / TrustLine */
static void key_body(const scp_lkey *k, scp_buf *b) {
  switch (k->type) {
  case SCP_LK_CONTRACT_DATA:
    scp_buf_put_be32(b, k->account ? 0 : 1);   /* ScAddress: account (its key type) or contract */
    if (k->account) scp_buf_put_be32(b, 0);
    scp_buf_put(b, k->id, 32);
    scp_buf_put(b, k->key, k->keylen);
    scp_buf_put_be32(b, k->dur);
    return;
  case SCP_LK_CONTRACT_CODE:
    scp_buf_put(b, k->id, 32);
    return;
  default:                          /* account, trustline: the AccountId, the asset */
    scp_buf_put_be32(b, 0);
    scp_buf_put(b, k->id, 32);
    if (k->type == SCP_LK_TRUSTLINE) scp_buf_put(b, k->key, k->keylen);
    return;
  }
}

void scp_storage_key_xdr(const scp_lkey *k, scp_buf *out) {
  scp_buf_put_be32(out, k->type);
  key_body(k, out);
}

static int code_entry(const scp_sentry *x, bool v0, scp_buf *e, scp_error *err) {
  if (v0) {
    scp_buf_put_be32(e, 0);                    /* ext v0: no cost inputs */
  } else {
    scp_wasm_module *m = NULL;
    if (scp_wasm_load(x->val, x->vallen, &m, err)) return err->code;
    scp_wasm_cost_inputs ci;
    scp_wasm_cost_inputs_get(m, &ci);
    scp_wasm_module_free(m);
    const uint32_t v[] = {ci.n_instructions, ci.n_functions, ci.n_globals, ci.n_table_entries, ci.n_types,
                          ci.n_data_segments, ci.n_elem_segments, ci.n_imports, ci.n_exports,
                          ci.n_data_segment_bytes};
    scp_buf_put_be32(e, 1);                    /* ext v1: its cost inputs */
    scp_buf_put_be32(e, 0);
    scp_buf_put_be32(e, 0);
    for (size_t i = 0; i < SCP_ARRAY_LEN(v); i++) scp_buf_put_be32(e, v[i]);
  }
  scp_buf_put(e, x->k.id, 32);
  scp_buf_put_be32(e, x->vallen);
  put_padded(e, x->val, x->vallen);
  return SCP_OK;
}

int scp_storage_entry_xdr(const scp_sentry *x, bool v0, scp_buf *k, scp_buf *e, scp_error *err) {
  if (k) scp_storage_key_xdr(&x->k, k);
  scp_buf_put_be32(e, 0);                      /* last_modified_ledger_seq */
  scp_buf_put_be32(e, x->k.type);
  switch (x->k.type) {
  case SCP_LK_CONTRACT_DATA: {
    /* ext v0, then the key's fields (address, key, durability), then the value */
    scp_buf kb = {0};
    scp_buf_put_be32(e, 0);
    key_body(&x->k, &kb);
    scp_buf_put(e, kb.data, kb.len);
    scp_buf_put(e, x->val, x->vallen);
    bool oom = kb.oom;
    scp_buf_free(&kb);
    if (oom) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    break;
  }
  case SCP_LK_CONTRACT_CODE: {
    int rc = code_entry(x, v0, e, err);
    if (rc) return rc;
    break;
  }
  case SCP_LK_ACCOUNT:
  case SCP_LK_TRUSTLINE:
    scp_buf_put(e, x->val, x->vallen);
    break;
  default:
    return scp_fail(err, SCP_ERR_INTERNAL, "ledger entry of kind %u", x->k.type);
  }
  scp_buf_put_be32(e, 0);                      /* LedgerEntry ext v0 */
  return SCP_OK;
}
