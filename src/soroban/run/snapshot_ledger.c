/*
 * snapshot_ledger.c — a snapshot (scp_snapshot.h) as the ledger the runs
 * share: its entries as read, its TTL settings, its Wasm contracts as the
 * ledger's contracts; and a Wasm file standing in for a contract the
 * snapshot holds no code for (--wasm C...=FILE.wasm).
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "soroban/core/host_lifecycle.h"
#include "soroban/run/scp_snapshot.h"
#include "xdr/scp_xdr.h"

/* The instance entry of contract id among s's entries, or NULL. */
static scp_sentry *instance_entry(scp_snapshot *s, const uint8_t id[32]) {
  for (size_t i = 0; i < s->nents; i++) {
    scp_sentry *e = &s->ents[i];
    if (e->k.type == SCP_LK_CONTRACT_DATA && !e->k.account && !memcmp(e->k.id, id, 32) &&
        e->k.keylen == 4 && scp_be32(e->k.key) == 20)
      return e;
  }
  return NULL;
}

/* A code entry for wasm (keyed by hash), unless one is there. */
static int put_code(scp_snapshot *s, const uint8_t hash[32], const uint8_t *wasm, size_t len,
                    uint32_t live_until) {
  for (size_t i = 0; i < s->nents; i++)
    if (s->ents[i].k.type == SCP_LK_CONTRACT_CODE && !memcmp(s->ents[i].k.id, hash, 32)) return SCP_OK;
  scp_sentry *g = realloc(s->ents, (s->nents + 1) * sizeof *g);
  if (!g) return SCP_ERR_NOMEM;
  s->ents = g;
  scp_sentry *e = &g[s->nents];
  memset(e, 0, sizeof *e);
  e->k.type = SCP_LK_CONTRACT_CODE;
  memcpy(e->k.id, hash, 32);
  e->present = true;
  e->live_until = live_until;
  if (!(e->val = malloc(len ? len : 1))) return SCP_ERR_NOMEM;
  memcpy(e->val, wasm, len);
  e->vallen = (uint32_t)len;
  s->nents++;
  return SCP_OK;
}

int scp_snapshot_stand_in(scp_snapshot *s, scp_snap_contract *c, const char *path,
                          scp_error *err) {
  char sk[57];
  scp_xdr_strkey(SCP_STRKEY_CONTRACT, c->id, sk);
  if (c->kind == SCP_SNAP_ASSET || c->kind == SCP_SNAP_OTHER)
    return scp_fail(err, SCP_ERR_ARG, "--wasm %s=%s: %s is %s, not a Wasm contract", sk, path, sk,
                    c->kind == SCP_SNAP_ASSET ? "an asset contract" : "an external executable");
  if (c->stand_in) return scp_fail(err, SCP_ERR_ARG, "--wasm %s: given twice", sk);
  int rc = scp_read_file_max(path, SCP_MAX_WASM_BYTES, "a WASM module", &c->own_wasm, &c->len, err);
  if (rc) return rc;
  if (!(c->stand_in = strdup(path))) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  /* its instance names the stand-in's code, as a deploy of it would */
  scp_sentry *inst = instance_entry(s, c->id);
  uint8_t hash[32];
  SHA256(c->own_wasm, c->len, hash);
  memcpy(inst->val + 8, hash, 32);   /* ScVal tag, executable kind Wasm, its hash */
  memcpy(c->hash, hash, 32);
  if (put_code(s, hash, c->own_wasm, c->len, inst->live_until))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  return SCP_OK;
}

static bool runnable(const scp_snap_contract *c) {
  return c->stand_in || c->kind == SCP_SNAP_WASM;
}

scp_ledger *scp_snapshot_ledger(const scp_snapshot *s, const scp_snap_contract *main,
                                scp_contract_file **files) {
  size_t n = 0;
  for (size_t i = 0; i < s->ncontracts; i++) n += runnable(&s->contracts[i]);
  *files = calloc(n + 1, sizeof **files);
  const scp_snap_contract **order = calloc(n + 1, sizeof *order);
  size_t k = 0;
  if (order && main) order[k++] = main;
  for (size_t i = 0; order && i < s->ncontracts; i++)
    if (runnable(&s->contracts[i]) && &s->contracts[i] != main) order[k++] = &s->contracts[i];
  scp_ledger *l = *files && order ? scp_ledger_new(*files, k) : NULL;
  for (size_t i = 0; l && i < k; i++) {
    const scp_snap_contract *c = order[i];
    (*files)[i] = (scp_contract_file){.path = c->stand_in ? c->stand_in : c->strkey, .wasm = c->stand_in ? c->own_wasm : c->wasm,
                                       .len = c->len};
    memcpy(l->ids[i], c->id, 32);
  }
  free(order);
  if (l && scp_snapshot_fill(s, l)) {
    scp_ledger_free(l);
    return NULL;
  }
  return l;
}

int scp_snapshot_fill(const scp_snapshot *s, scp_ledger *l) {
  if (!(l->ents = calloc(s->nents + 1, sizeof *l->ents))) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < s->nents; i++) {
    scp_sentry *e = &l->ents[i];
    *e = s->ents[i];
    e->val = malloc(e->vallen ? e->vallen : 1);
    e->k.key = e->k.keylen ? malloc(e->k.keylen) : NULL;
    l->nents++;
    if (!e->val || (e->k.keylen && !e->k.key)) return SCP_ERR_NOMEM;
    memcpy(e->val, s->ents[i].val, e->vallen);
    if (e->k.keylen) memcpy(e->k.key, s->ents[i].k.key, e->k.keylen);
  }
  if (s->nv0_code) {
    if (!(l->v0_code = malloc(s->nv0_code * sizeof *l->v0_code))) return SCP_ERR_NOMEM;
    memcpy(l->v0_code, s->v0_code, s->nv0_code * sizeof *l->v0_code);
    l->nv0_code = s->nv0_code;
  }
  l->deployed = true;   /* the snapshot is the ledger: nothing to deploy */
  l->has_ttls = true;
  l->min_temp_ttl = s->min_temp_ttl;
  l->min_persistent_ttl = s->min_persistent_ttl;
  l->max_entry_ttl = s->max_entry_ttl;
  return SCP_OK;
}

void scp_snapshot_ledger_opts(const scp_snapshot *s, scp_ledger_opts *o) {
  o->protocol = s->protocol;
  o->sequence = s->sequence;
  o->timestamp = s->timestamp;
  o->has_network_id = true;
  memcpy(o->network_id, s->network_id, 32);
}
