/* sol_rpctx.c — getTransaction responses (scp_sol_rpctx.h). */
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "solana/scp_sol_rpctx.h"
#include "solana/scp_sol_wire.h"
#include "solana/sol_builtin.h"
#include "util/scp_json.h"

typedef struct ctx {
  const char *file;
  scp_error *err;
  scp_buf out;                 /* the wire bytes of a "json" transaction */
} ctx;

static int bad(ctx *c, const char *path, const char *what) {
  return scp_fail(c->err, SCP_ERR_MALFORMED, "%s: %s: %s", c->file, path, what);
}

bool scp_sol_rpctx_is(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n && strchr(" \t\r\n", p[i]) && p[i]) i++;
  return i < n && p[i] == '{';
}

/* base58 text of exactly n bytes */
static int put_b58(ctx *c, const json_t *v, size_t n, const char *path) {
  uint8_t *d = NULL;
  size_t len = 0;
  const char *s = json_string_value(v);
  if (!s || scp_sol_b58_decode(s, strlen(s), &d, &len) || len != n) {
    free(d);
    char what[64];
    snprintf(what, sizeof what, "want base58 text of %zu bytes", n);
    return bad(c, path, what);
  }
  scp_buf_put(&c->out, d, n);
  free(d);
  return SCP_OK;
}

/* a JSON array as a compact-u16 count of items; each item by fn */
static int put_vec(ctx *c, const json_t *a, const char *path, int (*fn)(ctx *, const json_t *, const char *)) {
  if (!json_is_array(a) || json_array_size(a) > 0xffff) return bad(c, path, "want an array");
  scp_sol_wire_put_cu16(&c->out, json_array_size(a));
  for (size_t i = 0; i < json_array_size(a); i++) {
    char sub[200];
    snprintf(sub, sizeof sub, "%s[%zu]", path, i);
    int rc = fn(c, json_array_get(a, i), sub);
    if (rc) return rc;
  }
  return SCP_OK;
}

static int put_u8(ctx *c, const json_t *v, const char *path) {
  uint64_t x;
  if (!scp_json_u64(v, &x) || x > 255) return bad(c, path, "want an integer from 0 to 255");
  scp_buf_putc(&c->out, (char)x);
  return SCP_OK;
}

static int put_key(ctx *c, const json_t *v, const char *path) { return put_b58(c, v, 32, path); }
static int put_sig(ctx *c, const json_t *v, const char *path) { return put_b58(c, v, 64, path); }

static int put_data(ctx *c, const json_t *v, const char *path) {
  uint8_t *d = NULL;
  size_t len = 0;
  const char *s = json_string_value(v);
  if (!s || scp_sol_b58_decode(s, strlen(s), &d, &len) || len > 0xffff) {
    free(d);
    return bad(c, path, "want base58 instruction data");
  }
  scp_sol_wire_put_cu16(&c->out, len);
  scp_buf_put(&c->out, d, len);
  free(d);
  return SCP_OK;
}

static int put_ix(ctx *c, const json_t *ix, const char *path) {
  static const char *const KEYS[] = {"programIdIndex", "accounts", "data", "stackHeight", NULL};
  char sub[240];
  int rc = scp_json_check_keys(ix, KEYS, c->file, path, c->err);
  if (rc) return rc;
  snprintf(sub, sizeof sub, "%s.programIdIndex", path);
  if ((rc = put_u8(c, json_object_get(ix, "programIdIndex"), sub))) return rc;
  snprintf(sub, sizeof sub, "%s.accounts", path);
  if ((rc = put_vec(c, json_object_get(ix, "accounts"), sub, put_u8))) return rc;
  snprintf(sub, sizeof sub, "%s.data", path);
  return put_data(c, json_object_get(ix, "data"), sub);
}

static int put_lookup(ctx *c, const json_t *l, const char *path) {
  static const char *const KEYS[] = {"accountKey", "writableIndexes", "readonlyIndexes", NULL};
  char sub[240];
  int rc = scp_json_check_keys(l, KEYS, c->file, path, c->err);
  if (rc) return rc;
  snprintf(sub, sizeof sub, "%s.accountKey", path);
  if ((rc = put_key(c, json_object_get(l, "accountKey"), sub))) return rc;
  snprintf(sub, sizeof sub, "%s.writableIndexes", path);
  if ((rc = put_vec(c, json_object_get(l, "writableIndexes"), sub, put_u8))) return rc;
  snprintf(sub, sizeof sub, "%s.readonlyIndexes", path);
  return put_vec(c, json_object_get(l, "readonlyIndexes"), sub, put_u8);
}

/* encoding "json": {"signatures", "message"} back into the wire format */
static int json_tx(ctx *c, const json_t *tx, bool v0, const char *path) {
  static const char *const TX[] = {"signatures", "message", NULL};
  static const char *const MSG[] = {"header", "accountKeys", "recentBlockhash", "instructions",
                                    "addressTableLookups", NULL};
  static const char *const HDR[] = {"numRequiredSignatures", "numReadonlySignedAccounts",
                                    "numReadonlyUnsignedAccounts", NULL};
  char sub[200];
  const json_t *msg = json_object_get(tx, "message"), *hdr = json_object_get(msg, "header");
  int rc = scp_json_check_keys(tx, TX, c->file, path, c->err);
  snprintf(sub, sizeof sub, "%s.message", path);
  if (!rc && !json_is_object(msg)) rc = bad(c, sub, "want an object");
  if (!rc) rc = scp_json_check_keys(msg, MSG, c->file, sub, c->err);
  if (!rc && json_is_object(json_array_get(json_object_get(msg, "accountKeys"), 0)))
    rc = bad(c, sub, "jsonParsed account keys cannot be turned back into a transaction (fetch with encoding base64 or json)");
  snprintf(sub, sizeof sub, "%s.message.header", path);
  if (!rc && !json_is_object(hdr)) rc = bad(c, sub, "want an object");
  if (!rc) rc = scp_json_check_keys(hdr, HDR, c->file, sub, c->err);
  snprintf(sub, sizeof sub, "%s.signatures", path);
  if (!rc) rc = put_vec(c, json_object_get(tx, "signatures"), sub, put_sig);
  if (!rc && v0) scp_buf_putc(&c->out, (char)0x80);
  for (int i = 0; !rc && i < 3; i++) {
    snprintf(sub, sizeof sub, "%s.message.header.%s", path, HDR[i]);
    rc = put_u8(c, json_object_get(hdr, HDR[i]), sub);
  }
  snprintf(sub, sizeof sub, "%s.message.accountKeys", path);
  if (!rc) rc = put_vec(c, json_object_get(msg, "accountKeys"), sub, put_key);
  snprintf(sub, sizeof sub, "%s.message.recentBlockhash", path);
  if (!rc) rc = put_key(c, json_object_get(msg, "recentBlockhash"), sub);
  snprintf(sub, sizeof sub, "%s.message.instructions", path);
  if (!rc) rc = put_vec(c, json_object_get(msg, "instructions"), sub, put_ix);
  snprintf(sub, sizeof sub, "%s.message.addressTableLookups", path);
  const json_t *lk = json_object_get(msg, "addressTableLookups");
  if (!rc && v0 && !lk) scp_sol_wire_put_cu16(&c->out, 0);
  else if (!rc && v0) rc = put_vec(c, lk, sub, put_lookup);
  else if (!rc && lk && !json_is_null(lk) && json_array_size(lk))
    rc = bad(c, sub, "a legacy transaction has no address table lookups");
  if (!rc && c->out.oom) rc = scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  return rc;
}

/* ["TEXT", "base64" | "base58"] */
static int encoded_tx(ctx *c, const json_t *tx, const char *path, scp_sol_chain *out) {
  const char *text = json_string_value(json_array_get(tx, 0)), *enc = json_string_value(json_array_get(tx, 1));
  if (json_array_size(tx) != 2 || !text || !enc) return bad(c, path, "want [\"TEXT\", \"base64\"]");
  size_t n = strlen(text), len = 0;
  if (!strcmp(enc, "base58")) {
    if (scp_sol_b58_decode(text, n, &out->wire, &out->len)) return bad(c, path, "not base58 text");
    return SCP_OK;
  }
  if (strcmp(enc, "base64")) return bad(c, path, "want encoding base64, base58 or json");
  out->wire = malloc(n + 1);
  if (!out->wire) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  if (sodium_base642bin(out->wire, n + 1, text, n, NULL, &len, NULL, sodium_base64_VARIANT_ORIGINAL))
    return bad(c, path, "not base64 text");
  out->len = len;
  return SCP_OK;
}

static int read_logs(ctx *c, const json_t *logs, scp_sol_chain *out) {
  if (!json_is_array(logs))
    return bad(c, "result.meta.logMessages", "want the log lines (the node recorded none: nothing to compare)");
  out->logs = calloc(json_array_size(logs) + 1, sizeof *out->logs);
  if (!out->logs) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < json_array_size(logs); i++) {
    const char *s = json_string_value(json_array_get(logs, i));
    if (!s) return bad(c, "result.meta.logMessages", "want strings");
    if (!(out->logs[out->nlogs++] = strdup(s))) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  }
  return SCP_OK;
}

/* one of meta.innerInstructions[].instructions, as a line of *lines */
static int inner_ix(ctx *c, long top, const json_t *ix, const char *path, sol_logs *lines) {
  static const char *const KEYS[] = {"programIdIndex", "accounts", "data", "stackHeight", NULL};
  uint64_t prog = 0, height = 0, a = 0;
  const json_t *accts = json_object_get(ix, "accounts");
  const char *data = json_string_value(json_object_get(ix, "data"));
  char sub[240];
  int rc = scp_json_check_keys(ix, KEYS, c->file, path, c->err);
  if (rc) return rc;
  snprintf(sub, sizeof sub, "%s.programIdIndex", path);
  if (!scp_json_u64(json_object_get(ix, "programIdIndex"), &prog) || prog > 255)
    return bad(c, sub, "want an integer from 0 to 255");
  snprintf(sub, sizeof sub, "%s.stackHeight", path);
  if (!scp_json_u64(json_object_get(ix, "stackHeight"), &height) || height < 2 || height > 9)
    return bad(c, sub, "want the stack height the node recorded, 2 to 9 (older nodes did not record it)");
  snprintf(sub, sizeof sub, "%s.accounts", path);
  if (!json_is_array(accts)) return bad(c, sub, "want an array");
  unsigned *idx = calloc(json_array_size(accts) + 1, sizeof *idx);
  uint8_t *bytes = NULL;
  size_t len = 0;
  if (!idx) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < json_array_size(accts) && !rc; i++) {
    if (!scp_json_u64(json_array_get(accts, i), &a) || a > 255) rc = bad(c, sub, "want integers from 0 to 255");
    idx[i] = (unsigned)a;
  }
  snprintf(sub, sizeof sub, "%s.data", path);
  if (!rc && (!data || scp_sol_b58_decode(data, strlen(data), &bytes, &len))) rc = bad(c, sub, "want base58 data");
  sol_inner in = {.top = top, .height = (unsigned)height, .program = (long)prog, .accts = idx,
                  .naccts = json_array_size(accts), .data = bytes, .len = len};
  if (!rc && sol_inner_add(lines, &in)) rc = scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  free(idx);
  free(bytes);
  return rc;
}

static int read_inner(ctx *c, const json_t *inner, scp_sol_chain *out) {
  static const char *const KEYS[] = {"index", "instructions", NULL};
  if (!inner || json_is_null(inner)) return SCP_OK;
  if (!json_is_array(inner)) return bad(c, "result.meta.innerInstructions", "want an array");
  sol_logs lines = {0};
  int rc = SCP_OK;
  for (size_t i = 0; i < json_array_size(inner) && !rc; i++) {
    uint64_t k;
    char path[120], sub[160];
    const json_t *e = json_array_get(inner, i), *list = json_object_get(e, "instructions");
    snprintf(path, sizeof path, "result.meta.innerInstructions[%zu]", i);
    if ((rc = scp_json_check_keys(e, KEYS, c->file, path, c->err))) break;
    if (!scp_json_u64(json_object_get(e, "index"), &k) || k > 255 || !json_is_array(list)) {
      rc = bad(c, path, "want {\"index\", \"instructions\"}");
      break;
    }
    for (size_t j = 0; j < json_array_size(list) && !rc; j++) {
      snprintf(sub, sizeof sub, "%s.instructions[%zu]", path, j);
      rc = inner_ix(c, (long)k, json_array_get(list, j), sub, &lines);
    }
  }
  if (rc) {
    sol_logs_free(&lines);
    return rc;
  }
  out->inner = lines.v;
  out->ninner = lines.n;
  return SCP_OK;
}

static int read_meta(ctx *c, const json_t *meta, scp_sol_chain *out) {
  static const char *const META[] = {
      "err", "status", "fee", "preBalances", "postBalances", "innerInstructions", "logMessages",
      "preTokenBalances", "postTokenBalances", "rewards", "loadedAddresses", "returnData",
      "computeUnitsConsumed", "costUnits", NULL};
  if (!json_is_object(meta)) return bad(c, "result.meta", "want the object the node recorded");
  int rc = scp_json_check_keys(meta, META, c->file, "result.meta", c->err);
  if (rc) return rc;
  if (!scp_json_u64(json_object_get(meta, "computeUnitsConsumed"), &out->cu))
    return bad(c, "result.meta.computeUnitsConsumed", "want the CU the chain charged (older nodes did not record it)");
  const json_t *e = json_object_get(meta, "err");
  if (!e) return bad(c, "result.meta.err", "missing");
  if (!(out->err = json_dumps(e, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)))
    return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  if ((rc = read_logs(c, json_object_get(meta, "logMessages"), out))) return rc;
  return read_inner(c, json_object_get(meta, "innerInstructions"), out);
}

static int read_result(ctx *c, const json_t *res, scp_sol_chain *out) {
  static const char *const RES[] = {"slot", "blockTime", "version", "transaction", "meta", NULL};
  if (!json_is_object(res)) return bad(c, "result", "want the transaction's object (was it found?)");
  int rc = scp_json_check_keys(res, RES, c->file, "result", c->err);
  if (rc) return rc;
  const json_t *tx = json_object_get(res, "transaction"), *ver = json_object_get(res, "version");
  if (json_is_array(tx)) {
    rc = encoded_tx(c, tx, "result.transaction", out);
  } else if (json_is_object(tx)) {
    bool v0 = json_is_integer(ver) && json_integer_value(ver) == 0;
    if (ver && !v0 && !(json_is_string(ver) && !strcmp(json_string_value(ver), "legacy")))
      return bad(c, "result.version", "want \"legacy\" or 0");
    rc = json_tx(c, tx, v0, "result.transaction");
    if (!rc) {
      out->wire = (uint8_t *)c->out.data, out->len = c->out.len;
      c->out = (scp_buf){0};
    }
  } else {
    return bad(c, "result.transaction", "want [\"BASE64\", \"base64\"] or the json encoding's object");
  }
  return rc ? rc : read_meta(c, json_object_get(res, "meta"), out);
}

int scp_sol_rpctx_read(const uint8_t *p, size_t n, const char *file, scp_sol_chain *out, scp_error *err) {
  static const char *const RPC[] = {"jsonrpc", "id", "result", NULL};
  memset(out, 0, sizeof *out);
  json_t *root = NULL;
  ctx c = {.file = file, .err = err, .out = {0}};
  int rc = scp_json_parse(p, n, file, &root, err);
  if (rc) return rc;
  if (json_object_get(root, "jsonrpc") || json_object_get(root, "error")) {
    if (json_object_get(root, "error")) rc = bad(&c, "error", "the node answered with an error, not a transaction");
    else rc = scp_json_check_keys(root, RPC, file, "", err);
    if (!rc) rc = read_result(&c, json_object_get(root, "result"), out);
  } else {
    rc = read_result(&c, root, out);
  }
  json_decref(root);
  scp_buf_free(&c.out);
  if (rc) scp_sol_chain_free(out);
  return rc;
}

void scp_sol_chain_free(scp_sol_chain *c) {
  free(c->wire);
  for (size_t i = 0; i < c->nlogs; i++) free(c->logs[i]);
  free(c->logs);
  free(c->err);
  for (size_t i = 0; i < c->ninner; i++) free(c->inner[i]);
  free(c->inner);
  memset(c, 0, sizeof *c);
}

void scp_sol_rpc_err(const scp_sol_tx_result *r, char *buf, size_t cap) {
  char name[96];
  unsigned k;
  if (r->failed >= 0) {
    scp_sol_ierr_name(r->ierr, name, sizeof name);
    if (r->ierr.kind == SCP_SOL_IERR_CUSTOM)
      snprintf(buf, cap, "{\"InstructionError\":[%ld,{\"Custom\":%u}]}", r->failed, r->ierr.custom);
    else
      snprintf(buf, cap, "{\"InstructionError\":[%ld,\"%s\"]}", r->failed, name);
  } else if (!r->txerr[0]) {
    snprintf(buf, cap, "null");
  } else if (sscanf(r->txerr, "DuplicateInstruction { index: %u }", &k) == 1) {
    snprintf(buf, cap, "{\"DuplicateInstruction\":%u}", k);
  } else if (sscanf(r->txerr, "InsufficientFundsForRent { account_index: %u }", &k) == 1) {
    snprintf(buf, cap, "{\"InsufficientFundsForRent\":{\"account_index\":%u}}", k);
  } else {
    snprintf(buf, cap, "\"%s\"", r->txerr);
  }
}
