/*
 * bench_soltx.c — scprof's in-process side of bench/sol_litesvm.sh: a test
 * harness's loop through the public API (scp_solana_transaction), against
 * litesvm's node loop (bench/sol/litesvm_tx.js) on the same scenario.
 * Reads a Solana transaction scenario (the JSON `scprof profile --scenario`
 * reads: programs, accounts with hex data, transactions), sets the chain
 * up, runs every transaction in order and prints
 *   cu N          the first transaction's compute units
 *   loop_ns N     the loop's time (building the instructions is done before)
 * With "profiled", every transaction's profile is built (and dropped), as
 * a harness that profiles does; "plain" builds none.  A failed
 * transaction is an error (exit 1).
 *   usage: bench_soltx SCENARIO.json plain|profiled
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scprof.h"
#include "util/scp_codec.h"

static void die(const char *what) {
  fprintf(stderr, "bench_soltx: %s\n", what);
  exit(1);
}

static void key(json_t *j, uint8_t out[32]) {
  const char *s = json_string_value(j);
  if (!s || !scp_b58_decode32(s, strlen(s), out)) die("a bad base58 key");
}

/* hex data (empty when absent), read relative to nothing: the scenarios
 * the bench writes have hex only */
static uint8_t *hex(json_t *j, size_t *n) {
  const char *s = json_string_value(j);
  uint8_t *out = NULL;
  bool nomem = false;
  *n = 0;
  if (!s || !*s) return calloc(1, 1);
  if (!scp_hex_decode(s, strlen(s), &out, n, &nomem)) die("bad hex data");
  return out;
}

static uint8_t *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) die("cannot open a program");
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)len + 1);
  if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) die("cannot read a program");
  fclose(f);
  *n = (size_t)len;
  return b;
}

typedef struct tx {
  scp_solana_ix *ixs;
  size_t n;
} tx;

static void setup(scp_solana *s, json_t *scn, json_t **names, uint8_t (*ids)[32], size_t *nprogs) {
  scp_error err = {0};
  json_t *p;
  size_t i;
  json_array_foreach(json_object_get(scn, "programs"), i, p) {
    uint8_t id[32];
    size_t len;
    key(json_object_get(p, "id"), id);
    uint8_t *elf = read_all(json_string_value(json_object_get(p, "elf")), &len);
    const char *ld = json_string_value(json_object_get(p, "loader"));
    int loader = ld ? ld[1] - '0' : 3;
    if (scp_solana_add_program(s, id, elf, len, loader, json_string_value(json_object_get(p, "name")), &err))
      die(err.msg);
    free(elf);
    names[i] = json_object_get(p, "name");
    memcpy(ids[i], id, 32);
    *nprogs = i + 1;
  }
  json_t *a;
  json_array_foreach(json_object_get(scn, "accounts"), i, a) {
    uint8_t k[32], owner[32] = {0};
    size_t len;
    key(json_object_get(a, "pubkey"), k);
    if (json_object_get(a, "owner")) key(json_object_get(a, "owner"), owner);
    uint8_t *data = hex(json_object_get(a, "data"), &len);
    if (scp_solana_set_account(s, k, (uint64_t)json_integer_value(json_object_get(a, "lamports")), owner, data,
                               len, false, &err))
      die(err.msg);
    free(data);
  }
}

/* The instructions of transaction j, built once before the loop. */
static void build(json_t *t, json_t **names, uint8_t (*ids)[32], size_t nprogs, tx *out) {
  json_t *ixs = json_object_get(t, "instructions"), *ix;
  size_t i;
  out->n = json_array_size(ixs);
  out->ixs = calloc(out->n, sizeof *out->ixs);
  json_array_foreach(ixs, i, ix) {
    scp_solana_ix *x = &out->ixs[i];
    const char *prog = json_string_value(json_object_get(ix, "program"));
    size_t k = 0;
    while (k < nprogs && strcmp(json_string_value(names[k]), prog)) k++;
    if (k < nprogs) memcpy(x->program_id, ids[k], 32);
    else key(json_object_get(ix, "program"), x->program_id);
    x->data = hex(json_object_get(ix, "data"), &x->len);
    json_t *accts = json_object_get(ix, "accounts"), *a;
    size_t m;
    scp_solana_meta *metas = calloc(json_array_size(accts) + 1, sizeof *metas);
    json_array_foreach(accts, m, a) {
      key(json_object_get(a, "pubkey"), metas[m].pubkey);
      metas[m].signer = json_is_true(json_object_get(a, "signer"));
      metas[m].writable = json_is_true(json_object_get(a, "writable"));
    }
    x->accounts = metas;
    x->naccounts = json_array_size(accts);
  }
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "plain") && strcmp(argv[2], "profiled")))
    die("usage: bench_soltx SCENARIO.json plain|profiled");
  bool profiled = !strcmp(argv[2], "profiled");
  json_error_t je;
  json_t *scn = json_load_file(argv[1], 0, &je);
  if (!scn) die(je.text);
  scp_solana *s;
  scp_error err = {0};
  if (scp_solana_new(&s, &err)) die(err.msg);
  json_t *names[16];
  uint8_t ids[16][32];
  size_t nprogs = 0;
  if (json_array_size(json_object_get(scn, "programs")) > 16) die("at most 16 programs");
  setup(s, scn, names, ids, &nprogs);
  json_t *txs = json_object_get(scn, "transactions"), *t;
  size_t ntx = json_array_size(txs), j;
  tx *all = calloc(ntx + 1, sizeof *all);
  json_array_foreach(txs, j, t) build(t, names, ids, nprogs, &all[j]);
  uint64_t cu = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (j = 0; j < ntx; j++) {
    scp_solana_result res;
    scp_profile *p = NULL;
    if (scp_solana_transaction(s, all[j].ixs, all[j].n, "tx", profiled ? &p : NULL, &res, &err)) die(err.msg);
    if (res.failed >= 0 || strcmp(res.outcome, "ok")) die(res.outcome);
    if (!j) cu = res.cu;
    scp_solana_result_free(&res);
    scp_profile_destroy(p);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("cu %llu\nloop_ns %lld\n", (unsigned long long)cu,
         (long long)(t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec));
  for (j = 0; j < ntx; j++) {
    for (size_t i = 0; i < all[j].n; i++) {
      free((void *)all[j].ixs[i].data);
      free((void *)all[j].ixs[i].accounts);
    }
    free(all[j].ixs);
  }
  free(all);
  json_decref(scn);
  scp_solana_free(s);
  return 0;
}
