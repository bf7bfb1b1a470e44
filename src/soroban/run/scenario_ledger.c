/*
 * scenario_ledger.c — a scenario's classic ledger entries: accounts and
 * trustlines, written as the XDR the host's readers take apart
 * (host_auth_emul.c load_account's AccountEntry clone, sac_balance.c's
 * balances and authorization flags).  Stellar-ledger-entries.x:
 *
 *   AccountEntry   accountID (PublicKey: type 0, 32 bytes), balance,
 *                  seqNum, numSubEntries, inflationDest (optional: absent),
 *                  flags, homeDomain (string32: empty), thresholds[4],
 *                  signers<20> (SignerKey: type 0 ed25519, 32 bytes;
 *                  weight), ext (v 0)                    80 + 40 n bytes
 *   TrustLineEntry accountID, asset (TrustLineAsset: as the Asset XDR for
 *                  credit assets), balance, limit, flags, ext (v 0)
 *
 * The key of a trustline is the account's key plus the TrustLineAsset XDR
 * (host_lifecycle.h SCP_LK_TRUSTLINE).  Classic entries have no TTL.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_lifecycle.h"
#include "soroban/run/sac_setup.h"
#include "soroban/run/scp_scenario.h"
#include "wasm/scp_wasm.h"

enum { AUTHORIZED_FLAG = 1 };

/* Stellar keeps an account's signers sorted by key. */
typedef struct signer {
  const uint8_t *key;
  uint32_t weight;
} signer;

static int signer_cmp(const void *a, const void *b) {
  return memcmp(((const signer *)a)->key, ((const signer *)b)->key, 32);
}

/* The AccountEntry XDR of a (len 80 + 40 n); subentries: its signers and
 * trustlines, as the classic ledger counts them. */
static size_t account_xdr(const scp_ledger_account *a, uint32_t subentries, uint8_t *out) {
  signer s[SCP_MAX_SIGNERS];
  for (size_t i = 0; i < a->nsigners; i++)
    s[i] = (signer){.key = a->signer_key[i], .weight = a->signer_weight[i]};
  qsort(s, a->nsigners, sizeof *s, signer_cmp);
  size_t n = 0;
  memset(out, 0, 80 + 40 * a->nsigners);
  memcpy(out + 4, a->id, 32);              /* PUBLIC_KEY_TYPE_ED25519 (0) */
  scp_put_be64(out + 36, (uint64_t)a->balance);
  scp_put_be64(out + 44, (uint64_t)a->seq_num);
  scp_put_be32(out + 52, subentries);
  /* 56: no inflation destination */
  scp_put_be32(out + 60, a->flags);
  /* 64: empty home domain */
  memcpy(out + 68, a->thresholds, 4);
  scp_put_be32(out + 72, (uint32_t)a->nsigners);
  n = 76;
  for (size_t i = 0; i < a->nsigners; i++) {
    n += 4;                                /* SIGNER_KEY_TYPE_ED25519 (0) */
    memcpy(out + n, s[i].key, 32);
    n += 32;
    scp_put_be32(out + n, s[i].weight);
    n += 4;
  }
  return n + 4;                            /* ext v 0 */
}

int scp_ledger_trustline_asset(const char *text, const uint8_t account[32], const char **why) {
  scp_sac_asset a;
  if (scp_sac_asset_parse(text, &a, why)) return SCP_ERR_ARG;
  if (a.type == SCP_SAC_NATIVE) {
    *why = "the native asset has no trustlines (an account's balance is its XLM)";
    return SCP_ERR_ARG;
  }
  if (!memcmp(a.issuer, account, 32)) {
    *why = "an issuer holds no trustline to its own asset";
    return SCP_ERR_ARG;
  }
  return SCP_OK;
}

int scp_ledger_seed_classic(struct scp_host *h, const scp_ledger *l, scp_error *err) {
  uint8_t buf[80 + 40 * SCP_MAX_SIGNERS];
  int rc = SCP_OK;
  /* trustlines by account, counted once: not every trustline per account */
  scp_bmap held = {0};
  for (size_t t = 0; t < l->ntrustlines && !rc; t++) {
    bool added;
    size_t *n = scp_bmap_put(&held, l->trustlines[t].account, 32, &added);
    if (n) (*n)++;
    else rc = SCP_ERR_NOMEM;
  }
  for (size_t i = 0; i < l->naccounts && !rc; i++) {
    const scp_ledger_account *a = &l->accounts[i];
    const size_t *lines = scp_bmap_get(&held, a->id, 32);
    uint32_t sub = (uint32_t)a->nsigners + (lines ? (uint32_t)*lines : 0);
    size_t len = account_xdr(a, sub, buf);
    scp_lkey k = {.type = SCP_LK_ACCOUNT};
    memcpy(k.id, a->id, 32);
    rc = scp_storage_seed(h, &k, buf, (uint32_t)len, 0, false);
  }
  scp_bmap_free(&held);
  for (size_t i = 0; i < l->ntrustlines && !rc; i++) {
    const scp_ledger_trustline *t = &l->trustlines[i];
    scp_sac_asset asset;
    const char *why = "";
    if (scp_sac_asset_parse(t->asset, &asset, &why) || asset.type == SCP_SAC_NATIVE)
      return scp_fail(err, SCP_ERR_ARG, "trustline asset %s: %s", t->asset,
                      why[0] ? why : "the native asset has no trustlines");
    uint8_t ax[52];
    uint32_t plen[4];
    unsigned np;
    size_t alen = scp_sac_asset_pieces(&asset, ax, plen, &np);
    size_t n = 0;
    memset(buf, 0, 36);
    memcpy(buf + 4, t->account, 32);
    n = 36;
    memcpy(buf + n, ax, alen);
    n += alen;
    scp_put_be64(buf + n, (uint64_t)t->balance);
    scp_put_be64(buf + n + 8, (uint64_t)t->limit);
    scp_put_be32(buf + n + 16, t->authorized ? AUTHORIZED_FLAG : 0);
    scp_put_be32(buf + n + 20, 0);         /* ext v 0 */
    n += 24;
    scp_lkey k = {.type = SCP_LK_TRUSTLINE, .key = ax, .keylen = (uint32_t)alen};
    memcpy(k.id, t->account, 32);
    rc = scp_storage_seed(h, &k, buf, (uint32_t)n, 0, false);
  }
  return rc ? scp_fail(err, rc, "out of memory") : SCP_OK;
}

int scp_ledger_ctor_export(const uint8_t *wasm, size_t len, bool *has, uint32_t *nparams,
                           scp_error *err) {
  scp_wasm_module *m = NULL;
  uint8_t kind = 0;
  uint32_t idx = 0, np = 0, nr = 0;
  const uint8_t *ps = NULL, *rs = NULL;
  *has = false;
  int rc = scp_wasm_load(wasm, len, &m, err);
  if (rc) return rc;
  *has = scp_wasm_export_find(m, "__constructor", 13, &kind, &idx) && kind == SCP_EXT_FUNC;
  if (*has) scp_wasm_func_sig(m, idx, &ps, &np, &rs, &nr);
  scp_wasm_module_free(m);
  if (nparams) *nparams = np;
  return SCP_OK;
}
