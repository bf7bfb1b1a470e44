/* cli_ledger.c — a command-line call's ledger (cli_ledger.h).  A contract
 * with a constructor goes to the same set-up transaction as a scenario's
 * (sor_ledger.c): outside the profiled call, on its own Budget. */
#include "cli.h"
#include "cli_ledger.h"
#include "soroban/run/arg_json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Whether f exports __constructor, and its parameter count.  A module
 * that does not parse has none here: the run reports it as before. */
static bool ctor_params(const scp_contract_file *f, uint32_t *np) {
  scp_error err = {0};
  bool has = false;
  *np = 0;
  return scp_ledger_ctor_export(f->wasm, f->len, &has, np, &err) == SCP_OK && has;
}

void cli_ctor_args_free(cli_ctor_args *ca) {
  for (size_t i = 0; i < ca->ntexts; i++) free(ca->texts[i]);
  free(ca->texts);
  free(ca->args);
  scp_spec_free(ca->spec);
  if (ca->root) json_decref(ca->root);
  ca->texts = NULL;
  ca->args = NULL;
  ca->spec = NULL;
  ca->root = NULL;
  ca->ntexts = ca->nargs = 0;
}

/* An array of "type:value" strings, in the parameters' order. */
static int args_by_type(cli_ctor_args *ca) {
  size_t n = json_array_size(ca->root);
  for (size_t k = 0; k < n; k++) {
    json_t *v = json_array_get(ca->root, k);
    scp_error e = {0};
    if (!json_is_string(v))
      return cli_die(SCP_ERR_ARG, "--constructor-args[%zu]: not a \"type:value\" string (an object by "
                     "parameter name takes JSON values)", k);
    if (scp_arg_parse(json_string_value(v), &ca->args[k], &e))
      return cli_die(e.code, "--constructor-args[%zu]: %s", k, e.msg);
  }
  ca->nargs = n;
  return 0;
}

/* The text scp_argjson_value reads for a JSON value: a string as is, every
 * other value as JSON (kept until cli_ctor_args_free). */
static const char *value_text(cli_ctor_args *ca, json_t *v) {
  if (json_is_string(v)) return json_string_value(v);
  char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
  char **t = d ? realloc(ca->texts, (ca->ntexts + 1) * sizeof *t) : NULL;
  if (!t) {
    free(d);
    return NULL;
  }
  ca->texts = t;
  return t[ca->ntexts++] = d;
}

/* An object by parameter name, typed by path's spec of __constructor; an
 * absent option or void parameter is Void, as for the call's arguments. */
static int args_by_name(cli_ctor_args *ca, const scp_contract_file *f, const char *path) {
  scp_error e = {0};
  if (scp_spec_from_wasm(f->wasm, f->len, path, &ca->spec, &e)) return cli_die(e.code, "%s", e.msg);
  const scp_spec_fn *fn = ca->spec ? scp_spec_find(ca->spec, "__constructor") : NULL;
  if (!fn)
    return cli_die(SCP_ERR_ARG, "%s: --constructor-args by name, but its contractspecv0 section has no "
                   "__constructor: give them as an array of \"type:value\" strings", path);
  const char *key;
  json_t *v;
  json_object_foreach(ca->root, key, v) {
    uint32_t k = 0;
    while (k < fn->ninputs && strcmp(fn->inputs[k].name, key)) k++;
    if (k == fn->ninputs) return cli_die(SCP_ERR_ARG, "--constructor-args: %s: __constructor has no parameter '%s'",
                                         path, key);
  }
  for (uint32_t k = 0; k < fn->ninputs; k++) {
    const scp_spec_input *in = &fn->inputs[k];
    v = json_object_get(ca->root, in->name);
    if (!v && in->type.kind != SCP_SPEC_OPTION && in->type.kind != SCP_SPEC_VOID)
      return cli_die(SCP_ERR_ARG, "--constructor-args: %s: __constructor: missing '%s'", path, in->name);
    const char *text = v ? value_text(ca, v) : "void";
    if (!text) return cli_die(SCP_ERR_NOMEM, "out of memory");
    if (scp_argjson_value(ca->spec, &in->type, in->name, text, &ca->args[k], &e))
      return cli_die(e.code, "--constructor-args: %s", e.msg);
  }
  ca->nargs = fn->ninputs;
  return 0;
}

/* ca's arguments for the called contract f, whose __constructor takes np. */
static int ctor_args(cli_ctor_args *ca, const scp_contract_file *f, const char *path, uint32_t np) {
  json_error_t je;
  ca->root = json_loads(ca->json, JSON_DECODE_ANY, &je);
  if (!ca->root || !(json_is_object(ca->root) || json_is_array(ca->root)))
    return cli_die(SCP_ERR_ARG, "--constructor-args: not a JSON object or array%s%s",
                   ca->root ? "" : ": ", ca->root ? "" : je.text);
  size_t n = json_is_array(ca->root) ? json_array_size(ca->root) : json_object_size(ca->root);
  if (!(ca->args = calloc((n > np ? n : np) + 1, sizeof *ca->args))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  int status = json_is_array(ca->root) ? args_by_type(ca) : args_by_name(ca, f, path);
  if (!status && ca->nargs != np)
    status = cli_die(SCP_ERR_ARG, "%s: __constructor takes %u argument%s, %zu given", path, np,
                     np == 1 ? "" : "s", ca->nargs);
  return status;
}

int cli_ctor_deploys(const scp_contract_file *files, size_t n, uint32_t protocol, cli_ctor_args *ca,
                     scp_ledger_deploy **out) {
  *out = NULL;
  if (protocol && protocol < 22) {   /* CreateContract ran no constructor before protocol 22 */
    if (ca->json)
      return cli_die(SCP_ERR_ARG, "--constructor-args: a constructor runs from protocol 22 on (the "
                     "ledger's is %u)", protocol);
    return 0;
  }
  scp_ledger_deploy *d = calloc(n ? n : 1, sizeof *d);
  if (!d) return cli_die(SCP_ERR_NOMEM, "out of memory");
  bool any = false;
  int status = 0;
  for (size_t i = 0; i < n && !status; i++) {
    uint32_t np = 0;
    const char *path = files[i].path ? files[i].path : "contract.wasm";
    d[i].construct = ctor_params(&files[i], &np);
    if (i == 0 && ca->json && !d[i].construct)
      status = cli_die(SCP_ERR_ARG, "%s: --constructor-args given, but it exports no __constructor", path);
    else if (i == 0 && ca->json)
      status = ctor_args(ca, &files[i], path, np);
    else if (d[i].construct && np)
      status = cli_die(SCP_ERR_ARG, "%s: __constructor takes %u argument%s: give them with "
                       "--constructor-args (the called contract's) or a scenario's \"constructor_args\" "
                       "(docs/scenarios.md)", path, np, np == 1 ? "" : "s");
    for (int k = 0; k < 8; k++) d[i].salt[31 - k] = (uint8_t)((uint64_t)i >> (8 * k));   /* salt i */
    d[i].where = "set-up";
    any = any || d[i].construct;
  }
  if (!status && ca->json) {
    d[0].ctor = ca->args;
    d[0].nctor = ca->nargs;
  }
  if (status || !any) free(d);
  else *out = d;
  return status;
}

int cli_ledger_open(scp_soroban_opts *so, const scp_ledger_account *accounts, size_t naccounts,
                    const scp_ledger_trustline *trustlines, size_t ntrustlines, cli_ctor_args *ca,
                    scp_sor_session *sess, scp_ledger **ledger, scp_contract_file **files,
                    scp_ledger_deploy **deploys) {
  size_t n = so->ledger.ncontracts + 1;
  if (!(*files = calloc(n, sizeof **files))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  (*files)[0] = (scp_contract_file){.path = so->wasm_path, .wasm = so->wasm, .len = so->wasm_len};
  if (n > 1) memcpy(*files + 1, so->ledger.contracts, (n - 1) * sizeof **files);
  int status = so->sdk_test ? 0 : cli_ctor_deploys(*files, n, so->ledger.protocol, ca, deploys);
  if (status || (!*deploys && !naccounts && !ntrustlines)) return status;
  *ledger = scp_ledger_new(*files, n);
  if (!*ledger || !scp_ledger_classic(*ledger, accounts, naccounts, trustlines, ntrustlines, so->ledger.assets,
                                      so->ledger.nassets))
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  (*ledger)->deploys = *deploys;
  *sess = (scp_sor_session){.ledger = *ledger, .main = 0};
  so->session = sess;
  so->ledger.nassets = 0;   /* the ledger's own */
  return 0;
}
