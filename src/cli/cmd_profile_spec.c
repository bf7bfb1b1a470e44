/*
 * cmd_profile_spec.c — `scprof profile`'s view of the contract's
 * functions: its contractspecv0 section lists them (--list) and types the
 * arguments given by name (--NAME VALUE, as stellar-cli's invoke takes
 * them); a contract without one has its exports listed and checked, its
 * arguments given as type:value.
 */
#include "cli_profile.h"
#include "soroban/run/arg_json.h"
#include "wasm/scp_wasm.h"

#include <stdlib.h>
#include <string.h>

/* The contract has no spec and that is an error: when the module itself
 * is broken, that is the error to report (with the loader's words and
 * status); otherwise returns 0 and the caller says what is missing. */
static int broken_module(const profile_opts *o) {
  scp_wasm_module *m = NULL;
  scp_error err = {0};
  if (!scp_wasm_load(o->wasm, o->wasm_len, &m, &err)) {
    scp_wasm_module_free(m);
    return 0;
  }
  scp_error_prefix(&err, o->wasm_path);
  return cli_die(err.code, "%s", err.msg);
}

/* One-line error about a named argument, ending with the function's usage
 * so the user sees every parameter and its type. */
static int named_die(const profile_opts *o, int status, const char *what) {
  scp_buf u = {0};
  scp_spec_fn_format(o->fn, &u);   /* "add --a <u32> --b <u32> -> u32" */
  int rc = cli_die(status, "%s: %s (usage: %s)", o->wasm_path, what, u.oom ? "?" : u.data);
  scp_buf_free(&u);
  return rc;
}

static const char *valtype_text(uint8_t t) {
  return t == 0x7f ? "i32" : t == 0x7e ? "i64" : t == 0x7d ? "f32" : t == 0x7c ? "f64" : "?";
}

/* The module's exported functions: "name(i64, i64) -> i64" lines into b
 * (as_list) or their names comma-separated.  Returns the count, or -1
 * when the module does not load (its own error is for the run to tell). */
static int exported_functions(const profile_opts *o, bool as_list, scp_buf *b) {
  scp_wasm_module *m = NULL;
  scp_error err = {0};
  if (scp_wasm_load(o->wasm, o->wasm_len, &m, &err)) return -1;
  int n = 0;
  for (uint32_t i = 0; i < scp_wasm_export_count(m); i++) {
    const char *name;
    size_t len;
    uint8_t kind;
    uint32_t f, np, nr;
    const uint8_t *params, *results;
    if (!scp_wasm_export_get(m, i, &name, &len, &kind, &f) || kind != 0 ||
        !scp_wasm_func_sig(m, f, &params, &np, &results, &nr))
      continue;
    if (!as_list) {
      scp_buf_printf(b, "%s%.*s", n ? ", " : "", (int)len, name);
    } else {
      scp_buf_printf(b, "  %.*s(", (int)len, name);
      for (uint32_t k = 0; k < np; k++)
        scp_buf_printf(b, "%s%s", k ? ", " : "", valtype_text(params[k]));
      scp_buf_puts(b, ")");
      if (nr) scp_buf_printf(b, " -> %s", valtype_text(results[0]));
      scp_buf_putc(b, '\n');
    }
    n++;
  }
  scp_wasm_module_free(m);
  return n;
}

/* --list of a contract without a spec: its exported functions with their
 * WASM signatures (each Soroban argument is one i64 Val). */
int cli_prof_list_exports(profile_opts *o) {
  scp_buf lines = {0}, b = {0};
  int n = exported_functions(o, true, &lines);
  if (n < 0) {
    scp_buf_free(&lines);
    return broken_module(o);
  }
  scp_buf_printf(&b, "%s: %d exported function%s (no contractspecv0 section: WASM signatures; "
                 "give arguments as type:value)\n", o->wasm_path, n, n == 1 ? "" : "s");
  scp_buf_put(&b, lines.data, lines.len);
  if (lines.oom) b.oom = true;
  o->listed = true;
  int status = cli_write_stdout(&b);
  scp_buf_free(&lines);
  scp_buf_free(&b);
  return status;
}

/* FUNCTION must be exported: say which are, not just that it is not. */
int cli_prof_check_exported(const profile_opts *o) {
  scp_buf names = {0};
  int n = exported_functions(o, false, &names), status = 0;
  bool found = false;
  for (const char *s = names.data; n > 0 && s && *s && !found;) {
    size_t l = strcspn(s, ",");
    found = l == strlen(o->function) && !strncmp(s, o->function, l);
    s += l;
    while (*s == ',' || *s == ' ') s++;
  }
  if (n >= 0 && !found)
    status = cli_die(SCP_ERR_NOTFOUND, "%s: no exported function '%s' (exported: %s)", o->wasm_path,
                     o->function, n == 0 ? "none" : names.oom ? "?" : names.data);
  scp_buf_free(&names);
  return status;
}

/* The names of the spec's functions, comma-separated, for messages. */
static void fn_names(const scp_spec *spec, scp_buf *b) {
  for (size_t k = 0; k < spec->nfns; k++)
    scp_buf_printf(b, "%s%s", k ? ", " : "", spec->fns[k].name);
  if (!spec->nfns) scp_buf_puts(b, "none");
}

/* --NAME VALUE or --NAME=VALUE after the function name, for a parameter of
 * the function's spec.  Returns 1 when argv[*i] was such an argument (and
 * consumed), 0 when it is not one, or -status after printing an error. */
int cli_prof_named_arg(int argc, char **argv, int *i, profile_opts *o) {
  const char *a = argv[*i];
  if (!o->fn || a[0] != '-' || a[1] != '-' || !a[2]) return 0;
  const char *name = a + 2, *eq = strchr(name, '=');
  size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
  uint32_t k;
  for (k = 0; k < o->fn->ninputs; k++)
    if (strlen(o->fn->inputs[k].name) == nlen && !memcmp(o->fn->inputs[k].name, name, nlen))
      break;
  if (k == o->fn->ninputs) return 0;
  char what[160];
  if (o->named[k]) {
    snprintf(what, sizeof what, "--%.*s given twice", (int)nlen, name);
    return -named_die(o, SCP_ERR_ARG, what);
  }
  const char *val;
  if (eq) {
    val = eq + 1;
  } else if (o->fn->inputs[k].type.kind == SCP_SPEC_VOID &&
             (*i + 1 >= argc || !strncmp(argv[*i + 1], "--", 2))) {
    val = "void";   /* a void parameter needs no value */
  } else if (*i + 1 < argc) {
    val = argv[++*i];
  } else {
    snprintf(what, sizeof what, "--%.*s needs a value", (int)nlen, name);
    return -named_die(o, SCP_ERR_ARG, what);
  }
  o->named[k] = val;
  o->nnamed++;
  return 1;
}

/* --list (or no FUNCTION): the contract's functions with their parameters
 * and types, from its spec, on stdout. */
int cli_prof_list_functions(profile_opts *o) {
  scp_buf b = {0};
  scp_buf_printf(&b, "%s: %zu function%s (contractspecv0)\n", o->wasm_path, o->spec->nfns,
                 o->spec->nfns == 1 ? "" : "s");
  for (size_t k = 0; k < o->spec->nfns; k++) {
    const scp_spec_fn *f = &o->spec->fns[k];
    scp_buf_puts(&b, "  ");
    scp_spec_fn_format(f, &b);
    scp_buf_putc(&b, '\n');
    /* the doc's first line: enough to tell functions apart */
    if (f->doc && f->doc[0])
      scp_buf_printf(&b, "      %.*s\n", (int)strcspn(f->doc, "\n"), f->doc);
  }
  o->listed = true;
  int status = cli_write_stdout(&b);
  scp_buf_free(&b);
  return status;
}

/* The named arguments, typed by the spec, become the call's arguments in
 * the function's parameter order.  Returns 0 or the exit status of the
 * error it printed. */
int cli_prof_named_to_args(profile_opts *o) {
  const scp_spec_fn *f = o->fn;
  if (!o->nnamed && (o->nargs || !f->ninputs)) return 0;   /* type:value as before */
  if (o->nargs)
    return named_die(o, SCP_ERR_ARG, "give the arguments either by name or as type:value, "
                     "not both");
  scp_buf missing = {0};
  for (uint32_t k = 0; k < f->ninputs; k++) {
    uint32_t kind = f->inputs[k].type.kind;
    /* an absent option or void parameter is Void, as stellar-cli sends it */
    if (!o->named[k] && kind != SCP_SPEC_OPTION && kind != SCP_SPEC_VOID)
      scp_buf_printf(&missing, "%s--%s", missing.len ? ", " : "", f->inputs[k].name);
  }
  if (missing.len) {
    char what[200];
    snprintf(what, sizeof what, "%s: missing %s", f->name, missing.oom ? "?" : missing.data);
    scp_buf_free(&missing);
    return named_die(o, SCP_ERR_ARG, what);
  }
  scp_buf_free(&missing);
  scp_arg *args = calloc(f->ninputs ? f->ninputs : 1, sizeof *args);
  if (!args) return cli_die(SCP_ERR_NOMEM, "out of memory");
  free(o->args);
  o->args = args;
  for (uint32_t k = 0; k < f->ninputs; k++) {
    scp_error e = {0};
    if (scp_argjson_value(o->spec, &f->inputs[k].type, f->inputs[k].name,
                          o->named[k] ? o->named[k] : "void", &args[k], &e))
      return named_die(o, e.code, e.msg);
  }
  o->nargs = f->ninputs;
  return 0;
}

/* --NAME after the function that is none of its parameters: the error
 * names the function's parameters, or its spec's functions, or says that
 * the contract has no spec to name arguments by. */
int cli_prof_unknown_named(profile_opts *o, const char *a) {
  char what[200];
  snprintf(what, sizeof what, "%.100s is not a parameter of %.40s", a, o->function);
  if (o->fn) return named_die(o, SCP_ERR_ARG, what);
  scp_buf names = {0};
  int status;
  if (o->spec) {
    fn_names(o->spec, &names);
    status = cli_die(SCP_ERR_NOTFOUND, "%s: no function %s in its contractspecv0 "
                     "(functions: %s)", o->wasm_path, o->function,
                     names.oom ? "?" : names.data);
  } else if (!(status = broken_module(o))) {
    status = cli_die(SCP_ERR_ARG, "%s: unknown option %s (the contract has no "
                     "contractspecv0 section to name arguments by: give them as "
                     "type:value)", o->wasm_path, a);
  }
  scp_buf_free(&names);
  return status;
}
