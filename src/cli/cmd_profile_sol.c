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
#include "solana/scp_sol_tx.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct sol_cli {
  const char *out_dir, *path, *scenario;
  bool want[SCP_FMT_COUNT];
  uint64_t top, cu_limit, heap;
  bool quiet, list, have_id;
  scp_svg_opts svg;
  scp_tree_opts shape;
  uint8_t program_id[32];
  scp_sol_loader loader;
  uint8_t *ix;
  size_t ixlen;
  scp_sol_account *accts;      /* unique, in order of first mention */
  size_t naccts;
  scp_sol_ixacct *ixaccts;
  size_t nix;
} sol_cli;

bool cli_is_sbpf_program(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--scenario") && i + 1 < argc) return scp_sol_scenario_is(argv[i + 1]);
    if (argv[i][0] == '-') continue;
    size_t len = strlen(argv[i]);
    if (len > 3 && !strcmp(argv[i] + len - 3, ".so")) return true;
    FILE *f = fopen(argv[i], "rb");
    if (!f) continue;
    char m[4] = {0};
    size_t n = fread(m, 1, 4, f);
    fclose(f);
    if (n == 4 && !memcmp(m, "\177ELF", 4)) return true;
  }
  return false;
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool b64val(char c, unsigned *v) {
  static const char T[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const char *p = c ? strchr(T, c) : NULL;
  if (!p) return false;
  *v = (unsigned)(p - T);
  return true;
}

/* DATA: hex, b64:BASE64, @FILE or empty.  Returns 0 or an exit status. */
static int parse_data(const char *what, const char *s, uint8_t **out, size_t *len) {
  size_t n = strlen(s);
  *out = NULL;
  *len = 0;
  if (s[0] == '@') {
    scp_error err = {0};
    if (scp_read_file_max(s + 1, SCP_MAX_DATA_BYTES, "instruction or account data", out, len, &err))
      return cli_die(err.code, "%s: %s", what, err.msg);
    return 0;
  }
  uint8_t *b = malloc(n + 1);
  if (!b) return cli_die(SCP_ERR_NOMEM, "out of memory");
  size_t k = 0;
  if (!strncmp(s, "b64:", 4)) {
    uint32_t acc = 0;
    unsigned bits = 0, v;
    for (const char *p = s + 4; *p && *p != '='; p++) {
      if (!b64val(*p, &v)) goto bad;
      acc = acc << 6 | v;
      bits += 6;
      if (bits >= 8) b[k++] = (uint8_t)(acc >> (bits -= 8));
    }
  } else {
    if (n % 2) goto bad;
    for (size_t i = 0; i < n; i += 2) {
      int hi = hexval(s[i]), lo = hexval(s[i + 1]);
      if (hi < 0 || lo < 0) goto bad;
      b[k++] = (uint8_t)(hi << 4 | lo);
    }
  }
  *out = b;
  *len = k;
  return 0;
bad:
  free(b);
  return cli_die(SCP_ERR_ARG, "%s: '%s' is not hex, b64:BASE64 or @FILE", what, s);
}

static int parse_key(const char *what, const char *s, size_t n, uint8_t key[32]) {
  if (scp_sol_key_parse(s, n, key)) return 0;
  return cli_die(SCP_ERR_ARG, "%s: '%.*s' is not a base58 public key", what, (int)n, s);
}

/* --account PUBKEY:LAMPORTS:OWNER:DATA[:s][:w][:x] */
static int parse_account(sol_cli *c, const char *spec) {
  const char *f[8];
  size_t fl[8], nf = 0;
  for (const char *p = spec; nf < 8;) {
    size_t n = strcspn(p, ":");
    f[nf] = p;
    fl[nf++] = n;
    if (!p[n]) break;
    p += n + 1;
  }
  if (nf < 4 || nf > 7)
    return cli_die(SCP_ERR_USAGE, "--account %s: want PUBKEY:LAMPORTS:OWNER:DATA[:s][:w][:x]", spec);
  scp_sol_account a = {0};
  scp_sol_ixacct x = {0};
  char num[32];
  int st;
  if ((st = parse_key("--account", f[0], fl[0], a.key)) || (st = parse_key("--account owner", f[2], fl[2], a.owner)))
    return st;
  snprintf(num, sizeof num, "%.*s", (int)(fl[1] < 31 ? fl[1] : 31), f[1]);
  if (fl[1] >= 31 || !cli_parse_u64(num, &a.lamports))
    return cli_die(SCP_ERR_ARG, "--account %s: lamports '%.*s' is not a number", spec, (int)fl[1], f[1]);
  for (size_t i = 4; i < nf; i++) {
    if (fl[i] == 1 && f[i][0] == 's') x.signer = true;
    else if (fl[i] == 1 && f[i][0] == 'w') x.writable = true;
    else if (fl[i] == 1 && f[i][0] == 'x') a.executable = true;
    else return cli_die(SCP_ERR_USAGE, "--account %s: unknown flag '%.*s' (s, w, x)", spec, (int)fl[i], f[i]);
  }
  char *data = strndup(f[3], fl[3]);
  if (!data) return cli_die(SCP_ERR_NOMEM, "out of memory");
  st = parse_data("--account data", data, &a.data, &a.len);
  free(data);
  if (st) return st;
  size_t idx = 0;
  while (idx < c->naccts && memcmp(c->accts[idx].key, a.key, 32)) idx++;
  if (idx == c->naccts) {
    c->accts[c->naccts++] = a;
  } else {
    const scp_sol_account *o = &c->accts[idx];
    bool same = o->lamports == a.lamports && !memcmp(o->owner, a.owner, 32) && o->len == a.len &&
                (!a.len || !memcmp(o->data, a.data, a.len)) && o->executable == a.executable;
    scp_sol_account_free(&a);
    if (!same) return cli_die(SCP_ERR_ARG, "--account %.*s given twice with different contents", (int)fl[0], f[0]);
  }
  x.index = (uint16_t)idx;
  c->ixaccts[c->nix++] = x;
  /* the message gives every mention of an account the union of its flags */
  for (size_t i = 0; i < c->nix; i++)
    if (c->ixaccts[i].index == idx) {
      c->ixaccts[i].signer |= x.signer;
      c->ixaccts[i].writable |= x.writable;
      x.signer |= c->ixaccts[i].signer;
      x.writable |= c->ixaccts[i].writable;
    }
  for (size_t i = 0; i < c->nix; i++)
    if (c->ixaccts[i].index == idx) c->ixaccts[i] = x;
  return 0;
}

static int parse_args(int argc, char **argv, sol_cli *c) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val;
    int st;
    if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (!(val = cli_option_value(argc, argv, &i, "a folder"))) return usage;
      c->out_dir = val;
    } else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
      if (!(val = cli_option_value(argc, argv, &i, "a list of formats"))) return usage;
      if ((st = cli_parse_formats(val, c->want))) return st;
    } else if (!strcmp(a, "--top") || !strcmp(a, "--cu-limit") || !strcmp(a, "--heap")) {
      uint64_t *dest = !strcmp(a, "--top") ? &c->top : !strcmp(a, "--heap") ? &c->heap : &c->cu_limit;
      if (!(val = cli_option_value(argc, argv, &i, "a non-negative integer"))) return usage;
      if (!cli_parse_u64(val, dest) || *dest > UINT_MAX * (dest == &c->cu_limit ? 1ull << 31 : 1ull))
        return cli_die(SCP_ERR_USAGE, "%s: '%s' is not a non-negative integer", a, val);
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
    } else if (!strcmp(a, "--list")) {
      c->list = true;
    } else if (!strcmp(a, "--ix")) {
      if (!(val = cli_option_value(argc, argv, &i, "instruction data"))) return usage;
      free(c->ix);
      if ((st = parse_data("--ix", val, &c->ix, &c->ixlen))) return st;
    } else if (!strcmp(a, "--account")) {
      if (!(val = cli_option_value(argc, argv, &i, "PUBKEY:LAMPORTS:OWNER:DATA"))) return usage;
      if ((st = parse_account(c, val))) return st;
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
  if (c->scenario && (c->path || c->nix || c->ixlen))
    return cli_die(SCP_ERR_USAGE, "--scenario takes the programs, accounts and instructions from its file");
  if (!c->path && !c->scenario) return cli_die(SCP_ERR_USAGE, "profile needs PROGRAM.so");
  return 0;
}

/* Into folder dir, which messages call shown (cli_outdir). */
static int write_outputs(const scp_profile *p, const sol_cli *c, const char *dir,
                         const char *shown) {
  cli_warn_truncated(p, c->path ? c->path : c->scenario);
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) {
    if (!c->want[f]) continue;
    const scp_out_format *of = scp_out_format_get((scp_format)f);
    scp_out_opts oo = {.metric = 0, .top = (unsigned)c->top, .svg = c->svg};
    int st = cli_write_format(dir, shown, of->file, p, of, &oo);
    if (st) return st;
  }
  return 0;
}

/* result.txt's "post KEY LAMPORTS OWNER DATAHEX" line of each account of
 * ix[0..nix) the first time it is named (the oracle prints the same) */
static void post_lines(scp_buf *b, const scp_sol_account *accts, const scp_sol_ixacct *ix,
                       size_t nix) {
  char key[SCP_SOL_B58_KEY_MAX], owner[SCP_SOL_B58_KEY_MAX];
  for (size_t i = 0; i < nix; i++) {
    bool first = true;
    for (size_t k = 0; k < i; k++) first &= ix[k].index != ix[i].index;
    if (!first) continue;
    const scp_sol_account *a = &accts[ix[i].index];
    scp_sol_key_str(a->key, key);
    scp_sol_key_str(a->owner, owner);
    scp_buf_printf(b, "post %s %llu %s ", key, (unsigned long long)a->lamports, owner);
    for (size_t k = 0; k < a->len; k++) scp_buf_printf(b, "%02x", a->data[k]);
    scp_buf_putc(b, '\n');
  }
}

/* result.txt: the oracle's lines */
static int write_result(const scp_sol_account *accts, const scp_sol_ixacct *ix, size_t nix,
                        const scp_sol_result *r, const char *dir, const char *shown) {
  scp_buf b = {0};
  char name[96];
  scp_buf_printf(&b, "cu %llu\n", (unsigned long long)r->cu);
  for (size_t i = 0; i < r->nlogs; i++) scp_buf_printf(&b, "log %s\n", r->logs[i]);
  scp_sol_ierr_name(r->ierr, name, sizeof name);
  scp_buf_printf(&b, r->ierr.kind ? "result err %s\n" : "result ok\n", name);
  post_lines(&b, accts, ix, nix);
  int st = cli_write_file_as(dir, shown, "result.txt", &b);
  scp_buf_free(&b);
  return st;
}

static int list_program(const sol_cli *c, const uint8_t *elf, size_t len) {
  char *text = NULL;
  scp_error err = {0};
  int rc = scp_sol_list(elf, len, c->path, &text, &err);
  if (rc) return cli_die(rc, "%s", err.msg);
  fputs(text, stdout);
  free(text);
  return 0;
}

static int run(sol_cli *c) {
  uint8_t *elf = NULL;
  size_t len = 0;
  scp_error err = {0};
  if (scp_read_file_max(c->path, SCP_MAX_ELF_BYTES, "an sBPF program", &elf, &len, &err))
    return cli_die(err.code, "%s", err.msg);
  if (c->list) {
    int st = list_program(c, elf, len);
    free(elf);
    return st;
  }
  const char *base = strrchr(c->path, '/');
  base = base ? base + 1 : c->path;
  char name[128];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(base, "."), base);
  scp_sol_run_opts o = {elf, len, name, c->path, {0}, c->loader, c->accts, c->naccts, c->ixaccts,
                        c->nix, c->ix, c->ixlen, c->cu_limit, (uint32_t)c->heap, true, NULL, 0, 0, NULL, {0, false},
                        NULL, NULL};
  memcpy(o.program_id, c->program_id, 32);
  o.shape = c->shape;
  scp_sol_result r;
  int rc = scp_sol_run(&o, &r, &err);
  free(elf);
  if (rc) return cli_die(rc, "%s", err.msg);
  cli_outdir od;
  int st = cli_outdir_begin(&od, c->out_dir);
  if (!st) st = write_outputs(r.profile, c, od.tmp, od.final);
  if (!st) st = write_result(c->accts, c->ixaccts, c->nix, &r, od.tmp, od.final);
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
    scp_sol_ierr_name(r.ierr, why, sizeof why);
    st = cli_die(SCP_ERR_TRAP, "%s: instruction failed: %s after %llu CU (profile written to %s)",
                 c->path, why, (unsigned long long)r.cu, c->out_dir);
  }
  scp_sol_result_free(&r);
  return st;
}

/* --scenario: the instructions in order on one set of accounts (a failed
 * one changes nothing); each profiled one in DIR/NN-LABEL/, a line per
 * instruction in DIR/scenario.txt; the exit status is the first failing
 * instruction's. */
static int run_tx_scenario(sol_cli *c, scp_sol_scenario *s);

static int run_scenario(sol_cli *c) {
  scp_error err = {0};
  scp_sol_scenario *s;
  if (scp_sol_scenario_load(c->scenario, &s, &err)) return cli_die(err.code, "%s", err.msg);
  if (s->ntx) return run_tx_scenario(c, s);
  cli_outdir od;
  int st = cli_outdir_begin(&od, c->out_dir), first_fail = 0;
  scp_buf sum = {0};
  /* each program loaded once for the whole scenario */
  scp_sol_progs *cache = NULL;
  if (!st && scp_sol_progs_new(&cache, &err)) st = cli_die(err.code, "%s", err.msg);
  for (size_t i = 0; i < s->nixs && !st; i++) {
    const scp_sol_scn_ix *x = &s->ixs[i];
    const scp_sol_scn_program *p = &s->programs[x->program];
    scp_sol_run_opts o = {p->elf, p->len, p->name, p->path, {0}, p->loader, s->accounts,
                          s->naccounts, x->accts, x->naccts, x->data, x->len, x->cu_limit, x->heap,
                          x->profile, NULL, 0, 0, NULL, {0, false}, NULL, cache};
    memcpy(o.program_id, p->id, 32);
    o.shape = c->shape;
    scp_sol_result r;
    int rc = scp_sol_run(&o, &r, &err);
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
    if (x->profile) {
      st = cli_make_dir_as(dir, shown);
      if (!st) st = write_outputs(r.profile, c, dir, shown);
      if (!st) st = write_result(s->accounts, x->accts, x->naccts, &r, dir, shown);
    }
    if (r.ierr.kind && !first_fail) first_fail = scp_exit_status(SCP_ERR_TRAP);
    scp_sol_result_free(&r);
  }
  if (!st) st = cli_write_file_as(od.tmp, od.final, "scenario.txt", &sum);
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

/* result.txt of a transaction: then the accounts its instructions name,
 * as they are after it (the scenario's accounts carry over) */
static int write_tx_result(const scp_sol_tx_result *r, const scp_sol_account *accts,
                           const scp_sol_tx_ix *ixs, size_t nixs, const char *dir,
                           const char *shown) {
  scp_buf b = {0};
  char out[160];
  scp_sol_tx_outcome(r, out, sizeof out);
  scp_buf_printf(&b, "cu %llu\n", (unsigned long long)r->cu);
  for (size_t i = 0; i < r->nlogs; i++) scp_buf_printf(&b, "log %s\n", r->logs[i]);
  scp_buf_printf(&b, strcmp(out, "ok") ? "result err %s\n" : "result %s\n", out);
  size_t nall = 0;
  for (size_t i = 0; i < nixs; i++) nall += ixs[i].naccts;
  scp_sol_ixacct *all = calloc(nall + 1, sizeof *all);
  if (!all) {
    scp_buf_free(&b);
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0, at = 0; i < nixs; at += ixs[i].naccts, i++)
    memcpy(all + at, ixs[i].accts, ixs[i].naccts * sizeof *all);
  post_lines(&b, accts, all, nall);
  free(all);
  int st = cli_write_file_as(dir, shown, "result.txt", &b);
  scp_buf_free(&b);
  return st;
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
  if (!st && scp_sol_progs_new(&cache, &err)) st = cli_die(err.code, "%s", err.msg);
  for (size_t i = 0; i < s->nprograms && progs; i++) {
    const scp_sol_scn_program *p = &s->programs[i];
    progs[i] = (scp_sol_tx_prog){{0}, p->elf, p->len, p->name, p->path, p->loader};
    memcpy(progs[i].id, p->id, 32);
  }
  /* each transaction on a fresh blockhash, as tests/oracle/tx.js has litesvm */
  uint8_t blockhash[32];
  scp_sol_blockhash_genesis(blockhash);
  for (size_t t = 0, at = 0; t < s->ntx && !st; t++) {
    size_t n = 0;
    bool profile = false;
    for (; at + n < s->nixs && s->ixs[at + n].tx == t; n++) {
      const scp_sol_scn_ix *x = &s->ixs[at + n];
      profile |= x->profile;
      ixs[n] = (scp_sol_tx_ix){{0}, x->accts, x->naccts, x->data, x->len};
      memcpy(ixs[n].program, x->program_id, 32);
    }
    at += n;
    char title[300], dir[4400], shown[4400], out[160];
    snprintf(title, sizeof title, "transaction %s", s->tx_labels[t]);
    scp_sol_blockhash_next(blockhash);
    scp_sol_tx_opts o = {progs, s->nprograms, s->accounts, s->naccounts, ixs, n, title, profile, blockhash, cache};
    scp_sol_tx_result r;
    int rc = scp_sol_tx_run(&o, &r, &err);
    if (rc) {
      st = cli_die(rc, "%s: transaction %zu: %s", c->scenario, t + 1, err.msg);
      break;
    }
    scp_sol_tx_outcome(&r, out, sizeof out);
    snprintf(dir, sizeof dir, "%s/%02zu-%s", od.tmp, t + 1, s->tx_labels[t]);
    snprintf(shown, sizeof shown, "%s/%02zu-%s", od.final, t + 1, s->tx_labels[t]);
    scp_buf_printf(&sum, "%02zu\t%s\t%llu\t%s\n", t + 1, s->tx_labels[t], (unsigned long long)r.cu, out);
    if (profile) {
      st = cli_make_dir_as(dir, shown);
      if (!st) st = write_outputs(r.profile, c, dir, shown);
      if (!st) st = write_tx_result(&r, s->accounts, ixs, n, dir, shown);
    }
    if (strcmp(out, "ok") && !first_fail) first_fail = scp_exit_status(SCP_ERR_TRAP);
    scp_sol_tx_result_free(&r);
  }
  if (!st) st = cli_write_file_as(od.tmp, od.final, "scenario.txt", &sum);
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

int cmd_profile_sol(int argc, char **argv) {
  sol_cli c = {.out_dir = "scprof-out", .top = 20, .loader = SCP_SOL_LOADER_V3};
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) c.want[f] = true;
  /* the id a program given by path runs under, as tests/oracle/run.js */
  scp_sol_key_parse("ScprofProgram111111111111111111111111111111", 43, c.program_id);
  c.accts = calloc((size_t)argc + 1, sizeof *c.accts);
  c.ixaccts = calloc((size_t)argc + 1, sizeof *c.ixaccts);
  int st = c.accts && c.ixaccts ? parse_args(argc, argv, &c) : cli_die(SCP_ERR_NOMEM, "out of memory");
  if (!st) st = c.scenario ? run_scenario(&c) : run(&c);
  for (size_t i = 0; i < c.naccts; i++) scp_sol_account_free(&c.accts[i]);
  free(c.accts);
  free(c.ixaccts);
  free(c.ix);
  return st;
}
