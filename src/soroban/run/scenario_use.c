/*
 * scenario_use.c — what a loaded scenario (scenario.c) gives its runs: the
 * ledger the calls share, each call's options, and its freeing.
 */
#include <openssl/sha.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/run/scp_scenario.h"
#include "soroban/run/scp_snapshot.h"
#include "soroban/run/sor_ledger.h"

scp_ledger *scp_scenario_ledger(const scp_scenario *s, const char *const *extra, size_t nextra) {
  scp_ledger *l = scp_ledger_new(s->files, s->ncontracts);
  if (!l) return NULL;
  if (s->snapshot) {   /* the snapshot's ledger, its contracts in the scenario's order */
    memcpy(l->ids, s->ids, s->ncontracts * sizeof *l->ids);
    if (scp_snapshot_fill(s->snapshot, l)) {
      scp_ledger_free(l);
      return NULL;
    }
  }
  l->seeds = s->storage;
  l->nseeds = s->nstorage;
  l->deploys = s->deploys;
  /* the file's asset contracts, then the command line's */
  const char **assets = l->owned_assets = calloc(s->nassets + nextra + 1, sizeof *assets);
  if (!assets || !scp_ledger_classic(l, s->accounts, s->naccounts, s->trustlines,
                                     s->ntrustlines, assets, s->nassets + nextra)) {
    scp_ledger_free(l);
    return NULL;
  }
  for (size_t i = 0; i < s->nassets; i++) assets[i] = s->assets[i];
  for (size_t i = 0; i < nextra; i++) assets[s->nassets + i] = extra[i];
  return l;
}

void scp_scenario_opts(const scp_scenario *s, size_t i, scp_soroban_opts *o,
                       scp_sor_session *sess) {
  const scp_scenario_call *call = &s->calls[i];
  memset(o, 0, sizeof *o);
  sess->main_asset = call->is_asset;
  if (call->is_asset) {
    o->wasm_path = s->assets[call->contract];
  } else {
    const scp_scenario_contract *sc = &s->contracts[call->contract];
    o->wasm_path = sc->path;
    o->wasm = sc->wasm;
    o->wasm_len = sc->len;
  }
  o->function = call->function;
  o->args = call->args;
  o->nargs = call->nargs;
  o->limits.cpu = s->cpu_limit;
  o->limits.mem = s->mem_limit;
  /* the session's ledger deploys every contract: no list of the others */
  o->ledger.contracts = NULL;
  o->ledger.ncontracts = 0;
  o->ledger.protocol = s->protocol;
  o->ledger.sequence = s->sequence;
  o->ledger.timestamp = s->timestamp;
  o->ledger.has_network_id = s->has_network_id;
  memcpy(o->ledger.network_id, s->network_id, 32);
  /* the call's own source account wins over the file's */
  o->auth.has_source_account = call->has_source || s->has_source;
  memcpy(o->auth.source_account, call->has_source ? call->source : s->source, 32);
  sess->main = call->contract;
  o->session = sess;
  o->auth.enforce = call->auth_enforce;
  o->auth.signers = call->auth_signers;
  o->auth.nsigners = call->nauth_signers;
  o->auth.signatures = call->auth_signatures;
  o->auth.nsignatures = call->nauth_signatures;
  o->auth.expiration = call->auth_expiration;
  o->auth.mock = call->auth_mock;
}

/* The refusal of call's arguments by the spec of code (hash h, NULL:
 * file k's), file k. */
static int refused(const scp_scenario *s, const scp_scenario_call *call, size_t k,
                   const uint8_t *h, int rc, const char *msg, scp_error *err) {
  char hex[65];
  uint8_t fh[32];
  if (!h) SHA256(s->contracts[k].wasm, s->contracts[k].len, fh);
  sodium_bin2hex(hex, sizeof hex, h ? h : fh, 32);
  return scp_fail(err, rc, "%s: %s runs code %s (%s) now, whose contractspecv0 refuses the "
                  "arguments: %s", call->function, s->contracts[call->contract].name, hex,
                  s->contracts[k].path, msg);
}

int scp_scenario_call_args(const scp_scenario *s, size_t i, scp_ledger *l, scp_soroban_opts *o,
                           scp_error *err) {
  const scp_scenario_call *call = &s->calls[i];
  if (call->is_asset || !call->nretyped) return SCP_OK;
  if (!l->deployed) {   /* before the first call: every contract runs its own code */
    if (call->args_rc)
      return refused(s, call, call->contract, NULL, call->args_rc, call->args_msg, err);
    return SCP_OK;
  }
  size_t *files = malloc(l->nfiles * sizeof *files);
  int rc = files ? scp_sor_ledger_code_files(l, files) : SCP_ERR_NOMEM;
  size_t now = rc ? 0 : files[call->contract];   /* the file whose code it runs */
  free(files);
  if (rc) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  /* code_files hashed the files */
  const uint8_t *h = l->file_hash[now], *own = l->file_hash[call->contract];
  for (size_t t = 0; memcmp(h, own, 32) && t < call->nretyped; t++) {
    const scp_scenario_typing *ty = &call->retyped[t];
    if (memcmp(ty->hash, h, 32)) continue;
    if (ty->rc) return refused(s, call, ty->code, h, ty->rc, ty->msg, err);
    o->args = ty->args;
    o->nargs = ty->nargs;
    return SCP_OK;
  }
  /* its own code (or one of none of the files: typed as its own) */
  if (call->args_rc)
    return refused(s, call, call->contract, own, call->args_rc, call->args_msg, err);
  return SCP_OK;
}

void scp_scenario_free(scp_scenario *s) {
  if (!s) return;
  for (size_t i = 0; i < s->ncalls; i++) {
    free(s->calls[i].function);
    free(s->calls[i].args);
    free(s->calls[i].auth_signers);
    free(s->calls[i].auth_signatures);
    for (size_t t = 0; t < s->calls[i].nretyped; t++) {
      free(s->calls[i].retyped[t].args);
      free(s->calls[i].retyped[t].msg);
    }
    free(s->calls[i].retyped);
    free(s->calls[i].args_msg);
  }
  free(s->calls);
  for (size_t i = 0; i < s->ncontracts; i++) {
    free(s->contracts[i].name);
    free(s->contracts[i].path);
    if (s->contracts[i].same_file != i) continue;   /* shared */
    free(s->contracts[i].wasm);
    scp_spec_free(s->contracts[i].spec);
  }
  for (size_t i = 0; s->deploys && i < s->ncontracts; i++) free((void *)s->deploys[i].ctor);
  free(s->deploys);
  free(s->contracts);
  free(s->files);
  free(s->storage);
  free(s->accounts);
  free(s->trustlines);
  for (size_t i = 0; i < s->nassets; i++) free(s->asset_names[i]);
  free(s->asset_names);
  free(s->assets);
  free(s->ids);
  for (size_t i = 0; i < s->ntexts; i++) free(s->texts[i]);
  free(s->texts);
  scp_snapshot_free(s->snapshot);
  free(s);
}
