/*
 * cmd_profile.c — `scprof profile CONTRACT.wasm FUNCTION [ARG...]`: run a
 * contract function under the metered Soroban host and write its profile
 * in the chosen formats to a folder.  Arguments are `type:value`, or
 * `--NAME VALUE` typed by the contract's contractspecv0 section (and
 * `--list` prints that section's functions: cmd_profile_spec.c).
 *
 * A run that started but trapped or ran out of budget still writes its
 * (partial) profile, then exits with the trap/budget status.
 */
#include "cli_profile.h"
#include "cli_pipe.h"
#include "soroban/run/scp_scenario.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* --account G...[:BALANCE]: a classic account (master key weight 1, no
 * signers), its balance in stroops (default 0). */
static int parse_account(profile_opts *o, const char *val) {
  scp_ledger_account *a = &o->accounts[o->naccounts];
  memset(a, 0, sizeof *a);
  char key[57];
  size_t n = strcspn(val, ":");
  bool ok = n == 56;
  if (ok) {
    memcpy(key, val, 56);
    key[56] = 0;
    ok = scp_account_strkey(key, a->id);
  }
  if (!ok || (val[n] && !cli_parse_stroops(val + n + 1, &a->balance)))
    return cli_die(SCP_ERR_ARG, "--account %s: expected G...[:BALANCE] (an account strkey, the "
                   "balance in stroops)", val);
  for (size_t i = 0; i < o->naccounts; i++)
    if (!memcmp(o->accounts[i].id, a->id, 32))
      return cli_die(SCP_ERR_ARG, "--account %s: this account is given twice", val);
  a->thresholds[0] = 1;
  o->naccounts++;
  return 0;
}

/* --trustline G...:CODE:ISSUER[:BALANCE]: an authorized trustline with
 * the largest limit. */
static int parse_trustline(profile_opts *o, const char *val) {
  scp_ledger_trustline *t = &o->trustlines[o->ntrustlines];
  memset(t, 0, sizeof *t);
  char key[57], *asset = NULL;
  const char *rest = val + strcspn(val, ":");
  bool ok = rest - val == 56 && *rest;
  if (ok) {
    memcpy(key, val, 56);
    key[56] = 0;
    ok = scp_account_strkey(key, t->account);
  }
  /* CODE:ISSUER, then an optional :BALANCE after the 56-character issuer */
  const char *code = ok ? rest + 1 : "", *colon = strchr(code, ':');
  size_t alen = colon ? (size_t)(colon - code) + 1 + 56 : 0;
  ok = ok && colon && strlen(code) >= alen && (!code[alen] || code[alen] == ':');
  if (ok && (asset = malloc(alen + 1))) {
    memcpy(asset, code, alen);
    asset[alen] = 0;
    o->owned[o->nowned++] = asset;
  }
  if (ok && !asset) return cli_die(SCP_ERR_NOMEM, "out of memory");
  if (ok && code[alen]) ok = cli_parse_stroops(code + alen + 1, &t->balance);
  if (!ok)
    return cli_die(SCP_ERR_ARG, "--trustline %s: expected ACCOUNT:CODE:ISSUER[:BALANCE] (account "
                   "strkeys G..., the balance in the asset's units)", val);
  const char *why = "";
  if (scp_ledger_trustline_asset(asset, t->account, &why))
    return cli_die(SCP_ERR_ARG, "--trustline %s: %s", val, why);
  t->asset = asset;
  t->limit = INT64_MAX;
  t->authorized = true;
  o->ntrustlines++;
  return 0;
}

/* Reads the contract and decodes its spec, once.  Returns 0 or the exit
 * status of the error it printed. */
static int load_spec(profile_opts *o) {
  if (o->spec_loaded) return 0;
  o->spec_loaded = true;
  scp_error err = {0};
  if (o->snapshot) {
    /* the contract is an id of the snapshot, its Wasm the snapshot's */
    int status = cli_snapshot_open(o->snapshot, o->wasm_subs, o->nwasm_subs, &o->snap);
    if (!status) status = cli_snapshot_contract(o->snap, o->wasm_path, &o->wasm, &o->wasm_len, &o->snap_main);
    if (status || (status = cli_sortx_entries(&o->sortx, o->snap))) return status;
  } else if (scp_read_file_max(o->wasm_path, SCP_MAX_WASM_BYTES, "a WASM module", &o->wasm,
                               &o->wasm_len, &err)) {
    return cli_die(err.code, "%s", err.msg);
  }
  if (scp_spec_from_wasm(o->wasm, o->wasm_len, o->wasm_path, &o->spec, &err))
    return cli_die(err.code, "%s", err.msg);
  return 0;
}

/* What an option handler returns for an argument that is not its own. */
#define NOT_MINE (-1)

/* The ledger's options: assets, accounts, trustlines, extra contracts,
 * protocol, source account.  Returns 0, the exit status of the error it
 * printed, or NOT_MINE. */
static int ledger_option(int argc, char **argv, int *i, profile_opts *o) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *a = argv[*i], *val;
  if (!strcmp(a, "--asset")) {
    if (!(val = cli_option_value(argc, argv, i, "an asset (native or CODE:G...)"))) return usage;
    o->assets[o->nassets++] = val;
  } else if (!strcmp(a, "--account")) {
    if (!(val = cli_option_value(argc, argv, i, "an account (G...[:BALANCE])"))) return usage;
    int status = parse_account(o, val);
    if (status) return status;
  } else if (!strcmp(a, "--trustline")) {
    if (!(val = cli_option_value(argc, argv, i, "a trustline (G...:CODE:ISSUER[:BALANCE])")))
      return usage;
    int status = parse_trustline(o, val);
    if (status) return status;
  } else if (!strcmp(a, "--constructor-args")) {
    if (!(o->ctor.json = cli_option_value(argc, argv, i, "a JSON object or array"))) return usage;
  } else if (!strcmp(a, "--contract")) {
    if (!(val = cli_option_value(argc, argv, i, "a contract .wasm file"))) return usage;
    o->contracts[o->ncontracts++].path = val;
  } else if (!strcmp(a, "--snapshot")) {
    if (!(val = cli_option_value(argc, argv, i, "a ledger snapshot .json file"))) return usage;
    o->snapshot = val;
  } else if (!strcmp(a, "--wasm")) {
    if (!(val = cli_option_value(argc, argv, i, "C...=FILE.wasm"))) return usage;
    o->wasm_subs[o->nwasm_subs++] = val;
  } else if (!strcmp(a, "--protocol")) {
    uint64_t n;
    if (!(val = cli_option_value(argc, argv, i, "a protocol version"))) return usage;
    if (!cli_parse_u64(val, &n) || n < 20 || n > 28)
      return cli_die(SCP_ERR_ARG, "--protocol: '%s': this host runs protocols 20 to 28", val);
    o->protocol = (uint32_t)n;
  } else if (!strcmp(a, "--source")) {
    if (!(val = cli_option_value(argc, argv, i, "an account strkey (G...)"))) return usage;
    if (!scp_account_strkey(val, o->source))
      return cli_die(SCP_ERR_ARG, "--source: '%s' is not an account strkey (G..., 56 characters)",
                     val);
    o->has_source = true;
  } else {
    return NOT_MINE;
  }
  return 0;
}

/* The authorization options (--auth and what goes with enforce).  Returns
 * 0, the exit status of the error it printed, or NOT_MINE. */
static int auth_option(int argc, char **argv, int *i, profile_opts *o) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *a = argv[*i], *val;
  if (!strcmp(a, "--auth")) {
    if (!(val = cli_option_value(argc, argv, i, "record, enforce, mock or mock-non-root"))) return usage;
    o->auth_mock = !strcmp(val, "mock") ? SCP_AUTH_MOCK_ALL : !strcmp(val, "mock-non-root") ? SCP_AUTH_MOCK_NON_ROOT : 0;
    if (strcmp(val, "record") && strcmp(val, "enforce") && !o->auth_mock)
      return cli_die(SCP_ERR_USAGE, "--auth: '%s': record, enforce, mock or mock-non-root", val);
    o->auth_enforce = !strcmp(val, "enforce");
  } else if (!strcmp(a, "--signer")) {
    if (!(val = cli_option_value(argc, argv, i, "a secret seed (S...) or ADDRESS=S..."))) return usage;
    o->signers[o->nsigners++] = val;
  } else if (!strcmp(a, "--auth-signature")) {
    if (!(val = cli_option_value(argc, argv, i, "C...=TYPE:VALUE"))) return usage;
    o->auth_sigs[o->nauth_sigs++] = val;
  } else if (!strcmp(a, "--auth-expiration")) {
    uint64_t n;
    if (!(val = cli_option_value(argc, argv, i, "a ledger sequence number"))) return usage;
    if (!cli_parse_u64(val, &n) || !n || n > UINT32_MAX)
      return cli_die(SCP_ERR_USAGE, "--auth-expiration: '%s' is not a ledger sequence number", val);
    o->auth_expiration = (uint32_t)n;
  } else {
    return NOT_MINE;
  }
  return 0;
}

/* The fee's options: the network, a settings file, the state size.
 * Returns 0, the exit status of the error it printed, or NOT_MINE. */
static int fee_option(int argc, char **argv, int *i, profile_opts *o) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *a = argv[*i], *val;
  if (!strcmp(a, "--context")) {
    if (!(val = cli_option_value(argc, argv, i, "a context (network, sdk-test)"))) return usage;
    if (strcmp(val, "network") && strcmp(val, "sdk-test"))
      return cli_die(SCP_ERR_USAGE, "--context: '%s' is not a context (network, sdk-test)", val);
    o->sdk_test = !strcmp(val, "sdk-test");
    o->context_given = true;
  } else if (!strcmp(a, "--network")) {
    if (!(val = cli_option_value(argc, argv, i, "a network (mainnet, testnet, mainnet@YYYY-MM-DD)"))) return usage;
    o->network = val;
  } else if (!strcmp(a, "--network-config")) {
    if (!(val = cli_option_value(argc, argv, i, "a settings .json file"))) return usage;
    o->network_config = val;
  } else if (!strcmp(a, "--soroban-state-size")) {
    if (!(val = cli_option_value(argc, argv, i, "a size in bytes"))) return usage;
    if (!cli_parse_u64(val, &o->state_size) || !o->state_size || o->state_size > INT64_MAX)
      return cli_die(SCP_ERR_USAGE, "--soroban-state-size: '%s' is not a size in bytes", val);
  } else {
    return NOT_MINE;
  }
  return 0;
}

/* CONTRACT.wasm, FUNCTION (with its spec, when the contract has one), then
 * the type:value arguments. */
static int positional(profile_opts *o, const char *a) {
  if (!o->wasm_path) {
    o->wasm_path = a;
  } else if (!o->function) {
    o->function = a;
    int status = load_spec(o);
    if (status) return status;
    o->fn = scp_spec_find(o->spec, a);
    if (o->fn) {
      o->named = calloc(o->fn->ninputs ? o->fn->ninputs : 1, sizeof *o->named);
      if (!o->named) return cli_die(SCP_ERR_NOMEM, "out of memory");
    }
  } else {
    scp_error e = {0};
    if (scp_arg_parse(a, &o->args[o->nargs], &e))
      return cli_die(SCP_ERR_ARG, "%s", e.msg);
    o->nargs++;
  }
  return 0;
}

/* Listing the functions runs nothing: an option of a run is refused, not
 * dropped. */
static int list_only(const profile_opts *o) {
  static const char *const list_opts[] = {"--list", "--snapshot", "--wasm", NULL};
  if (o->function)
    return cli_die(SCP_ERR_USAGE, "--list prints the contract's functions and runs none: no FUNCTION (%s) with it",
                   o->function);
  const char *x = cli_optset_other(&o->seen, list_opts);
  if (x)
    return cli_die(SCP_ERR_USAGE, "%s: listing the contract's functions (--list, or no FUNCTION) runs nothing; "
                   "it takes --snapshot and --wasm only", x);
  return 0;
}

/* After the arguments: what goes together, --scenario alone, a contract
 * without a function (its functions listed), named arguments in order. */
static int check_args(profile_opts *o) {
  if (o->jobs && !o->scenario)
    return cli_die(SCP_ERR_USAGE, "--jobs goes with --scenario (the threads that run it and write its profiles)");
  if ((o->nsigners || o->nauth_sigs || o->auth_expiration) && !o->auth_enforce)
    return cli_die(SCP_ERR_USAGE, "--signer, --auth-signature and --auth-expiration go with "
                   "--auth enforce");
  if (o->state_size && !o->network && !o->network_config)
    return cli_die(SCP_ERR_USAGE, "--soroban-state-size is the state size behind the rent write fee: it goes with "
                   "--network or --network-config (without them no fee is computed)");
  if (o->nwasm_subs && !o->snapshot)
    return cli_die(SCP_ERR_USAGE, "--wasm C...=FILE.wasm goes with --snapshot");
  if (o->ctor.json && (o->snapshot || o->scenario || o->sdk_test))
    return cli_die(SCP_ERR_USAGE, "--constructor-args goes with the network's deploy: not with --snapshot, "
                   "--scenario (its \"constructor_args\") or --context sdk-test");
  if (o->snapshot && (o->scenario || o->ncontracts || o->naccounts || o->ntrustlines || o->protocol))
    return cli_die(SCP_ERR_USAGE, "--snapshot is the ledger: no --scenario, --contract, --account, "
                   "--trustline or --protocol with it");
  if (o->sortx.tx_path || o->sortx.meta_path) {
    /* the transaction names the contract, function, arguments and auth */
    const char *given = o->wasm_path || o->list ? "its contract, function and arguments" : o->scenario ? "the calls"
                      : o->auth_enforce || o->nsigners || o->nauth_sigs || o->auth_expiration || o->has_source
                        ? "its authorization and source account" : o->cpu_limit ? "its CPU limit (its instructions)" : NULL;
    int status = cli_sortx_load(&o->sortx, given, o->snapshot);
    if (status) return status;
    o->wasm_path = o->sortx.tx->contract_strkey;
    o->function = o->sortx.tx->function;
    return load_spec(o);
  }
  if (o->scenario) {
    if (o->syms.nspecs)
      return cli_die(SCP_ERR_USAGE, "--symbols goes with one call (CONTRACT.wasm FUNCTION), not --scenario");
    if (o->wasm_path || o->ncontracts || o->list)
      return cli_die(SCP_ERR_USAGE, "--scenario names the contracts and calls itself: no "
                     "CONTRACT.wasm, FUNCTION, --contract or --list with it");
    if (o->naccounts || o->ntrustlines)
      return cli_die(SCP_ERR_USAGE, "--scenario: give accounts and trustlines in the scenario "
                     "file's \"accounts\" and \"trustlines\", not with --account / --trustline");
    return 0;
  }
  if (o->wasm_path && (o->list || !o->function)) {
    int status = load_spec(o);
    if (status) return status;
    if ((o->list || o->spec) && (status = list_only(o))) return status;
    if (o->spec) return cli_prof_list_functions(o);
    if (o->list) return cli_prof_list_exports(o);
  }
  if (!o->wasm_path || !o->function)
    return cli_die(SCP_ERR_USAGE, "profile needs CONTRACT.wasm and FUNCTION (see scprof --help)");
  if (o->fn) return cli_prof_named_to_args(o);
  int status = load_spec(o);
  return status ? status : cli_prof_check_exported(o);
}

/* Returns 0 or the exit status of the error it printed. */
static int parse_args(int argc, char **argv, profile_opts *o) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val;
    /* After the function name its parameters come first, so a contract
     * parameter named like one of our options (--format, --top) is the
     * parameter, as in stellar-cli's invoke. */
    int named = cli_prof_named_arg(argc, argv, &i, o);
    if (named < 0) return -named;
    if (named) continue;
    cli_optset_note(&o->seen, a);
    int status = ledger_option(argc, argv, &i, o);
    if (status == NOT_MINE) status = auth_option(argc, argv, &i, o);
    if (status == NOT_MINE) status = fee_option(argc, argv, &i, o);
    if (status == NOT_MINE) status = cli_sortx_option(argc, argv, &i, &o->sortx);
    if (status != NOT_MINE) {
      if (status) return status;
      continue;
    }
    if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (!(val = cli_option_value(argc, argv, &i, "a folder"))) return usage;
      o->out_dir = val;
    } else if (!strcmp(a, "--cpu-limit") || !strcmp(a, "--mem-limit") || !strcmp(a, "--top")) {
      uint64_t *dest = !strcmp(a, "--cpu-limit") ? &o->cpu_limit
                       : !strcmp(a, "--mem-limit") ? &o->mem_limit : &o->top;
      /* --top ends up in an unsigned of the report options */
      uint64_t max = dest == &o->top ? UINT_MAX : UINT64_MAX;
      if (!(val = cli_option_value(argc, argv, &i, "a non-negative integer"))) return usage;
      if (!cli_parse_u64(val, dest) || *dest > max)
        return cli_die(SCP_ERR_USAGE, "%s: '%s' is not a non-negative integer", a, val);
      /* 0 would be taken as "not given" and run with the default */
      if (!*dest && dest != &o->top)
        return cli_die(SCP_ERR_USAGE, "%s: 0 is not a limit (give a positive number)", a);
    } else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
      if (!(val = cli_option_value(argc, argv, &i, "a list of formats"))) return usage;
      if ((status = cli_parse_formats(val, o->want))) return status;
    } else if (!strcmp(a, "--min-width")) {
      if (!(val = cli_option_value(argc, argv, &i, "a percentage"))) return usage;
      if (!cli_parse_min_width(val, &o->svg.min_width_pct))
        return cli_die(SCP_ERR_USAGE, "--min-width: '%s' is not a percentage from 0 to 100", val);
    } else if (!strcmp(a, "--scenario")) {
      if (!(val = cli_option_value(argc, argv, &i, "a scenario .json file"))) return usage;
      o->scenario = val;
    } else if (cli_pipe_is_jobs(a)) {
      if ((status = cli_pipe_jobs_option(argc, argv, &i, &o->jobs))) return status;
    } else if (!strcmp(a, "--icicle")) {
      o->svg.icicle = true;
    } else if (!strcmp(a, "--list")) {
      o->list = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      o->quiet = true;
    } else if (!strcmp(a, "--strict-debug")) {
      o->strict_debug = true;
    } else if (!strcmp(a, "--max-nodes") || !strcmp(a, "--fold-recursion")) {
      if ((status = cli_shape_option(argc, argv, &i, &o->shape))) return status;
    } else if (!strcmp(a, "--symbols")) {
      if (!(val = cli_option_value(argc, argv, &i, "[C...=]FILE.wasm"))) return usage;
      o->syms.specs[o->syms.nspecs++] = val;
    } else if (o->function && a[0] == '-' && a[1] == '-' && a[2]) {
      return cli_prof_unknown_named(o, a);
    } else if (a[0] == '-' && a[1] != 0) {
      return cli_die(SCP_ERR_USAGE, "unknown option %s (see scprof --help)", a);
    } else if ((status = positional(o, a))) {
      return status;
    }
  }
  return check_args(o);
}

/* File name of the flamegraph of metric m: flamegraph.svg for the first
 * metric (CPU), flamegraph-mem.svg for "Memory", else the metric's name
 * lower-cased with every run of other characters a '-' (Reads ->
 * flamegraph-reads.svg, Loaded bytes -> flamegraph-loaded-bytes.svg), so
 * names stay readable and safe in a path; the metric's number when it has
 * none. */
static void svg_file_name(const scp_profile *p, unsigned m, char *name, size_t size) {
  if (m == 0) {
    snprintf(name, size, "%s", scp_out_format_file(SCP_FMT_SVG));
    return;
  }
  const char *mn = p->metrics[m].name ? p->metrics[m].name : "";
  char tag[32] = {0};
  size_t n = 0;
  for (size_t i = 0; mn[i] && n + 1 < sizeof tag; i++) {
    if (isalnum((unsigned char)mn[i])) tag[n++] = (char)tolower((unsigned char)mn[i]);
    else if (n && tag[n - 1] != '-') tag[n++] = '-';
  }
  while (n && tag[n - 1] == '-') tag[--n] = 0;
  if (!strcmp(tag, "memory")) snprintf(tag, sizeof tag, "mem");
  if (!tag[0]) snprintf(name, size, "flamegraph-%u.svg", m);
  else snprintf(name, size, "flamegraph-%s.svg", tag);
}

/* Renders one format (for the SVG: one file per metric) into folder dir,
 * which messages call shown.  Returns the exit status. */
static int write_format(const scp_profile *p, const profile_opts *o, const scp_out_shared *sh,
                        const char *dir, const char *shown, scp_format fmt) {
  const scp_out_format *of = scp_out_format_get(fmt);
  unsigned nfiles = of->per_metric ? p->nmetrics : 1;
  for (unsigned m = 0; m < nfiles; m++) {
    char name[64];
    snprintf(name, sizeof name, "%s", of->file);
    if (of->per_metric) svg_file_name(p, m, name, sizeof name);
    scp_out_opts oo = {.metric = m, .top = (unsigned)o->top, .svg = o->svg, .shared = sh};
    int status = cli_write_format(dir, shown, name, p, of, &oo);
    if (status) return status;
  }
  return 0;
}

/* name: the contract, for the warnings. */
static int write_outputs(const scp_profile *p, const profile_opts *o, const char *name, const char *dir,
                         const char *shown) {
  cli_warn_truncated(p, name);
  int status = cli_make_dir(dir);
  if (status) return status;
  /* what every format works out of p alike, once for all of them */
  scp_out_shared *sh = NULL;
  if (scp_out_shared_new(p, &sh)) return cli_die(SCP_ERR_NOMEM, "out of memory");
  for (unsigned f = 0; f < SCP_FMT_COUNT && !status; f++)
    if (o->want[f]) status = write_format(p, o, sh, dir, shown, (scp_format)f);
  scp_out_shared_free(sh);
  if (status || o->quiet) return status;
  /* The report on stdout is the text summary of the run, whichever
   * formats went to files. */
  scp_buf b = {0};
  scp_out_opts oo = {.top = (unsigned)o->top};
  int rc = scp_out_format_get(SCP_FMT_REPORT)->write(p, &oo, &b);
  status = rc == SCP_OK ? cli_write_stdout(&b) : cli_die(rc, "report: %s", scp_strerror(rc));
  scp_buf_free(&b);
  return status;
}

/* The source mapper's word on damaged DWARF (the report header's "debug
 * info" line): a one-line warning, or with --strict-debug the error that
 * stops before any output is written.  Returns 0 or that exit status. */
static int debug_damage(const scp_profile *p, const profile_opts *o) {
  for (size_t i = 0; i < p->nmeta; i++) {
    if (strcmp(scp_prof_str(p, p->meta[i].key), "debug info")) continue;
    const char *why = scp_prof_str(p, p->meta[i].value);
    if (o->strict_debug) return cli_die(SCP_ERR_DWARF, "%s: %s", o->wasm_path, why);
    cli_warn("%s: %s (--strict-debug makes this an error)", o->wasm_path, why);
  }
  return 0;
}

/* --auth enforce on a profiled scenario call: signed, the command line's
 * signers and signatures after the call's own (*signers and *sigs, which
 * the caller frees).  0 or the exit status of the error printed. */
static int enforce_auth(const profile_opts *o, scp_soroban_opts *so, const char ***signers, const char ***sigs) {
  *signers = calloc(so->auth.nsigners + o->nsigners + 1, sizeof **signers);
  *sigs = calloc(so->auth.nsignatures + o->nauth_sigs + 1, sizeof **sigs);
  if (!*signers || !*sigs) {
    free(*signers);
    free(*sigs);
    *signers = *sigs = NULL;
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  if (so->auth.nsigners) memcpy(*signers, so->auth.signers, so->auth.nsigners * sizeof **signers);
  if (o->nsigners) memcpy(*signers + so->auth.nsigners, o->signers, o->nsigners * sizeof **signers);
  if (so->auth.nsignatures) memcpy(*sigs, so->auth.signatures, so->auth.nsignatures * sizeof **sigs);
  if (o->nauth_sigs) memcpy(*sigs + so->auth.nsignatures, o->auth_sigs, o->nauth_sigs * sizeof **sigs);
  so->auth.enforce = true;
  so->auth.signers = *signers;
  so->auth.nsigners += o->nsigners;
  so->auth.signatures = *sigs;
  so->auth.nsignatures += o->nauth_sigs;
  if (o->auth_expiration) so->auth.expiration = o->auth_expiration;
  return 0;
}

/* A profiled scenario call on a worker (cli_pipe). */
static int write_call(const cli_pipe_item *it, const void *ctx) {
  return write_outputs(it->p, ctx, it->name, it->dir, it->shown);
}

/* --scenario: one profile per call, in DIR/NN-FUNCTION/, and a summary
 * line per call in DIR/scenario.txt.  The calls are transactions on one
 * ledger (a failed one changes nothing), so one that traps does not stop
 * the others; the exit status is the first failing call's.  A set-up call
 * ("profile": false) runs and has its summary line, but no profile. */
static int run_scenario(profile_opts *o) {
  scp_error err = {0};
  scp_scenario *sc;
  if (scp_scenario_load(o->scenario, &sc, &err)) return cli_die(err.code, "%s", err.msg);
  /* --asset adds asset contracts after the file's own */
  scp_ledger *ledger = scp_scenario_ledger(sc, o->assets, o->nassets);
  cli_outdir od = {0};
  int status = ledger ? cli_outdir_begin(&od, o->out_dir) : cli_die(SCP_ERR_NOMEM, "out of memory");
  int first_fail = 0;
  uint64_t fee_total = 0;
  scp_buf sum = {0};
  cli_cov cov = {0};
  cli_pipe *pipe = NULL;
  if (!status) status = cli_cov_begin(&cov, o->want);
  if (!status) status = cli_pipe_open(&pipe, o->jobs ? o->jobs : cli_pipe_default_jobs(), write_call, o);
  for (size_t i = 0; i < sc->ncalls && !status; i++) {
    scp_soroban_opts so;
    scp_sor_session sess = {.ledger = ledger};
    scp_scenario_opts(sc, i, &so, &sess);
    if (cli_scenario_args(sc, i, ledger, &so, &sum, o->scenario, &first_fail)) continue;
    bool profiled = sc->calls[i].profile;
    sess.totals_only = !profiled;
    if (o->cpu_limit) so.limits.cpu = o->cpu_limit;   /* the command line wins */
    if (o->mem_limit) so.limits.mem = o->mem_limit;
    so.shape = o->shape;
    if (o->protocol) so.ledger.protocol = o->protocol;
    so.network = o->network;
    so.network_config = o->network_config;
    so.sdk_test = o->context_given ? o->sdk_test : sc->sdk_test;
    if (o->auth_mock) so.auth.mock = o->auth_mock;
    so.soroban_state_size = o->state_size;
    if (o->has_source) {
      so.auth.has_source_account = true;
      memcpy(so.auth.source_account, o->source, 32);
    }
    const char **signers = NULL, **sigs = NULL;
    if (o->auth_enforce && profiled && (status = enforce_auth(o, &so, &signers, &sigs))) break;
    /* the ledger is set up before the first call: its errors name the
     * scenario's keys, not a call */
    if (!i && scp_ledger_setup(ledger, &so, &err)) {
      status = cli_die(err.code, "%s: %s", o->scenario, err.msg);
      break;
    }
    char dir[4400], shown[4400];
    snprintf(dir, sizeof dir, "%s/%02zu-%s", od.tmp, i + 1, so.function);
    snprintf(shown, sizeof shown, "%s/%02zu-%s", od.final, i + 1, so.function);
    cli_progress progress;
    cli_progress_start(&progress, "profiling call %zu: %s %s", i + 1, so.wasm_path, so.function);
    scp_profile *p = NULL;
    int rc = scp_soroban_profile(&so, &p, &err);
    free(signers);
    free(sigs);
    if (!p) {
      status = cli_die(rc, "%s: calls[%zu]: %s", o->scenario, i, err.msg);
      break;
    }
    profile_opts po = *o;
    po.wasm_path = so.wasm_path;
    if (profiled && (status = debug_damage(p, &po))) {
      scp_profile_destroy(p);
      break;
    }
    scp_buf_printf(&sum, "%zu\t%s\t%s\tCPU %llu\tmemory %llu\t%s%s", i + 1,
                   sc->calls[i].is_asset ? sc->asset_names[sc->calls[i].contract]
                                         : sc->contracts[sc->calls[i].contract].name, so.function,
                   (unsigned long long)scp_profile_total(p, 0),
                   (unsigned long long)scp_profile_total(p, 1), rc ? err.msg : "ok",
                   profiled ? "" : "\t(set-up, not profiled)");
    int fm = cli_find_metric(p, "Fee");
    if (fm >= 0) {
      fee_total += scp_profile_total(p, (unsigned)fm);
      scp_buf_printf(&sum, "\tfee %llu", (unsigned long long)scp_profile_total(p, (unsigned)fm));
    }
    scp_buf_putc(&sum, '\n');
    if (profiled && !(status = cli_cov_add(&cov, p))) {
      status = cli_pipe_submit(pipe, p, so.wasm_path, dir, shown, &(scp_buf){0});
      p = NULL;
    }
    if (profiled) cli_progress_done(&progress, "profile written to %s", shown);
    else cli_progress_done(&progress, "set-up call done");
    scp_profile_destroy(p);
    if (!status && rc && !first_fail)
      first_fail = profiled ? cli_die(rc, "%s: calls[%zu]: %s (partial profile written to %s)",
                                      o->scenario, i, err.msg, shown)
                            : cli_die(rc, "%s: calls[%zu]: %s", o->scenario, i, err.msg);
  }
  status = cli_pipe_close(pipe, status);
  scp_ledger_free(ledger);
  if (o->network || o->network_config)
    scp_buf_printf(&sum, "total\tfee %llu\n", (unsigned long long)fee_total);
  if (!status) status = sum.oom ? cli_die(SCP_ERR_NOMEM, "out of memory")
                                : cli_write_file_as(od.tmp, od.final, "scenario.txt", &sum);
  if (od.open) status = cli_cov_end(&cov, status, od.tmp, od.final);
  /* the folder goes in whole, or the old one stays as it was */
  if (!status) status = cli_outdir_commit(&od);
  cli_outdir_abort(&od);
  scp_buf_free(&sum);
  scp_scenario_free(sc);
  return status ? status : first_fail;
}

/* Everything o holds (also after a failed alloc_opts). */
static void free_opts(profile_opts *o) {
  free(o->wasm);
  free(o->named);
  scp_spec_free(o->spec);
  for (size_t i = 0; o->contracts && i < o->ncontracts; i++) free((void *)o->contracts[i].wasm);
  free(o->contracts);
  free(o->assets);
  free(o->signers);
  free(o->auth_sigs);
  free(o->accounts);
  free(o->trustlines);
  for (size_t i = 0; o->owned && i < o->nowned; i++) free(o->owned[i]);
  free(o->owned);
  free(o->args);
  free(o->wasm_subs);
  cli_sor_syms_free(&o->syms);
  free(o->syms.specs);
  scp_snapshot_free(o->snap);
  cli_ctor_args_free(&o->ctor);
  cli_sortx_free(&o->sortx);
  cli_optset_free(&o->seen);
}

/* One array of argc + 1 entries for each repeatable option.  Returns false
 * on OOM (free_opts frees what was made). */
static bool alloc_opts(profile_opts *o, int argc) {
  size_t n = (size_t)argc + 1;
  o->args = calloc(n, sizeof *o->args);
  o->contracts = calloc(n, sizeof *o->contracts);
  o->assets = calloc(n, sizeof *o->assets);
  o->signers = calloc(n, sizeof *o->signers);
  o->auth_sigs = calloc(n, sizeof *o->auth_sigs);
  o->accounts = calloc(n, sizeof *o->accounts);
  o->trustlines = calloc(n, sizeof *o->trustlines);
  o->owned = calloc(n, sizeof *o->owned);
  o->wasm_subs = calloc(n, sizeof *o->wasm_subs);
  o->syms.specs = calloc(n, sizeof *o->syms.specs);
  if (!cli_optset_init(&o->seen, argc)) return false;
  return o->syms.specs && o->wasm_subs && o->args && o->contracts && o->assets && o->signers && o->auth_sigs && o->accounts &&
         o->trustlines && o->owned;
}

/* The called contract (parse_args may have read it for its spec; *wasm
 * takes it over) and every --contract.  Returns 0 or the exit status of
 * the error it printed (then *wasm is freed). */
static int read_contracts(profile_opts *o, uint8_t **wasm, size_t *wasm_len) {
  scp_error err = {0};
  *wasm = o->wasm;
  *wasm_len = o->wasm_len;
  o->wasm = NULL;
  if (!*wasm && scp_read_file_max(o->wasm_path, SCP_MAX_WASM_BYTES, "a WASM module", wasm,
                                     wasm_len, &err))
    return cli_die(err.code, "%s", err.msg);
  for (size_t i = 0; i < o->ncontracts; i++) {
    uint8_t *cw = NULL;
    if (scp_read_file_max(o->contracts[i].path, SCP_MAX_WASM_BYTES, "a WASM module", &cw,
                          &o->contracts[i].len, &err)) {
      free(*wasm);
      *wasm = NULL;
      return cli_die(err.code, "%s", err.msg);
    }
    o->contracts[i].wasm = cw;
  }
  return 0;
}

/* The last line on the terminal: "CPU 1,234, memory 5,678: profile
 * written to DIR". */
static void report_done(const scp_profile *p, const profile_opts *o, cli_progress *progress) {
  scp_buf total = {0};
  scp_buf_puts(&total, "CPU ");
  scp_buf_put_grouped(&total, scp_profile_total(p, 0));
  if (p->nmetrics > 1) {
    scp_buf_puts(&total, ", memory ");
    scp_buf_put_grouped(&total, scp_profile_total(p, 1));
  }
  cli_progress_done(progress, "%s: profile written to %s", total.oom ? "done" : total.data,
                    o->out_dir);
  scp_buf_free(&total);
}

/* One contract function: profiled, its outputs written.  Returns the exit
 * status. */
static int profile_call(profile_opts *o) {
  uint8_t *wasm;
  size_t wasm_len;
  int status = read_contracts(o, &wasm, &wasm_len);
  if (status) return status;
  if ((status = cli_sor_syms_load(&o->syms, o->wasm_path, wasm, wasm_len, o->contracts, o->ncontracts, o->snap))) {
    free(wasm);
    return status;
  }
  cli_progress progress;
  cli_progress_start(&progress, "profiling %s %s", o->wasm_path, o->function);
  scp_soroban_opts so = {.wasm_path = o->wasm_path, .wasm = wasm, .wasm_len = wasm_len,
                         .function = o->function, .args = o->args, .nargs = o->nargs,
                         .limits = {.cpu = o->cpu_limit, .mem = o->mem_limit},
                         .shape = o->shape,
                         .ledger = {.contracts = o->contracts, .ncontracts = o->ncontracts,
                                    .assets = o->assets, .nassets = o->nassets,
                                    .protocol = o->protocol},
                         .auth = {.has_source_account = o->has_source,
                                  .enforce = o->auth_enforce, .signers = o->signers,
                                  .nsigners = o->nsigners, .signatures = o->auth_sigs,
                                  .nsignatures = o->nauth_sigs,
                                  .expiration = o->auth_expiration, .mock = o->auth_mock},
                         .network = o->network, .network_config = o->network_config,
                         .sdk_test = o->sdk_test,
                         .soroban_state_size = o->state_size,
                         .symbols = o->syms.files, .nsymbols = o->syms.nfiles};
  memcpy(so.auth.source_account, o->source, 32);
  scp_ledger *ledger = NULL;
  scp_contract_file *files = NULL;
  scp_ledger_deploy *deploys = NULL;
  scp_sor_session sess;
  status = !o->snap ? cli_ledger_open(&so, o->accounts, o->naccounts, o->trustlines, o->ntrustlines, &o->ctor,
                                      &sess, &ledger, &files, &deploys)
         : cli_snapshot_session(o->snap, o->snap_main, &so, &sess, &ledger, &files) ? 0
         : cli_die(SCP_ERR_NOMEM, "out of memory");
  if (status) {
    free(wasm);
    free(files);
    free(deploys);
    scp_ledger_free(ledger);
    return status;
  }
  cli_sortx_apply(&o->sortx, &so, &sess);
  scp_profile *p = NULL;
  scp_error err = {0};
  int rc = scp_soroban_profile(&so, &p, &err);
  scp_ledger_free(ledger);
  free(deploys);
  free(files);
  free(wasm);
  if (!p) return cli_die(rc, "%s", err.msg);
  if ((status = debug_damage(p, o))) {
    scp_profile_destroy(p);
    return status;
  }
  cli_outdir od;
  status = cli_outdir_begin(&od, o->out_dir);
  if (!status) status = write_outputs(p, o, o->wasm_path, od.tmp, od.final);
  if (!status) status = cli_outdir_commit(&od);
  cli_outdir_abort(&od);
  if (!status) report_done(p, o, &progress);
  scp_profile_destroy(p);
  if (!status && rc) status = cli_die(rc, "%s (partial profile written to %s)", err.msg, o->out_dir);
  return status;
}

int cmd_profile(int argc, char **argv) {
  struct scp_sol_scenario_file *probe = NULL;
  if (cli_is_sbpf_program(argc, argv, &probe)) return cmd_profile_sol(argc, argv, probe);
  profile_opts o = {.out_dir = "scprof-out"};
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) o.want[f] = !scp_out_format_get((scp_format)f)->opt_in;
  if (!alloc_opts(&o, argc)) {
    free_opts(&o);
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  int status = parse_args(argc, argv, &o);
  /* a scenario prints its summary, not the reports */
  if (!status && !o.listed)
    status = cli_optset_outputs(&o.seen, o.want[SCP_FMT_SVG], o.want[SCP_FMT_REPORT] || (!o.quiet && !o.scenario));
  if (!status && !o.listed) status = o.scenario ? run_scenario(&o) : profile_call(&o);
  free_opts(&o);
  return status;
}
