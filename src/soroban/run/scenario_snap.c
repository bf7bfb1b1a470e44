/*
 * scenario_snap.c — a scenario whose starting ledger is a snapshot
 * ("snapshot": "FILE"): the snapshot's Wasm contracts become the
 * scenario's contracts, named by their ids (C...), so calls name them so;
 * "wasm": {"C...": "FILE.wasm"} stands Wasm files in for native stubs, as
 * --wasm does; the ledger info (protocol, sequence, timestamp, network id)
 * is the snapshot's.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/run/scp_scenario.h"
#include "soroban/run/scp_snapshot.h"

static int stand_ins(scp_snapshot *snap, const char *file, const json_t *w, scp_error *err) {
  const char *id;
  json_t *v;
  if (w && !json_is_object(w))
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: \"wasm\" is an object {\"C...\": \"FILE.wasm\"}", file);
  json_object_foreach((json_t *)w, id, v) {
    uint8_t key[32];
    scp_snap_contract *c = NULL;
    if (!scp_xdr_strkey_decode(id, SCP_STRKEY_CONTRACT, key) || !(c = scp_snapshot_contract(snap, key)))
      return scp_fail(err, SCP_ERR_MALFORMED, "%s: wasm.%s: not a contract of the snapshot", file, id);
    if (!json_is_string(v)) return scp_fail(err, SCP_ERR_MALFORMED, "%s: wasm.%s: a file name", file, id);
    char *path = scp_scenario_resolve(file, json_string_value(v));
    if (!path) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    int rc = scp_snapshot_stand_in(snap, c, path, err);
    free(path);
    if (rc) {
      scp_error_prefix(err, file);
      return rc;
    }
  }
  return SCP_OK;
}

/* Contract k of s from snapshot contract c: its name its id, its Wasm a
 * copy (the scenario owns its contracts' bytes), its spec read. */
static int take_contract(scp_scenario *s, size_t k, const scp_snap_contract *c, scp_error *err) {
  scp_scenario_contract *sc = &s->contracts[k];
  const uint8_t *w = c->stand_in ? c->own_wasm : c->wasm;
  s->ncontracts = k + 1;
  sc->same_file = k;
  sc->name = strdup(c->strkey);
  sc->path = strdup(c->stand_in ? c->stand_in : c->strkey);
  sc->wasm = malloc(c->len ? c->len : 1);
  if (!sc->name || !sc->path || !sc->wasm) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  memcpy(sc->wasm, w, c->len);
  sc->len = c->len;
  memcpy(s->ids[k], c->id, 32);
  s->files[k] = (scp_contract_file){.path = sc->path, .wasm = sc->wasm, .len = sc->len};
  return scp_spec_from_wasm(sc->wasm, sc->len, sc->path, &sc->spec, err);
}

int scp_scenario_snapshot(scp_scenario *s, const char *file, const char *snap_path,
                          const json_t *wasm, scp_error *err) {
  scp_snapshot *snap = NULL;
  char *path = scp_scenario_resolve(file, snap_path);
  int rc = path ? scp_snapshot_load(path, &snap, err) : scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  free(path);
  if (rc) {
    scp_error_prefix(err, file);
    return rc;
  }
  s->snapshot = snap;
  if ((rc = stand_ins(snap, file, wasm, err))) return rc;
  size_t n = 0;
  for (size_t i = 0; i < snap->ncontracts; i++)
    n += snap->contracts[i].kind == SCP_SNAP_WASM || snap->contracts[i].stand_in;
  s->contracts = calloc(n + 1, sizeof *s->contracts);
  s->files = calloc(n + 1, sizeof *s->files);
  s->ids = calloc(n + 1, sizeof *s->ids);
  if (!s->contracts || !s->files || !s->ids) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  /* in the order scp_snapshot_ledger gives the ledger's files */
  size_t k = 0;
  for (size_t i = 0; i < snap->ncontracts && !rc; i++) {
    const scp_snap_contract *c = &snap->contracts[i];
    if (c->kind == SCP_SNAP_WASM || c->stand_in) rc = take_contract(s, k++, c, err);
  }
  if (rc) return rc;
  scp_ledger_opts lo = {0};
  scp_snapshot_ledger_opts(snap, &lo);
  s->protocol = lo.protocol;
  s->sequence = lo.sequence;
  s->timestamp = lo.timestamp;
  s->has_network_id = true;
  memcpy(s->network_id, lo.network_id, 32);
  return SCP_OK;
}

int scp_scenario_snapshot_missing(const scp_scenario *s, const char *file, const char *where,
                                  const char *name, scp_error *err) {
  uint8_t key[32];
  scp_snap_contract *c = NULL;
  if (scp_xdr_strkey_decode(name, SCP_STRKEY_CONTRACT, key)) c = scp_snapshot_contract(s->snapshot, key);
  if (c && c->kind == SCP_SNAP_STUB)
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s: contract %s is a natively registered test contract "
                    "(its code entry is a stub, no Wasm): give its Wasm in \"wasm\": {\"%s\": "
                    "\"FILE.wasm\"}", file, where, name, name);
  return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s: %.60s is no Wasm contract of the snapshot%s", file, where, name,
                  c && c->kind == SCP_SNAP_ASSET ? " (an asset contract: not callable from a snapshot scenario yet)" : "");
}
