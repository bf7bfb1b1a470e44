/*
 * cmd_snapshot.c — ledger snapshots on the command line: `scprof snapshot
 * ls FILE` (what a snapshot holds), and what `scprof profile --snapshot
 * FILE C... FUNCTION` needs: the snapshot read with its --wasm stand-ins,
 * the called contract's Wasm (for its spec), the ledger the call runs on.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "soroban/core/host_private.h"
#include "soroban/run/scp_snapshot.h"
#include "soroban/run/scp_spec.h"
#include "xdr/scp_xdr.h"

int cli_snapshot_open(const char *path, const char *const *subs, size_t nsubs, scp_snapshot **out) {
  scp_error err = {0};
  if (scp_snapshot_load(path, out, &err)) return cli_die(err.code, "%s", err.msg);
  for (size_t i = 0; i < nsubs; i++) {
    const char *eq = strchr(subs[i], '=');
    char id[57] = {0};
    uint8_t key[32];
    if (eq && eq - subs[i] == 56) memcpy(id, subs[i], 56);
    scp_snap_contract *c = NULL;
    if (!id[0] || !scp_xdr_strkey_decode(id, SCP_STRKEY_CONTRACT, key))
      return cli_die(SCP_ERR_USAGE, "--wasm %s: expected C...=FILE.wasm (a contract id of the snapshot)", subs[i]);
    if (!(c = scp_snapshot_contract(*out, key)))
      return cli_die(SCP_ERR_NOTFOUND, "--wasm %s: %s has no contract %s", subs[i], path, id);
    if (scp_snapshot_stand_in(*out, c, eq + 1, &err)) return cli_die(err.code, "%s", err.msg);
  }
  return 0;
}

int cli_snapshot_contract(scp_snapshot *s, const char *id, uint8_t **wasm, size_t *len,
                          const scp_snap_contract **out) {
  uint8_t key[32];
  scp_error err = {0};
  const scp_snap_contract *c;
  if (!scp_xdr_strkey_decode(id, SCP_STRKEY_CONTRACT, key))
    return cli_die(SCP_ERR_USAGE, "%s: with --snapshot the contract is its id (C..., 56 characters)", id);
  if (!(c = scp_snapshot_contract(s, key)))
    return cli_die(SCP_ERR_NOTFOUND, "%s: no contract %s in the snapshot", s->path, id);
  const uint8_t *w;
  if (scp_snapshot_wasm(s, c, &w, len, &err)) return cli_die(err.code, "%s", err.msg);
  if (!(*wasm = malloc(*len ? *len : 1))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  memcpy(*wasm, w, *len);
  *out = c;
  return 0;
}

bool cli_snapshot_session(scp_snapshot *s, const scp_snap_contract *main, scp_soroban_opts *so,
                          scp_sor_session *sess, scp_ledger **ledger, scp_contract_file **files) {
  scp_snapshot_ledger_opts(s, &so->ledger);
  *ledger = scp_snapshot_ledger(s, main, files);
  /* --asset contracts join the ledger's, as with accounts on the command line */
  if (!*ledger || !scp_ledger_classic(*ledger, NULL, 0, NULL, 0, so->ledger.assets, so->ledger.nassets))
    return false;
  *sess = (scp_sor_session){.ledger = *ledger, .main = 0};
  so->session = sess;
  so->ledger.nassets = 0;
  return true;
}

/* ---- scprof snapshot ls ------------------------------------------------------ */

static void list_functions(scp_buf *b, const scp_snap_contract *c) {
  const uint8_t *w = c->stand_in ? c->own_wasm : c->wasm;
  scp_spec *spec = NULL;
  scp_error err = {0};
  if (scp_spec_from_wasm(w, c->len, c->strkey, &spec, &err) || !spec) {
    scp_buf_puts(b, "    functions: (no contract spec)\n");
    scp_spec_free(spec);
    return;
  }
  scp_buf_puts(b, "    functions:");
  for (size_t i = 0; i < spec->nfns; i++) scp_buf_printf(b, " %s", spec->fns[i].name);
  scp_buf_putc(b, '\n');
  scp_spec_free(spec);
}

static void list_contract(scp_buf *b, const scp_snap_contract *c) {
  char hash[65];
  sodium_bin2hex(hash, sizeof hash, c->hash, 32);
  scp_buf_printf(b, "  %s  ", c->strkey);
  switch (c->kind) {
  case SCP_SNAP_WASM:
    scp_buf_printf(b, "wasm %s, %zu bytes", hash, c->len);
    break;
  case SCP_SNAP_STUB:
    scp_buf_printf(b, "native stub (wasm %s: no code; stand a Wasm in with --wasm %s=FILE.wasm)", hash, c->strkey);
    break;
  case SCP_SNAP_NO_CODE:
    scp_buf_printf(b, "wasm %s, not in the snapshot", hash);
    break;
  case SCP_SNAP_ASSET:
    scp_buf_puts(b, "asset contract");
    break;
  case SCP_SNAP_OTHER:
    scp_buf_puts(b, "external executable");
    break;
  case SCP_SNAP_NO_INSTANCE:
    scp_buf_puts(b, "no instance (data entries only)");
    break;
  }
  scp_buf_printf(b, "\n    storage: %zu persistent/temporary entries, instance storage %s", c->entries,
                 c->instance_storage_null ? "null" : "");
  if (!c->instance_storage_null) scp_buf_printf(b, "%zu entries", c->instance_entries);
  scp_buf_putc(b, '\n');
  if (c->kind == SCP_SNAP_WASM || c->stand_in) list_functions(b, c);
}

static void list_classic(scp_buf *b, const scp_snapshot *s) {
  for (size_t i = 0; i < s->nents; i++) {
    const scp_sentry *e = &s->ents[i];
    char sk[57];
    if (e->k.type != 0 && e->k.type != 1) continue;
    scp_xdr_strkey(SCP_STRKEY_ACCOUNT, e->k.id, sk);
    if (e->k.type == 0) {
      scp_buf_printf(b, "  account %s  balance %lld\n", sk, (long long)(int64_t)scp_be64(e->val + 36));
      continue;
    }
    json_t *asset = NULL;
    char *text = NULL;
    if (!scp_xdr_to_json(scp_xdr_find("TrustLineAsset"), e->k.key, e->k.keylen, SCP_XDR_JSON_STRINGS, &asset, NULL))
      text = json_dumps(asset, JSON_COMPACT);
    scp_buf_printf(b, "  trustline %s  %s  balance %lld\n", sk, text ? text : "?",
                   (long long)(int64_t)scp_be64(e->val + 36 + e->k.keylen));
    free(text);
    json_decref(asset);
  }
}

static int snapshot_ls(const char *path) {
  scp_snapshot *s;
  int status = cli_snapshot_open(path, NULL, 0, &s);
  if (status) return status;
  char nid[65];
  sodium_bin2hex(nid, sizeof nid, s->network_id, 32);
  scp_buf b = {0};
  scp_buf_printf(&b, "ledger: protocol %u, sequence %u, timestamp %llu\n  network id %s\n", s->protocol,
                 s->sequence, (unsigned long long)s->timestamp, nid);
  scp_buf_printf(&b, "  TTLs: min persistent %u, min temporary %u, max %u; base reserve %u\n",
                 s->min_persistent_ttl, s->min_temp_ttl, s->max_entry_ttl, s->base_reserve);
  scp_buf_printf(&b, "  %zu entries\ncontracts (%zu):\n", s->nents, s->ncontracts);
  for (size_t i = 0; i < s->ncontracts; i++) list_contract(&b, &s->contracts[i]);
  scp_buf_printf(&b, "accounts (%zu), trustlines (%zu):\n", s->naccounts, s->ntrustlines);
  list_classic(&b, s);
  status = b.oom ? cli_die(SCP_ERR_NOMEM, "out of memory") : cli_write_stdout(&b);
  scp_buf_free(&b);
  scp_snapshot_free(s);
  return status;
}

int cmd_snapshot(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[0], "ls")) return snapshot_ls(argv[1]);
  return cli_die(SCP_ERR_USAGE, "usage: scprof snapshot ls FILE.json");
}
