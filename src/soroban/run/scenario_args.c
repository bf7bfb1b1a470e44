/*
 * scenario_args.c — a scenario call's arguments typed by a contract's
 * spec (scenario_ctx.h): by its own code's when the file is read, and by
 * the code earlier calls gave it ("@NAME" to update_current_contract_wasm),
 * so that the call is typed by the code it runs when it runs
 * (scp_scenario_call_args).
 */
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/run/arg_json.h"
#include "soroban/run/scenario_ctx.h"

typedef scp_scenario_ctx ctx;

static int oom(ctx *c) { return scp_scenario_bad(c, SCP_ERR_NOMEM, NULL, "out of memory"); }

/* "@NAME", a contract of the file: its code hash (hex), noted as given
 * to the contract the call being read calls. */
static bool code_ref(ctx *c, const char *text, char hex[65]) {
  size_t k;
  if (!scp_scenario_code_ref(c->s, c->s->ncontracts, text, hex, &k)) return false;
  if (c->nrefs < SCP_ARRAY_LEN(c->refs)) c->refs[c->nrefs++] = k;
  return true;
}

/* The text scp_argjson_value reads for a JSON value: a string as is (a
 * bare word, hex, a strkey, a decimal), null as "null", everything else
 * as JSON. */
static const char *value_text(ctx *c, json_t *v) {
  char hex[65];
  if (json_is_string(v) && code_ref(c, json_string_value(v), hex)) return scp_scenario_keep(c, hex);
  if (json_is_string(v)) return scp_scenario_keep(c, json_string_value(v));
  char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  if (!d) return NULL;
  const char *t = scp_scenario_keep(c, d);
  free(d);
  return t;
}

/* A "type:value" text with a name in place of an address ("addr:usdc"):
 * the named contract's strkey instead. */
const char *scp_scenario_arg_text(ctx *c, const char *t) {
  const char *colon = strchr(t, ':');
  char sk[57], buf[160], hex[65];
  if (colon && (!strncmp(t, "addr:", 5) || !strncmp(t, "address:", 8)) && scp_scenario_named(c, colon + 1, sk)) {
    snprintf(buf, sizeof buf, "addr:%s", sk);
    return scp_scenario_keep(c, buf);
  }
  if (colon && colon - t < 64 && code_ref(c, colon + 1, hex)) {   /* "bytes:@pool" */
    snprintf(buf, sizeof buf, "%.*s:%s", (int)(colon - t), t, hex);
    return scp_scenario_keep(c, buf);
  }
  return scp_scenario_keep(c, t);
}

/* The contract whose code types a call of contract: itself, or the code
 * being tried (c->code_as); NULL for an asset contract. */
static const scp_scenario_contract *code_of(ctx *c, size_t contract) {
  if (contract == SIZE_MAX) return NULL;
  return &c->s->contracts[c->code_as != SIZE_MAX ? c->code_as : contract];
}

/* function in the contract's spec, else in the spec of code an earlier
 * call gave the contract ("@NAME": update_current_contract_wasm may have
 * made it the contract's code), the latest first; NULL when none has it.
 * *spec and *wpath then say whose spec it is. */
static const scp_spec_fn *find_fn(ctx *c, size_t contract, const char *function, scp_spec **spec,
                                  const char **wpath) {
  const scp_spec_fn *f = *spec ? scp_spec_find(*spec, function) : NULL;
  for (size_t g = c->code_as == SIZE_MAX ? c->ngiven : 0; !f && g-- > 0;) {
    const scp_scenario_contract *code = &c->s->contracts[c->given[g].code];
    if (c->given[g].contract != contract || !code->spec) continue;
    if ((f = scp_spec_find(code->spec, function))) {
      *spec = code->spec;
      *wpath = code->path;
    }
  }
  return f;
}

/* Element k of "args" as an array when it is a JSON value, not a
 * "type:value" string (a struct's object, an enum's array, a number):
 * typed by the function's parameter k, as the object form types it. */
static int array_value(ctx *c, size_t contract, const char *function, size_t k, json_t *a,
                       const char *where, scp_arg *out) {
  scp_spec *spec = code_of(c, contract) ? code_of(c, contract)->spec : NULL;
  const char *wpath = "";
  const scp_spec_fn *f = find_fn(c, contract, function, &spec, &wpath);
  if (!f || k >= f->ninputs)
    return scp_scenario_bad(c, SCP_ERR_MALFORMED, where, "\"args\" as an array holds \"type:value\" strings, "
               "or JSON values typed by the function's parameters in the contract's contractspecv0");
  const char *t = value_text(c, a);
  if (!t) return oom(c);
  int rc = scp_argjson_value(spec, &f->inputs[k].type, f->inputs[k].name, t, out, c->err);
  if (rc) {
    scp_error_prefix(c->err, where);
    scp_error_prefix(c->err, c->path);
  }
  return rc;
}

/* "args": {"name": value, ...} typed by the spec, or ["type:value", ...];
 * *out (malloc'd) receives them. */
int scp_scenario_load_args(ctx *c, size_t contract, const char *function, json_t *args,
                           const char *where, scp_arg **out, size_t *nout) {
  const scp_scenario_contract *code = code_of(c, contract);
  scp_spec *spec = code ? code->spec : NULL;
  const char *wpath = code ? code->path : "an asset contract";
  char what[300];
  int rc;
  *nout = 0;
  if (!args || json_is_array(args)) {
    size_t n = args ? json_array_size(args) : 0;
    *out = calloc(n ? n : 1, sizeof **out);
    if (!*out) return oom(c);
    for (size_t k = 0; k < n; k++) {
      json_t *a = json_array_get(args, k);
      if (!json_is_string(a)) {
        if ((rc = array_value(c, contract, function, k, a, where, &(*out)[k]))) return rc;
        continue;
      }
      const char *t = scp_scenario_arg_text(c, json_string_value(a));
      if (!t) return oom(c);
      if ((rc = scp_arg_parse(t, &(*out)[k], c->err))) {
        scp_error_prefix(c->err, where);
        scp_error_prefix(c->err, c->path);
        return rc;
      }
    }
    *nout = n;
    if (!args && spec) goto by_name;   /* no args: every parameter omitted */
    return SCP_OK;
  }
  if (!json_is_object(args))
    return scp_scenario_bad(c, SCP_ERR_MALFORMED, where, "\"args\" is an object (by name) or an array "
               "of \"type:value\" strings");
by_name:;
  if (!spec) {
    snprintf(what, sizeof what, "%s has no contractspecv0 section to name arguments by: give "
             "\"args\" as [\"type:value\", ...]", wpath);
    return scp_scenario_bad(c, SCP_ERR_ARG, where, what);
  }
  const scp_spec_fn *f = find_fn(c, contract, function, &spec, &wpath);
  if (!f) {
    snprintf(what, sizeof what, "no function %.40s in %s's contractspecv0", function, wpath);
    return scp_scenario_bad(c, SCP_ERR_NOTFOUND, where, what);
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
      return scp_scenario_bad(c, SCP_ERR_ARG, where, what);
    }
  }
  free(*out);
  *out = calloc(f->ninputs ? f->ninputs : 1, sizeof **out);
  if (!*out) return oom(c);
  for (uint32_t k = 0; k < f->ninputs; k++) {
    const scp_spec_input *in = &f->inputs[k];
    json_t *a = args ? json_object_get(args, in->name) : NULL;
    if (!a && in->type.kind != SCP_SPEC_OPTION && in->type.kind != SCP_SPEC_VOID) {
      snprintf(what, sizeof what, "%s: missing argument %s", f->name, in->name);
      return scp_scenario_bad(c, SCP_ERR_ARG, where, what);
    }
    char sk[57];
    const char *t;
    if (a && json_is_string(a) && in->type.kind == SCP_SPEC_ADDRESS &&
        scp_scenario_named(c, json_string_value(a), sk))
      t = scp_scenario_keep(c, sk);   /* an address given by contract or asset name */
    else
      t = a ? value_text(c, a) : "void";
    if (!t) return oom(c);
    if ((rc = scp_argjson_value(spec, &in->type, in->name, t, &(*out)[k], c->err))) {
      scp_error_prefix(c->err, where);
      scp_error_prefix(c->err, c->path);
      return rc;
    }
  }
  *nout = f->ninputs;
  return SCP_OK;
}

/* msg without the "FILE: WHERE: " every error of the file's reading has. */
static const char *bare(ctx *c, const char *where, const char *msg) {
  size_t lp = strlen(c->path), lw = strlen(where);
  if (!strncmp(msg, c->path, lp) && !strncmp(msg + lp, ": ", 2) &&
      !strncmp(msg + lp + 2, where, lw) && !strncmp(msg + lp + 2 + lw, ": ", 2))
    return msg + lp + lw + 4;
  return msg;
}


/* One typing of call's arguments, by the spec of contract k's code (hash h)
 * alone.  SCP_OK (its refusal kept in the typing) or SCP_ERR_NOMEM. */
static int type_by(ctx *c, scp_scenario_call *call, size_t k, const uint8_t h[32], json_t *args,
                   const char *where) {
  scp_scenario_typing *r = realloc(call->retyped, (call->nretyped + 1) * sizeof *r);
  if (!r) return oom(c);
  call->retyped = r;
  scp_scenario_typing *t = &r[call->nretyped++];
  *t = (scp_scenario_typing){.code = k};
  memcpy(t->hash, h, 32);
  c->code_as = k;
  int rc = scp_scenario_load_args(c, call->contract, call->function, args, where, &t->args, &t->nargs);
  c->code_as = SIZE_MAX;
  if (rc == SCP_ERR_NOMEM) return rc;
  if (rc && !(t->msg = strdup(bare(c, where, c->err->msg)))) return oom(c);
  t->rc = rc;
  return SCP_OK;
}

/* Up front, a call is refused only when none of the codes its contract
 * can run by then types its arguments: its own, or one an earlier call
 * gave it.  A contract no call gives code to is typed by its own spec
 * alone, as before any upgrade existed. */
int scp_scenario_retype(ctx *c, size_t i, json_t *args, const char *where, int rc0) {
  scp_scenario_call *call = &c->s->calls[i];
  bool given = false;
  for (size_t g = 0; g < c->ngiven && !given; g++) given = c->given[g].contract == call->contract;
  if (call->is_asset || rc0 == SCP_ERR_NOMEM || !given) return rc0;
  if (!c->hashes) {   /* hashed once: a file's calls are many, its contracts' code read once */
    if (!(c->hashes = malloc((c->s->ncontracts + 1) * sizeof *c->hashes))) return oom(c);
    for (size_t k = 0; k < c->s->ncontracts; k++)
      SHA256(c->s->contracts[k].wasm, c->s->contracts[k].len, c->hashes[k]);
  }
  scp_error first = *c->err;
  size_t nrefs = c->nrefs;   /* the code this call gives: its own typing's */
  const uint8_t *own = c->hashes[call->contract];
  bool any = false;
  for (size_t g = c->ngiven; g-- > 0;) {   /* the latest first */
    if (c->given[g].contract != call->contract) continue;
    const uint8_t *h = c->hashes[c->given[g].code];
    bool seen = !memcmp(h, own, 32);
    for (size_t t = 0; t < call->nretyped && !seen; t++) seen = !memcmp(call->retyped[t].hash, h, 32);
    if (seen) continue;
    int rc = type_by(c, call, c->given[g].code, h, args, where);
    if (rc) return rc;
    any |= !call->retyped[call->nretyped - 1].rc;
  }
  *c->err = first;
  if (!rc0) c->nrefs = nrefs;
  if (!rc0 || !any) return rc0;
  if (!(call->args_msg = strdup(bare(c, where, first.msg)))) return oom(c);
  call->args_rc = rc0;
  call->nargs = 0;
  *c->err = (scp_error){0};
  return SCP_OK;
}
