/* sol_lib.c — the Solana library entry point of include/scprof.h: a chain
 * state (programs, accounts) that transactions run on. */
#include <stdlib.h>
#include <string.h>
#include "scprof.h"
#include "solana/scp_sol_tx.h"
#include "solana/scp_sol_progs.h"
#include "solana/scp_sol_sysvar.h"

struct scp_solana {
  scp_sol_tx_prog *progs;
  size_t nprogs, capprogs;
  scp_sol_account *accts;
  size_t naccts, capaccts;
  uint8_t blockhash[32];       /* the last transaction's; all zero before the first */
  bool started;
  scp_sol_progs *cache;        /* each program loaded once for the handle's life */
  /* litesvm's sysvar cache, made once: the runs only read it, and making
   * it per invocation was eight allocations a transaction */
  scp_sol_sysvars sysvars;
};

int scp_solana_new(scp_solana **out, scp_error *err) {
  scp_solana *s = calloc(1, sizeof *s);
  *out = NULL;
  if (!s) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  int rc = scp_sol_progs_new(&s->cache, err);
  if (!rc && scp_sol_sysvars_init(&s->sysvars)) {
    scp_sol_progs_free(s->cache);
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (rc) {
    free(s);
    return rc;
  }
  *out = s;
  return SCP_OK;
}

void scp_solana_free(scp_solana *s) {
  if (!s) return;
  scp_sol_progs_free(s->cache);   /* first: it has the programs' bytes pinned */
  for (size_t i = 0; i < s->nprogs; i++) {
    free((void *)s->progs[i].elf);
    free((void *)s->progs[i].name);
  }
  for (size_t i = 0; i < s->naccts; i++) scp_sol_account_free(&s->accts[i]);
  free(s->progs);
  free(s->accts);
  scp_sol_sysvars_free(&s->sysvars);
  free(s);
}

int scp_solana_add_program(scp_solana *s, const uint8_t id[32], const uint8_t *elf, size_t len,
                           int loader, const char *name, scp_error *err) {
  if (loader < SCP_SOL_LOADER_V1 || loader > SCP_SOL_LOADER_V3)
    return scp_fail(err, SCP_ERR_ARG, "loader %d: want 1, 2 or 3", loader);
  char key[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(id, key);
  uint8_t *copy = malloc(len ? len : 1);
  char *nm = strdup(name ? name : key);
  /* the copy is never written and lives as long as the cache: pinned */
  if (!copy || !nm || !scp_grow(&s->progs, &s->capprogs, s->nprogs + 1, sizeof *s->progs) ||
      scp_sol_progs_pin(s->cache, copy, len, err)) {
    free(copy);
    free(nm);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (len) memcpy(copy, elf, len);
  scp_sol_tx_prog *p = &s->progs[s->nprogs++];
  memset(p, 0, sizeof *p);
  memcpy(p->id, id, 32);
  p->elf = copy;
  p->len = len;
  p->name = nm;
  p->loader = (scp_sol_loader)loader;
  return SCP_OK;
}

static long find(const scp_solana *s, const uint8_t key[32]) {
  for (size_t i = 0; i < s->naccts; i++)
    if (!memcmp(s->accts[i].key, key, 32)) return (long)i;
  return -1;
}

/* the account's index, an empty system account when new */
static long index_of(scp_solana *s, const uint8_t key[32]) {
  long i = find(s, key);
  if (i >= 0) return i;
  if (s->naccts >= UINT16_MAX || !scp_grow(&s->accts, &s->capaccts, s->naccts + 1, sizeof *s->accts))
    return -1;
  scp_sol_account *a = &s->accts[s->naccts];
  memset(a, 0, sizeof *a);
  memcpy(a->key, key, 32);
  if (!(a->data = malloc(1))) return -1;
  return (long)s->naccts++;
}

int scp_solana_set_account(scp_solana *s, const uint8_t key[32], uint64_t lamports,
                           const uint8_t owner[32], const uint8_t *data, size_t len,
                           bool executable, scp_error *err) {
  long i = index_of(s, key);
  uint8_t *d = malloc(len ? len : 1);
  if (i < 0 || !d) {
    free(d);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  scp_sol_account *a = &s->accts[i];
  if (len) memcpy(d, data, len);
  free(a->data);
  a->data = d;
  a->len = len;
  a->lamports = lamports;
  memcpy(a->owner, owner, 32);
  a->executable = executable;
  return SCP_OK;
}

bool scp_solana_get_account(const scp_solana *s, const uint8_t key[32], uint64_t *lamports,
                            uint8_t owner[32], const uint8_t **data, size_t *len) {
  long i = find(s, key);
  if (i < 0) return false;
  const scp_sol_account *a = &s->accts[i];
  if (lamports) *lamports = a->lamports;
  if (owner) memcpy(owner, a->owner, 32);
  if (data) *data = a->data;
  if (len) *len = a->len;
  return true;
}

int scp_solana_transaction(scp_solana *s, const scp_solana_ix *ixs, size_t n, const char *title,
                           scp_profile **out, scp_solana_result *res, scp_error *err) {
  memset(res, 0, sizeof *res);
  res->failed = -1;
  if (out) *out = NULL;
  size_t total = 0;
  for (size_t k = 0; k < n; k++) total += ixs[k].naccounts;
  scp_sol_tx_ix *tix = calloc(n + 1, sizeof *tix);
  scp_sol_ixacct *acc = calloc(total + 1, sizeof *acc);
  int rc = SCP_OK;
  if (!tix || !acc) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (size_t k = 0, at = 0; k < n; k++) {
    tix[k] = (scp_sol_tx_ix){.program = {0}, .accts = acc + at, .naccts = ixs[k].naccounts, .data = ixs[k].data,
                             .len = ixs[k].len, .label = NULL};
    memcpy(tix[k].program, ixs[k].program_id, 32);
    for (size_t i = 0; i < ixs[k].naccounts; i++, at++) {
      long x = index_of(s, ixs[k].accounts[i].pubkey);
      if (x < 0) {
        rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
        goto done;
      }
      acc[at] = (scp_sol_ixacct){.index = (uint16_t)x, .signer = ixs[k].accounts[i].signer,
                                 .writable = ixs[k].accounts[i].writable};
    }
  }
  /* each transaction on a fresh blockhash, as litesvm after expire_blockhash */
  if (!s->started) scp_sol_blockhash_genesis(s->blockhash), s->started = true;
  scp_sol_blockhash_next(s->blockhash);
  scp_sol_tx_opts o = {.progs = s->progs, .nprogs = s->nprogs, .accts = s->accts, .naccts = s->naccts, .ixs = tix,
                       .nixs = n, .title = title, .profile = out != NULL, .blockhash = s->blockhash,
                       .sysvars = &s->sysvars, .cache = s->cache};
  scp_sol_tx_result r;
  if ((rc = scp_sol_tx_run(&o, &r, err))) goto done;
  res->cu = r.cu;
  res->cu_limit = r.cu_limit;
  res->failed = r.failed;
  scp_sol_tx_outcome(&r, res->outcome, sizeof res->outcome);
  res->logs = r.logs;
  res->nlogs = r.nlogs;
  r.logs = NULL;
  r.nlogs = 0;
  if (out) *out = r.profile, r.profile = NULL;
  scp_sol_tx_result_free(&r);
done:
  free(tix);
  free(acc);
  return rc;
}

void scp_solana_result_free(scp_solana_result *res) {
  for (size_t i = 0; i < res->nlogs; i++) free(res->logs[i]);
  free(res->logs);
  memset(res, 0, sizeof *res);
  res->failed = -1;
}
