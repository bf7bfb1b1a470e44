/*
 * fuzz_xdr.h — one input through the XDR codec (src/xdr) and the snapshot
 * reader.  Byte 0 picks what the rest is: even, the binary of a type of
 * the subset (byte 1 picks which); odd, JSON text — for byte 0 = 1 a
 * ledger snapshot file read by scp_snapshot_load, for 7 a transaction
 * envelope file (any encoding) read by scp_sortx_load, for 9 a meta file
 * (or RPC reply) read by scp_sortx_meta_load, else a value of the picked
 * type.  Oracles besides the sanitizers: binary that decodes must
 * encode back from its JSON to the same bytes in both integer styles;
 * JSON that encodes must decode to binary that encodes to the same bytes
 * again; every failure has a message and a documented status (never
 * SCP_ERR_INTERNAL).  Used by the libFuzzer target (fuzz_xdr.c, `make
 * fuzz`) and the corpus replay (test_fuzz_replay.c, tests/fuzz/corpus-xdr).
 */
#ifndef SCP_FUZZ_XDR_H
#define SCP_FUZZ_XDR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soroban/run/scp_snapshot.h"
#include "soroban/run/scp_sortx.h"
#include "util/scp_json.h"
#include "xdr/scp_xdr.h"

static const char *const fuzz_xdr_names[] = {
  "ScVal", "LedgerKey", "LedgerEntry", "AccountEntry", "TrustLineEntry", "TrustLineAsset",
  "ContractCodeEntry", "ContractDataEntry", "ScAddress", "ScError", "ScContractInstance",
  "TransactionEnvelope", "TransactionMeta", "TransactionResult", "SorobanAuthorizationEntry",
  "SorobanTransactionData", "ConfigSettingEntry",
};

static void fuzz_xdr_fail_ok(int rc, const scp_error *e) {
  if (rc == SCP_ERR_INTERNAL || !e->msg[0]) abort();
}

/* bytes -> JSON (both styles) -> bytes: the same bytes. */
static void fuzz_xdr_binary(const scp_xdr_type *t, const uint8_t *p, size_t n) {
  for (int style = 0; style < 2; style++) {
    json_t *j = NULL;
    scp_error e = {0};
    int rc = scp_xdr_to_json(t, p, n, (scp_xdr_style)style, &j, &e);
    if (rc) {
      fuzz_xdr_fail_ok(rc, &e);
      return;
    }
    /* through text, as a file would carry it */
    char *text = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(j);
    if (!text) abort();
    json_t *back = NULL;
    if (scp_json_parse((const uint8_t *)text, strlen(text), "x", &back, &e)) abort();
    free(text);
    scp_buf b = {0};
    rc = scp_xdr_from_json(t, back, &b, &e);
    json_decref(back);
    if (rc || b.len != n || memcmp(b.data, p, n)) abort();
    scp_buf_free(&b);
  }
}

/* JSON -> bytes -> JSON -> bytes: the same bytes. */
static void fuzz_xdr_json(const scp_xdr_type *t, const uint8_t *p, size_t n) {
  json_t *j = NULL;
  scp_error e = {0};
  if (scp_json_parse(p, n, "x", &j, &e)) return;
  scp_buf b = {0};
  int rc = scp_xdr_from_json(t, j, &b, &e);
  json_decref(j);
  if (rc) fuzz_xdr_fail_ok(rc, &e);
  else fuzz_xdr_binary(t, (const uint8_t *)b.data, b.len);
  scp_buf_free(&b);
}

/* p (n bytes) as a new file at path (a mkstemp template); false when it
 * cannot be made. */
static bool fuzz_xdr_file(const uint8_t *p, size_t n, char *path) {
  int fd = mkstemp(path);
  if (fd < 0) return false;
  FILE *f = fdopen(fd, "w");
  if (f) {
    fwrite(p, 1, n, f);
    fclose(f);
  }
  return true;
}

static void fuzz_xdr_snapshot(const uint8_t *p, size_t n) {
  char path[] = "/tmp/scp_fuzz_snapXXXXXX";
  if (!fuzz_xdr_file(p, n, path)) return;
  scp_snapshot *s = NULL;
  scp_error e = {0};
  int rc = scp_snapshot_load(path, &s, &e);
  unlink(path);
  if (rc) {
    fuzz_xdr_fail_ok(rc, &e);
    if (strncmp(e.msg, path, strlen(path)) && rc != SCP_ERR_NOMEM) abort();   /* names the file */
    return;
  }
  scp_contract_file *files = NULL;
  scp_ledger *l = scp_snapshot_ledger(s, NULL, &files);
  scp_ledger_free(l);
  free(files);
  scp_snapshot_free(s);
}

/* An envelope (meta false) or meta file: a failure names the file. */
static void fuzz_xdr_tx(const uint8_t *p, size_t n, bool meta) {
  char path[] = "/tmp/scp_fuzz_txXXXXXX";
  if (!fuzz_xdr_file(p, n, path)) return;
  scp_sortx *t = NULL;
  scp_sortx_meta m;
  scp_error e = {0};
  int rc = meta ? scp_sortx_meta_load(path, &m, &e) : scp_sortx_load(path, &t, &e);
  unlink(path);
  if (rc) {
    fuzz_xdr_fail_ok(rc, &e);
    if (strncmp(e.msg, path, strlen(path)) && rc != SCP_ERR_NOMEM) abort();
  } else if (t && (t->nfoot != (size_t)t->nro + t->nrw || !t->function[0])) {
    abort();
  }
  scp_sortx_free(t);
}

static void fuzz_xdr_one(const uint8_t *data, size_t size) {
  if (size < 2) return;
  const scp_xdr_type *t = scp_xdr_find(fuzz_xdr_names[data[1] % SCP_ARRAY_LEN(fuzz_xdr_names)]);
  if (data[0] == 1) fuzz_xdr_snapshot(data + 1, size - 1);
  else if (data[0] == 7 || data[0] == 9) fuzz_xdr_tx(data + 1, size - 1, data[0] == 9);
  else if (data[0] & 1) fuzz_xdr_json(t, data + 2, size - 2);
  else fuzz_xdr_binary(t, data + 2, size - 2);
}

#endif
