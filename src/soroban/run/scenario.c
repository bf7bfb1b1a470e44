/*
 * scenario.c — reading a scenario file (scp_scenario.h): contracts, calls
 * and their arguments, every one checked before anything runs, so a
 * mistake in the fifth call does not cost the first four's run time.
 */
#include <jansson.h>
#include <sodium.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/run/scp_scenario.h"
#include "soroban/run/scenario_ctx.h"
#include "soroban/run/arg_json.h"
#include "soroban/run/sac_setup.h"
#include "soroban/run/sor_ledger.h"
#include "util/scp_json.h"

typedef scp_scenario_ctx ctx;

static int bad(ctx *c, int code, const char *where, const char *what) {
  return scp_fail(c->err, code, "%s: %s%s%s", c->path, where ? where : "", where ? ": " : "",
                  what);
}

int scp_scenario_bad(ctx *c, int code, const char *where, const char *what) {
  return bad(c, code, where, what);
}

static int nomem(ctx *c) { return bad(c, SCP_ERR_NOMEM, NULL, "out of memory"); }

/* Keys of obj must be in known (NULL-ended): an unknown one is refused
 * with its JSON path and the nearest known key. */
static int check_keys(ctx *c, json_t *obj, const char *where, const char *const *known) {
  return scp_json_check_keys(obj, known, c->path, where, c->err);
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* n bytes the scenario keeps, carved from blocks of 64 KiB: 100,000
 * arguments are not 100,000 allocations.  NULL when out of memory. */
static void *carve(ctx *c, size_t n) {
  scp_scenario *s = c->s;
  if (n > s->text_room) {
    size_t size = n > 65536 ? n : 65536;
    char *b = scp_grow(&s->texts, &s->texts_cap, s->ntexts + 1, sizeof *s->texts) ? malloc(size) : NULL;
    if (!b) return NULL;
    s->texts[s->ntexts++] = b;
    s->text_at = b;
    s->text_room = size;
  }
  void *p = s->text_at;
  s->text_at += n;
  s->text_room -= n;
  return p;
}

/* A text the scenario keeps (scp_args point into it). */
static const char *keep(ctx *c, const char *text) {
  size_t n = strlen(text) + 1;
  char *d = carve(c, n);
  if (d) memcpy(d, text, n);
  return d;
}



const char *scp_scenario_keep(ctx *c, const char *text) { return keep(c, text); }

/* The contract (or, *asset, asset contract) called name, read so far:
 * its index, or SIZE_MAX. */
static size_t find_name(ctx *c, const char *name, bool *asset) {
  const size_t *v = scp_bmap_get(&c->names, name, strlen(name));
  *asset = v && (*v & 1);
  return v ? *v >> 1 : SIZE_MAX;
}

/* Take name for contract or asset index; false when it is taken (or out
 * of memory: *oom). */
static bool take_name(ctx *c, const char *name, size_t index, bool asset, bool *oom) {
  bool added;
  size_t *v = scp_bmap_put(&c->names, name, strlen(name), &added);
  *oom = !v;
  if (added) *v = index * 2 + asset;
  return added;
}

/* The contract or asset contract called name, as a strkey: false when
 * there is none (or its id is not known yet: a later contract). */
static bool named(ctx *c, const char *name, char sk[57]) {
  bool asset;
  size_t k = find_name(c, name, &asset);
  if (k == SIZE_MAX || (!asset && k >= c->nids)) return false;
  scp_host_contract_strkey(c->s->ids[asset ? c->s->ncontracts + k : k], sk);
  return true;
}

bool scp_scenario_named(ctx *c, const char *name, char sk[57]) { return named(c, name, sk); }

/* Put key (len bytes) in m: false when it was there already (or out of
 * memory: *oom). */
static bool first_time(scp_bmap *m, const void *key, size_t len, bool *oom) {
  bool added;
  *oom = !scp_bmap_put(m, key, len, &added);
  return added;
}

static int load_contract(ctx *c, json_t *j, size_t i) {
  static const char *const known[] = {"name", "wasm", "deployer", "salt", "constructor_args", "live_until",
                                      "upload_only", NULL};
  char where[48];
  snprintf(where, sizeof where, "contracts[%zu]", i);
  if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "a contract is an object "
                                     "{\"name\": ..., \"wasm\": ...}");
  if (json_object_get(j, "id"))   /* derived, as on chain: it cannot be chosen */
    return bad(c, SCP_ERR_UNSUPPORTED, where, "\"id\" is not supported: a contract's id is "
               "derived from its \"deployer\" and \"salt\"");
  int rc = check_keys(c, j, where, known);
  if (rc) return rc;
  json_t *name = json_object_get(j, "name"), *wasm = json_object_get(j, "wasm");
  if (!json_is_string(name) || !json_string_length(name))
    return bad(c, SCP_ERR_MALFORMED, where, "\"name\" must be a non-empty string");
  if (!json_is_string(wasm))
    return bad(c, SCP_ERR_MALFORMED, where, "\"wasm\" must be a file name");
  bool oom;
  if (!take_name(c, json_string_value(name), i, false, &oom))
    return oom ? nomem(c) : bad(c, SCP_ERR_MALFORMED, where, "two contracts or assets have this name");
  scp_scenario_contract *sc = &c->s->contracts[i];
  c->s->ncontracts = i + 1;
  sc->name = dup_str(json_string_value(name));
  sc->path = scp_scenario_resolve(c->path, json_string_value(wasm));
  if (!sc->name || !sc->path) return nomem(c);
  /* deployer and salt: the id, as create_contract derives it */
  scp_ledger_deploy *d = &c->s->deploys[i];
  d->where = keep(c, where);
  if (!d->where) return nomem(c);
  scp_sor_salt(i, d->salt);   /* the default: the file's order */
  json_t *dep = json_object_get(j, "deployer"), *salt = json_object_get(j, "salt");
  if (dep) {
    const char *t = json_is_string(dep) ? json_string_value(dep) : "";
    bool asset;
    d->deployer_index = find_name(c, t, &asset);
    d->by_contract = !asset && d->deployer_index < i;
    if (!d->by_contract) d->deployer_index = SIZE_MAX;
    if (!d->by_contract && !scp_account_strkey(t, d->deployer))
      return bad(c, SCP_ERR_MALFORMED, where, "\"deployer\" must be an account strkey (G...) or "
                 "the name of an earlier contract");
  }
  if (salt && !(json_is_string(salt) && scp_scenario_hex32(json_string_value(salt), d->salt)))
    return bad(c, SCP_ERR_MALFORMED, where, "\"salt\" is 32 bytes as 64 hex digits");
  json_t *up = json_object_get(j, "upload_only");
  if (up && !json_is_boolean(up)) return bad(c, SCP_ERR_MALFORMED, where, "\"upload_only\" is true or false");
  d->upload_only = json_is_true(up);
  /* its id is where a call's create_contract (a factory's) with this
   * deployer and salt puts an instance of it */
  if (d->upload_only && json_object_get(j, "constructor_args"))
    return bad(c, SCP_ERR_MALFORMED, where, "an \"upload_only\" contract is not deployed: no "
               "\"constructor_args\" (the call that deploys it gives them)");
  json_t *lu = json_object_get(j, "live_until");
  if (lu) {
    if (!json_is_integer(lu) || json_integer_value(lu) < 0 || json_integer_value(lu) > UINT32_MAX)
      return bad(c, SCP_ERR_MALFORMED, where, "\"live_until\" must be a ledger number");
    d->has_live_until = true;
    d->live_until = (uint32_t)json_integer_value(lu);
  }
  if (c->s->sdk_test && !dep && !salt && !lu && !d->upload_only) {
    /* the test's e.register: generator address i + 1, salt zero */
    uint8_t gen[32] = { 0 };
    d->test_gen = (uint32_t)i + 1;
    scp_put_be64(gen + 24, d->test_gen);
    memset(d->salt, 0, 32);
    scp_host_contract_id(c->ids_host, true, gen, d->salt, c->s->ids[i]);
  } else {
    scp_host_contract_id(c->ids_host, d->by_contract,
                         d->by_contract ? c->s->ids[d->deployer_index] : d->deployer, d->salt,
                         c->s->ids[i]);
  }
  if (!first_time(&c->ids, c->s->ids[i], 32, &oom))
    return oom ? nomem(c) : bad(c, SCP_ERR_MALFORMED, where, "the same deployer and salt as "
                                "an earlier contract: the same contract id");
  c->nids = i + 1;
  /* a file read before: its bytes and spec are shared */
  const size_t *first = scp_bmap_get(&c->files, sc->path, strlen(sc->path));
  if (first) {
    const scp_scenario_contract *o = &c->s->contracts[*first];
    sc->wasm = o->wasm;
    sc->len = o->len;
    sc->spec = o->spec;
    sc->same_file = *first;
    return SCP_OK;
  }
  sc->same_file = i;
  /* the file's errors name the scenario and the contract, as the others do */
  if ((rc = scp_read_file_max(sc->path, SCP_MAX_WASM_BYTES, "a WASM module", &sc->wasm, &sc->len, c->err)) ||
      (rc = scp_spec_from_wasm(sc->wasm, sc->len, sc->path, &sc->spec, c->err))) {
    scp_error_prefix(c->err, where);
    scp_error_prefix(c->err, c->path);
    return rc;
  }
  bool added;
  size_t *v = scp_bmap_put(&c->files, sc->path, strlen(sc->path), &added);
  if (!v) return nomem(c);
  *v = i;
  return SCP_OK;
}

/* "constructor_args", once every id is known (they may name any
 * contract).  A Wasm that exports __constructor always has it run, with
 * no arguments when none are given, as a deploy does. */
static int load_ctor(ctx *c, json_t *j, size_t i) {
  scp_scenario_contract *sc = &c->s->contracts[i];
  scp_ledger_deploy *d = &c->s->deploys[i];
  char where[80], what[200];
  snprintf(where, sizeof where, "contracts[%zu]", i);
  scp_error e;
  bool has = false;
  if (d->upload_only)   /* code only: nothing to construct */
    has = false;
  else if (sc->same_file != i)   /* the same module as an earlier contract's */
    has = c->s->deploys[sc->same_file].construct;
  else if (scp_ledger_ctor_export(sc->wasm, sc->len, &has, NULL, &e) != SCP_OK)
    has = false;
  json_t *args = json_object_get(j, "constructor_args");
  if (args && !has) {
    snprintf(what, sizeof what, "\"constructor_args\" given, but %.120s exports no __constructor",
             sc->path);
    return bad(c, SCP_ERR_ARG, where, what);
  }
  d->construct = has;
  if (!has) return SCP_OK;
  snprintf(where, sizeof where, "contracts[%zu]: constructor_args", i);
  scp_arg *a = NULL;
  size_t n = 0;
  int rc = scp_scenario_load_args(c, i, "__constructor", args, where, &a, &n);
  d->ctor = a;
  d->nctor = n;
  return rc;
}

/* "signers" / "auth_signatures": an array of strings into a kept list;
 * "NAME=..." with NAME a contract (or asset contract) of the file becomes
 * "C...=...". */
static int auth_list(ctx *c, json_t *a, const char *where, const char *key,
                     const char ***out, size_t *n) {
  char what[160];
  if (!json_is_array(a)) {
    snprintf(what, sizeof what, "\"%s\" is an array of strings", key);
    return bad(c, SCP_ERR_MALFORMED, where, what);
  }
  size_t len = json_array_size(a);
  if (!(*out = calloc(len + 1, sizeof **out))) return nomem(c);
  for (size_t k = 0; k < len; k++) {
    json_t *v = json_array_get(a, k);
    if (!json_is_string(v)) {
      snprintf(what, sizeof what, "%s[%zu] is a string", key, k);
      return bad(c, SCP_ERR_MALFORMED, where, what);
    }
    const char *t = json_string_value(v), *eq = strchr(t, '=');
    char name[64], sk[57], buf[256];
    size_t l = eq ? (size_t)(eq - t) : 0;
    if (eq && l < sizeof name) {
      memcpy(name, t, l);
      name[l] = 0;
      if (named(c, name, sk) && snprintf(buf, sizeof buf, "%s%s", sk, eq) < (int)sizeof buf)
        t = buf;
    }
    if (!((*out)[k] = keep(c, t))) return nomem(c);
    *n = k + 1;
  }
  return SCP_OK;
}

/* A call's authorization: "auth" "record" (the default: recording mode,
 * as simulation) or "enforce" (the CLI's --auth enforce: a recording run
 * unprofiled, the entries signed with "signers", then the signed call),
 * or with "context": "sdk-test" "mock" / "mock-non-root" (the test's
 * env.mock_all_auths() / mock_all_auths_allowing_non_root_auth());
 * "signers" ("S..." or "ADDRESS=S...", ADDRESS a strkey or a contract's
 * name), "auth_signatures" ("C...=TYPE:VALUE") and "auth_expiration" go
 * with "enforce" only.  The seeds' and values' form is checked when the
 * entries are built (exit 3, as on the command line). */
static int load_auth(ctx *c, json_t *j, const char *where, scp_scenario_call *call) {
  json_t *mode = json_object_get(j, "auth"), *sg = json_object_get(j, "signers"),
         *as = json_object_get(j, "auth_signatures"), *ex = json_object_get(j, "auth_expiration");
  const char *m = json_is_string(mode) ? json_string_value(mode) : "";
  call->auth_mock = !strcmp(m, "mock") ? SCP_AUTH_MOCK_ALL : !strcmp(m, "mock-non-root") ? SCP_AUTH_MOCK_NON_ROOT : 0;
  if (mode && strcmp(m, "enforce") && strcmp(m, "record") && !call->auth_mock)
    return bad(c, SCP_ERR_MALFORMED, where, "\"auth\" is \"record\", \"enforce\", \"mock\" or \"mock-non-root\"");
  call->auth_enforce = mode && !strcmp(m, "enforce");
  if (!call->auth_enforce && (sg || as || ex))
    return bad(c, SCP_ERR_MALFORMED, where,
               "\"signers\", \"auth_signatures\" and \"auth_expiration\" go with \"auth\": \"enforce\"");
  int rc = SCP_OK;
  if (sg) rc = auth_list(c, sg, where, "signers", &call->auth_signers, &call->nauth_signers);
  if (!rc && as)
    rc = auth_list(c, as, where, "auth_signatures", &call->auth_signatures,
                   &call->nauth_signatures);
  if (!rc && ex) {
    if (!json_is_integer(ex) || json_integer_value(ex) <= 0 ||
        json_integer_value(ex) > (json_int_t)UINT32_MAX)
      return bad(c, SCP_ERR_MALFORMED, where,
                 "\"auth_expiration\" is a ledger sequence, 1 to 4294967295");
    call->auth_expiration = (uint32_t)json_integer_value(ex);
  }
  return rc;
}

static int load_call(ctx *c, json_t *j, size_t i) {
  static const char *const known[] = {"contract", "function", "args", "profile", "source",
                                      "auth", "signers", "auth_signatures", "auth_expiration",
                                      NULL};
  char where[48];
  snprintf(where, sizeof where, "calls[%zu]", i);
  if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "a call is an object");
  int rc = check_keys(c, j, where, known);
  if (rc) return rc;
  scp_scenario_call *call = &c->s->calls[i];
  c->s->ncalls = i + 1;
  json_t *con = json_object_get(j, "contract"), *fn = json_object_get(j, "function");
  json_t *prof = json_object_get(j, "profile");
  if (prof && !json_is_boolean(prof))
    return bad(c, SCP_ERR_MALFORMED, where, "\"profile\" is true or false");
  call->profile = !prof || json_is_true(prof);
  if (!json_is_string(fn) || !json_string_length(fn))
    return bad(c, SCP_ERR_MALFORMED, where, "\"function\" must be a non-empty string");
  if (con && !json_is_string(con))
    return bad(c, SCP_ERR_MALFORMED, where, "\"contract\" must be a contract's name");
  if (!con && c->s->ncontracts != 1)
    return bad(c, SCP_ERR_MALFORMED, where, c->s->ncontracts ? "\"contract\" is needed when "
               "there are several" : "\"contract\" names the asset contract to call");
  /* without "contract", the one contract there is */
  call->contract = con ? find_name(c, json_string_value(con), &call->is_asset) : 0;
  if (call->contract == SIZE_MAX && c->s->snapshot) return scp_scenario_snapshot_missing(c->s, c->path, where,
                                                                                        json_string_value(con), c->err);
  if (call->contract == SIZE_MAX) {
    char what[120];
    snprintf(what, sizeof what, "no contract named %.60s", json_string_value(con));
    return bad(c, SCP_ERR_MALFORMED, where, what);
  }
  json_t *src = json_object_get(j, "source");
  if (src) {
    if (!json_is_string(src) || !scp_account_strkey(json_string_value(src), call->source))
      return bad(c, SCP_ERR_MALFORMED, where,
                 "\"source\" must be an account strkey (G..., 56 characters)");
    call->has_source = true;
  }
  if ((rc = load_auth(c, j, where, call))) return rc;
  call->function = dup_str(json_string_value(fn));
  if (!call->function) return nomem(c);
  c->nrefs = 0;
  rc = scp_scenario_load_args(c, call->is_asset ? SIZE_MAX : call->contract, call->function,
                 json_object_get(j, "args"), where, &call->args, &call->nargs);
  rc = scp_scenario_retype(c, i, json_object_get(j, "args"), where, rc);
  /* code given to the contract: later calls may find their function in it */
  for (size_t k = 0; !rc && !call->is_asset && k < c->nrefs; k++) {
    if (!scp_grow(&c->given, &c->capgiven, c->ngiven + 1, sizeof *c->given)) return nomem(c);
    c->given[c->ngiven++] = (struct given){.contract = call->contract, .code = c->refs[k]};
  }
  return rc;
}

static int limit(ctx *c, json_t *root, const char *key, uint64_t *out) {
  json_t *v = json_object_get(root, key);
  if (!v) return SCP_OK;
  if (!json_is_integer(v) || json_integer_value(v) <= 0) {
    char what[80];
    snprintf(what, sizeof what, "\"%s\" must be a positive integer", key);
    return bad(c, SCP_ERR_MALFORMED, NULL, what);
  }
  *out = (uint64_t)json_integer_value(v);
  return SCP_OK;
}

static int u32_of(ctx *c, json_t *l, const char *key, uint64_t max, uint64_t *out) {
  json_t *v = json_object_get(l, key);
  if (!v) return SCP_OK;
  if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max) {
    char what[80];
    snprintf(what, sizeof what, "\"%s\" must be an integer from 0 to %llu", key, (unsigned long long)max);
    return bad(c, SCP_ERR_MALFORMED, "ledger", what);
  }
  *out = (uint64_t)json_integer_value(v);
  return SCP_OK;
}

/* "ledger": the ledger info every call sees. */
static int load_ledger(ctx *c, json_t *l) {
  static const char *const known[] = {"protocol", "sequence", "timestamp", "network_passphrase",
                                      "network_id", NULL};
  if (!l) return SCP_OK;
  if (!json_is_object(l)) return bad(c, SCP_ERR_MALFORMED, "ledger", "\"ledger\" is an object");
  int rc = check_keys(c, l, "ledger", known);
  uint64_t proto = 0, seq = 0, ts = 0;
  if (!rc) rc = u32_of(c, l, "protocol", UINT32_MAX, &proto);
  if (!rc) rc = u32_of(c, l, "sequence", UINT32_MAX, &seq);
  if (!rc) rc = u32_of(c, l, "timestamp", INT64_MAX, &ts);
  if (rc) return rc;
  if (json_object_get(l, "protocol") && !proto)
    return bad(c, SCP_ERR_ARG, "ledger", "protocol 0: this host runs protocols 20 to 28");
  c->s->protocol = (uint32_t)proto;
  c->s->sequence = (uint32_t)seq;
  c->s->timestamp = ts;
  json_t *pass = json_object_get(l, "network_passphrase"), *nid = json_object_get(l, "network_id");
  if (pass && nid) return bad(c, SCP_ERR_MALFORMED, "ledger", "give network_passphrase or network_id, not both");
  if (pass) {
    if (!json_is_string(pass)) return bad(c, SCP_ERR_MALFORMED, "ledger", "\"network_passphrase\" is a string");
    SHA256((const uint8_t *)json_string_value(pass), json_string_length(pass), c->s->network_id);
    c->s->has_network_id = true;
  } else if (nid) {
    const char *h = json_is_string(nid) ? json_string_value(nid) : "";
    if (!strncmp(h, "0x", 2) || !scp_scenario_hex32(h, c->s->network_id))   /* no 0x here, unlike salts */ return bad(c, SCP_ERR_MALFORMED, "ledger", "\"network_id\" is 64 hex digits");
    c->s->has_network_id = true;
  }
  return SCP_OK;
}

/* Base64 text (RFC 4648, padded, as `stellar xdr encode` writes XDR)
 * decoded into a buffer the scenario keeps: *out and *n, or false when the
 * text is not base64 (or out of memory: *out NULL). */
static bool keep_base64(ctx *c, const char *text, const uint8_t **out, size_t *n) {
  size_t len = strlen(text), got = 0;
  const char *end = NULL;
  *out = NULL;
  if (!len || len % 4) return false;
  uint8_t *b = carve(c, len / 4 * 3);
  if (!b) return true;   /* *out NULL: out of memory */
  if (sodium_base642bin(b, len / 4 * 3, text, len, NULL, &got, &end, sodium_base64_VARIANT_ORIGINAL) ||
      end != text + len)
    return false;
  *out = b;
  *n = got;
  return true;
}

/* "storage": [{"contract", "key", "value", "durability", "live_until"}],
 * key and value as "type:value" (no spec types storage) or {"xdr":
 * BASE64}, an ScVal's XDR, for what the type:value forms cannot say (a
 * vec key such as an SDK contract's DataKey::Balance(address)). */
static int load_storage(ctx *c, json_t *st) {
  static const char *const known[] = {"contract", "key", "value", "durability", "live_until", NULL};
  if (!st) return SCP_OK;
  if (!json_is_array(st)) return bad(c, SCP_ERR_MALFORMED, NULL, "\"storage\" must be an array");
  if (!(c->s->storage = calloc(json_array_size(st) + 1, sizeof *c->s->storage))) return nomem(c);
  for (size_t i = 0; i < json_array_size(st); i++) {
    json_t *j = json_array_get(st, i);
    char where[48], what[160];
    snprintf(where, sizeof where, "storage[%zu]", i);
    if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "an entry is an object");
    int rc = check_keys(c, j, where, known);
    if (rc) return rc;
    scp_ledger_seed *sd = &c->s->storage[i];
    c->s->nstorage = i + 1;
    json_t *con = json_object_get(j, "contract"), *dur = json_object_get(j, "durability");
    json_t *lu = json_object_get(j, "live_until");
    bool asset = false;
    sd->contract = !con && c->s->ncontracts == 1 ? 0 : SIZE_MAX;
    if (json_is_string(con)) sd->contract = find_name(c, json_string_value(con), &asset);
    if (sd->contract == SIZE_MAX || asset) return bad(c, SCP_ERR_MALFORMED, where, "\"contract\" must name a contract");
    if (c->s->deploys && c->s->deploys[sd->contract].upload_only)
      return bad(c, SCP_ERR_MALFORMED, where, "\"contract\" names an \"upload_only\" contract: no storage");
    sd->dur = 1;
    if (dur) {
      const char *d = json_is_string(dur) ? json_string_value(dur) : "";
      if (!strcmp(d, "temporary")) sd->dur = 0;
      else if (!strcmp(d, "instance")) sd->dur = SCP_SEED_INSTANCE;
      else if (strcmp(d, "persistent"))
        return bad(c, SCP_ERR_MALFORMED, where,
                   "\"durability\" is \"persistent\", \"temporary\" or \"instance\"");
    }
    if (lu && sd->dur == SCP_SEED_INSTANCE)
      return bad(c, SCP_ERR_MALFORMED, where,
                 "\"live_until\" is not for instance storage (it lives as long as the contract's instance)");
    if (lu) {
      if (!json_is_integer(lu) || json_integer_value(lu) < 0 || json_integer_value(lu) > UINT32_MAX)
        return bad(c, SCP_ERR_MALFORMED, where, "\"live_until\" must be a ledger number");
      sd->has_live_until = true;
      sd->live_until = (uint32_t)json_integer_value(lu);
    }
    const char *names[2] = {"key", "value"};
    scp_arg *dest[2] = {&sd->key, &sd->val};
    for (int k = 0; k < 2; k++) {
      json_t *v = json_object_get(j, names[k]);
      json_t *x = json_is_object(v) && json_object_size(v) == 1 ? json_object_get(v, "xdr") : NULL;
      if (json_is_string(x)) {
        const uint8_t *b;
        size_t n;
        if (!keep_base64(c, json_string_value(x), &b, &n)) {
          snprintf(what, sizeof what, "%s: \"xdr\" is not base64", names[k]);
          return bad(c, SCP_ERR_MALFORMED, where, what);
        }
        if (!b) return nomem(c);
        *dest[k] = (scp_arg){.kind = SCP_ARG_SCVAL, .data = b, .len = n};
        continue;
      }
      if (!json_is_string(v)) {
        snprintf(what, sizeof what, "\"%s\" must be a \"type:value\" string or {\"xdr\": BASE64}",
                 names[k]);
        return bad(c, SCP_ERR_MALFORMED, where, what);
      }
      const char *text = scp_scenario_arg_text(c, json_string_value(v));
      if (!text) return nomem(c);
      scp_error e;
      if (scp_arg_parse(text, dest[k], &e)) {
        snprintf(what, sizeof what, "%s: %.120s", names[k], e.msg);
        return bad(c, SCP_ERR_ARG, where, what);
      }
    }
  }
  return SCP_OK;
}


/* "assets": [{"name": "usdc", "asset": "native" | "CODE:G..."}]: asset
 * contracts created before the first call, named like contracts. */
static int load_assets(ctx *c, json_t *as) {
  static const char *const known[] = {"name", "asset", NULL};
  if (!as) return SCP_OK;
  if (!json_is_array(as)) return bad(c, SCP_ERR_MALFORMED, NULL, "\"assets\" must be an array");
  size_t n = json_array_size(as);
  c->s->asset_names = calloc(n + 1, sizeof *c->s->asset_names);
  c->s->assets = calloc(n + 1, sizeof *c->s->assets);
  if (!c->s->asset_names || !c->s->assets) return nomem(c);
  for (size_t i = 0; i < n; i++) {
    json_t *j = json_array_get(as, i);
    char where[48], what[200];
    snprintf(where, sizeof where, "assets[%zu]", i);
    if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "an asset is an object "
                                       "{\"name\": ..., \"asset\": ...}");
    int rc = check_keys(c, j, where, known);
    if (rc) return rc;
    json_t *name = json_object_get(j, "name"), *a = json_object_get(j, "asset");
    if (!json_is_string(name) || !json_string_length(name))
      return bad(c, SCP_ERR_MALFORMED, where, "\"name\" must be a non-empty string");
    if (!json_is_string(a))
      return bad(c, SCP_ERR_MALFORMED, where, "\"asset\" is \"native\" or \"CODE:G...\"");
    bool oom;
    if (!take_name(c, json_string_value(name), i, true, &oom))
      return oom ? nomem(c) : bad(c, SCP_ERR_MALFORMED, where, "two contracts or assets have this name");
    scp_sac_asset asset;
    const char *why = "";
    if (scp_sac_asset_parse(json_string_value(a), &asset, &why)) {
      snprintf(what, sizeof what, "asset %.72s: %s", json_string_value(a), why);
      return bad(c, SCP_ERR_ARG, where, what);
    }
    if (!first_time(&c->assets, json_string_value(a), json_string_length(a), &oom))
      return oom ? nomem(c) : bad(c, SCP_ERR_MALFORMED, where, "this asset is already in \"assets\"");
    c->s->asset_names[i] = dup_str(json_string_value(name));
    c->s->assets[i] = keep(c, json_string_value(a));
    c->s->nassets = i + 1;
    if (!c->s->asset_names[i] || !c->s->assets[i]) return nomem(c);
  }
  return SCP_OK;
}

/* "accounts": [{"id", "balance", "seq_num", "thresholds", "signers",
 * "flags"}]: classic accounts (AccountEntry). */
static int load_accounts(ctx *c, json_t *as) {
  static const char *const known[] = {"id", "balance", "seq_num", "thresholds", "signers",
                                      "flags", NULL};
  if (!as) return SCP_OK;
  if (!json_is_array(as)) return bad(c, SCP_ERR_MALFORMED, NULL, "\"accounts\" must be an array");
  size_t n = json_array_size(as);
  if (!(c->s->accounts = calloc(n + 1, sizeof *c->s->accounts))) return nomem(c);
  for (size_t i = 0; i < n; i++) {
    json_t *j = json_array_get(as, i);
    char where[64];
    snprintf(where, sizeof where, "accounts[%zu]", i);
    if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "an account is an object");
    int rc = check_keys(c, j, where, known);
    if (rc) return rc;
    scp_ledger_account *a = &c->s->accounts[i];
    c->s->naccounts = i + 1;
    json_t *id = json_object_get(j, "id"), *v;
    if (!json_is_string(id) || !scp_account_strkey(json_string_value(id), a->id))
      return bad(c, SCP_ERR_MALFORMED, where, "\"id\" must be an account strkey (G...)");
    bool oom;
    if (!first_time(&c->accounts, a->id, 32, &oom))
      return oom ? nomem(c) : bad(c, SCP_ERR_MALFORMED, where, "this account is already in \"accounts\"");
    if ((v = json_object_get(j, "balance")) && !scp_scenario_i64(v, 0, &a->balance))
      return bad(c, SCP_ERR_ARG, where, "\"balance\" must be stroops from 0 to 2^63-1 (a "
                 "number or a decimal string)");
    if ((v = json_object_get(j, "seq_num")) && !scp_scenario_i64(v, 0, &a->seq_num))
      return bad(c, SCP_ERR_ARG, where, "\"seq_num\" must be from 0 to 2^63-1");
    if ((v = json_object_get(j, "flags")) &&
        (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 15))
      return bad(c, SCP_ERR_ARG, where, "\"flags\" must be an integer from 0 to 15 "
                 "(AUTH_REQUIRED 1, AUTH_REVOCABLE 2, AUTH_IMMUTABLE 4, AUTH_CLAWBACK_ENABLED 8)");
    a->flags = v ? (uint32_t)json_integer_value(v) : 0;
    a->thresholds[0] = 1;   /* the master key's weight, as a new account has it */
    if ((v = json_object_get(j, "thresholds"))) {
      bool ok = json_is_array(v) && json_array_size(v) == 4;
      for (size_t k = 0; ok && k < 4; k++) {
        json_t *t = json_array_get(v, k);
        ok = json_is_integer(t) && json_integer_value(t) >= 0 && json_integer_value(t) <= 255;
        if (ok) a->thresholds[k] = (uint8_t)json_integer_value(t);
      }
      if (!ok) return bad(c, SCP_ERR_MALFORMED, where, "\"thresholds\" is [master, low, "
                          "medium, high], each 0 to 255");
    }
    json_t *sg = json_object_get(j, "signers");
    if (sg && (!json_is_array(sg) || json_array_size(sg) > SCP_MAX_SIGNERS))
      return bad(c, SCP_ERR_MALFORMED, where, "\"signers\" is an array of at most 20 "
                 "{\"key\": \"G...\", \"weight\": N}");
    for (size_t k = 0; sg && k < json_array_size(sg); k++) {
      json_t *o = json_array_get(sg, k), *key = json_object_get(o, "key"),
             *w = json_object_get(o, "weight");
      char sw[80];
      snprintf(sw, sizeof sw, "accounts[%zu]: signers[%zu]", i, k);
      static const char *const sknown[] = {"key", "weight", NULL};
      if (!json_is_object(o)) return bad(c, SCP_ERR_MALFORMED, sw, "a signer is an object");
      if ((rc = check_keys(c, o, sw, sknown))) return rc;
      if (!json_is_string(key) || !scp_account_strkey(json_string_value(key), a->signer_key[k]))
        return bad(c, SCP_ERR_MALFORMED, sw, "\"key\" must be an ed25519 strkey (G...)");
      if (!json_is_integer(w) || json_integer_value(w) < 1 || json_integer_value(w) > 255)
        return bad(c, SCP_ERR_MALFORMED, sw, "\"weight\" must be an integer from 1 to 255");
      for (size_t m = 0; m < k; m++)
        if (!memcmp(a->signer_key[m], a->signer_key[k], 32))
          return bad(c, SCP_ERR_MALFORMED, sw, "the same signer twice");
      a->signer_weight[k] = (uint32_t)json_integer_value(w);
      a->nsigners = k + 1;
    }
  }
  return SCP_OK;
}

/* "trustlines": [{"account", "asset", "balance", "limit", "authorized"}]. */
static int load_trustlines(ctx *c, json_t *ts) {
  static const char *const known[] = {"account", "asset", "balance", "limit", "authorized", NULL};
  if (!ts) return SCP_OK;
  if (!json_is_array(ts)) return bad(c, SCP_ERR_MALFORMED, NULL, "\"trustlines\" must be an array");
  size_t n = json_array_size(ts);
  if (!(c->s->trustlines = calloc(n + 1, sizeof *c->s->trustlines))) return nomem(c);
  for (size_t i = 0; i < n; i++) {
    json_t *j = json_array_get(ts, i), *v;
    char where[64], what[200];
    snprintf(where, sizeof where, "trustlines[%zu]", i);
    if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "a trustline is an object");
    int rc = check_keys(c, j, where, known);
    if (rc) return rc;
    scp_ledger_trustline *t = &c->s->trustlines[i];
    c->s->ntrustlines = i + 1;
    json_t *acc = json_object_get(j, "account"), *as = json_object_get(j, "asset");
    if (!json_is_string(acc) || !scp_account_strkey(json_string_value(acc), t->account))
      return bad(c, SCP_ERR_MALFORMED, where, "\"account\" must be an account strkey (G...)");
    if (!json_is_string(as))
      return bad(c, SCP_ERR_MALFORMED, where, "\"asset\" is \"CODE:G...\"");
    /* an asset contract's name stands for its asset */
    const char *text = json_string_value(as);
    bool asset;
    size_t k = find_name(c, text, &asset);
    if (asset) text = c->s->assets[k];
    const char *why = "";
    if (scp_ledger_trustline_asset(text, t->account, &why)) {
      snprintf(what, sizeof what, "asset %.72s: %s", text, why);
      return bad(c, SCP_ERR_ARG, where, what);
    }
    if (!(t->asset = keep(c, text))) return nomem(c);
    /* its key: the account's id, then the asset's text */
    size_t alen = strlen(text);
    uint8_t *key = malloc(32 + alen);
    if (!key) return nomem(c);
    memcpy(key, t->account, 32);
    memcpy(key + 32, text, alen);
    bool oom, fresh = first_time(&c->trustlines, key, 32 + alen, &oom);
    free(key);
    if (!fresh)
      return oom ? nomem(c) : bad(c, SCP_ERR_MALFORMED, where, "this account already has this trustline");
    t->limit = INT64_MAX;
    t->authorized = true;
    if ((v = json_object_get(j, "balance")) && !scp_scenario_i64(v, 0, &t->balance))
      return bad(c, SCP_ERR_ARG, where, "\"balance\" must be from 0 to 2^63-1 (a number or a "
                 "decimal string)");
    if ((v = json_object_get(j, "limit")) && !scp_scenario_i64(v, 0, &t->limit))
      return bad(c, SCP_ERR_ARG, where, "\"limit\" must be from 0 to 2^63-1");
    if (t->balance > t->limit)
      return bad(c, SCP_ERR_ARG, where, "\"balance\" is over the \"limit\"");
    if ((v = json_object_get(j, "authorized"))) {
      if (!json_is_boolean(v)) return bad(c, SCP_ERR_MALFORMED, where, "\"authorized\" is true or false");
      t->authorized = json_is_true(v);
    }
  }
  return SCP_OK;
}

/* "snapshot": the ledger is the snapshot's, its contracts named by their
 * ids; what would build another ledger around it is refused. */
static int load_snapshot(ctx *c, json_t *root, json_t *snap) {
  static const char *const own[] = {"contracts", "accounts", "trustlines", "assets", "storage", "ledger"};
  for (size_t i = 0; i < SCP_ARRAY_LEN(own); i++)
    if (json_object_get(root, own[i])) {
      char what[160];
      snprintf(what, sizeof what, "\"%s\" with \"snapshot\": the snapshot is the ledger (its "
               "contracts, accounts and settings)", own[i]);
      return bad(c, SCP_ERR_UNSUPPORTED, NULL, what);
    }
  if (!json_is_string(snap)) return bad(c, SCP_ERR_MALFORMED, NULL, "\"snapshot\" must be a file name");
  int rc = scp_scenario_snapshot(c->s, c->path, json_string_value(snap), json_object_get(root, "wasm"), c->err);
  bool oom = false;
  for (size_t i = 0; !rc && i < c->s->ncontracts; i++)
    if (!take_name(c, c->s->contracts[i].name, i, false, &oom)) rc = nomem(c);
  c->nids = c->s->ncontracts;
  return rc;
}

int scp_scenario_load(const char *path, scp_scenario **out, scp_error *err) {
  static const char *const known[] = {"contracts", "calls", "cpu_limit", "mem_limit", "ledger",
                                      "storage", "source", "accounts", "trustlines", "assets",
                                      "snapshot", "wasm", "context", NULL};
  *out = NULL;
  uint8_t *text;
  size_t len;
  int rc = scp_read_file_max(path, SCP_MAX_SCENARIO_BYTES, "a scenario file", &text, &len, err);
  if (rc) return rc;
  json_t *root = NULL;
  rc = scp_json_parse(text, len, path, &root, err);
  free(text);
  if (rc) return rc;
  ctx c = {.path = path, .err = err, .s = calloc(1, sizeof(scp_scenario)), .code_as = SIZE_MAX};
  if (!c.s) {
    json_decref(root);
    return nomem(&c);
  }
  json_t *cons = json_object_get(root, "contracts"), *calls = json_object_get(root, "calls");
  json_t *assets = json_object_get(root, "assets"), *snap = json_object_get(root, "snapshot");
  if (!json_is_object(root)) rc = bad(&c, SCP_ERR_MALFORMED, NULL, "a scenario is a JSON object");
  else rc = check_keys(&c, root, NULL, known);
  if (!rc && json_object_get(root, "wasm") && !snap)
    rc = bad(&c, SCP_ERR_MALFORMED, NULL, "\"wasm\" (stand-ins for a snapshot's contracts) goes with \"snapshot\"");
  /* a scenario may call asset contracts only */
  if (!rc && !snap && !(json_is_array(cons) && (json_array_size(cons) || json_array_size(assets))) &&
      !(!cons && json_array_size(assets)))
    rc = bad(&c, SCP_ERR_MALFORMED, NULL, "\"contracts\" must be a non-empty array");
  if (!rc && (!json_is_array(calls) || !json_array_size(calls)))
    rc = bad(&c, SCP_ERR_MALFORMED, NULL, "\"calls\" must be a non-empty array");
  if (!rc) rc = limit(&c, root, "cpu_limit", &c.s->cpu_limit);
  if (!rc) rc = limit(&c, root, "mem_limit", &c.s->mem_limit);
  if (!rc) rc = load_ledger(&c, json_object_get(root, "ledger"));
  json_t *cx = json_object_get(root, "context");   /* what the calls measure */
  if (!rc && cx) {
    const char *t = json_is_string(cx) ? json_string_value(cx) : "";
    if (strcmp(t, "network") && strcmp(t, "sdk-test"))
      rc = bad(&c, SCP_ERR_MALFORMED, NULL, "\"context\" must be \"network\" or \"sdk-test\"");
    else c.s->sdk_test = !strcmp(t, "sdk-test");
  }
  json_t *src = json_object_get(root, "source");   /* every call's source account */
  if (!rc && src) {
    if (!json_is_string(src) || !scp_account_strkey(json_string_value(src), c.s->source))
      rc = bad(&c, SCP_ERR_MALFORMED, NULL,
               "\"source\" must be an account strkey (G..., 56 characters)");
    else c.s->has_source = true;
  }
  size_t ncons = json_array_size(cons);
  if (!rc && snap) rc = load_snapshot(&c, root, snap);
  if (!rc) {
    if (!snap) {
      c.s->contracts = calloc(ncons + 1, sizeof *c.s->contracts);
      c.s->deploys = calloc(ncons + 1, sizeof *c.s->deploys);
      c.s->ids = calloc(ncons + json_array_size(assets) + 1, sizeof *c.s->ids);
    }
    c.s->calls = calloc(json_array_size(calls), sizeof *c.s->calls);
    if (!c.s->contracts || !c.s->calls || (!snap && !c.s->deploys) || !c.s->ids) rc = nomem(&c);
  }
  /* ids are derived with the ledger's network id, as the host does */
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  scp_host_opts ho = {0};
  memcpy(ho.network_id, c.s->network_id, 32);
  if (!rc && scp_host_create(&b, &ho, &c.ids_host)) rc = nomem(&c);
  if (!rc) rc = load_assets(&c, assets);
  for (size_t i = 0; !rc && i < c.s->nassets; i++) {
    scp_sac_asset a;
    const char *why;
    scp_sac_asset_parse(c.s->assets[i], &a, &why);
    scp_sac_contract_id(c.s->network_id, &a, c.s->ids[ncons + i]);
  }
  for (size_t i = 0; !rc && i < ncons; i++)
    rc = load_contract(&c, json_array_get(cons, i), i);
  for (size_t i = 0; !rc && i < ncons; i++)
    rc = load_ctor(&c, json_array_get(cons, i), i);
  if (!rc && !snap && !(c.s->files = calloc(ncons + 1, sizeof *c.s->files))) rc = nomem(&c);
  for (size_t i = 0; !rc && i < c.s->ncontracts; i++) {
    const scp_scenario_contract *k = &c.s->contracts[i];
    c.s->files[i] = (scp_contract_file){.path = k->path, .wasm = k->wasm, .len = k->len};
  }
  if (!rc) rc = load_storage(&c, json_object_get(root, "storage"));
  if (!rc) rc = load_accounts(&c, json_object_get(root, "accounts"));
  if (!rc) rc = load_trustlines(&c, json_object_get(root, "trustlines"));
  for (size_t i = 0; !rc && i < json_array_size(calls); i++)
    rc = load_call(&c, json_array_get(calls, i), i);
  scp_host_destroy(c.ids_host);
  free(c.given);
  free(c.hashes);
  scp_bmap *maps[] = {&c.names, &c.ids, &c.assets, &c.accounts, &c.trustlines, &c.files};
  for (size_t i = 0; i < SCP_ARRAY_LEN(maps); i++) scp_bmap_free(maps[i]);
  json_decref(root);
  if (rc) {
    scp_scenario_free(c.s);
    return rc;
  }
  *out = c.s;
  return SCP_OK;
}
