/*
 * host_account.c — classic AccountEntry images as native code reads them
 * (the Stellar Asset Contract's balances and issuer flags, account
 * signature checks in auth): the XDR parsed, AccountEntry::metered_clone's
 * charges, Host::load_account.
 *
 * rs-soroban-env v28.0.2: host/data_helper.rs (load_account,
 * to_account_key), host/conversion.rs (account_id_from_bytesobj,
 * fixed_length_bytes_from_slice), host/metered_clone.rs (AccountEntry's
 * clone: the struct, then its heap parts), builtin_contracts/
 * stellar_asset_contract/balance.rs.
 *
 * AccountEntry XDR: accountID (36), balance (8), seqNum (8),
 * numSubEntries (4), inflationDest (optional AccountID), flags (4),
 * homeDomain (string32), thresholds (4), signers (<20> of SignerKey +
 * weight), ext (0 | 1: liabilities {buying, selling}, ext (0 | 2:
 * numSponsored, numSponsoring, signerSponsoringIDs, ext)).  A short image
 * (the 56-byte entries tests seed) ends the fields it lacks: no
 * inflation destination, no flags, no home domain, no signers, ext V0.
 *
 * Auth's signature checks (emulated and enforcing) and the asset contract
 * load an account the same way: one set of clone charges.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_lifecycle.h"
#include "soroban/core/host_account.h"

enum {
  SIZE_ACCOUNT_ENTRY = 216, SIZE_SIGNER = 72, SIZE_SPONSORSHIP_DESCRIPTOR = 33,
  SIZE_LEDGER_KEY = 152, SIZE_ACCOUNT_ID = 32
};

int scp_host_account_parse(const uint8_t *p, size_t len, scp_host_account *a) {
  memset(a, 0, sizeof *a);
  if (len < 56) return -1;
  a->balance = (int64_t)scp_be64(p + 36);
  a->num_sub = scp_be32(p + 52);
  size_t off = 56;
  if (len >= off + 4) off += scp_be32(p + off) ? 40 : 4;   /* inflationDest */
  if (len >= off + 4) a->flags = scp_be32(p + off);
  off += 4;
  if (len >= off + 4) {
    a->home_len = scp_be32(p + off);
    off += 4 + ((a->home_len + 3) & ~3u);
  }
  off += 4;   /* thresholds */
  if (len >= off + 4) {
    a->nsigners = scp_be32(p + off);
    off += 4;
  }
  if (a->nsigners > 20) return -1;
  for (uint32_t i = 0; i < a->nsigners && len >= off + 40; i++) {
    a->signers_at[i] = off;
    a->nsig_img = i + 1;
    uint32_t kind = scp_be32(p + off);
    off += 4 + 32;
    if (kind == 3 && len >= off + 4) {   /* SIGNER_KEY_TYPE_ED25519_SIGNED_PAYLOAD */
      uint32_t pl = scp_be32(p + off);
      off += 4 + ((pl + 3) & ~3u);
    }
    off += 4;   /* weight */
  }
  if (len >= off + 4 && scp_be32(p + off) == 1) {
    a->v1 = true;
    if (len < off + 20) return -1;
    a->buying = (int64_t)scp_be64(p + off + 4);
    a->selling = (int64_t)scp_be64(p + off + 12);
    off += 4 + 16;
    if (len >= off + 4 && scp_be32(p + off) == 2) {
      a->v2 = true;
      if (len < off + 16) return -1;
      a->sponsored = scp_be32(p + off + 4);
      a->sponsoring = scp_be32(p + off + 8);
      a->nspons_ids = scp_be32(p + off + 12);
    }
  }
  return 0;
}

/* AccountEntry::metered_clone: the struct, home_domain's bytes, the
 * signers' Vec (each signed payload's bytes as its signer is cloned),
 * with ext V1 -> V2 the signer sponsoring ids' Vec. */
int scp_host_account_clone_charges(scp_host *h, const uint8_t *p, size_t len) {
  scp_host_account a;
  if (scp_host_account_parse(p, len, &a))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "ledger entry is not account");
  int rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ENTRY);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, a.home_len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, a.home_len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, a.nsigners, SIZE_SIGNER);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, a.nsigners, SIZE_SIGNER);
  for (uint32_t i = 0; rc == SCP_OK && i < a.nsig_img; i++) {
    size_t off = a.signers_at[i];
    if (scp_be32(p + off) == 3 && len >= off + 40) {   /* ED25519_SIGNED_PAYLOAD */
      uint32_t pl = scp_be32(p + off + 36);
      rc = scp_host_charge_alloc(h, pl, 1);
      if (rc == SCP_OK) rc = scp_host_charge_copy(h, pl, 1);
    }
  }
  if (rc == SCP_OK && a.v2) {
    rc = scp_host_charge_alloc(h, a.nspons_ids, SIZE_SPONSORSHIP_DESCRIPTOR);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, a.nspons_ids, SIZE_SPONSORSHIP_DESCRIPTOR);
  }
  return rc;
}

int scp_host_load_account(scp_host *h, const uint8_t key[32], scp_host_account *a,
                         const scp_sentry **ent) {
  scp_lkey ak = { .type = SCP_LK_ACCOUNT };
  memcpy(ak.id, key, 32);
  const scp_sentry *e = NULL;
  int rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);   /* to_account_key: Rc::metered_new */
  if (rc == SCP_OK) rc = scp_storage_get(h, &ak, &e);
  if (rc != SCP_OK) return rc;
  if (scp_host_account_parse(e->val, e->vallen, a))
    return scp_host_err(h, SCP_ET_STORAGE, SCP_EC_INTERNAL_ERROR, "ledger entry is not account");
  if (ent) *ent = e;
  return scp_host_account_clone_charges(h, e->val, e->vallen);
}
