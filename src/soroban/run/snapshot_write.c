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

static void put32(scp_buf *b, uint32_t v) {
  uint8_t t[4];
  scp_put_be32(t, v);
  scp_buf_put(b, t, 4);
}

static void put_padded(scp_buf *b, const uint8_t *p, size_t n) {
  static const uint8_t zero[4];
  scp_buf_put(b, p, n);
  scp_buf_put(b, zero, (4 - n % 4) % 4);
}

/* The LedgerKey (into k) and LedgerEntry (into e) binaries of x; v0: a
 * code entry without cost inputs. */
static int entry_xdr(const scp_sentry *x, bool v0, scp_buf *k, scp_buf *e, scp_error *err) {
  put32(e, 0);                          /* last_modified_ledger_seq */
  put32(e, x->k.type);
  put32(k, x->k.type);
  switch (x->k.type) {
  case SCP_LK_CONTRACT_DATA: {
    scp_buf a = {0};
    put32(&a, x->k.account ? 0 : 1);
    if (x->k.account) put32(&a, 0);
    scp_buf_put(&a, x->k.id, 32);
    put32(e, 0);                        /* ext v0 */
    scp_buf_put(e, a.data, a.len);
    scp_buf_put(e, x->k.key, x->k.keylen);
    put32(e, x->k.dur);
    scp_buf_put(e, x->val, x->vallen);
    scp_buf_put(k, a.data, a.len);
    scp_buf_put(k, x->k.key, x->k.keylen);
    put32(k, x->k.dur);
    scp_buf_free(&a);
    break;
  }
  case SCP_LK_CONTRACT_CODE: {
    if (v0) {
      put32(e, 0);                      /* ext v0: no cost inputs */
      scp_buf_put(e, x->k.id, 32);
      put32(e, x->vallen);
      put_padded(e, x->val, x->vallen);
      scp_buf_put(k, x->k.id, 32);
      break;
    }
    scp_wasm_module *m = NULL;
    if (scp_wasm_load(x->val, x->vallen, &m, err)) return err->code;
    scp_wasm_cost_inputs ci;
    scp_wasm_cost_inputs_get(m, &ci);
    scp_wasm_module_free(m);
    const uint32_t v[] = {ci.n_instructions, ci.n_functions, ci.n_globals, ci.n_table_entries, ci.n_types,
                          ci.n_data_segments, ci.n_elem_segments, ci.n_imports, ci.n_exports,
                          ci.n_data_segment_bytes};
    put32(e, 1);                        /* ext v1: its cost inputs */
    put32(e, 0);
    put32(e, 0);
    for (size_t i = 0; i < SCP_ARRAY_LEN(v); i++) put32(e, v[i]);
    scp_buf_put(e, x->k.id, 32);
    put32(e, x->vallen);
    put_padded(e, x->val, x->vallen);
    scp_buf_put(k, x->k.id, 32);
    break;
  }
  case SCP_LK_ACCOUNT:
  case SCP_LK_TRUSTLINE:
    scp_buf_put(e, x->val, x->vallen);
    put32(k, 0);
    scp_buf_put(k, x->k.id, 32);
    if (x->k.type == SCP_LK_TRUSTLINE) scp_buf_put(k, x->k.key, x->k.keylen);
    break;
  default:
    return scp_fail(err, SCP_ERR_INTERNAL, "ledger entry of kind %u", x->k.type);
  }
  put32(e, 0);                          /* LedgerEntry ext v0 */
  return SCP_OK;
}

static json_t *entry_json(const scp_sentry *x, bool v0, bool pairs, scp_xdr_style style, scp_error *err) {
  scp_buf k = {0}, e = {0};
  json_t *kj = NULL, *ej = NULL, *out = NULL;
  int rc = entry_xdr(x, v0, &k, &e, err);
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
