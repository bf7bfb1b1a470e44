/*
 * cmd_profile_sol.c — `scprof profile PROGRAM.so --ix HEX --account ...`:
 * run one instruction of a Solana program as litesvm 1.5.0 runs it and
 * write its profile in every format, plus result.txt: the CU consumed, the
 * runtime's log lines, the outcome and the instruction's accounts after it,
 * in the line format of tests/oracle/run.js (so the two compare with cmp).
 * `--list` prints the ELF's sBPF version, functions and syscalls.
 */
#include "cli.h"
#include "solana/scp_sol_run.h"
#include "solana/scp_sol_progs.h"
#include "solana/scp_sol_scenario.h"
#include "solana/scp_sol_sysvar.h"
#include "solana/scp_sol_feature.h"
#include "solana/scp_sol_state.h"
#include "solana/scp_sol_tx.h"
#include "solana/scp_sol_names.h"
#include "solana/scp_sol_idl.h"
#include "cli_soltx.h"
#include "cli_solsyms.h"
#include "cli_pipe.h"
#include "cli_solopts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* --program ID=FILE.so[:v1|v2|v3] */
typedef struct sol_prog {
  uint8_t id[32];
  char *path;
  scp_sol_loader loader;
} sol_prog;

typedef struct sol_cli {
  const char *out_dir, *path, *scenario, *tx;
  bool want[SCP_FMT_COUNT];
  uint64_t top, cu_limit, heap;
  bool quiet, list, have_id, expect_chain, sigverify;
  scp_svg_opts svg;
  scp_tree_opts shape;
  uint8_t program_id[32];
  scp_sol_loader loader;
  uint8_t *ix;
  size_t ixlen;
  scp_sol_state st;            /* --accounts, then --account, each key once */
  const char **specs;          /* the --account values, read after --accounts */
  size_t nspecs;
  scp_sol_ixacct *ixaccts;
  size_t nix;
  bool warp;                   /* --warp-slot: the Clock's slot */
  uint64_t warp_slot;
  const char **features;       /* --feature ID|NAME=on|off, in order */
  size_t nfeatures;
  sol_prog *progs;             /* --program */
  size_t nprogs, progs_cap;
  bool cu_given;
  unsigned jobs;               /* --jobs; 0: not given */
  scp_sol_idls *idls;          /* --idl ID=FILE.json */
  cli_sol_syms syms;           /* --symbols, --symbols-dir */
  cli_optset seen;             /* the options given, for the inputs that refuse some */
  scp_sol_scenario_file *probe; /* --scenario as cli_is_sbpf_program parsed it, or NULL */
} sol_cli;

/* DATA: hex, b64:BASE64, @FILE or empty.  Returns 0 or an exit status. */
static int parse_data(const char *what, const char *s, size_t n, uint8_t **out, size_t *len) {
  scp_error err = {0};
  int rc = scp_sol_data_parse(s, n, NULL, out, len, &err);
  if (rc == SCP_ERR_MALFORMED) return cli_die(SCP_ERR_ARG, "%s: %s", what, err.msg);
  return rc ? cli_die(err.code, "%s: %s", what, err.msg) : 0;
}

static int parse_key(const char *what, const char *s, size_t n, uint8_t key[32]) {
  if (scp_sol_key_parse(s, n, key)) return 0;
  return cli_die(SCP_ERR_ARG, "%s: '%.*s' is not a base58 public key", what, (int)n, s);
}

static bool is_flag(const char *f, size_t n) { return n == 1 && strchr("swx", f[0]); }

/* An account's state from --account's fields: base58 keys, lamports, data
 * (b64:BASE64 is one field although ':' splits it). */
static int account_state(const char *spec, const char **f, size_t *fl, size_t *nf,
                         scp_sol_account *a) {
  char num[32];
  int st;
  if (*nf >= 5 && fl[3] == 3 && !memcmp(f[3], "b64", 3)) {
    fl[3] = 4 + fl[4];   /* f[3] runs on into f[4]: "b64:TEXT" */
    for (size_t i = 4; i + 1 < *nf; i++) f[i] = f[i + 1], fl[i] = fl[i + 1];
    (*nf)--;
  }
  if ((st = parse_key("--account", f[0], fl[0], a->key)) ||
      (st = parse_key("--account owner", f[2], fl[2], a->owner)))
    return st;
  snprintf(num, sizeof num, "%.*s", (int)(fl[1] < 31 ? fl[1] : 31), f[1]);
  if (fl[1] >= 31 || !cli_parse_u64(num, &a->lamports))
    return cli_die(SCP_ERR_ARG, "--account %s: lamports '%.*s' is not a number", spec, (int)fl[1], f[1]);
  return parse_data("--account data", f[3], fl[3], &a->data, &a->len);
}

static int mention(sol_cli *c, size_t idx, scp_sol_ixacct x);

/* --account @FILE[:s][:w]: the one account of an account file, as an
 * instruction account */
static int account_file(sol_cli *c, const char *spec, const char **f, const size_t *fl, size_t nf) {
  scp_sol_state one = {0};
  scp_sol_ixacct x = {0};
  scp_error err = {0};
  char *path = strndup(spec + 1, fl[0] - 1);
  if (!path) return cli_die(SCP_ERR_NOMEM, "out of memory");
  int rc = scp_sol_state_load(&one, path, NULL, &err);
  free(path);
  if (!rc && one.n != 1)
    rc = scp_fail(&err, SCP_ERR_ARG, "--account %s: the file holds %zu accounts; give it with --accounts and "
                  "name the instruction's with --account PUBKEY", spec, one.n);
  for (size_t i = 1; !rc && i < nf; i++) {
    if (is_flag(f[i], fl[i]) && f[i][0] == 's') x.signer = true;
    else if (is_flag(f[i], fl[i]) && f[i][0] == 'w') x.writable = true;
    else rc = scp_fail(&err, SCP_ERR_USAGE, "--account %s: unknown flag '%.*s' (s, w)", spec, (int)fl[i], f[i]);
  }
  size_t idx = 0;
  if (!rc) rc = scp_sol_state_add(&c->st, &one.accts[0], "--account", &err);
  if (!rc) rc = scp_sol_state_index(&c->st, one.accts[0].key, &idx, &err);
  scp_sol_state_free(&one);
  if (rc) return cli_die(rc == SCP_ERR_MALFORMED && !strncmp(err.msg, "--account", 9) ? SCP_ERR_ARG : rc, "%s", err.msg);
  return mention(c, idx, x);
}

/* --account PUBKEY:LAMPORTS:OWNER:DATA[:s][:w][:x], or PUBKEY[:s][:w]
 * for an account whose state --accounts gave */
static int parse_account(sol_cli *c, const char *spec) {
  const char *f[9];
  size_t fl[9], nf = 0;
  for (const char *p = spec; nf < 9;) {
    size_t n = strcspn(p, ":");
    f[nf] = p;
    fl[nf++] = n;
    if (!p[n]) break;
    p += n + 1;
  }
  if (spec[0] == '@') return account_file(c, spec, f, fl, nf);
  bool short_form = nf == 1 || is_flag(f[1], fl[1]);
  scp_sol_account a = {0};
  scp_sol_ixacct x = {0};
  int st = 0;
  size_t first_flag = short_form ? 1 : 4;
  if (!short_form && (nf < 4 || (st = account_state(spec, f, fl, &nf, &a)))) {
    scp_sol_account_free(&a);
    return nf < 4 ? cli_die(SCP_ERR_USAGE, "--account %s: want PUBKEY:LAMPORTS:OWNER:DATA[:s][:w][:x] or PUBKEY[:s][:w]", spec) : st;
  }
  if (nf > first_flag + 3)
    return scp_sol_account_free(&a), cli_die(SCP_ERR_USAGE, "--account %s: too many fields", spec);
  for (size_t i = first_flag; i < nf; i++) {
    if (is_flag(f[i], fl[i]) && f[i][0] == 's') x.signer = true;
    else if (is_flag(f[i], fl[i]) && f[i][0] == 'w') x.writable = true;
    else if (is_flag(f[i], fl[i]) && !short_form) a.executable = true;
    else {
      scp_sol_account_free(&a);
      return cli_die(SCP_ERR_USAGE, "--account %s: unknown flag '%.*s' (%s)", spec, (int)fl[i], f[i],
                     short_form ? "s, w: the state comes from --accounts" : "s, w, x");
    }
  }
  size_t idx;
  scp_error err = {0};
  if (short_form) {
    if (!scp_sol_key_parse(f[0], fl[0], a.key))
      return cli_die(SCP_ERR_USAGE, "--account %s: want PUBKEY:LAMPORTS:OWNER:DATA[:s][:w][:x], or PUBKEY[:s][:w] "
                     "of an --accounts file", spec);
    if (!scp_sol_state_get(&c->st, a.key))
      return cli_die(SCP_ERR_ARG, "--account %.*s: no --accounts file holds this account; give "
                     "PUBKEY:LAMPORTS:OWNER:DATA", (int)fl[0], f[0]);
  } else if ((st = scp_sol_state_add(&c->st, &a, "--account", &err))) {
    return cli_die(st == SCP_ERR_MALFORMED ? SCP_ERR_ARG : st, "%s", err.msg);
  }
  if ((st = scp_sol_state_index(&c->st, a.key, &idx, &err))) return cli_die(st, "%s", err.msg);
  return mention(c, idx, x);
}

/* The instruction's next account: idx with x's flags. */
static int mention(sol_cli *c, size_t idx, scp_sol_ixacct x) {
  if (idx > UINT16_MAX) return cli_die(SCP_ERR_ARG, "--account: more than 65,535 accounts");
  x.index = (uint16_t)idx;
  c->ixaccts[c->nix++] = x;
  /* the message gives every mention of an account the union of its flags */
  for (size_t i = 0; i < c->nix; i++)
    if (c->ixaccts[i].index == idx) {
      x.signer |= c->ixaccts[i].signer;
      x.writable |= c->ixaccts[i].writable;
    }
  for (size_t i = 0; i < c->nix; i++)
    if (c->ixaccts[i].index == idx) c->ixaccts[i] = x;
  return 0;
}

/* --tx takes its instructions from the transaction: the other options
 * give only the state (programs and accounts) */
static int check_tx_args(const sol_cli *c) {
  if (c->ixlen || c->list || c->cu_limit || c->heap)
    return cli_die(SCP_ERR_USAGE, "--tx takes the instructions and the budget from the transaction "
                                  "(no --ix, --list, --cu-limit or --heap)");
  if (c->scenario && (c->path || c->nix))
    return cli_die(SCP_ERR_USAGE, "--tx with --scenario takes the programs and accounts from the scenario");
  for (size_t i = 0; i < c->nix; i++)
    if (c->ixaccts[i].signer || c->ixaccts[i].writable)
      return cli_die(SCP_ERR_USAGE, "--tx: the transaction's message says which accounts sign and are "
                                    "writable (no :s or :w on --account)");
  return 0;
}

/* --program ID=FILE.so[:v1|v2|v3] */
static int parse_program(sol_cli *c, const char *spec) {
  const char *eq = strchr(spec, '=');
  sol_prog p = {.loader = SCP_SOL_LOADER_V3};
  int st;
  if (!eq || !eq[1]) return cli_die(SCP_ERR_USAGE, "--program %s: want ID=FILE.so[:v1|v2|v3]", spec);
  if ((st = parse_key("--program", spec, (size_t)(eq - spec), p.id))) return st;
  const char *file = eq + 1, *colon = strrchr(file, ':');
  size_t n = strlen(file);
  if (colon && (!strcmp(colon, ":v1") || !strcmp(colon, ":v2") || !strcmp(colon, ":v3"))) {
    p.loader = (scp_sol_loader)(colon[2] - '0');
    n = (size_t)(colon - file);
  }
  for (size_t i = 0; i < c->nprogs; i++)
    if (!memcmp(c->progs[i].id, p.id, 32)) return cli_die(SCP_ERR_USAGE, "--program %s: that id is given twice", spec);
  if (!(p.path = strndup(file, n)) || !scp_grow(&c->progs, &c->progs_cap, c->nprogs + 1, sizeof *c->progs)) {
    free(p.path);
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  c->progs[c->nprogs++] = p;
  return 0;
}

/* --idl ID=FILE.json: an Anchor IDL naming program ID's instructions */
static int parse_idl(sol_cli *c, const char *spec) {
  const char *eq = strchr(spec, '=');
  uint8_t id[32];
  scp_error err = {0};
  int st;
  if (!eq || !eq[1]) return cli_die(SCP_ERR_USAGE, "--idl %s: want ID=FILE.json", spec);
  if ((st = parse_key("--idl", spec, (size_t)(eq - spec), id))) return st;
  if (scp_sol_idls_add(&c->idls, id, eq + 1, &err)) return cli_die(err.code, "%s", err.msg);
  return 0;
}

static int check_args(sol_cli *c);

static int parse_args(int argc, char **argv, sol_cli *c) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val;
    int st;
    cli_optset_note(&c->seen, a);
    if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (!(val = cli_option_value(argc, argv, &i, "a folder"))) return usage;
      c->out_dir = val;
    } else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
      if (!(val = cli_option_value(argc, argv, &i, "a list of formats"))) return usage;
      if ((st = cli_parse_formats(val, c->want))) return st;
    } else if (!strcmp(a, "--cu-limit")) {
      /* the runtime's SetComputeUnitLimit takes at most 1,400,000; 0 runs nothing */
      if (!(val = cli_option_value(argc, argv, &i, "an integer from 1 to 1400000"))) return usage;
      if (!cli_parse_u64(val, &c->cu_limit) || !c->cu_limit || c->cu_limit > SCP_SOL_TX_MAX_CU)
        return cli_die(SCP_ERR_USAGE, "--cu-limit: '%s' is not an integer from 1 to 1400000 (the runtime's limit)", val);
    } else if (!strcmp(a, "--top") || !strcmp(a, "--heap")) {
      uint64_t *dest = !strcmp(a, "--top") ? &c->top : &c->heap;
      if (!(val = cli_option_value(argc, argv, &i, "a non-negative integer"))) return usage;
      if (!cli_parse_u64(val, dest) || *dest > UINT_MAX)
        return cli_die(SCP_ERR_USAGE, "%s: '%s' is not a non-negative integer", a, val);
    } else if (!strcmp(a, "--warp-slot")) {
      if (!(val = cli_option_value(argc, argv, &i, "a slot"))) return usage;
      if (!cli_parse_u64(val, &c->warp_slot))
        return cli_die(SCP_ERR_USAGE, "--warp-slot: '%s' is not a non-negative integer", val);
      c->warp = true;
    } else if (!strcmp(a, "--feature")) {
      if (!(val = cli_option_value(argc, argv, &i, "ID|NAME=on|off"))) return usage;
      scp_sol_features probe;
      scp_error err = {0};
      scp_sol_features_default(&probe);
      if (scp_sol_feature_parse(&probe, val, &err)) return cli_die(err.code, "%s", err.msg);
      c->features[c->nfeatures++] = val;
    } else if (!strcmp(a, "--min-width")) {
      if (!(val = cli_option_value(argc, argv, &i, "a percentage"))) return usage;
      if (!cli_parse_min_width(val, &c->svg.min_width_pct))
        return cli_die(SCP_ERR_USAGE, "--min-width: '%s' is not a percentage from 0 to 100", val);
    } else if (!strcmp(a, "--icicle")) {
      c->svg.icicle = true;
    } else if (!strcmp(a, "--max-nodes") || !strcmp(a, "--fold-recursion")) {
      if ((st = cli_shape_option(argc, argv, &i, &c->shape))) return st;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      c->quiet = true;
    } else if (!strcmp(a, "--scenario")) {
      if (!(val = cli_option_value(argc, argv, &i, "a scenario file"))) return usage;
      c->scenario = val;
    } else if (!strcmp(a, "--tx")) {
      if (!(val = cli_option_value(argc, argv, &i, "a transaction file"))) return usage;
      c->tx = val;
    } else if (!strcmp(a, "--expect-chain")) {
      c->expect_chain = true;
    } else if (!strcmp(a, "--sigverify")) {
      c->sigverify = true;
    } else if (!strcmp(a, "--symbols")) {
      if (!(val = cli_option_value(argc, argv, &i, "[ID=]FILE"))) return usage;
      c->syms.specs[c->syms.nspecs++] = val;
    } else if (!strcmp(a, "--symbols-dir")) {
      if (!(val = cli_option_value(argc, argv, &i, "a folder"))) return usage;
      c->syms.dir = val;
    } else if (cli_pipe_is_jobs(a)) {
      if ((st = cli_pipe_jobs_option(argc, argv, &i, &c->jobs))) return st;
    } else if (!strcmp(a, "--list")) {
      c->list = true;
    } else if (!strcmp(a, "--ix")) {
      if (!(val = cli_option_value(argc, argv, &i, "instruction data"))) return usage;
      free(c->ix);
      if ((st = parse_data("--ix", val, strlen(val), &c->ix, &c->ixlen))) return st;
    } else if (!strcmp(a, "--account")) {
      if (!(val = cli_option_value(argc, argv, &i, "PUBKEY:LAMPORTS:OWNER:DATA"))) return usage;
      c->specs[c->nspecs++] = val;
    } else if (!strcmp(a, "--accounts")) {
      if (!(val = cli_option_value(argc, argv, &i, "an account file or folder"))) return usage;
      scp_error err = {0};
      if ((st = scp_sol_state_load(&c->st, val, NULL, &err))) return cli_die(err.code, "%s", err.msg);
    } else if (!strcmp(a, "--program")) {
      if (!(val = cli_option_value(argc, argv, &i, "ID=FILE.so"))) return usage;
      if ((st = parse_program(c, val))) return st;
    } else if (!strcmp(a, "--idl")) {
      if (!(val = cli_option_value(argc, argv, &i, "ID=FILE.json"))) return usage;
      if ((st = parse_idl(c, val))) return st;
    } else if (!strcmp(a, "--program-id")) {
      if (!(val = cli_option_value(argc, argv, &i, "a public key"))) return usage;
      if ((st = parse_key("--program-id", val, strlen(val), c->program_id))) return st;
      c->have_id = true;
    } else if (!strcmp(a, "--loader")) {
      if (!(val = cli_option_value(argc, argv, &i, "v1, v2 or v3"))) return usage;
      if (!strcmp(val, "v1")) c->loader = SCP_SOL_LOADER_V1;
      else if (!strcmp(val, "v2")) c->loader = SCP_SOL_LOADER_V2;
      else if (!strcmp(val, "v3")) c->loader = SCP_SOL_LOADER_V3;
      else return cli_die(SCP_ERR_USAGE, "--loader: '%s' is not v1, v2 or v3", val);
    } else if (a[0] == '-' && a[1]) {
      return cli_die(SCP_ERR_USAGE, "unknown option '%s' for a Solana program (see scprof --help)", a);
    } else if (c->path) {
      return cli_die(SCP_ERR_USAGE, "two programs: %s and %s", c->path, a);
    } else {
      c->path = a;
    }
  }
  return check_args(c);
}

/* After the options: what goes together, then the --account values
 * (after every --accounts file, whatever the order on the line). */
static int check_args(sol_cli *c) {
  if (c->jobs && (c->tx || !c->scenario))
    return cli_die(SCP_ERR_USAGE, "--jobs goes with --scenario (the threads that run it and write its profiles)");
  if (c->tx) {
    for (size_t k = 0; k < c->nspecs; k++) {
      int st = parse_account(c, c->specs[k]);
      if (st) return st;
    }
    int st = check_tx_args(c);
    return st ? st : cli_solopts_tx(&c->seen, c->scenario != NULL, c->path != NULL);
  }
  if (c->expect_chain || c->sigverify)
    return cli_die(SCP_ERR_USAGE, "%s needs --tx", c->expect_chain ? "--expect-chain" : "--sigverify");
  if (c->scenario && (c->path || c->nspecs || c->ixlen || c->st.n || c->nprogs))
    return cli_die(SCP_ERR_USAGE, "--scenario takes the programs, accounts and instructions from its file");
  if (!c->path && !c->scenario && !c->nprogs && !c->have_id)
    return cli_die(SCP_ERR_USAGE, "profile needs PROGRAM.so, --program ID=FILE.so or --program-id");
  int refused = c->scenario ? cli_solopts_scenario(&c->seen)
              : c->list     ? cli_solopts_list(&c->seen)
                            : cli_solopts_one(&c->seen, c->path != NULL);
  if (refused) return refused;
  for (size_t k = 0; k < c->nspecs; k++) {
    int st = parse_account(c, c->specs[k]);
    if (st) return st;
  }
  return 0;
}

/* Into folder dir, which messages call shown (cli_outdir); input: what
 * the warnings name (NULL: the input file). */
static int write_outputs(const scp_profile *p, const sol_cli *c, const char *input, const char *dir,
                         const char *shown) {
  /* the input the profile is of: --tx names the transaction, not PROGRAM.so */
  cli_warn_truncated(p, input ? input : c->tx ? c->tx : c->path ? c->path : c->scenario);
  /* what every format works out of p alike, once for all of them */
  scp_out_shared *sh = NULL;
  if (scp_out_shared_new(p, &sh)) return cli_die(SCP_ERR_NOMEM, "out of memory");
  int st = 0;
  for (unsigned f = 0; f < SCP_FMT_COUNT && !st; f++) {
    if (!c->want[f]) continue;
    const scp_out_format *of = scp_out_format_get((scp_format)f);
    scp_out_opts oo = {.metric = 0, .top = (unsigned)c->top, .svg = c->svg, .shared = sh};
    st = cli_write_format(dir, shown, of->file, p, of, &oo);
  }
  scp_out_shared_free(sh);
  return st;
}

/* result.txt's "post KEY LAMPORTS OWNER DATAHEX" line of each account of
 * ix[0..nix) the first time it is named (the oracle prints the same) */
static void post_lines(scp_buf *b, const scp_sol_account *accts, const scp_sol_ixacct *ix,
                       size_t nix) {
  for (size_t i = 0; i < nix; i++) {
    bool first = true;
    for (size_t k = 0; k < i; k++) first &= ix[k].index != ix[i].index;
    if (first) cli_sol_post_line(b, &accts[ix[i].index]);
  }
}

/* result.txt's text: the oracle's lines */
static void result_lines(scp_buf *b, const scp_sol_account *accts, const scp_sol_ixacct *ix, size_t nix,
                         const scp_sol_result *r) {
  char name[96];
  scp_buf_printf(b, "cu %llu\n", (unsigned long long)r->cu);
  for (size_t i = 0; i < r->nlogs; i++) scp_buf_printf(b, "log %s\n", r->logs[i]);
  scp_sol_ierr_name(r->ierr, name, sizeof name);
  scp_buf_printf(b, r->ierr.kind ? "result err %s\n" : "result ok\n", name);
  post_lines(b, accts, ix, nix);
}

static int write_result(const scp_sol_account *accts, const scp_sol_ixacct *ix, size_t nix,
                        const scp_sol_result *r, const char *dir, const char *shown) {
  scp_buf b = {0};
  result_lines(&b, accts, ix, nix, r);
  int st = cli_write_file_as(dir, shown, "result.txt", &b);
  scp_buf_free(&b);
  return st;
}

static int list_program(const sol_cli *c, const uint8_t *elf, size_t len, scp_sol_progs *cache) {
  char *text = NULL;
  scp_error err = {0};
  int rc = scp_sol_list(elf, len, c->path, cache, &text, &err);
  if (rc) return cli_die(rc, "%s", err.msg);
  fputs(text, stdout);
  free(text);
  return 0;
}

/* The sysvar cache of a run: litesvm's with the sysvar accounts given
 * (as run.js sets them), then --warp-slot; the sysvar accounts follow it. */
static int sysvars_of(const sol_cli *c, scp_sol_account *accts, size_t n, scp_sol_sysvars *sv,
                      scp_error *err) {
  int rc = scp_sol_sysvars_init(sv);
  if (rc) return scp_fail(err, rc, "out of memory");
  for (size_t i = 0; i < n; i++) {
    if (!accts[i].lamports && !accts[i].len) continue;
    if ((rc = scp_sol_sysvars_from_accounts(sv, &accts[i], 1, err))) break;
  }
  if (!rc && c->warp) scp_sol_sysvars_warp(sv, c->warp_slot);
  if (!rc && scp_sol_sysvars_to_accounts(sv, accts, n)) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (rc) scp_sol_sysvars_free(sv);
  return rc;
}

/* --feature on top of f (each was checked while parsing). */
static void apply_features(const sol_cli *c, scp_sol_features *f) {
  scp_error err = {0};
  for (size_t i = 0; i < c->nfeatures; i++) scp_sol_feature_parse(f, c->features[i], &err);
}

static int write_outputs_cb(const scp_profile *p, const void *ctx, const char *dir, const char *shown) {
  return write_outputs(p, ctx, NULL, dir, shown);
}

/* A scenario's profiled instruction or transaction, on a worker
 * (cli_pipe): its folder, every format, then result.txt, whose text was
 * made when it ran (the accounts have moved on since). */
static int write_scenario_item(const cli_pipe_item *it, const void *ctx) {
  int st = cli_make_dir_as(it->dir, it->shown);
  if (!st) st = write_outputs(it->p, ctx, it->name, it->dir, it->shown);
  if (!st) st = cli_write_file_as(it->dir, it->shown, "result.txt", &it->extra);
  return st;
}

/* The cache of a run with the symbol files of --symbols and --symbols-dir
 * for progs and the programs deployed in accts; 0 or the exit status. */
static int cache_with_symbols(const sol_cli *c, const scp_sol_tx_prog *progs, size_t nprogs,
                              const scp_sol_account *accts, size_t naccts, scp_sol_progs **cache) {
  scp_error err = {0};
  if (scp_sol_progs_new(cache, &err)) return cli_die(err.code, "%s", err.msg);
  return cli_sol_syms_load(&c->syms, progs, nprogs, accts, naccts, *cache);
}

/* The programs of a scenario as a transaction takes them. */
static void scenario_progs(const scp_sol_scenario *s, scp_sol_tx_prog *progs) {
  for (size_t i = 0; i < s->nprograms; i++) {
    const scp_sol_scn_program *p = &s->programs[i];
    progs[i] = (scp_sol_tx_prog){.elf = p->elf, .len = p->len, .name = p->name, .path = p->path, .loader = p->loader};
    memcpy(progs[i].id, p->id, 32);
  }
}

/* A scenario's "programs" do not change while it runs (a deployed
 * program, in the accounts, is not among them): the cache finds them by
 * their buffers.  0 or the exit status. */
static int pin_programs(const scp_sol_scenario *s, scp_sol_progs *cache) {
  scp_error err = {0};
  for (size_t i = 0; i < s->nprograms; i++)
    if (scp_sol_progs_pin(cache, s->programs[i].elf, s->programs[i].len, &err)) return cli_die(err.code, "%s", err.msg);
  return 0;
}

/* The --scenario file, from the parse cli_is_sbpf_program made when there
 * is one (a scenario of 1,000 transactions costs as much to parse as some
 * of them to run); that parse is freed here, the run needs it no more. */
static int load_scenario(sol_cli *c, scp_sol_scenario **s) {
  scp_error err = {0};
  int rc = scp_sol_scenario_load_parsed(c->scenario, c->probe, s, &err);
  scp_sol_scenario_file_free(c->probe);
  c->probe = NULL;
  return rc ? cli_die(err.code, "%s", err.msg) : 0;
}

/* --tx on the state of a scenario (its programs and accounts; it may run
 * no instructions of its own) or of PROGRAM.so and --account */
static int tx_programs(const sol_cli *c, scp_sol_tx_prog *progs, size_t *n, uint8_t **elfs, char (*names)[128]);

static int run_wire(sol_cli *c) {
  cli_sol_tx o = {.path = c->tx, .state = c->st.accts, .nstate = c->st.n, .out_dir = c->out_dir, .quiet = c->quiet,
                  .expect_chain = c->expect_chain, .sigverify = c->sigverify, .top = (unsigned)c->top,
                  .write_outputs = write_outputs_cb, .ctx = c, .idls = c->idls, .shape = c->shape};
  scp_sol_scenario *s = NULL;
  uint8_t *elf = NULL;
  scp_error err = {0};
  scp_sol_tx_prog one = {.loader = c->loader}, *progs = NULL;
  scp_sol_progs *cache = NULL;
  uint8_t **elfs = NULL;
  char name[128], (*names)[128] = NULL;
  int st = 0;
  scp_sol_sysvars sv;
  scp_sol_features feat;
  bool have_sv = false;
  if (c->scenario) {
    if ((st = load_scenario(c, &s))) return st;
    if (s->nixs) {
      st = cli_die(SCP_ERR_USAGE, "%s: with --tx the scenario gives the state only, but it has %zu instructions",
                   c->scenario, s->nixs);
      goto done;
    }
    if (!(progs = calloc(s->nprograms + 1, sizeof *progs))) {
      st = cli_die(SCP_ERR_NOMEM, "out of memory");
      goto done;
    }
    scenario_progs(s, progs);
    o.progs = progs, o.nprogs = s->nprograms, o.state = s->accounts, o.nstate = s->naccounts;
    if (c->warp) {
      scp_sol_sysvars_warp(&s->sysvars, c->warp_slot);
      if (scp_sol_sysvars_to_accounts(&s->sysvars, s->accounts, s->naccounts)) {
        st = cli_die(SCP_ERR_NOMEM, "out of memory");
        goto done;
      }
    }
    apply_features(c, &s->features);
    o.sysvars = &s->sysvars, o.features = &s->features;
  } else {
    size_t n = 0;
    progs = calloc(c->nprogs + 1, sizeof *progs);
    elfs = calloc(c->nprogs + 1, sizeof *elfs);
    names = calloc(c->nprogs + 1, sizeof *names);
    if (!progs || !elfs || !names) {
      st = cli_die(SCP_ERR_NOMEM, "out of memory");
      goto done;
    }
    if (c->path) {
      if (scp_read_file_max(c->path, SCP_MAX_ELF_BYTES, "an sBPF program", &elf, &one.len, &err)) {
        st = cli_die(err.code, "%s", err.msg);
        goto done;
      }
      scp_sol_file_name(c->path, name, sizeof name);
      one.elf = elf, one.name = name, one.path = c->path;
      memcpy(one.id, c->program_id, 32);
      progs[n++] = one;
      if ((st = cli_sol_refuse_debug(c->path, elf, one.len))) goto done;
    }
    if ((st = tx_programs(c, progs, &n, elfs, names))) goto done;
    o.progs = progs, o.nprogs = n;
  }
  if (!c->scenario) {
    if ((st = sysvars_of(c, c->st.accts, c->st.n, &sv, &err))) {
      st = cli_die(st, "%s", err.msg);
      goto done;
    }
    have_sv = true;
    scp_sol_features_default(&feat);
    apply_features(c, &feat);
    o.state = c->st.accts, o.nstate = c->st.n, o.sysvars = &sv, o.features = &feat;
  }
  st = cache_with_symbols(c, o.progs, o.nprogs, o.state, o.nstate, &cache);
  if (!st && s) st = pin_programs(s, cache);
  o.cache = cache;
  if (!st) st = cli_sol_tx_run(&o);
done:
  scp_sol_progs_free(cache);
  if (have_sv) scp_sol_sysvars_free(&sv);
  for (size_t i = 0; elfs && i < c->nprogs; i++) free(elfs[i]);
  free(elfs);
  free(names);
  free(progs);
  free(elf);
  if (s) scp_sol_scenario_free(s);
  return st;
}

/* The --program files of a --tx run, after PROGRAM.so's entry (progs[0]
 * when there is one): each ELF read into elfs[i], named by its file's
 * name up to the first dot.  0 or an exit status. */
static int tx_programs(const sol_cli *c, scp_sol_tx_prog *progs, size_t *n, uint8_t **elfs, char (*names)[128]) {
  scp_error err = {0};
  for (size_t i = 0; i < c->nprogs; i++) {
    const sol_prog *g = &c->progs[i];
    size_t len = 0;
    if (scp_read_file_max(g->path, SCP_MAX_ELF_BYTES, "an sBPF program", &elfs[i], &len, &err))
      return cli_die(err.code, "%s", err.msg);
    scp_sol_file_name(g->path, names[i], sizeof names[i]);
    progs[*n] = (scp_sol_tx_prog){.elf = elfs[i], .len = len, .name = names[i], .path = g->path, .loader = g->loader};
    memcpy(progs[(*n)++].id, g->id, 32);
  }
  return 0;
}

/* The program the instruction runs and its id: PROGRAM.so under
 * --program-id, a --program (the one of --program-id, or the only one), or
 * a program deployed in the --accounts at --program-id.  *owned is the
 * ELF's buffer to free (NULL when the accounts hold it). */
typedef struct sol_pick {
  uint8_t *owned;
  const uint8_t *elf;
  size_t len;
  const char *path;
  char name[128];
  char idtext[SCP_SOL_B58_KEY_MAX];
  scp_sol_loader loader;
} sol_pick;

static int pick_program(sol_cli *c, sol_pick *p) {
  scp_error err = {0};
  const sol_prog *given = NULL;
  p->path = c->path;
  p->loader = c->loader;
  for (size_t i = 0; !c->path && i < c->nprogs; i++)
    if (!memcmp(c->progs[i].id, c->program_id, 32) || (!c->have_id && c->nprogs == 1)) given = &c->progs[i];
  if (given) {
    p->path = given->path;
    p->loader = given->loader;
    memcpy(c->program_id, given->id, 32);
  }
  scp_sol_key_str(c->program_id, p->idtext);
  if (!p->path) {
    if (scp_sol_state_program(&c->st, c->program_id, &p->elf, &p->len, &p->loader)) {
      p->path = p->idtext;
      snprintf(p->name, sizeof p->name, "%s", p->idtext);
      return 0;
    }
    return cli_die(SCP_ERR_USAGE, "%s: %s", c->have_id ? "--program-id" : "--program",
                   c->have_id ? "no --program and no program account in --accounts has this id"
                              : "several --program: give --program-id for the one that runs");
  }
  if (scp_read_file_max(p->path, SCP_MAX_ELF_BYTES, "an sBPF program", &p->owned, &p->len, &err))
    return cli_die(err.code, "%s", err.msg);
  p->elf = p->owned;
  scp_sol_file_name(p->path, p->name, sizeof p->name);
  return 0;
}

/* An error the placeholder id explains: the program compared an owner
 * with its own id, or the runtime found it changing an account it would
 * have owned under its real id. */
static bool id_explains(scp_sol_ierr e) {
  return e.kind == SCP_SOL_IERR_INCORRECT_PROGRAM_ID || e.kind == SCP_SOL_IERR_EXTERNAL_ACCOUNT_DATA_MODIFIED ||
         e.kind == SCP_SOL_IERR_EXTERNAL_ACCOUNT_LAMPORT_SPEND || e.kind == SCP_SOL_IERR_MODIFIED_PROGRAM_ID ||
         e.kind == SCP_SOL_IERR_INVALID_ACCOUNT_OWNER || e.kind == SCP_SOL_IERR_ILLEGAL_OWNER;
}

static int run_picked(sol_cli *c, const sol_pick *p, scp_sol_progs *cache);

static int run(sol_cli *c) {
  sol_pick p = {0};
  scp_sol_progs *cache = NULL;
  int st = pick_program(c, &p);
  if (st) return st;
  scp_sol_tx_prog self = {.elf = p.elf, .len = p.len, .name = p.name, .path = p.path, .loader = p.loader};
  memcpy(self.id, c->program_id, 32);
  st = cli_sol_refuse_debug(p.path, p.elf, p.len);
  if (!st) st = cache_with_symbols(c, &self, 1, c->st.accts, c->st.n, &cache);
  if (!st) st = c->list ? list_program(c, p.elf, p.len, cache) : run_picked(c, &p, cache);
  scp_sol_progs_free(cache);
  free(p.owned);
  return st;
}

static int run_picked(sol_cli *c, const sol_pick *pp, scp_sol_progs *cache) {
  const sol_pick p = *pp;
  int st = 0;
  scp_error err = {0};
  scp_sol_run_opts o = {.elf = p.elf, .elf_len = p.len, .name = p.name, .path = p.path, .loader = p.loader,
                        .accts = c->st.accts, .naccts = c->st.n, .ix = c->ixaccts, .nix = c->nix, .data = c->ix,
                        .len = c->ixlen, .cu_limit = c->cu_limit, .heap_size = (uint32_t)c->heap, .profile = true,
                        .shape = c->shape, .cache = cache, .idls = c->idls};
  memcpy(o.program_id, c->program_id, 32);
  scp_sol_sysvars sv;
  int rc = sysvars_of(c, c->st.accts, c->st.n, &sv, &err);
  if (rc) return cli_die(rc, "%s", err.msg);
  o.sysvars = &sv;
  scp_sol_features feat;
  scp_sol_features_default(&feat);
  apply_features(c, &feat);
  o.features = &feat;
  scp_sol_result r;
  rc = scp_sol_run(&o, &r, &err);
  scp_sol_sysvars_free(&sv);
  if (rc) return cli_die(rc, "%s", err.msg);
  cli_outdir od;
  st = cli_outdir_begin(&od, c->out_dir);
  if (!st) st = write_outputs(r.profile, c, NULL, od.tmp, od.final);
  if (!st) st = write_result(c->st.accts, c->ixaccts, c->nix, &r, od.tmp, od.final);
  if (!st) st = cli_outdir_commit(&od);
  cli_outdir_abort(&od);
  if (!st && !c->quiet) {
    scp_buf b = {0};
    scp_out_opts oo = {.top = (unsigned)c->top};
    rc = scp_out_format_get(SCP_FMT_REPORT)->write(r.profile, &oo, &b);
    st = rc == SCP_OK ? cli_write_stdout(&b) : cli_die(rc, "report: %s", scp_strerror(rc));
    scp_buf_free(&b);
  }
  if (!st && r.ierr.kind) {
    char why[96];
    bool placeholder = !c->have_id && !c->nprogs && id_explains(r.ierr);
    scp_sol_ierr_name(r.ierr, why, sizeof why);
    st = cli_die(r.out_of_cu ? SCP_ERR_BUDGET : SCP_ERR_TRAP, "%s: instruction failed: %s after %llu CU%s (profile written to %s)%s",
                 p.path, why, (unsigned long long)r.cu, r.out_of_cu ? ", out of compute units" : "", c->out_dir,
                 placeholder ? "; the program ran as ScprofProgram111...; give --program-id" : "");
  }
  scp_sol_result_free(&r);
  return st;
}

/* --scenario: the instructions in order on one set of accounts (a failed
 * one changes nothing); each profiled one in DIR/NN-LABEL/, a line per
 * instruction in DIR/scenario.txt; the exit status is the first failing
 * instruction's. */
static int run_tx_scenario(sol_cli *c, scp_sol_scenario *s);

/* A scenario's cache, with the symbol files of its programs. */
static int scenario_cache(const sol_cli *c, const scp_sol_scenario *s, scp_sol_progs **cache) {
  scp_sol_tx_prog *progs = calloc(s->nprograms + 1, sizeof *progs);
  if (!progs) return cli_die(SCP_ERR_NOMEM, "out of memory");
  scenario_progs(s, progs);
  int st = cache_with_symbols(c, progs, s->nprograms, s->accounts, s->naccounts, cache);
  free(progs);
  return st ? st : pin_programs(s, *cache);
}

static int run_scenario(sol_cli *c) {
  scp_error err = {0};
  scp_sol_scenario *s;
  int unloaded = load_scenario(c, &s);
  if (unloaded) return unloaded;
  if (c->warp) {
    scp_sol_sysvars_warp(&s->sysvars, c->warp_slot);
    if (scp_sol_sysvars_to_accounts(&s->sysvars, s->accounts, s->naccounts)) {
      scp_sol_scenario_free(s);
      return cli_die(SCP_ERR_NOMEM, "out of memory");
    }
  }
  apply_features(c, &s->features);
  if (s->ntx) return run_tx_scenario(c, s);
  cli_outdir od;
  int st = cli_outdir_begin(&od, c->out_dir), first_fail = 0;
  scp_buf sum = {0};
  cli_cov cov = {0};
  if (!st) st = cli_cov_begin(&cov, c->want);
  /* each program loaded once for the whole scenario */
  scp_sol_progs *cache = NULL;
  if (!st) st = scenario_cache(c, s, &cache);
  cli_pipe *pipe = NULL;
  if (!st) st = cli_pipe_open(&pipe, c->jobs ? c->jobs : cli_pipe_default_jobs(), write_scenario_item, c);
  for (size_t i = 0; i < s->nixs && !st; i++) {
    const scp_sol_scn_ix *x = &s->ixs[i];
    /* a program of "programs", or one deployed in the accounts as they are
     * now (its bytes copied: the run may replace the accounts' buffers) */
    char idtext[SCP_SOL_B58_KEY_MAX];
    scp_sol_scn_program dep = {.name = idtext, .path = idtext};
    const scp_sol_scn_program *p = x->program == SIZE_MAX ? &dep : &s->programs[x->program];
    const uint8_t *elf;
    scp_sol_key_str(x->program_id, idtext);
    if (x->program == SIZE_MAX) {
      if (!scp_sol_program_in(s->accounts, s->naccounts, x->program_id, &elf, &dep.len, &dep.loader)) {
        st = cli_die(SCP_ERR_MALFORMED, "%s: instruction %zu: %s is not in \"programs\" nor a program deployed in "
                     "\"accounts\"", c->scenario, i + 1, idtext);
        break;
      }
      if (!(dep.elf = malloc(dep.len ? dep.len : 1))) {
        st = cli_die(SCP_ERR_NOMEM, "out of memory");
        break;
      }
      memcpy(dep.elf, elf, dep.len);
      memcpy(dep.id, x->program_id, 32);
    }
    scp_sol_run_opts o = {.elf = p->elf, .elf_len = p->len, .name = p->name, .path = p->path,
                          .loader = p->loader, .accts = s->accounts, .naccts = s->naccounts, .ix = x->accts,
                          .nix = x->naccts, .data = x->data, .len = x->len, .cu_limit = x->cu_limit,
                          .heap_size = x->heap, .profile = x->profile, .shape = c->shape,
                          .sysvars = &s->sysvars, .features = &s->features, .cache = cache, .idls = c->idls};
    memcpy(o.program_id, p->id, 32);
    scp_sol_result r;
    int rc = scp_sol_run(&o, &r, &err);
    free(dep.elf);
    if (rc) {
      st = cli_die(rc, "%s: instruction %zu: %s", c->scenario, i + 1, err.msg);
      break;
    }
    char name[96], dir[4400], shown[4400];
    scp_sol_ierr_name(r.ierr, name, sizeof name);
    snprintf(dir, sizeof dir, "%s/%02zu-%s", od.tmp, i + 1, x->label);
    snprintf(shown, sizeof shown, "%s/%02zu-%s", od.final, i + 1, x->label);
    scp_buf_printf(&sum, "%02zu\t%s\t%llu\t%s\n", i + 1, x->label, (unsigned long long)r.cu,
                   r.ierr.kind ? name : "ok");
    if (x->profile && !(st = cli_cov_add(&cov, r.profile))) {
      scp_buf res = {0};
      result_lines(&res, s->accounts, x->accts, x->naccts, &r);
      char what[4200];
      snprintf(what, sizeof what, "%s: instruction %zu", c->scenario, i + 1);
      st = cli_pipe_submit(pipe, r.profile, what, dir, shown, &res);
      r.profile = NULL;
    }
    if (r.ierr.kind && !first_fail) first_fail = scp_exit_status(r.out_of_cu ? SCP_ERR_BUDGET : SCP_ERR_TRAP);
    scp_sol_result_free(&r);
  }
  st = cli_pipe_close(pipe, st);
  if (!st) st = cli_write_file_as(od.tmp, od.final, "scenario.txt", &sum);
  st = cli_cov_end(&cov, st, od.tmp, od.final);
  /* the folder goes in whole, or the old one stays as it was */
  if (!st) st = cli_outdir_commit(&od);
  cli_outdir_abort(&od);
  if (!st && !c->quiet) st = cli_write_stdout(&sum);
  scp_buf_free(&sum);
  scp_sol_progs_free(cache);
  scp_sol_scenario_free(s);
  return st ? st : first_fail;
}

/* ---- a scenario of transactions ---- */

/* result.txt of a transaction into b: then the accounts its instructions
 * name, as they are after it (the scenario's accounts carry over); a
 * transaction run with its fee payer has its "fee" and "post" lines in
 * extra instead.  0 or the exit status of the error printed. */
static int tx_result_lines(scp_buf *b, const scp_sol_tx_result *r, const scp_buf *extra, const scp_sol_account *accts,
                           const scp_sol_tx_ix *ixs, size_t nixs) {
  char out[160];
  scp_sol_tx_outcome(r, out, sizeof out);
  scp_buf_printf(b, "cu %llu\n", (unsigned long long)r->cu);
  for (size_t i = 0; i < r->nlogs; i++) scp_buf_printf(b, "log %s\n", r->logs[i]);
  scp_buf_printf(b, strcmp(out, "ok") ? "result err %s\n" : "result %s\n", out);
  if (extra->len) {
    scp_buf_put(b, extra->data, extra->len);
  } else {
    size_t nall = 0;
    for (size_t i = 0; i < nixs; i++) nall += ixs[i].naccts;
    scp_sol_ixacct *all = calloc(nall + 1, sizeof *all);
    if (!all) return cli_die(SCP_ERR_NOMEM, "out of memory");
    for (size_t i = 0, at = 0; i < nixs; at += ixs[i].naccts, i++)
      memcpy(all + at, ixs[i].accts, ixs[i].naccts * sizeof *all);
    post_lines(b, accts, all, nall);
    free(all);
  }
  return 0;
}

/* Each transaction in DIR/NN-LABEL/ (outputs and result.txt), a line each
 * in DIR/scenario.txt; the accounts carry over; the exit status is the
 * first failing transaction's. */
static int run_tx_scenario(sol_cli *c, scp_sol_scenario *s) {
  scp_error err = {0};
  cli_outdir od;
  int st = cli_outdir_begin(&od, c->out_dir), first_fail = 0;
  scp_buf sum = {0};
  scp_sol_tx_prog *progs = calloc(s->nprograms + 1, sizeof *progs);
  scp_sol_tx_ix *ixs = calloc(s->nixs + 1, sizeof *ixs);
  /* each program loaded once for the whole scenario */
  scp_sol_progs *cache = NULL;
  if (!progs || !ixs) st = cli_die(SCP_ERR_NOMEM, "out of memory");
  cli_cov cov = {0};
  if (!st) st = cli_cov_begin(&cov, c->want);
  if (progs) scenario_progs(s, progs);
  if (!st) st = cache_with_symbols(c, progs, s->nprograms, s->accounts, s->naccounts, &cache);
  if (!st) st = pin_programs(s, cache);
  cli_pipe *pipe = NULL;
  if (!st) st = cli_pipe_open(&pipe, c->jobs ? c->jobs : cli_pipe_default_jobs(), write_scenario_item, c);
  /* each transaction on a fresh blockhash, as tests/oracle/tx.js has litesvm */
  uint8_t blockhash[32];
  scp_sol_blockhash_genesis(blockhash);
  for (size_t t = 0, at = 0; t < s->ntx && !st; t++) {
    size_t n = 0;
    bool profile = false;
    for (; at + n < s->nixs && s->ixs[at + n].tx == t; n++) {
      const scp_sol_scn_ix *x = &s->ixs[at + n];
      profile |= x->profile;
      ixs[n] = (scp_sol_tx_ix){.accts = x->accts, .naccts = x->naccts, .data = x->data, .len = x->len,
                               .label = x->label_given ? x->label : NULL};
      memcpy(ixs[n].program, x->program_id, 32);
    }
    at += n;
    char title[300], dir[4400], shown[4400], out[160];
    snprintf(title, sizeof title, "transaction %s", s->tx_labels[t]);
    scp_sol_blockhash_next(blockhash);
    scp_sol_tx_opts o = {.progs = progs, .nprogs = s->nprograms, .accts = s->accounts, .naccts = s->naccounts,
                         .ixs = ixs, .nixs = n, .title = title, .profile = profile, .blockhash = blockhash,
                         .sysvars = &s->sysvars, .features = &s->features, .cache = cache, .idls = c->idls,
                         .shape = c->shape};
    scp_sol_tx_result r;
    scp_buf extra = {0};
    int rc = s->tx_has_fee_payer[t] ? cli_sol_tx_with_payer(&o, s->tx_fee_payer[t], &r, &extra, &err)
                                    : scp_sol_tx_run(&o, &r, &err);
    if (rc) {
      scp_buf_free(&extra);
      st = cli_die(rc, "%s: transaction %zu: %s", c->scenario, t + 1, err.msg);
      break;
    }
    scp_sol_tx_outcome(&r, out, sizeof out);
    snprintf(dir, sizeof dir, "%s/%02zu-%s", od.tmp, t + 1, s->tx_labels[t]);
    snprintf(shown, sizeof shown, "%s/%02zu-%s", od.final, t + 1, s->tx_labels[t]);
    scp_buf_printf(&sum, "%02zu\t%s\t%llu\t%s\n", t + 1, s->tx_labels[t], (unsigned long long)r.cu, out);
    scp_buf res = {0};
    if (profile && !(st = cli_cov_add(&cov, r.profile)) && !(st = tx_result_lines(&res, &r, &extra, s->accounts, ixs, n))) {
      char what[4200];
      snprintf(what, sizeof what, "%s: transaction %zu", c->scenario, t + 1);
      st = cli_pipe_submit(pipe, r.profile, what, dir, shown, &res);
      r.profile = NULL;
    }
    scp_buf_free(&res);
    scp_buf_free(&extra);
    if (strcmp(out, "ok") && !first_fail)
      first_fail = scp_exit_status(r.failed >= 0 && r.out_of_cu ? SCP_ERR_BUDGET : SCP_ERR_TRAP);
    scp_sol_tx_result_free(&r);
  }
  st = cli_pipe_close(pipe, st);
  if (!st) st = cli_write_file_as(od.tmp, od.final, "scenario.txt", &sum);
  st = cli_cov_end(&cov, st, od.tmp, od.final);
  if (!st) st = cli_outdir_commit(&od);
  cli_outdir_abort(&od);
  if (!st && !c->quiet) st = cli_write_stdout(&sum);
  scp_buf_free(&sum);
  scp_sol_progs_free(cache);
  free(progs);
  free(ixs);
  scp_sol_scenario_free(s);
  return st ? st : first_fail;
}

int cmd_profile_sol(int argc, char **argv, scp_sol_scenario_file *probe) {
  sol_cli c = {.out_dir = "scprof-out", .top = 20, .loader = SCP_SOL_LOADER_V3, .probe = probe};
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) c.want[f] = !scp_out_format_get((scp_format)f)->opt_in;
  /* the id a program given by path runs under, as tests/oracle/run.js */
  scp_sol_key_parse("ScprofProgram111111111111111111111111111111", 43, c.program_id);
  c.specs = calloc((size_t)argc + 1, sizeof *c.specs);
  c.ixaccts = calloc((size_t)argc + 1, sizeof *c.ixaccts);
  c.features = calloc((size_t)argc + 1, sizeof *c.features);
  c.syms.specs = calloc((size_t)argc + 1, sizeof *c.syms.specs);
  bool seen = cli_optset_init(&c.seen, argc);
  int st = c.specs && c.ixaccts && c.features && c.syms.specs && seen ? parse_args(argc, argv, &c) : cli_die(SCP_ERR_NOMEM, "out of memory");
  /* a scenario prints its summary, not the reports (--tx prints its own) */
  if (!st && !c.list)
    st = cli_optset_outputs(&c.seen, c.want[SCP_FMT_SVG], c.want[SCP_FMT_REPORT] || (!c.quiet && (c.tx || !c.scenario)));
  if (!st) st = c.tx ? run_wire(&c) : c.scenario ? run_scenario(&c) : run(&c);
  scp_sol_state_free(&c.st);
  for (size_t i = 0; i < c.nprogs; i++) free(c.progs[i].path);
  free(c.progs);
  scp_sol_idls_free(c.idls);
  free(c.specs);
  free(c.ixaccts);
  free(c.features);
  free(c.syms.specs);
  free(c.ix);
  cli_optset_free(&c.seen);
  scp_sol_scenario_file_free(c.probe);
  return st;
}
