/*
 * scenario.c — reading a scenario file (scp_scenario.h): contracts, calls
 * and their arguments, every one checked before anything runs, so a
 * mistake in the fifth call does not cost the first four's run time.
 */
#include <jansson.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/scp_scenario.h"

typedef struct ctx {
  const char *path;
  scp_error *err;
  scp_scenario *s;
} ctx;

static int bad(ctx *c, int code, const char *where, const char *what) {
  return scp_fail(c->err, code, "%s: %s%s%s", c->path, where ? where : "", where ? ": " : "",
                  what);
}

static int nomem(ctx *c) { return bad(c, SCP_ERR_NOMEM, NULL, "out of memory"); }

/* Keys of obj must be in known (NULL-ended); those in refused are ones
 * this version cannot honour exactly. */
static int check_keys(ctx *c, json_t *obj, const char *where, const char *const *known,
                      const char *const *refused) {
  const char *key;
  json_t *v;
  char what[200];
  json_object_foreach(obj, key, v) {
    bool ok = false;
    for (size_t k = 0; known[k] && !ok; k++) ok = !strcmp(known[k], key);
    if (ok) continue;
    for (size_t k = 0; refused && refused[k]; k++)
      if (!strcmp(refused[k], key)) {
        snprintf(what, sizeof what, "\"%s\" is not supported yet", key);
        return bad(c, SCP_ERR_UNSUPPORTED, where, what);
      }
    snprintf(what, sizeof what, "unknown key \"%.60s\"", key);
    return bad(c, SCP_ERR_MALFORMED, where, what);
  }
  return SCP_OK;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* A text the scenario keeps (scp_args point into it). */
static const char *keep(ctx *c, const char *text) {
  scp_scenario *s = c->s;
  if (!scp_grow(&s->texts, &s->texts_cap, s->ntexts + 1, sizeof *s->texts)) return NULL;
  char *d = dup_str(text);
  if (d) s->texts[s->ntexts++] = d;
  return d;
}

/* A file name relative to the scenario file's folder. */
static char *resolve(const char *base, const char *name) {
  const char *slash = strrchr(base, '/');
  if (name[0] == '/' || !slash) return dup_str(name);
  size_t dl = (size_t)(slash - base) + 1, nl = strlen(name) + 1;
  char *p = malloc(dl + nl);
  if (!p) return NULL;
  memcpy(p, base, dl);
  memcpy(p + dl, name, nl);
  return p;
}

static int load_contract(ctx *c, json_t *j, size_t i) {
  static const char *const known[] = {"name", "wasm", NULL};
  static const char *const refused[] = {"id", "deployer", "salt", "constructor_args", NULL};
  char where[48];
  snprintf(where, sizeof where, "contracts[%zu]", i);
  if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "a contract is an object "
                                     "{\"name\": ..., \"wasm\": ...}");
  int rc = check_keys(c, j, where, known, refused);
  if (rc) return rc;
  json_t *name = json_object_get(j, "name"), *wasm = json_object_get(j, "wasm");
  if (!json_is_string(name) || !json_string_length(name))
    return bad(c, SCP_ERR_MALFORMED, where, "\"name\" must be a non-empty string");
  if (!json_is_string(wasm))
    return bad(c, SCP_ERR_MALFORMED, where, "\"wasm\" must be a file name");
  for (size_t k = 0; k < i; k++)
    if (!strcmp(c->s->contracts[k].name, json_string_value(name)))
      return bad(c, SCP_ERR_MALFORMED, where, "two contracts have this name");
  scp_scenario_contract *sc = &c->s->contracts[i];
  c->s->ncontracts = i + 1;
  sc->name = dup_str(json_string_value(name));
  sc->path = resolve(c->path, json_string_value(wasm));
  if (!sc->name || !sc->path) return nomem(c);
  if ((rc = scp_read_file(sc->path, &sc->wasm, &sc->len, c->err))) return rc;
  return scp_spec_from_wasm(sc->wasm, sc->len, sc->path, &sc->spec, c->err);
}

/* The text scp_spec_arg_value reads for a JSON value: a string as is (a
 * bare word, hex, a strkey, a decimal), null as "null", everything else
 * as JSON. */
static const char *value_text(ctx *c, json_t *v) {
  if (json_is_string(v)) return keep(c, json_string_value(v));
  char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  if (!d) return NULL;
  const char *t = keep(c, d);
  free(d);
  return t;
}

/* "args": {"name": value, ...} typed by the spec, or ["type:value", ...]. */
static int load_args(ctx *c, scp_scenario_call *call, json_t *args, const char *where) {
  scp_scenario_contract *sc = &c->s->contracts[call->contract];
  char what[300];
  int rc;
  if (!args || json_is_array(args)) {
    size_t n = args ? json_array_size(args) : 0;
    call->args = calloc(n ? n : 1, sizeof *call->args);
    if (!call->args) return nomem(c);
    for (size_t k = 0; k < n; k++) {
      json_t *a = json_array_get(args, k);
      if (!json_is_string(a))
        return bad(c, SCP_ERR_MALFORMED, where, "\"args\" as an array holds \"type:value\" "
                   "strings");
      const char *t = keep(c, json_string_value(a));
      if (!t) return nomem(c);
      if ((rc = scp_arg_parse(t, &call->args[k], c->err))) {
        scp_error_prefix(c->err, where);
        scp_error_prefix(c->err, c->path);
        return rc;
      }
    }
    call->nargs = n;
    if (!args && sc->spec) goto by_name;   /* no args: every parameter omitted */
    return SCP_OK;
  }
  if (!json_is_object(args))
    return bad(c, SCP_ERR_MALFORMED, where, "\"args\" is an object (by name) or an array "
               "of \"type:value\" strings");
by_name:;
  if (!sc->spec) {
    snprintf(what, sizeof what, "%s has no contractspecv0 section to name arguments by: give "
             "\"args\" as [\"type:value\", ...]", sc->path);
    return bad(c, SCP_ERR_ARG, where, what);
  }
  const scp_spec_fn *f = scp_spec_find(sc->spec, call->function);
  if (!f) {
    snprintf(what, sizeof what, "no function %.40s in %s's contractspecv0", call->function,
             sc->path);
    return bad(c, SCP_ERR_NOTFOUND, where, what);
  }
  const char *key;
  json_t *v;
  json_object_foreach(args, key, v) {
    bool known = false;
    for (uint32_t k = 0; k < f->ninputs && !known; k++) known = !strcmp(f->inputs[k].name, key);
    if (!known) {
      scp_buf u = {0};
      scp_spec_fn_format(f, &u);
      snprintf(what, sizeof what, "%s has no parameter %.40s (usage: %.200s)", f->name, key,
               u.oom || !u.data ? "?" : u.data);
      scp_buf_free(&u);
      return bad(c, SCP_ERR_ARG, where, what);
    }
  }
  free(call->args);
  call->args = calloc(f->ninputs ? f->ninputs : 1, sizeof *call->args);
  if (!call->args) return nomem(c);
  for (uint32_t k = 0; k < f->ninputs; k++) {
    const scp_spec_input *in = &f->inputs[k];
    json_t *a = args ? json_object_get(args, in->name) : NULL;
    if (!a && in->type.kind != SCP_SPEC_OPTION && in->type.kind != SCP_SPEC_VOID) {
      snprintf(what, sizeof what, "%s: missing argument %s", f->name, in->name);
      return bad(c, SCP_ERR_ARG, where, what);
    }
    const char *t = a ? value_text(c, a) : "void";
    if (!t) return nomem(c);
    if ((rc = scp_spec_arg_value(sc->spec, &in->type, in->name, t, &call->args[k], c->err))) {
      scp_error_prefix(c->err, where);
      scp_error_prefix(c->err, c->path);
      return rc;
    }
  }
  call->nargs = f->ninputs;
  return SCP_OK;
}

static int load_call(ctx *c, json_t *j, size_t i) {
  static const char *const known[] = {"contract", "function", "args", "profile", NULL};
  static const char *const refused[] = {"auth", "source", NULL};
  char where[48];
  snprintf(where, sizeof where, "calls[%zu]", i);
  if (!json_is_object(j)) return bad(c, SCP_ERR_MALFORMED, where, "a call is an object");
  int rc = check_keys(c, j, where, known, refused);
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
  if (!con && c->s->ncontracts > 1)
    return bad(c, SCP_ERR_MALFORMED, where, "\"contract\" is needed when there are several");
  call->contract = SIZE_MAX;
  for (size_t k = 0; k < c->s->ncontracts; k++)
    if (!con || !strcmp(c->s->contracts[k].name, json_string_value(con))) call->contract = k;
  if (call->contract == SIZE_MAX) {
    char what[120];
    snprintf(what, sizeof what, "no contract named %.60s", json_string_value(con));
    return bad(c, SCP_ERR_MALFORMED, where, what);
  }
  call->function = dup_str(json_string_value(fn));
  if (!call->function) return nomem(c);
  if ((rc = load_args(c, call, json_object_get(j, "args"), where))) return rc;
  /* the others, in the file's order */
  call->others = calloc(c->s->ncontracts, sizeof *call->others);
  if (!call->others) return nomem(c);
  for (size_t k = 0, n = 0; k < c->s->ncontracts; k++) {
    if (k == call->contract) continue;
    const scp_scenario_contract *o = &c->s->contracts[k];
    call->others[n++] = (scp_contract_file){.path = o->path, .wasm = o->wasm, .len = o->len};
  }
  return SCP_OK;
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
  int rc = check_keys(c, l, "ledger", known, NULL);
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
    bool ok = strlen(h) == 64;
    for (size_t i = 0; ok && i < 32; i++) {
      unsigned b;
      ok = sscanf(h + 2 * i, "%2x", &b) == 1 && strchr("0123456789abcdefABCDEF", h[2 * i]) &&
           strchr("0123456789abcdefABCDEF", h[2 * i + 1]);
      c->s->network_id[i] = (uint8_t)b;
    }
    if (!ok) return bad(c, SCP_ERR_MALFORMED, "ledger", "\"network_id\" is 64 hex digits");
    c->s->has_network_id = true;
  }
  return SCP_OK;
}

/* "storage": [{"contract", "key", "value", "durability", "live_until"}],
 * key and value as "type:value" (no spec types storage). */
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
    int rc = check_keys(c, j, where, known, NULL);
    if (rc) return rc;
    scp_ledger_seed *sd = &c->s->storage[i];
    c->s->nstorage = i + 1;
    json_t *con = json_object_get(j, "contract"), *dur = json_object_get(j, "durability");
    json_t *lu = json_object_get(j, "live_until");
    sd->contract = SIZE_MAX;
    if (!con && c->s->ncontracts == 1) sd->contract = 0;
    for (size_t k = 0; json_is_string(con) && k < c->s->ncontracts; k++)
      if (!strcmp(c->s->contracts[k].name, json_string_value(con))) sd->contract = k;
    if (sd->contract == SIZE_MAX) return bad(c, SCP_ERR_MALFORMED, where, "\"contract\" must name a contract");
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
      if (!json_is_string(v)) {
        snprintf(what, sizeof what, "\"%s\" must be a \"type:value\" string", names[k]);
        return bad(c, SCP_ERR_MALFORMED, where, what);
      }
      const char *text = keep(c, json_string_value(v));
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

int scp_scenario_load(const char *path, scp_scenario **out, scp_error *err) {
  static const char *const known[] = {"contracts", "calls", "cpu_limit", "mem_limit", "ledger",
                                      "storage", "source", NULL};
  *out = NULL;
  uint8_t *text;
  size_t len;
  int rc = scp_read_file(path, &text, &len, err);
  if (rc) return rc;
  json_error_t je;
  json_t *root = json_loadb((const char *)text, len, JSON_REJECT_DUPLICATES, &je);
  free(text);
  if (!root)
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: line %d column %d: %s", path, je.line,
                    je.column, je.text);
  ctx c = {.path = path, .err = err, .s = calloc(1, sizeof(scp_scenario))};
  if (!c.s) {
    json_decref(root);
    return nomem(&c);
  }
  json_t *cons = json_object_get(root, "contracts"), *calls = json_object_get(root, "calls");
  if (!json_is_object(root)) rc = bad(&c, SCP_ERR_MALFORMED, NULL, "a scenario is a JSON object");
  else rc = check_keys(&c, root, NULL, known, NULL);
  if (!rc && (!json_is_array(cons) || !json_array_size(cons)))
    rc = bad(&c, SCP_ERR_MALFORMED, NULL, "\"contracts\" must be a non-empty array");
  if (!rc && (!json_is_array(calls) || !json_array_size(calls)))
    rc = bad(&c, SCP_ERR_MALFORMED, NULL, "\"calls\" must be a non-empty array");
  if (!rc) rc = limit(&c, root, "cpu_limit", &c.s->cpu_limit);
  if (!rc) rc = limit(&c, root, "mem_limit", &c.s->mem_limit);
  if (!rc) rc = load_ledger(&c, json_object_get(root, "ledger"));
  json_t *src = json_object_get(root, "source");   /* (auth2) every call's source account */
  if (!rc && src) {
    if (!json_is_string(src) || !scp_account_strkey(json_string_value(src), c.s->source))
      rc = bad(&c, SCP_ERR_MALFORMED, NULL,
               "\"source\" must be an account strkey (G..., 56 characters)");
    else c.s->has_source = true;
  }
  if (!rc) {
    c.s->contracts = calloc(json_array_size(cons), sizeof *c.s->contracts);
    c.s->calls = calloc(json_array_size(calls), sizeof *c.s->calls);
    if (!c.s->contracts || !c.s->calls) rc = nomem(&c);
  }
  for (size_t i = 0; !rc && i < json_array_size(cons); i++)
    rc = load_contract(&c, json_array_get(cons, i), i);
  if (!rc && !(c.s->files = calloc(json_array_size(cons), sizeof *c.s->files))) rc = nomem(&c);
  for (size_t i = 0; !rc && i < c.s->ncontracts; i++) {
    const scp_scenario_contract *k = &c.s->contracts[i];
    c.s->files[i] = (scp_contract_file){.path = k->path, .wasm = k->wasm, .len = k->len};
  }
  if (!rc) rc = load_storage(&c, json_object_get(root, "storage"));
  for (size_t i = 0; !rc && i < json_array_size(calls); i++)
    rc = load_call(&c, json_array_get(calls, i), i);
  json_decref(root);
  if (rc) {
    scp_scenario_free(c.s);
    return rc;
  }
  *out = c.s;
  return SCP_OK;
}

void scp_scenario_opts(const scp_scenario *s, size_t i, scp_soroban_opts *o) {
  const scp_scenario_call *call = &s->calls[i];
  const scp_scenario_contract *sc = &s->contracts[call->contract];
  memset(o, 0, sizeof *o);
  o->wasm_path = sc->path;
  o->wasm = sc->wasm;
  o->wasm_len = sc->len;
  o->function = call->function;
  o->args = call->args;
  o->nargs = call->nargs;
  o->cpu_limit = s->cpu_limit;
  o->mem_limit = s->mem_limit;
  o->contracts = call->others;
  o->ncontracts = s->ncontracts - 1;
  o->protocol = s->protocol;
  o->ledger_sequence = s->sequence;
  o->ledger_timestamp = s->timestamp;
  o->has_network_id = s->has_network_id;
  memcpy(o->network_id, s->network_id, 32);
  o->has_source_account = s->has_source;
  memcpy(o->source_account, s->source, 32);
  o->ledger_main = call->contract;
}

void scp_scenario_free(scp_scenario *s) {
  if (!s) return;
  for (size_t i = 0; i < s->ncalls; i++) {
    free(s->calls[i].function);
    free(s->calls[i].args);
    free(s->calls[i].others);
  }
  free(s->calls);
  for (size_t i = 0; i < s->ncontracts; i++) {
    free(s->contracts[i].name);
    free(s->contracts[i].path);
    free(s->contracts[i].wasm);
    scp_spec_free(s->contracts[i].spec);
  }
  free(s->contracts);
  free(s->files);
  free(s->storage);
  for (size_t i = 0; i < s->ntexts; i++) free(s->texts[i]);
  free(s->texts);
  free(s);
}
