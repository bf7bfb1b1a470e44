/*
 * sor_tx.c — reading a transaction envelope and its meta (scp_sortx.h).
 *
 * Any encoding is first made binary XDR (checked against the type), then
 * read in one JSON form, the codec's (xdr/scp_xdr.h): so a JSON file in
 * either integer style, base64 and binary all give the same transaction,
 * and every value was checked by the same codec.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/run/scp_sortx.h"
#include "soroban/core/host_lifecycle.h"
#include "util/scp_json.h"
#include "xdr/scp_xdr.h"

#define TX_MAX_BYTES (16u << 20)

enum { LK_ACCOUNT = 0, LK_TRUSTLINE = 1, LK_CONTRACT_DATA = 6, LK_CONTRACT_CODE = 7,
       ADDR_ACCOUNT = 0, ADDR_CONTRACT = 1 };

static bool is_base64_text(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= \t\r\n", p[i]) || !p[i])
      return false;
  return n > 0;
}

/* Binary p (n bytes) of type as JSON, errors under path. */
static int bin_json(const char *path, const scp_xdr_type *t, const uint8_t *p, size_t n, json_t **out,
                    scp_error *err) {
  int rc = scp_xdr_to_json(t, p, n, SCP_XDR_JSON_STRINGS, out, err);
  if (rc && rc != SCP_ERR_NOMEM) scp_error_prefix(err, path);
  return rc;
}

/* JSON v of type as binary into b, errors "PATH: JSON-PATH: problem". */
static int json_bin(const char *path, const scp_xdr_type *t, const json_t *v, scp_buf *b, scp_error *err) {
  int rc = scp_xdr_from_json(t, v, b, err);
  if (rc == SCP_OK && b->oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (rc && rc != SCP_ERR_NOMEM) scp_error_prefix(err, path);
  return rc;
}

/* Text, base64 or binary XDR of type (name) as the codec's JSON; *bytes
 * the binary size.  JSON text may be the value itself or, when rpc_key is
 * given, an RPC response whose result holds it as base64 under rpc_key
 * (*rpc then the result object, a new reference). */
static int read_xdr(const char *path, const char *type, const uint8_t *p, size_t n, json_t **out,
                    size_t *bytes, scp_error *err) {
  const scp_xdr_type *t = scp_xdr_find(type);
  scp_buf b = {0};
  int rc;
  size_t k = 0;
  while (k < n && strchr(" \t\r\n", p[k]) && p[k]) k++;
  if (k < n && (p[k] == '{' || p[k] == '"')) {
    json_t *j = NULL;
    if ((rc = scp_json_parse(p, n, path, &j, err))) return rc;
    rc = json_bin(path, t, j, &b, err);
    json_decref(j);
  } else if (is_base64_text(p, n)) {
    char *text = malloc(n + 1);
    uint8_t *raw = NULL;
    size_t len = 0;
    if (!text) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    memcpy(text, p, n);
    text[n] = 0;
    bool ok = scp_xdr_unbase64(text, &raw, &len);
    free(text);
    if (!ok) return scp_fail(err, SCP_ERR_MALFORMED, "%s: not base64 of a %s", path, type);
    scp_buf_put(&b, raw, len);
    free(raw);
    rc = b.oom ? scp_fail(err, SCP_ERR_NOMEM, "out of memory") : SCP_OK;
  } else {
    scp_buf_put(&b, p, n);
    rc = b.oom ? scp_fail(err, SCP_ERR_NOMEM, "out of memory") : SCP_OK;
  }
  if (!rc) rc = bin_json(path, t, (const uint8_t *)b.data, b.len, out, err);
  *bytes = b.len;
  scp_buf_free(&b);
  return rc;
}

/* ---- the envelope ---------------------------------------------------------------- */

typedef struct rdr {
  const char *path;
  scp_error *err;
  scp_sortx *t;
  scp_buf b;
} rdr;

static int bad(rdr *r, int code, const char *where, const char *what) {
  return scp_fail(r->err, code, "%s: %s: %s", r->path, where, what);
}

/* The member key of object o (NULL when o is no object or lacks it). */
static json_t *mem(const json_t *o, const char *key) {
  return json_is_object(o) ? json_object_get(o, key) : NULL;
}

/* The union arm of u when it is arm, else NULL. */
static json_t *arm(const json_t *u, const char *name) {
  return json_is_object(u) && json_object_size(u) == 1 ? json_object_get(u, name) : NULL;
}

static bool u32_of(const json_t *v, uint32_t *out) {
  uint64_t x;
  if (!scp_json_u64(v, &x) || x > UINT32_MAX) return false;
  *out = (uint32_t)x;
  return true;
}

/* The image of v as type into a new allocation *img (*len bytes). */
static int image(rdr *r, const char *type, const json_t *v, uint8_t **img, size_t *len) {
  r->b.len = 0;
  int rc = json_bin(r->path, scp_xdr_find(type), v, &r->b, r->err);
  if (rc) return rc;
  if (!(*img = malloc(r->b.len ? r->b.len : 1))) return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
  memcpy(*img, r->b.data, r->b.len);
  *len = r->b.len;
  return SCP_OK;
}

/* LedgerKey image b (n bytes) as the host's key. */
static int lkey_of(rdr *r, const char *where, const uint8_t *b, size_t n, scp_lkey *k) {
  memset(k, 0, sizeof *k);
  uint32_t type = scp_be32(b);
  k->type = (uint8_t)type;
  const uint8_t *key = NULL;
  size_t keylen = 0;
  if (type == LK_ACCOUNT || type == LK_TRUSTLINE) {
    memcpy(k->id, b + 8, 32);
    if (type == LK_TRUSTLINE) key = b + 40, keylen = n - 40;
  } else if (type == LK_CONTRACT_CODE) {
    memcpy(k->id, b + 4, 32);
  } else if (type == LK_CONTRACT_DATA) {
    uint32_t akind = scp_be32(b + 4);
    if (akind != ADDR_ACCOUNT && akind != ADDR_CONTRACT)
      return bad(r, SCP_ERR_UNSUPPORTED, where, "a contract data key of an address kind the host does not store");
    size_t alen = akind == ADDR_ACCOUNT ? 40 : 36;
    k->account = akind == ADDR_ACCOUNT;
    memcpy(k->id, b + 4 + (akind == ADDR_ACCOUNT ? 8 : 4), 32);
    key = b + 4 + alen;
    keylen = n - 4 - alen - 4;
    k->dur = (uint8_t)scp_be32(b + n - 4);
  } else {
    return bad(r, SCP_ERR_UNSUPPORTED, where, "a ledger key of a kind the host never reads");
  }
  if (keylen) {
    if (!(k->key = malloc(keylen))) return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
    memcpy(k->key, key, keylen);
    k->keylen = (uint32_t)keylen;
  }
  return SCP_OK;
}

static int footprint(rdr *r, const json_t *fp) {
  const json_t *ro = mem(fp, "read_only"), *rw = mem(fp, "read_write");
  scp_sortx *t = r->t;
  t->nro = (uint32_t)json_array_size(ro);
  t->nrw = (uint32_t)json_array_size(rw);
  if (!(t->foot = calloc(t->nro + t->nrw + 1, sizeof *t->foot))) return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
  /* SorobanResources: the two key arrays' lengths and keys, then
   * instructions, disk read bytes, write bytes */
  t->resources_len = 4 + 4 + 3 * 4;
  for (size_t i = 0; i < (size_t)t->nro + t->nrw; i++) {
    bool w = i >= t->nro;
    size_t k = w ? i - t->nro : i;
    char where[96];
    snprintf(where, sizeof where, "soroban_data.resources.footprint.%s[%zu]", w ? "read_write" : "read_only", k);
    uint8_t *img = NULL;
    size_t len = 0;
    int rc = image(r, "LedgerKey", json_array_get(w ? rw : ro, k), &img, &len);
    if (!rc) rc = lkey_of(r, where, img, len, &t->foot[i].k);
    t->resources_len += len;
    free(img);
    if (rc) return rc;
    t->foot[i].rw = w;
    t->nfoot = i + 1;
  }
  return SCP_OK;
}

/* SorobanTransactionData: the footprint and the declared resources. */
static int soroban_data(rdr *r, const json_t *ext) {
  const json_t *sd = arm(ext, "v1");
  if (!sd) return bad(r, SCP_ERR_MALFORMED, "tx.ext", "no SorobanTransactionData (ext v1): not a Soroban transaction");
  const json_t *res = mem(sd, "resources"), *x = arm(mem(sd, "ext"), "v1");
  scp_sortx *t = r->t;
  int64_t fee = 0;
  if (!u32_of(mem(res, "instructions"), &t->instructions) || !u32_of(mem(res, "disk_read_bytes"), &t->disk_read_bytes) ||
      !u32_of(mem(res, "write_bytes"), &t->write_bytes) || !scp_json_i64(mem(sd, "resource_fee"), &fee))
    return bad(r, SCP_ERR_INTERNAL, "soroban_data", "the codec's JSON lacks a resource");
  t->resource_fee = fee;
  const json_t *ar = mem(x, "archived_soroban_entries");
  t->narchived = json_array_size(ar);
  if (!(t->archived = calloc(t->narchived + 1, sizeof *t->archived))) return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < t->narchived; i++)
    if (!u32_of(json_array_get(ar, i), &t->archived[i]))
      return bad(r, SCP_ERR_INTERNAL, "soroban_data.ext.v1", "the codec's JSON lacks an index");
  int rc = footprint(r, mem(res, "footprint"));
  for (size_t i = 0; !rc && i < t->narchived; i++)
    if (t->archived[i] >= t->nrw) {
      char where[96];
      snprintf(where, sizeof where, "soroban_data.ext.v1.archived_soroban_entries[%zu]", i);
      rc = bad(r, SCP_ERR_MALFORMED, where, "not an index of the read-write footprint");
    }
  return rc;
}

/* The one operation: InvokeHostFunction of a contract function. */
static int operation(rdr *r, const json_t *ops) {
  scp_sortx *t = r->t;
  if (json_array_size(ops) != 1)
    return bad(r, SCP_ERR_UNSUPPORTED, "tx.operations", "a Soroban transaction has exactly one operation");
  const json_t *op = json_array_get(ops, 0);
  if (!json_is_null(mem(op, "source_account")))
    return bad(r, SCP_ERR_UNSUPPORTED, "tx.operations[0].source_account", "an operation source of its own is not supported");
  const json_t *ihf = arm(mem(op, "body"), "invoke_host_function");
  if (!ihf) return bad(r, SCP_ERR_UNSUPPORTED, "tx.operations[0].body", "not an invoke_host_function operation");
  const json_t *ic = arm(mem(ihf, "host_function"), "invoke_contract");
  if (!ic)
    return bad(r, SCP_ERR_UNSUPPORTED, "tx.operations[0].body.invoke_host_function.host_function",
               "only invoke_contract is run (not an upload or a contract creation)");
  const char *c = json_string_value(mem(ic, "contract_address")), *fn = json_string_value(mem(ic, "function_name"));
  if (!c || !scp_xdr_strkey_decode(c, SCP_STRKEY_CONTRACT, t->contract))
    return bad(r, SCP_ERR_UNSUPPORTED, "tx.operations[0].body.invoke_host_function.host_function.invoke_contract.contract_address",
               "not a contract address");
  memcpy(t->contract_strkey, c, 56);
  snprintf(t->function, sizeof t->function, "%s", fn ? fn : "");
  uint8_t *img = NULL;
  int hrc = image(r, "HostFunction", mem(ihf, "host_function"), &img, &t->host_fn_len);
  free(img);
  if (hrc) return hrc;
  const json_t *args = mem(ic, "args"), *auth = mem(ihf, "auth");
  size_t na = json_array_size(args), nu = json_array_size(auth);
  t->args = calloc(na + 1, sizeof *t->args);
  t->arg_imgs = calloc(na + 1, sizeof *t->arg_imgs);
  t->auth = calloc(nu + 1, sizeof *t->auth);
  t->auth_lens = calloc(nu + 1, sizeof *t->auth_lens);
  if (!t->args || !t->arg_imgs || !t->auth || !t->auth_lens) return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < na; i++) {
    size_t len = 0;
    int rc = image(r, "ScVal", json_array_get(args, i), &t->arg_imgs[i], &len);
    if (rc) return rc;
    t->args[i] = (scp_arg){.kind = SCP_ARG_SCVAL, .data = t->arg_imgs[i], .len = len};
    t->nargs = i + 1;
  }
  for (size_t i = 0; i < nu; i++) {
    int rc = image(r, "SorobanAuthorizationEntry", json_array_get(auth, i), &t->auth[i], &t->auth_lens[i]);
    if (rc) return rc;
    t->nauth = i + 1;
  }
  return SCP_OK;
}

/* A TransactionV1Envelope's transaction. */
static int transaction(rdr *r, const json_t *tx) {
  const char *src = json_string_value(mem(tx, "source_account"));
  if (!src || !scp_xdr_strkey_decode(src, SCP_STRKEY_ACCOUNT, r->t->source))
    return bad(r, SCP_ERR_UNSUPPORTED, "tx.source_account", "not an account (G...) source");
  int64_t fee = 0;
  if (!r->t->fee_bump && scp_json_i64(mem(tx, "fee"), &fee)) r->t->fee = fee;
  int rc = operation(r, mem(tx, "operations"));
  return rc ? rc : soroban_data(r, mem(tx, "ext"));
}

void scp_sortx_free(scp_sortx *t) {
  if (!t) return;
  for (size_t i = 0; i < t->nargs; i++) free(t->arg_imgs[i]);
  for (size_t i = 0; i < t->nauth; i++) free(t->auth[i]);
  for (size_t i = 0; i < t->nfoot; i++) scp_lkey_free(&t->foot[i].k);
  free(t->args);
  free(t->arg_imgs);
  free(t->auth);
  free(t->auth_lens);
  free(t->foot);
  free(t->archived);
  free(t->entry_lens);
  free(t);
}

int scp_sortx_load(const char *path, scp_sortx **out, scp_error *err) {
  uint8_t *p = NULL;
  size_t n = 0;
  json_t *j = NULL;
  *out = calloc(1, sizeof **out);
  if (!*out) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  int rc = scp_read_file_max(path, TX_MAX_BYTES, "a transaction envelope", &p, &n, err);
  if (!rc) rc = read_xdr(path, "TransactionEnvelope", p, n, &j, &(*out)->bytes, err);
  free(p);
  rdr r = {.path = path, .err = err, .t = *out};
  const json_t *v1 = arm(j, "tx"), *fb = arm(j, "tx_fee_bump");
  if (!rc && fb) {
    int64_t fee = 0;
    r.t->fee_bump = true;
    if (scp_json_i64(mem(mem(fb, "tx"), "fee"), &fee)) r.t->fee = fee;
    v1 = arm(mem(mem(fb, "tx"), "inner_tx"), "tx");
  }
  if (!rc && !v1)
    rc = bad(&r, SCP_ERR_UNSUPPORTED, "tx_v0", "a v0 envelope cannot hold a Soroban transaction");
  if (!rc && fb) {
    /* stellar-core runs the inner transaction as an envelope of its own
     * (FeeBumpTransactionFrame::convertInnerTxToV1): its fee counts that
     * envelope's size */
    json_t *inner = json_pack("{s:O}", "tx", v1);
    if (!inner) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    if (!rc) rc = json_bin(path, scp_xdr_find("TransactionEnvelope"), inner, &r.b, err);
    if (!rc) r.t->bytes = r.b.len;
    json_decref(inner);
  }
  if (!rc) rc = transaction(&r, mem(v1, "tx"));
  scp_buf_free(&r.b);
  json_decref(j);
  return rc;
}

/* ---- archived entries ---------------------------------------------------------------- */

static bool marked(const scp_sortx *t, size_t rw) {
  for (size_t i = 0; i < t->narchived; i++)
    if (t->archived[i] == rw) return true;
  return false;
}

int scp_sortx_check_archived(const scp_sortx *t, scp_host *h, scp_error *err) {
  uint32_t seq = h->opts.ledger_sequence;
  for (size_t i = 0; i < t->nfoot; i++) {
    const scp_lkey *k = &t->foot[i].k;
    bool persistent = k->type == SCP_LK_CONTRACT_CODE || (k->type == SCP_LK_CONTRACT_DATA && k->dur == SCP_DUR_PERSISTENT);
    const scp_sentry *e = persistent ? scp_storage_snapshot_entry(h, k) : NULL;
    bool rw = i >= t->nro;
    if (!e || !e->present || e->live_until >= seq || (rw && marked(t, i - t->nro))) continue;
    return scp_fail(err, SCP_ERR_HOST,
                    "footprint.%s[%zu]: the entry is archived (live until ledger %u, the ledger is %u) and the "
                    "transaction does not restore it (stellar-core: INVOKE_HOST_FUNCTION_ENTRY_ARCHIVED)",
                    rw ? "read_write" : "read_only", rw ? i - t->nro : i, e->live_until, seq);
  }
  return SCP_OK;
}

/* ---- the meta ------------------------------------------------------------------------ */

/* The result object of an RPC getTransaction response, or NULL when j is
 * not one. */
static const json_t *rpc_result(const json_t *j) {
  const json_t *res = mem(j, "result");
  if (json_is_object(res) && mem(j, "jsonrpc")) return res;
  return mem(j, "resultMetaXdr") ? j : NULL;
}

/* The meta's charges (SorobanTransactionMetaExt v1). */
static int meta_charges(const char *path, const json_t *m, scp_sortx_meta *out, scp_error *err) {
  const json_t *v = arm(m, "v4");
  out->version = v ? 4 : 3;
  if (!v) v = arm(m, "v3");
  if (!v) return scp_fail(err, SCP_ERR_UNSUPPORTED, "%s: a TransactionMeta v3 or v4 (of a Soroban transaction) is read", path);
  const json_t *sm = mem(v, "soroban_meta");
  if (json_is_null(sm) || !sm) return scp_fail(err, SCP_ERR_MALFORMED, "%s: soroban_meta: none (not a Soroban transaction's meta)", path);
  const json_t *x = arm(mem(sm, "ext"), "v1");
  if (!x) return SCP_OK;
  out->has_charges = scp_json_i64(mem(x, "total_non_refundable_resource_fee_charged"), &out->non_refundable) &&
                     scp_json_i64(mem(x, "total_refundable_resource_fee_charged"), &out->refundable) &&
                     scp_json_i64(mem(x, "rent_fee_charged"), &out->rent);
  return SCP_OK;
}

int scp_sortx_meta_load(const char *path, scp_sortx_meta *out, scp_error *err) {
  memset(out, 0, sizeof *out);
  uint8_t *p = NULL;
  size_t n = 0, bytes = 0;
  json_t *j = NULL, *m = NULL, *res = NULL;
  int rc = scp_read_file_max(path, TX_MAX_BYTES, "a transaction meta", &p, &n, err);
  if (rc) return rc;
  size_t k = 0;
  while (k < n && strchr(" \t\r\n", p[k]) && p[k]) k++;
  const json_t *rpc = NULL;
  if (k < n && p[k] == '{' && !scp_json_parse(p, n, path, &j, err)) rpc = rpc_result(j);
  if (rpc) {
    const char *mx = json_string_value(mem(rpc, "resultMetaXdr")), *rx = json_string_value(mem(rpc, "resultXdr"));
    if (!mx) rc = scp_fail(err, SCP_ERR_MALFORMED, "%s: result.resultMetaXdr: expected base64 text", path);
    if (!rc) rc = read_xdr(path, "TransactionMeta", (const uint8_t *)mx, strlen(mx), &m, &bytes, err);
    if (!rc && rx) rc = read_xdr(path, "TransactionResult", (const uint8_t *)rx, strlen(rx), &res, &bytes, err);
    if (!rc && res) out->has_fee_charged = scp_json_i64(mem(res, "fee_charged"), &out->fee_charged);
  } else {
    rc = read_xdr(path, "TransactionMeta", p, n, &m, &bytes, err);
  }
  free(p);
  if (!rc) rc = meta_charges(path, m, out, err);
  json_decref(j);
  json_decref(m);
  json_decref(res);
  return rc;
}
