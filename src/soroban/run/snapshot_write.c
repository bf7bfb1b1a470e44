/*
 * snapshot_write.c — a ledger (scp_ledger, e.g. a scenario's after its
 * set-up) written as a soroban-sdk test snapshot, in either layout and
 * number style: what lets a test put the same state through both readers
 * and compare the profiles, and a user turn a scenario into the format
 * the ecosystem reads.  Code entries carry the module's cost inputs (ext
 * v1), as an upload on protocol 21 and later stores them.
 */
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "soroban/core/host_lifecycle.h"
#include "soroban/run/scp_snapshot.h"
#include "wasm/scp_wasm.h"
#include "xdr/scp_xdr.h"

static json_t *entry_json(const scp_sentry *x, bool v0, bool pairs, scp_xdr_style style, scp_error *err) {
  scp_buf k = {0}, e = {0};
  json_t *kj = NULL, *ej = NULL, *out = NULL;
  int rc = scp_storage_entry_xdr(x, v0, &k, &e, err);
  if (!rc && (k.oom || e.oom)) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (!rc) rc = scp_xdr_to_json(scp_xdr_find("LedgerKey"), (uint8_t *)k.data, k.len, style, &kj, err);
  if (!rc) rc = scp_xdr_to_json(scp_xdr_find("LedgerEntry"), (uint8_t *)e.data, e.len, style, &ej, err);
  scp_buf_free(&k);
  scp_buf_free(&e);
  if (rc) {
    json_decref(kj);
    return NULL;
  }
  bool classic = x->k.type == SCP_LK_ACCOUNT || x->k.type == SCP_LK_TRUSTLINE;
  json_t *lu = classic ? json_null() : json_integer(x->live_until);
  if (pairs) {
    out = json_pack("[o, [o, o]]", kj, ej, lu);
  } else {
    json_decref(kj);
    out = json_pack("{s:o, s:o}", "entry", ej, "live_until", lu);
  }
  if (!out) scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  return out;
}

int scp_snapshot_write(const scp_ledger *l, const scp_snapshot *info, bool pairs, scp_xdr_style style,
                       char **out, scp_error *err) {
  *out = NULL;
  char nid[65];
  sodium_bin2hex(nid, sizeof nid, info->network_id, 32);
  json_t *list = json_array();
  for (size_t i = 0; list && i < l->nents; i++) {
    bool v0 = false;
    for (size_t k = 0; l->ents[i].k.type == SCP_LK_CONTRACT_CODE && k < l->nv0_code; k++)
      v0 |= !memcmp(l->v0_code[k], l->ents[i].k.id, 32);
    json_t *e = entry_json(&l->ents[i], v0, pairs, style, err);
    if (!e) {
      json_decref(list);
      return err->code ? err->code : SCP_ERR_NOMEM;
    }
    json_array_append_new(list, e);
  }
  json_t *ts = style == SCP_XDR_JSON_NUMBERS ? json_integer((json_int_t)info->timestamp) : NULL;
  if (!ts) {
    char t[24];
    snprintf(t, sizeof t, "%llu", (unsigned long long)info->timestamp);
    ts = json_string(t);
  }
  json_t *root = list ? json_pack("{s:{s:i, s:i}, s:[], s:{s:i, s:i, s:o, s:s, s:i, s:i, s:i, s:i, s:o}, s:[]}",
                                  "generators", "address", 0, "nonce", 0, "auth", "ledger",
                                  "protocol_version", (json_int_t)info->protocol,
                                  "sequence_number", (json_int_t)info->sequence, "timestamp", ts,
                                  "network_id", nid, "base_reserve", (json_int_t)info->base_reserve,
                                  "min_persistent_entry_ttl", (json_int_t)info->min_persistent_ttl,
                                  "min_temp_entry_ttl", (json_int_t)info->min_temp_ttl,
                                  "max_entry_ttl", (json_int_t)info->max_entry_ttl,
                                  "ledger_entries", list, "events")
                       : NULL;
  *out = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
  json_decref(root);
  return *out ? SCP_OK : scp_fail(err, SCP_ERR_NOMEM, "out of memory");
}
