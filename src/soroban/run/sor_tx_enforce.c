/*
 * sor_tx_enforce.c — a transaction run's storage as the network sets it
 * up (scp_sortx.h): what stellar-core hands the host (each footprint
 * entry encoded as the ledger holds it, the envelope's parts) and the
 * set-up e2e_invoke::invoke_host_function charges for it, booked as the
 * top-level frame tx:decode, outside the contract's call subtree, as
 * auth:entries is; and its teardown after the call, booked as tx:encode.
 * The charges are listed in host_enforce.c and host_teardown.c.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/run/scp_sortx.h"
#include "soroban/run/scp_snapshot.h"
#include "soroban/run/sor_vm.h"
#include "soroban/core/host_enforce.h"
#include "soroban/core/host_lifecycle.h"

static const char *kind_name(const scp_lkey *k) {
  return k->type == SCP_LK_CONTRACT_CODE ? "contract code" : k->type == SCP_LK_CONTRACT_DATA ? "contract data"
       : k->type == SCP_LK_ACCOUNT ? "account" : "trustline";
}

int scp_sortx_entry_lens(scp_sortx *t, const scp_snapshot *s, scp_error *err) {
  free(t->entry_lens);
  if (!(t->entry_lens = calloc(t->nfoot + 1, sizeof *t->entry_lens)))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < t->nfoot; i++) {
    const scp_sentry *e = NULL;
    for (size_t j = 0; j < s->nents && !e; j++)
      if (scp_lkey_same(&s->ents[j].k, &t->foot[i].k)) e = &s->ents[j];
    if (!e) continue;
    bool rw = i >= t->nro;
    if (!e->enc_len)
      return scp_fail(err, SCP_ERR_UNSUPPORTED,
                      "--tx: footprint.%s[%zu]: the %s entry is scprof's stand-in (--wasm), not the ledger's: "
                      "the network has no such entry to pass the host",
                      rw ? "read_write" : "read_only", rw ? i - t->nro : i, kind_name(&e->k));
    t->entry_lens[i] = e->enc_len;
  }
  return SCP_OK;
}

static scp_e2e_setup setup_of(const scp_sortx *t) {
  return (scp_e2e_setup){.resources_len = t->resources_len, .foot = t->foot, .nro = t->nro, .nrw = t->nrw,
                         .entry_lens = t->entry_lens, .restored = t->archived, .nrestored = t->narchived,
                         .auth_lens = t->auth_lens, .nauth = t->nauth, .host_fn_len = t->host_fn_len};
}

int scp_sortx_enforce(sor_vm *vm, const scp_sortx *t, int *run_rc, scp_error *run_err, scp_error *err) {
  scp_e2e_setup s = setup_of(t);
  if (!t->entry_lens && t->nfoot)
    return scp_fail(err, SCP_ERR_INTERNAL, "--tx: the footprint's entries were not looked up");
  scp_run_book(vm->run, 0);
  int rc = scp_storage_enforce_setup(vm->host, &s);
  uint32_t node;
  if (scp_sor_book_root_child(vm, SOR_TX_DECODE, false, &node)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
  if (rc != SCP_OK) {
    *run_rc = rc;
    scp_fail(run_err, rc, "the transaction's set-up (tx:decode) failed: %s", vm->host->errmsg);
  }
  return SCP_OK;
}

int scp_sortx_teardown(sor_vm *vm, const scp_sortx *t, bool call_ok, uint64_t result, int *run_rc,
                       scp_error *run_err, scp_error *err) {
  scp_e2e_setup s = setup_of(t);
  scp_run_book(vm->run, 0);
  int rc = scp_storage_enforce_teardown(vm->host, &s, call_ok, result);
  uint32_t node;
  if (scp_sor_book_root_child(vm, SOR_TX_ENCODE, true, &node)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
  if (rc != SCP_OK && *run_rc == SCP_OK) {
    *run_rc = rc;
    scp_fail(run_err, rc, "the transaction's teardown (tx:encode) failed: %s", vm->host->errmsg);
  }
  return SCP_OK;
}
