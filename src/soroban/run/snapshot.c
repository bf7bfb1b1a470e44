/*
 * snapshot.c — a ledger snapshot (scp_snapshot.h) into the entries the host
 * keeps (struct scp_sentry): each ledger entry's JSON becomes LedgerEntry
 * XDR through the one codec (xdr/), and the parts the host reads are cut
 * from that binary: a contract-data entry's key and value ScVal images, a
 * code entry's Wasm, an account's AccountEntry, a trustline's
 * TrustLineEntry (keyed by its TrustLineAsset).
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>
#include <sodium.h>

#include "soroban/core/host_lifecycle.h"
#include "soroban/run/scp_snapshot.h"
#include "util/scp_json.h"
#include "wasm/scp_wasm.h"
#include "xdr/scp_xdr.h"

enum { LE_ACCOUNT = 0, LE_TRUSTLINE = 1, LE_CONTRACT_DATA = 6, LE_CONTRACT_CODE = 7 };

#define SNAPSHOT_MAX_BYTES (256u << 20)
static const char STUB_PREFIX[] = "test_contract_for_contract_id_";

typedef struct rdr {
  scp_snapshot *s;
  const char *file;
  char where[64];              /* "ledger.ledger_entries[3]" */
  scp_error *err;
} rdr;

static int bad(rdr *r, int code, const char *what, const char *detail) {
  return scp_fail(r->err, code, "%s: %s%s%s%s", r->file, r->where, what[0] ? ": " : "", what,
                  detail ? detail : "");
}

static int nomem(rdr *r) { return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory"); }

/* The length of the value of type name at p (checked), 0 on error. */
static size_t xdr_len(const char *name, const uint8_t *p, size_t len) {
  size_t used = 0;
  return scp_xdr_check(scp_xdr_find(name), p, len, &used, NULL) ? 0 : used;
}

/* JSON of type name as binary into out (cleared first), errors under
 * what ("entry", "key"). */
static int to_xdr(rdr *r, const char *name, const json_t *v, const char *what, scp_buf *out) {
  scp_error e = {0};
  out->len = 0;
  int rc = scp_xdr_from_json(scp_xdr_find(name), v, out, &e);
  if (rc == SCP_ERR_NOMEM) return nomem(r);
  if (rc) {
    char w[600];
    snprintf(w, sizeof w, "%s.%s", what, e.msg);
    return bad(r, rc, w, NULL);
  }
  return SCP_OK;
}

/* ---- one entry ------------------------------------------------------------ */

/* The host's key and value of the LedgerEntry binary p; *lk the
 * LedgerKey binary it has (for the old layout's key to match). */
typedef struct cut {
  scp_sentry e;
  const uint8_t *val;
  size_t vallen;
  const uint8_t *key;
  size_t keylen;
  bool has_cost_inputs;
  scp_wasm_cost_inputs ci;
  scp_buf lk;
} cut;

static int cut_contract_data(rdr *r, const uint8_t *b, size_t n, cut *c) {
  size_t at = 4;                        /* ext v0 */
  uint32_t akind = scp_be32(b + at);
  if (akind > 1) return bad(r, SCP_ERR_UNSUPPORTED, "an entry of an address kind the host does not store", NULL);
  c->e.k.account = akind == 0;
  memcpy(c->e.k.id, b + at + (akind == 0 ? 8 : 4), 32);
  size_t alen = akind == 0 ? 40 : 36;
  const uint8_t *addr = b + at;
  at += alen;
  c->key = b + at;
  c->keylen = xdr_len("ScVal", b + at, n - at);
  at += c->keylen;
  c->e.k.dur = (uint8_t)scp_be32(b + at);
  at += 4;
  c->val = b + at;
  c->vallen = xdr_len("ScVal", b + at, n - at);
  uint8_t t[4];
  scp_put_be32(t, LE_CONTRACT_DATA);
  scp_buf_put(&c->lk, t, 4);
  scp_buf_put(&c->lk, addr, alen);
  scp_buf_put(&c->lk, c->key, c->keylen);
  scp_buf_put(&c->lk, b + at - 4, 4);
  return SCP_OK;
}

static int cut_code(rdr *r, const uint8_t *b, size_t n, cut *c) {
  size_t at = 0;
  if (scp_be32(b) == 1) {
    uint32_t v[10];
    for (int i = 0; i < 10; i++) v[i] = scp_be32(b + 12 + 4 * i);
    c->ci = (scp_wasm_cost_inputs){
        .n_instructions = v[0], .n_functions = v[1], .n_globals = v[2], .n_table_entries = v[3],
        .n_types = v[4], .n_data_segments = v[5], .n_elem_segments = v[6], .n_imports = v[7],
        .n_exports = v[8], .n_data_segment_bytes = v[9]};
    c->has_cost_inputs = true;
    at = 52;
  } else {
    at = 4;
  }
  memcpy(c->e.k.id, b + at, 32);
  uint8_t t[4];
  scp_put_be32(t, LE_CONTRACT_CODE);
  scp_buf_put(&c->lk, t, 4);
  scp_buf_put(&c->lk, b + at, 32);
  at += 32;
  c->vallen = scp_be32(b + at);
  c->val = b + at + 4;
  return SCP_OK;
}

/* LedgerEntry binary b (n bytes) into c. */
static int cut_entry(rdr *r, const uint8_t *b, size_t n, cut *c) {
  uint32_t type = scp_be32(b + 4);
  const uint8_t *body = b + 8;
  size_t bn = n - 8;
  uint8_t t[4];
  scp_put_be32(t, type);
  c->e.k.type = (uint8_t)type;
  c->e.present = true;
  switch (type) {
  case LE_CONTRACT_DATA:
    return cut_contract_data(r, body, bn, c);
  case LE_CONTRACT_CODE:
    return cut_code(r, body, bn, c);
  case LE_ACCOUNT:
    memcpy(c->e.k.id, body + 4, 32);
    c->val = body;
    c->vallen = xdr_len("AccountEntry", body, bn);
    scp_buf_put(&c->lk, t, 4);
    scp_buf_put(&c->lk, body, 36);
    return SCP_OK;
  case LE_TRUSTLINE:
    memcpy(c->e.k.id, body + 4, 32);
    c->val = body;
    c->vallen = xdr_len("TrustLineEntry", body, bn);
    c->key = body + 36;
    c->keylen = xdr_len("TrustLineAsset", body + 36, bn - 36);
    scp_buf_put(&c->lk, t, 4);
    scp_buf_put(&c->lk, body, 36 + c->keylen);
    return SCP_OK;
  default:
    break;
  }
  static const char *const kinds[] = {"", "", "an offer", "a data", "a claimable balance",
                                      "a liquidity pool", "", "", "a config setting", "a TTL"};
  return bad(r, SCP_ERR_UNSUPPORTED, type < 10 ? kinds[type] : "an unknown",
             " entry: the host reads no such entry (remove it from the snapshot)");
}

static int grow_contract(rdr *r, const uint8_t id[32], scp_snap_contract **out) {
  scp_snapshot *s = r->s;
  for (size_t i = 0; i < s->ncontracts; i++)
    if (!memcmp(s->contracts[i].id, id, 32)) {
      *out = &s->contracts[i];
      return SCP_OK;
    }
  scp_snap_contract *g = realloc(s->contracts, (s->ncontracts + 1) * sizeof *g);
  if (!g) return nomem(r);
  s->contracts = g;
  *out = &g[s->ncontracts++];
  memset(*out, 0, sizeof **out);
  memcpy((*out)->id, id, 32);
  scp_xdr_strkey(SCP_STRKEY_CONTRACT, id, (*out)->strkey);
  (*out)->kind = SCP_SNAP_NO_INSTANCE;
  return SCP_OK;
}

/* Per contract: its kind (from its instance) and its entry counts. */
static int note_contract(rdr *r, const cut *c) {
  if (c->e.k.type != LE_CONTRACT_DATA || c->e.k.account) return SCP_OK;
  scp_snap_contract *sc = NULL;
  int rc = grow_contract(r, c->e.k.id, &sc);
  if (rc) return rc;
  bool instance = c->keylen == 4 && scp_be32(c->key) == 20;
  if (!instance) {
    sc->entries++;
    return SCP_OK;
  }
  scp_executable ex;
  if (!scp_lc_parse_instance(c->val, (uint32_t)c->vallen, &ex))
    return bad(r, SCP_ERR_UNSUPPORTED, "a contract instance the host cannot hold", NULL);
  sc->kind = ex.kind == SCP_EXEC_WASM ? SCP_SNAP_NO_CODE : ex.kind == SCP_EXEC_STELLAR_ASSET ? SCP_SNAP_ASSET : SCP_SNAP_OTHER;
  memcpy(sc->hash, ex.hash, 32);
  uint32_t at = scp_lc_instance_storage_at(&ex);
  sc->instance_storage_null = at + 4 <= c->vallen && !scp_be32(c->val + at);
  sc->instance_entries = at + 8 <= c->vallen && scp_be32(c->val + at) ? scp_be32(c->val + at + 4) : 0;
  return SCP_OK;
}

/* A Wasm code entry's cost inputs, when it has them, must be the module's
 * own (the host charges by them); one without them (ext v0) is noted, the
 * host charges it by its byte length. */
static int check_code(rdr *r, const cut *c) {
  if (!c->vallen) return SCP_OK;
  if (c->vallen >= sizeof STUB_PREFIX - 1 && !memcmp(c->val, STUB_PREFIX, sizeof STUB_PREFIX - 1)) return SCP_OK;
  scp_wasm_module *m = NULL;
  scp_error e = {0};
  if (scp_wasm_load(c->val, c->vallen, &m, &e))
    return bad(r, e.code == SCP_ERR_NOMEM ? e.code : SCP_ERR_MALFORMED, "contract code: ", e.msg);
  if (!c->has_cost_inputs) {
    scp_wasm_module_free(m);
    scp_snapshot *s = r->s;
    uint8_t (*g)[32] = realloc(s->v0_code, (s->nv0_code + 1) * sizeof *g);
    if (!g) return nomem(r);
    s->v0_code = g;
    memcpy(g[s->nv0_code++], c->e.k.id, 32);
    return SCP_OK;
  }
  scp_wasm_cost_inputs mine;
  scp_wasm_cost_inputs_get(m, &mine);
  scp_wasm_module_free(m);
  if (memcmp(&mine, &c->ci, sizeof mine))
    return bad(r, SCP_ERR_UNSUPPORTED, "contract code: the stored cost inputs are not the module's "
               "(this host charges by the module's)", NULL);
  return SCP_OK;
}

static bool same_key(const scp_lkey *a, const scp_lkey *b) {
  return a->type == b->type && a->account == b->account && !memcmp(a->id, b->id, 32) &&
         a->dur == b->dur && a->keylen == b->keylen && (!a->keylen || !memcmp(a->key, b->key, a->keylen));
}

static int add_entry(rdr *r, cut *c, uint32_t live_until) {
  scp_snapshot *s = r->s;
  scp_sentry e = c->e;
  e.k.key = (uint8_t *)c->key;
  e.k.keylen = (uint32_t)c->keylen;
  for (size_t i = 0; i < s->nents; i++)
    if (same_key(&s->ents[i].k, &e.k)) return bad(r, SCP_ERR_MALFORMED, "a second entry with the key of an earlier one", NULL);
  e.live_until = live_until;
  e.vallen = (uint32_t)c->vallen;
  e.val = malloc(c->vallen ? c->vallen : 1);
  e.k.key = c->keylen ? malloc(c->keylen) : NULL;
  scp_sentry *g = e.val && (!c->keylen || e.k.key) ? realloc(s->ents, (s->nents + 1) * sizeof *g) : NULL;
  if (!g) {
    free(e.val);
    free(e.k.key);
    return nomem(r);
  }
  memcpy(e.val, c->val, c->vallen);
  if (c->keylen) memcpy(e.k.key, c->key, c->keylen);
  s->ents = g;
  g[s->nents++] = e;
  s->naccounts += e.k.type == LE_ACCOUNT;
  s->ntrustlines += e.k.type == LE_TRUSTLINE;
  return SCP_OK;
}

/* One element of ledger_entries, in either layout. */
static int read_entry(rdr *r, const json_t *el, scp_buf *eb, scp_buf *kb) {
  const json_t *key = NULL, *entry = NULL, *lu = NULL;
  if (json_is_array(el) && json_array_size(el) == 2 && json_is_array(json_array_get(el, 1)) &&
      json_array_size(json_array_get(el, 1)) == 2) {
    key = json_array_get(el, 0);
    entry = json_array_get(json_array_get(el, 1), 0);
    lu = json_array_get(json_array_get(el, 1), 1);
  } else if (json_is_object(el)) {
    static const char *const known[] = {"entry", "live_until", NULL};
    scp_error e = {0};
    if (scp_json_check_keys(el, known, r->file, r->where, &e)) return scp_fail(r->err, e.code, "%s", e.msg);
    entry = json_object_get(el, "entry");
    lu = json_object_get(el, "live_until");
    if (!entry || !lu) return bad(r, SCP_ERR_MALFORMED, "expected {\"entry\", \"live_until\"}", NULL);
  } else {
    return bad(r, SCP_ERR_MALFORMED, "expected [key, [entry, live_until]] or {\"entry\", \"live_until\"}", NULL);
  }
  int rc = to_xdr(r, "LedgerEntry", entry, "entry", eb);
  if (!rc && key) rc = to_xdr(r, "LedgerKey", key, "key", kb);
  if (rc) return rc;
  cut c = {0};
  rc = cut_entry(r, (const uint8_t *)eb->data, eb->len, &c);
  c.e.enc_len = (uint32_t)eb->len;   /* what the network passes the host (--tx) */
  if (!rc && key && (c.lk.len != kb->len || memcmp(c.lk.data, kb->data, kb->len)))
    rc = bad(r, SCP_ERR_MALFORMED, "the key is not the entry's", NULL);
  if (!rc && c.lk.oom) rc = nomem(r);
  bool classic = c.e.k.type == LE_ACCOUNT || c.e.k.type == LE_TRUSTLINE;
  uint64_t v = 0;
  if (!rc && !json_is_null(lu) && (!scp_json_u64(lu, &v) || v > UINT32_MAX))
    rc = bad(r, SCP_ERR_MALFORMED, "live_until: expected a ledger sequence (u32) or null", NULL);
  if (!rc && json_is_null(lu) && !classic)
    rc = bad(r, SCP_ERR_MALFORMED, "live_until: a contract entry needs its TTL (null is for accounts and trustlines)", NULL);
  if (!rc && c.e.k.type == LE_CONTRACT_CODE) rc = check_code(r, &c);
  if (!rc) rc = add_entry(r, &c, (uint32_t)v);
  if (!rc) rc = note_contract(r, &c);
  scp_buf_free(&c.lk);
  return rc;
}

/* ---- the ledger object ------------------------------------------------------ */

static int read_u32(rdr *r, const json_t *o, const char *name, uint32_t *out) {
  uint64_t v;
  const json_t *j = json_object_get(o, name);
  snprintf(r->where, sizeof r->where, "ledger.%s", name);
  if (!j) return bad(r, SCP_ERR_MALFORMED, "missing", NULL);
  if (!scp_json_u64(j, &v) || v > UINT32_MAX) return bad(r, SCP_ERR_MALFORMED, "expected a u32", NULL);
  *out = (uint32_t)v;
  return SCP_OK;
}

static int read_info(rdr *r, const json_t *l) {
  scp_snapshot *s = r->s;
  static const char *const known[] = {"protocol_version", "sequence_number", "timestamp", "network_id",
                                      "base_reserve", "min_persistent_entry_ttl", "min_temp_entry_ttl",
                                      "max_entry_ttl", "ledger_entries", NULL};
  scp_error e = {0};
  if (scp_json_check_keys(l, known, r->file, "ledger", &e)) return scp_fail(r->err, e.code, "%s", e.msg);
  int rc = read_u32(r, l, "protocol_version", &s->protocol);
  if (!rc) rc = read_u32(r, l, "sequence_number", &s->sequence);
  if (!rc) rc = read_u32(r, l, "base_reserve", &s->base_reserve);
  if (!rc) rc = read_u32(r, l, "min_persistent_entry_ttl", &s->min_persistent_ttl);
  if (!rc) rc = read_u32(r, l, "min_temp_entry_ttl", &s->min_temp_ttl);
  if (!rc) rc = read_u32(r, l, "max_entry_ttl", &s->max_entry_ttl);
  if (rc) return rc;
  snprintf(r->where, sizeof r->where, "ledger.timestamp");
  if (!scp_json_u64(json_object_get(l, "timestamp"), &s->timestamp))
    return bad(r, SCP_ERR_MALFORMED, "expected a u64", NULL);
  snprintf(r->where, sizeof r->where, "ledger.network_id");
  const json_t *nid = json_object_get(l, "network_id");
  size_t got = 0;
  if (!json_is_string(nid) || json_string_length(nid) != 64 ||
      sodium_hex2bin(s->network_id, 32, json_string_value(nid), 64, NULL, &got, NULL) || got != 32)
    return bad(r, SCP_ERR_MALFORMED, "expected 64 hex digits", NULL);
  snprintf(r->where, sizeof r->where, "ledger.protocol_version");
  if (s->protocol < 20 || s->protocol > 28) {
    char d[96];
    snprintf(d, sizeof d, "%u: this host runs protocols 20 to 28", s->protocol);
    return bad(r, SCP_ERR_UNSUPPORTED, d, NULL);
  }
  if (s->min_persistent_ttl == 0 || s->min_temp_ttl == 0 || s->max_entry_ttl == 0)
    return bad(r, SCP_ERR_MALFORMED, "TTL settings of 0", NULL);
  return SCP_OK;
}

static int read_ledger(rdr *r, const json_t *l) {
  int rc = read_info(r, l);
  const json_t *list = json_object_get(l, "ledger_entries");
  if (!rc && !json_is_array(list)) {
    snprintf(r->where, sizeof r->where, "ledger.ledger_entries");
    rc = bad(r, SCP_ERR_MALFORMED, "expected an array", NULL);
  }
  scp_buf eb = {0}, kb = {0};
  for (size_t i = 0; !rc && i < json_array_size(list); i++) {
    snprintf(r->where, sizeof r->where, "ledger.ledger_entries[%zu]", i);
    rc = read_entry(r, json_array_get(list, i), &eb, &kb);
  }
  scp_buf_free(&eb);
  scp_buf_free(&kb);
  return rc;
}

/* Code for each Wasm contract: in the file, a stub, or missing. */
static void link_code(scp_snapshot *s) {
  for (size_t i = 0; i < s->ncontracts; i++) {
    scp_snap_contract *c = &s->contracts[i];
    if (c->kind != SCP_SNAP_NO_CODE) continue;
    for (size_t k = 0; k < s->nents; k++) {
      const scp_sentry *e = &s->ents[k];
      if (e->k.type != LE_CONTRACT_CODE || memcmp(e->k.id, c->hash, 32)) continue;
      bool stub = !e->vallen || (e->vallen >= sizeof STUB_PREFIX - 1 &&
                                 !memcmp(e->val, STUB_PREFIX, sizeof STUB_PREFIX - 1));
      c->kind = stub ? SCP_SNAP_STUB : SCP_SNAP_WASM;
      c->wasm = e->val;
      c->len = e->vallen;
    }
  }
}

int scp_snapshot_load(const char *path, scp_snapshot **out, scp_error *err) {
  *out = NULL;
  json_t *root;
  int rc = scp_json_load_file(path, SNAPSHOT_MAX_BYTES, "a ledger snapshot", &root, err);
  if (rc) return rc;
  scp_snapshot *s = calloc(1, sizeof *s);
  rdr r = {.s = s, .file = path, .err = err};
  if (!s || !(s->path = strdup(path))) rc = nomem(&r);
  /* a test snapshot holds the ledger with its generators, auth and
   * events; `stellar snapshot create` writes the ledger alone */
  const json_t *l = json_object_get(root, "ledger_entries") ? root : json_object_get(root, "ledger");
  static const char *const top[] = {"generators", "auth", "ledger", "events", NULL};
  if (!rc && l != root && json_is_object(root)) rc = scp_json_check_keys(root, top, path, NULL, err);
  if (!rc && !json_is_object(l))
    rc = scp_fail(err, SCP_ERR_MALFORMED, "%s: not a ledger snapshot (no \"ledger\" object with "
                  "\"ledger_entries\")", path);
  if (!rc) rc = read_ledger(&r, l);
  json_decref(root);
  if (rc) {
    scp_snapshot_free(s);
    return rc;
  }
  link_code(s);
  *out = s;
  return SCP_OK;
}

void scp_snapshot_free(scp_snapshot *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nents; i++) {
    free(s->ents[i].val);
    free(s->ents[i].k.key);
  }
  for (size_t i = 0; i < s->ncontracts; i++) {
    free(s->contracts[i].stand_in);
    free(s->contracts[i].own_wasm);
  }
  free(s->ents);
  free(s->contracts);
  free(s->v0_code);
  free(s->path);
  free(s);
}

scp_snap_contract *scp_snapshot_contract(scp_snapshot *s, const uint8_t id[32]) {
  for (size_t i = 0; i < s->ncontracts; i++)
    if (!memcmp(s->contracts[i].id, id, 32)) return &s->contracts[i];
  return NULL;
}

int scp_snapshot_wasm(const scp_snapshot *s, const scp_snap_contract *c, const uint8_t **wasm,
                      size_t *len, scp_error *err) {
  char sk[57];
  scp_xdr_strkey(SCP_STRKEY_CONTRACT, c->id, sk);
  if (c->stand_in || c->kind == SCP_SNAP_WASM) {
    *wasm = c->stand_in ? c->own_wasm : c->wasm;
    *len = c->len;
    return SCP_OK;
  }
  if (c->kind == SCP_SNAP_STUB)
    return scp_fail(err, SCP_ERR_NOTFOUND, "%s: contract %s is a natively registered test contract (its "
                    "code entry is a stub, no Wasm): give its Wasm with --wasm %s=FILE.wasm", s->path, sk, sk);
  if (c->kind == SCP_SNAP_ASSET)
    return scp_fail(err, SCP_ERR_NOTFOUND, "%s: contract %s is an asset contract (no Wasm)", s->path, sk);
  return scp_fail(err, SCP_ERR_NOTFOUND, "%s: contract %s: the snapshot has no code entry for its "
                  "Wasm: give it with --wasm %s=FILE.wasm", s->path, sk, sk);
}
