/*
 * sac_setup.c — `--asset`: a Stellar Asset Contract in the ledger before
 * the profiled call.  The asset contract is created by the host's own
 * create_asset_contract (host_sac.c) on a scratch host with an unlimited
 * budget and the same network id, and its ledger entries are then seeded
 * into the profiled host's snapshot source: setting up the ledger is not
 * part of the profiled transaction (as seed_entry in sor_vm.c).
 */
#include "soroban/run/sac_setup.h"
#include "soroban/core/scp_host.h"
#include "soroban/sac/host_sac.h"

#include <ctype.h>
#include <string.h>

/* the host function (host_sac.c, registered in host_fns.c) */
int scp_hf_create_asset_contract(scp_host *h, const uint64_t *a, uint64_t *ret);


int scp_sac_asset_parse(const char *text, scp_sac_asset *a, const char **why) {
  memset(a, 0, sizeof *a);
  if (!strcmp(text, "native")) {
    a->type = SCP_SAC_NATIVE;
    return SCP_OK;
  }
  const char *colon = strchr(text, ':');
  if (!colon) {
    *why = "expected native or CODE:ISSUER (an account strkey G...)";
    return SCP_ERR_ARG;
  }
  size_t n = (size_t)(colon - text);
  if (n < 1 || n > 12) {
    *why = "the asset code must be 1 to 12 characters";
    return SCP_ERR_ARG;
  }
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)text[i]) || (unsigned char)text[i] >= 0x80) {
      *why = "the asset code must be ASCII letters and digits";
      return SCP_ERR_ARG;
    }
  if (!scp_account_strkey(colon + 1, a->issuer)) {
    *why = "the issuer is not an account strkey (G...)";
    return SCP_ERR_ARG;
  }
  a->type = n <= 4 ? SCP_SAC_ALPHANUM4 : SCP_SAC_ALPHANUM12;
  memcpy(a->code, text, n);
  return SCP_OK;
}

int scp_sac_setup_deploy(scp_host *h, const scp_sac_asset *a, uint8_t id[32], scp_error *err) {
  scp_budget shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  scp_host *tmp;
  if (scp_host_create(&shadow, &h->opts, &tmp)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint8_t bytes[52];
  uint32_t len[4];
  unsigned n;
  size_t total = scp_sac_asset_pieces(a, bytes, len, &n);
  uint64_t obj, ret;
  int rc = scp_host_memobj_new_from_slice(tmp, SCP_TAG_BYTES_OBJ, bytes, (uint32_t)total, &obj);
  if (rc == SCP_OK) rc = scp_hf_create_asset_contract(tmp, &obj, &ret);
  if (rc != SCP_OK) {
    rc = scp_fail(err, SCP_ERR_INVALID, "asset contract: create_asset_contract failed (%s)",
                  tmp->errmsg[0] ? tmp->errmsg : "host error");
  } else {
    scp_sac_contract_id(h->opts.network_id, a, id);
    for (size_t i = 0; i < tmp->nstore && rc == SCP_OK; i++) {
      const scp_sentry *e = &tmp->store[i];
      if (e->present && scp_storage_seed(h, &e->k, e->val, e->vallen, e->live_until, false))
        rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    }
  }
  scp_host_destroy(tmp);
  return rc;
}

int scp_sac_setup_text(scp_host *h, const char *text, uint8_t id[32], scp_error *err) {
  scp_sac_asset asset;
  const char *why = "";
  if (scp_sac_asset_parse(text, &asset, &why))
    return scp_fail(err, SCP_ERR_ARG, "--asset %s: %s", text, why);
  return scp_sac_setup_deploy(h, &asset, id, err);
}
