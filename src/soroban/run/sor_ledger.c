/*
 * sor_ledger.c — a scenario's ledger (scp_scenario.h): set up once before
 * the first call, as a real ledger would be (classic accounts and
 * trustlines, asset contracts, the contracts with their deployers, salts
 * and constructors, the "storage" entries last), then after each run the
 * entries it left (a failed run changes nothing, as a failed transaction).
 *
 * Set-up is not part of any profiled transaction: values become XDR
 * through scratch hosts on unlimited budgets; a contract with a
 * constructor, or deployed by a contract, is deployed by a set-up
 * transaction with its own Budget, run through sor_vm.c's VMs
 * (scp_sor_setup_run) and never attributed.
 */
#include "soroban/run/sor_ledger.h"
#include "soroban/run/sor_vm.h"
#include "soroban/core/host_private.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/run/sac_setup.h"

#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

void scp_sor_salt(size_t i, uint8_t salt[32]) {
  memset(salt, 0, 32);
  for (int k = 0; k < 8; k++) salt[31 - k] = (uint8_t)((uint64_t)i >> (8 * k));
}

void scp_sor_host_opts(const scp_soroban_opts *o, scp_host_opts *ho) {
  memset(ho, 0, sizeof *ho);
  ho->protocol = o->ledger.protocol;
  ho->ledger_sequence = o->ledger.sequence;
  ho->ledger_timestamp = o->ledger.timestamp;
  if (o->ledger.has_network_id) memcpy(ho->network_id, o->ledger.network_id, 32);
  ho->has_source_account = o->auth.has_source_account;
  if (o->auth.has_source_account) memcpy(ho->source_account, o->auth.source_account, 32);
  ho->lazy_read_through = true;   /* read-through entries stored encoded (host_lazy.c) */
  /* a ledger on a network has its TTL settings (a bad network is reported
   * by the run) */
  scp_fee_network net;
  bool on;
  if (scp_fee_network_from_opts(o, &net, &on, NULL) == SCP_OK && on) scp_fee_network_ttls(&net, ho);
  /* a snapshot's ledger has its own */
  const scp_ledger *l = scp_sor_session_ledger(o);
  if (l && l->has_ttls) {
    ho->min_temp_entry_ttl = l->min_temp_ttl;
    ho->min_persistent_entry_ttl = l->min_persistent_ttl;
    ho->max_entry_ttl = l->max_entry_ttl;
  }
}

/* A set-up transaction: a VM of its own with the one contract, the
 * callback run against its host. */
int scp_sor_setup_run(const scp_sor_setup *s, scp_error *err) {
  sor_vm vm;
  uint32_t mi;
  int rc = scp_sor_vm_open(&vm, s->cpu_limit, s->mem_limit, s->ho, err);
  if (rc) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (!rc) rc = scp_sor_add_module(&vm, s->id, s->wasm, s->len, s->path, &mi, err);
  if (!rc) rc = s->run(vm.host, &vm.run_err, s->ctx, err);
  scp_sor_vm_close(&vm);
  return rc;
}

scp_ledger *scp_ledger_new(const scp_contract_file *files, size_t n) {
  scp_ledger *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  l->files = files;
  l->nfiles = n;
  if (!(l->ids = calloc(n + 1, sizeof *l->ids)) || !(l->modcache = scp_sor_modcache_new())) {
    free(l->ids);
    free(l);
    return NULL;
  }
  return l;
}

bool scp_ledger_classic(scp_ledger *l, const scp_ledger_account *accounts, size_t naccounts,
                        const scp_ledger_trustline *trustlines, size_t ntrustlines,
                        const char *const *assets, size_t nassets) {
  l->accounts = accounts;
  l->naccounts = naccounts;
  l->trustlines = trustlines;
  l->ntrustlines = ntrustlines;
  l->assets = assets;
  l->nassets = nassets;
  free(l->asset_ids);
  l->asset_ids = calloc(nassets + 1, sizeof *l->asset_ids);
  return l->asset_ids != NULL;
}

static void ents_free(scp_sentry *e, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(e[i].k.key);
    free(e[i].val);
  }
  free(e);
}

void scp_ledger_free(scp_ledger *l) {
  if (!l) return;
  ents_free(l->ents, l->nents);
  scp_storage_snapshot_free(l->test_map, l->ntest_map);
  free(l->ids);
  free(l->asset_ids);
  free(l->owned_assets);
  free(l->v0_code);
  free(l->file_hash);
  scp_sor_modcache_free(l->modcache);
  free(l);
}

/* As the storage compares keys: the id, then the durability and key
 * bytes of contract data (an instance key's other fields are not part of
 * it) and the asset of a trustline (an account has one per asset). */
static bool key_same(const scp_lkey *a, const scp_lkey *b) {
  if (a->type != b->type || a->account != b->account || memcmp(a->id, b->id, 32)) return false;
  if (a->type == SCP_LK_CONTRACT_DATA && a->dur != b->dur) return false;
  if (a->type != SCP_LK_CONTRACT_DATA && a->type != SCP_LK_TRUSTLINE) return true;
  return a->keylen == b->keylen && (!a->keylen || !memcmp(a->key, b->key, a->keylen));
}

/* Set entry e of the list (n so far, room for it) to src's key and value. */
static int ent_set(scp_sentry *e, const scp_sentry *src) {
  uint8_t *key = NULL, *val = malloc(src->vallen ? src->vallen : 1);
  if (val && src->k.keylen && (key = malloc(src->k.keylen))) memcpy(key, src->k.key, src->k.keylen);
  if (!val || (src->k.keylen && !key)) {
    free(val);
    free(key);
    return SCP_ERR_NOMEM;
  }
  memcpy(val, src->val, src->vallen);
  free(e->k.key);
  free(e->val);
  *e = *src;
  e->k.key = key;
  e->val = val;
  e->present = true;
  return SCP_OK;
}

/* The ledger after a run: the entries it started with, and when the run
 * succeeded, its writes and deletions on top (a failed transaction
 * changes nothing). */
int scp_sor_ledger_save(scp_ledger *l, const scp_host *h, bool ok, bool signed_run) {
  size_t cap = h->nsnap + (ok ? h->nstore : 0), n = 0;
  scp_sentry *e = calloc(cap + 1, sizeof *e);
  if (!e) return SCP_ERR_NOMEM;
  int rc = SCP_OK;
  for (size_t i = 0; i < h->nsnap && !rc; i++) {
    if (!h->snap[i].present && !h->snap[i].val) continue;
    if (!(rc = ent_set(&e[n], &h->snap[i]))) n++;
  }
  for (size_t i = 0; ok && i < h->nstore && !rc; i++) {
    const scp_sentry *s = &h->store[i];
    /* recording auth's nonces stay behind: a later transaction signs with
     * a fresh nonce (and the PRNG here would draw the same one again); a
     * signed run's are consumed, kept */
    if (!signed_run && s->k.type == SCP_LK_CONTRACT_DATA && s->k.keylen == 12 &&
        !memcmp(s->k.key, "\0\0\0\x15", 4))
      continue;
    size_t k = 0;
    while (k < n && !key_same(&e[k].k, &s->k)) k++;
    if (s->present) {
      if (!(rc = ent_set(&e[k], s)) && k == n) n++;
    } else if (k < n) {
      free(e[k].k.key);
      free(e[k].val);
      e[k] = e[--n];
      memset(&e[n], 0, sizeof e[n]);
    }
  }
  if (rc) {
    ents_free(e, cap);
    return rc;
  }
  ents_free(l->ents, l->nents);
  l->ents = e;
  l->nents = n;
  l->deployed = true;
  return SCP_OK;
}

/* An initial entry: its key and value become ScVal XDR through a scratch
 * host on an unlimited budget, since setting up the ledger is not part of
 * the profiled transaction. */
static int seed_entry(scp_host *h, const scp_ledger *l, size_t i, scp_error *err) {
  const scp_ledger_seed *sd = &l->seeds[i];
  scp_budget shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  scp_host *tmp;
  if (scp_host_create(&shadow, NULL, &tmp)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint64_t kv, vv;
  scp_lkey k = {.type = SCP_LK_CONTRACT_DATA, .dur = sd->dur};
  uint8_t *val = NULL;
  size_t klen = 0, vlen = 0;
  memcpy(k.id, l->ids[sd->contract], 32);
  scp_error e = {0};
  int rc = scp_host_arg_to_val(tmp, &sd->key, &kv, &e);
  if (!rc) rc = scp_host_arg_to_val(tmp, &sd->val, &vv, &e);
  if (!rc) rc = scp_host_val_to_xdr_raw(tmp, kv, &k.key, &klen);
  if (!rc) rc = scp_host_val_to_xdr_raw(tmp, vv, &val, &vlen);
  k.keylen = (uint32_t)klen;
  uint32_t lu = sd->has_live_until ? sd->live_until
              : h->opts.ledger_sequence +
                (sd->dur == SCP_DUR_TEMPORARY ? h->opts.min_temp_entry_ttl : h->opts.min_persistent_entry_ttl) - 1;
  if (rc) rc = scp_fail(err, rc == SCP_ERR_NOMEM ? rc : SCP_ERR_ARG, "storage[%zu]: %s", i,
                       e.msg[0] ? e.msg : "cannot be stored");
  else if ((rc = scp_storage_seed(h, &k, val, (uint32_t)vlen, lu, false)))
    rc = scp_fail(err, rc, "out of memory");
  free(k.key);
  free(val);
  scp_host_destroy(tmp);
  return rc;
}

/* Put src among the ledger's entries, in place of one with its key. */
static int ents_put(scp_ledger *l, const scp_sentry *src) {
  size_t k = 0;
  while (k < l->nents && !key_same(&l->ents[k].k, &src->k)) k++;
  if (k == l->nents) {
    scp_sentry *e = realloc(l->ents, (l->nents + 1) * sizeof *e);
    if (!e) return SCP_ERR_NOMEM;
    l->ents = e;
    memset(&e[l->nents], 0, sizeof *e);
  }
  int rc = ent_set(&l->ents[k], src);
  if (rc == SCP_OK && k == l->nents) l->nents++;
  return rc;
}

/* The entries a scratch host was set up with, into the ledger. */
static int ents_take(scp_ledger *l, const scp_host *h) {
  int rc = SCP_OK;
  for (size_t i = 0; i < h->nsnap && !rc; i++)
    if (h->snap[i].present) rc = ents_put(l, &h->snap[i]);
  return rc;
}

int scp_sor_ledger_give(const scp_ledger *l, scp_host *h) {
  int rc = SCP_OK;
  for (size_t i = 0; i < l->nents && !rc; i++) rc = scp_storage_seed_entry(h, &l->ents[i]);
  return rc;
}

/* Contract i deployed by a set-up transaction, as `stellar contract
 * deploy` sends one: a CreateContract host function (with its
 * constructor from protocol 22 on) on the ledger so far, with its own
 * Budget (the scenario's limits), not profiled.  An account deployer is
 * the transaction's source, so its authorization needs no signature.  The
 * ledger afterwards is the one the transaction leaves. */
typedef struct deploy_ctx {
  scp_ledger *l;
  const scp_soroban_opts *o;
  size_t i;
} deploy_ctx;

static int deploy_tx(scp_host *h, const scp_error *inner, void *ctx, scp_error *err) {
  const deploy_ctx *c = ctx;
  scp_ledger *l = c->l;
  const scp_ledger_deploy *d = &l->deploys[c->i];
  const scp_contract_file *f = &l->files[c->i];
  const char *path = f->path ? f->path : "contract.wasm";
  static const uint8_t zero[32];
  if (scp_sor_ledger_give(l, h)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint32_t proto = c->o->ledger.protocol ? c->o->ledger.protocol : SCP_SOR_MAX_PROTOCOL;
  if (proto < 22 && d->nctor)     /* CreateContractV2 came with protocol 22 */
    return scp_fail(err, SCP_ERR_ARG, "%s: constructor arguments need protocol 22 or later (the "
                    "ledger's is %u)", d->where, proto);
  uint64_t *vals = calloc(d->nctor + 1, sizeof *vals);
  if (!vals) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint8_t hash[32], addr[33];
  SHA256(f->wasm, f->len, hash);
  addr[0] = d->by_contract ? 1 : 0;
  memcpy(addr + 1, d->by_contract ? l->ids[d->deployer_index] : d->deployer, 32);
  scp_hobj ao = {.tag = SCP_TAG_ADDRESS_OBJ, .len = 33};
  uint64_t a[4] = {0}, ret;
  scp_error e = {0};
  int rc = scp_host_set_base_prng_seed(h, zero);
  if (rc == SCP_OK) rc = scp_host_charge_push_context(h, NULL);
  bool frame = false;
  if (rc == SCP_OK) frame = (rc = scp_host_push_frame(h)) == SCP_OK;
  if (rc == SCP_OK) rc = (ao.u.bytes = malloc(33)) ? SCP_OK : SCP_ERR_NOMEM;
  if (rc == SCP_OK) {
    memcpy(ao.u.bytes, addr, 33);
    rc = scp_host_add_obj(h, &ao, &a[0]);
  }
  if (rc == SCP_OK) rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, hash, 32, &a[1]);
  if (rc == SCP_OK) rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, d->salt, 32, &a[2]);
  if (rc == SCP_OK) rc = scp_host_args_to_vals(h, d->ctor, d->nctor, vals, &e);
  if (rc == SCP_OK) rc = scp_host_vec_new_from_slice(h, vals, (uint32_t)d->nctor, &a[3]);
  if (rc == SCP_OK) {
    const char *fn = proto < 22 ? "create_contract" : "create_contract_with_constructor";
    rc = scp_host_call(h, (unsigned)scp_hostfn_find_name(fn), a, NULL, &ret, &e);
  }
  if (frame) {
    scp_host_pop_frame(h);
    scp_host_take_auth_emulation_rc(h, NULL);   /* signs nothing: changes no entry */
  }
  free(vals);
  if (rc == SCP_OK) {
    if ((rc = scp_sor_ledger_save(l, h, true, false))) rc = scp_fail(err, rc, "out of memory");
    return rc;
  }
  const scp_error *why = inner->msg[0] ? inner : &e;
  return scp_fail(err, rc == SCP_ERR_NOMEM ? rc : rc == SCP_ERR_ARG ? SCP_ERR_ARG : SCP_ERR_INVALID,
                  "%s: deploying %s failed: %s", d->where, path,
                  why->msg[0] ? why->msg : h->errmsg[0] ? h->errmsg : scp_strerror(rc));
}

static int deploy_run(scp_ledger *l, const scp_soroban_opts *o, size_t i, scp_error *err) {
  const scp_ledger_deploy *d = &l->deploys[i];
  const scp_contract_file *f = &l->files[i];
  static const uint8_t zero[32];
  scp_host_opts ho;
  scp_sor_host_opts(o, &ho);
  ho.has_source_account = !d->by_contract;
  memcpy(ho.source_account, d->by_contract ? zero : d->deployer, 32);
  deploy_ctx c = {.l = l, .o = o, .i = i};
  scp_sor_setup s = {.ho = &ho,
                     .id = l->ids[i], .wasm = f->wasm, .len = f->len,
                     .path = f->path ? f->path : "contract.wasm", .run = deploy_tx, .ctx = &c};
  scp_fee_budget_limits(o, &s.cpu_limit, &s.mem_limit);
  return scp_sor_setup_run(&s, err);
}

/* The instance seeds of contract ci: its instance entry (among the
 * ledger's entries, just deployed) gets storage Some(ScMap) of them, keys sorted in
 * the host's order, the image a frame that put them leaves behind
 * (host_instance.c).  Converted through a scratch host on an unlimited
 * budget, as seed_entry does. */
static int seed_instance(scp_ledger *l, size_t ci, scp_error *err) {
  uint32_t n = 0;
  for (size_t i = 0; i < l->nseeds; i++) n += l->seeds[i].contract == ci && l->seeds[i].dur == SCP_SEED_INSTANCE;
  if (!n) return SCP_OK;
  uint8_t kb[4];
  scp_lkey ik;
  scp_lc_instance_key(l->ids[ci], &ik, kb);
  scp_sentry *ent = NULL;
  for (size_t i = 0; i < l->nents && !ent; i++)
    if (l->ents[i].k.type == SCP_LK_CONTRACT_DATA && l->ents[i].k.keylen == 4 &&
        !memcmp(l->ents[i].k.key, kb, 4) && !memcmp(l->ents[i].k.id, ik.id, 32))
      ent = &l->ents[i];
  scp_executable ex;
  if (!ent || !scp_lc_parse_instance(ent->val, ent->vallen, &ex))
    return scp_fail(err, SCP_ERR_INTERNAL, "instance storage: no instance entry");
  scp_budget shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  scp_host *tmp;
  if (scp_host_create(&shadow, NULL, &tmp)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint64_t *kv = calloc(2 * (size_t)n, sizeof *kv);
  size_t at = scp_lc_instance_storage_at(&ex), len = at + 8;
  uint8_t *img = malloc(len);
  scp_error e = {0};
  int rc = kv && img ? SCP_OK : SCP_ERR_NOMEM;
  uint32_t k = 0;
  for (size_t i = 0; i < l->nseeds && !rc; i++) {
    const scp_ledger_seed *sd = &l->seeds[i];
    if (sd->contract != ci || sd->dur != SCP_SEED_INSTANCE) continue;
    uint64_t key, val;
    rc = scp_host_arg_to_val(tmp, &sd->key, &key, &e);
    if (!rc) rc = scp_host_arg_to_val(tmp, &sd->val, &val, &e);
    if (rc && rc != SCP_ERR_NOMEM) rc = scp_fail(&e, SCP_ERR_ARG, "storage[%zu]: %s", i, e.msg);
    /* insertion in key order */
    uint32_t pos = k;
    int ord = 1;
    while (!rc && pos > 0 && !(rc = scp_host_compare(tmp, kv[2 * (pos - 1)], key, &ord)) && ord > 0) {
      kv[2 * pos] = kv[2 * (pos - 1)];
      kv[2 * pos + 1] = kv[2 * (pos - 1) + 1];
      pos--;
    }
    if (!rc && !ord) rc = scp_fail(&e, SCP_ERR_ARG, "storage[%zu]: the instance storage key is given twice", i);
    if (!rc) {
      kv[2 * pos] = key;
      kv[2 * pos + 1] = val;
      k++;
    }
  }
  if (!rc) {
    memcpy(img, ent->val, at);
    scp_put_be32(img + at, 1);   /* Some */
    scp_put_be32(img + at + 4, n);
  }
  for (uint32_t i = 0; i < 2 * n && !rc; i++) {
    uint8_t *x = NULL, *g = NULL;
    size_t xl = 0;
    rc = scp_host_val_to_xdr_raw(tmp, kv[i], &x, &xl);
    if (!rc && !(g = realloc(img, len + xl))) rc = SCP_ERR_NOMEM;
    if (!rc) {
      img = g;
      memcpy(img + len, x, xl);
      len += xl;
    }
    free(x);
  }
  free(kv);
  scp_host_destroy(tmp);
  if (rc) {
    free(img);
    if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
    return scp_fail(err, SCP_ERR_ARG, "%s", e.msg[0] ? e.msg : "instance storage: cannot be stored");
  }
  free(ent->val);
  ent->val = img;
  ent->vallen = (uint32_t)len;
  return SCP_OK;
}

/* Contracts' "live_until": the TTL of their instance and code entries,
 * once deployed (a contract in use on a network has been extended: its
 * calls' extend_ttl then find nothing to do, and write nothing). */
static void contract_ttls(scp_ledger *l) {
  for (size_t i = 0; l->deploys && i < l->nfiles; i++) {
    if (!l->deploys[i].has_live_until) continue;
    uint8_t hash[32], kb[4];
    scp_lkey ck, ik;
    SHA256(l->files[i].wasm, l->files[i].len, hash);
    scp_lc_code_key(hash, &ck);
    scp_lc_instance_key(l->ids[i], &ik, kb);
    for (size_t k = 0; k < l->nents; k++)
      if (key_same(&l->ents[k].k, &ck) || key_same(&l->ents[k].k, &ik))
        l->ents[k].live_until = l->deploys[i].live_until;
  }
}

int scp_ledger_setup(scp_ledger *l, const scp_soroban_opts *o, scp_error *err) {
  if (l->deployed) return SCP_OK;
  static const uint8_t zero[32];
  uint8_t salt[32];
  scp_budget shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  scp_host_opts ho;
  scp_sor_host_opts(o, &ho);
  scp_host *tmp;
  if (scp_host_create(&shadow, &ho, &tmp)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  /* classic accounts and trustlines, asset contracts, then the contracts
   * that need no transaction; the code of the others (and of the upload-
   * only ones, which stay code) */
  int rc = scp_ledger_seed_classic(tmp, l, err);
  for (size_t i = 0; i < l->nassets && !rc; i++)
    rc = scp_sac_setup_text(tmp, l->assets[i], l->asset_ids[i], err);
  uint32_t lu = tmp->opts.ledger_sequence + tmp->opts.min_persistent_entry_ttl - 1;
  for (size_t i = 0; i < l->nfiles && !rc; i++) {
    const scp_ledger_deploy *d = l->deploys ? &l->deploys[i] : NULL;
    if (!d || (!d->by_contract && !d->construct && !d->upload_only)) {
      if (!d) scp_sor_salt(i, salt);
      rc = scp_host_deploy(tmp, l->files[i].wasm, l->files[i].len, d ? d->deployer : zero,
                           d ? d->salt : salt, l->ids[i]);
    } else {
      scp_host_contract_id(tmp, d->by_contract, d->by_contract ? l->ids[d->deployer_index] : d->deployer,
                           d->salt, l->ids[i]);
      uint8_t hash[32];
      scp_lkey ck;
      SHA256(l->files[i].wasm, l->files[i].len, hash);
      scp_lc_code_key(hash, &ck);
      rc = scp_storage_seed(tmp, &ck, l->files[i].wasm, (uint32_t)l->files[i].len, lu, false);
    }
    if (rc == SCP_ERR_NOMEM) rc = scp_fail(err, rc, "out of memory");
  }
  if (!rc && ents_take(l, tmp)) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  scp_host_destroy(tmp);
  l->deployed = rc == SCP_OK;
  /* the set-up transactions, in the file's order; a sdk-test Env runs
   * its constructors at its own e.register calls (sor_testenv.c) */
  for (size_t i = 0; i < l->nfiles && !rc && l->deploys && !o->sdk_test; i++)
    if ((l->deploys[i].by_contract || l->deploys[i].construct) && !l->deploys[i].upload_only)
      rc = deploy_run(l, o, i, err);
  if (!rc) contract_ttls(l);
  if (rc || !l->nseeds) return rc;
  /* "storage" last: what the ledger holds at the first call */
  if (scp_host_create(&shadow, &ho, &tmp)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < l->nseeds && !rc; i++)
    if (l->seeds[i].dur != SCP_SEED_INSTANCE) rc = seed_entry(tmp, l, i, err);
  if (!rc && ents_take(l, tmp)) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  scp_host_destroy(tmp);
  for (size_t i = 0; i < l->nfiles && !rc; i++) rc = seed_instance(l, i, err);
  return rc;
}

/* The SHA-256 of each of l's files, computed on first use: the files do
 * not change for the ledger's life. */
static const uint8_t (*file_hashes(scp_ledger *l))[32] {
  if (!l->file_hash && l->nfiles) {
    if (!(l->file_hash = malloc(l->nfiles * sizeof *l->file_hash))) return NULL;
    for (size_t i = 0; i < l->nfiles; i++) SHA256(l->files[i].wasm, l->files[i].len, l->file_hash[i]);
  }
  return (const uint8_t (*)[32])l->file_hash;
}

/* One pass over the entries, not one per contract: a call on a ledger of
 * many contracts stays linear in its size. */
int scp_sor_ledger_code_files(scp_ledger *l, size_t *out) {
  for (size_t i = 0; i < l->nfiles; i++) out[i] = i;
  const uint8_t (*fh)[32] = file_hashes(l);
  if (l->nfiles && !fh) return SCP_ERR_NOMEM;
  scp_bmap ids = {0}, hashes = {0};
  int rc = SCP_OK;
  for (size_t i = 0; i < l->nfiles && !rc; i++) {
    bool id_added, hash_added;
    size_t *v = scp_bmap_put(&ids, l->ids[i], 32, &id_added);
    size_t *h = v ? scp_bmap_put(&hashes, fh[i], 32, &hash_added) : NULL;
    if (!v || !h) rc = SCP_ERR_NOMEM;
    /* the first file with a code, as a search in file order finds it */
    else if ((*v = i), hash_added) *h = i;
  }
  for (size_t k = 0; k < l->nents && !rc; k++) {
    const scp_sentry *e = &l->ents[k];
    if (e->k.type != SCP_LK_CONTRACT_DATA || e->k.account) continue;
    const size_t *i = scp_bmap_get(&ids, e->k.id, 32);
    if (!i) continue;
    uint8_t kb[4];
    scp_lkey ik;
    scp_executable ex;
    scp_lc_instance_key(l->ids[*i], &ik, kb);
    if (!key_same(&e->k, &ik) || !scp_lc_parse_instance(e->val, e->vallen, &ex) ||
        ex.kind != SCP_EXEC_WASM)
      continue;
    /* its own file first, when two files hold the same code */
    if (memcmp(fh[*i], ex.hash, 32)) {
      const size_t *f = scp_bmap_get(&hashes, ex.hash, 32);
      if (f) out[*i] = *f;
    }
  }
  scp_bmap_free(&ids);
  scp_bmap_free(&hashes);
  return rc;
}
