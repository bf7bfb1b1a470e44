/*
 * cmd_size.c — `scprof size FILE`: where the bytes of a Soroban contract
 * (.wasm) or a Solana program (.so) go, as a profile of one metric
 * (bytes) written in every profile format, so `scprof diff` compares two
 * builds.  The flamegraph is size.svg; the other files keep the names a
 * profile's have (report.json is what diff, annotate and check read).
 */
#include "cli.h"
#include "cli_optset.h"
#include "size/scp_size.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE_SVG "size.svg"
#define NEVER_RUN_SVG "size-never-run.svg"
#define MAX_RUNS 64

typedef struct size_cli {
  const char *path;
  cli_out_opts out;             /* -o, -f, --top, --min-width, --icicle */
  const char *runs[MAX_RUNS];   /* --profile: execution profiles of the file */
  size_t nruns;
  bool quiet, keep_hash;
  /* --network, --network-config, --soroban-state-size: the upload's fee
   * and rent */
  scp_soroban_opts net;
  cli_optset seen;              /* the options given: --top, --icicle with their output */
} size_cli;

static int parse_args(int argc, char **argv, size_cli *c) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *val;
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++)
    c->out.want[f] = !scp_out_format_get((scp_format)f)->opt_in;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool handled;
    cli_optset_note(&c->seen, a);
    int st = cli_output_option(argc, argv, &i, &c->out, &handled);
    if (st) return st;
    if (handled) {
      /* coverage is of a run, not of a file's bytes ("all" means the rest) */
      if ((!strcmp(a, "-f") || !strcmp(a, "--format")) && strstr(argv[i], "lcov"))
        return cli_die(SCP_ERR_USAGE, "size: --format lcov is written by profile, not size");
      c->out.want[SCP_FMT_LCOV] = false;
    } else if (!strcmp(a, "--profile")) {
      if (!(val = cli_option_value(argc, argv, &i, "a profile (report.json or its folder)")))
        return usage;
      if (c->nruns == MAX_RUNS)
        return cli_die(SCP_ERR_USAGE, "--profile: at most %d profiles", MAX_RUNS);
      c->runs[c->nruns++] = val;
    } else if (!strcmp(a, "--network")) {
      if (!(c->net.network = cli_option_value(argc, argv, &i,
                                              "a network (mainnet, testnet, mainnet@YYYY-MM-DD)")))
        return usage;
    } else if (!strcmp(a, "--network-config")) {
      if (!(c->net.network_config = cli_option_value(argc, argv, &i, "a settings .json file")))
        return usage;
    } else if (!strcmp(a, "--soroban-state-size")) {
      if (!(val = cli_option_value(argc, argv, &i, "a size in bytes"))) return usage;
      if (!cli_parse_u64(val, &c->net.soroban_state_size) || !c->net.soroban_state_size ||
          c->net.soroban_state_size > INT64_MAX)
        return cli_die(SCP_ERR_USAGE, "--soroban-state-size: '%s' is not a size in bytes", val);
    } else if (!strcmp(a, "--keep-hash")) {
      c->keep_hash = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      c->quiet = true;
    } else if (a[0] == '-' && a[1] != 0) {
      return cli_die(SCP_ERR_USAGE, "unknown option %s (see scprof --help)", a);
    } else if (!c->path) {
      c->path = a;
    } else {
      return cli_die(SCP_ERR_USAGE, "size takes one file, not '%s' too (see scprof --help)", a);
    }
  }
  if (!c->path) return cli_die(SCP_ERR_USAGE, "size needs CONTRACT.wasm or PROGRAM.so");
  if (c->net.soroban_state_size && !c->net.network && !c->net.network_config)
    return cli_die(SCP_ERR_USAGE, "--soroban-state-size is the upload's rent: it needs --network "
                   "or --network-config");
  return 0;
}

static int write_outputs(const scp_profile *p, const size_cli *c, const cli_outdir *od) {
  for (unsigned f = 0; f < SCP_FMT_COUNT; f++) {
    if (!c->out.want[f]) continue;
    const scp_out_format *of = scp_out_format_get((scp_format)f);
    scp_out_opts oo = {.metric = 0, .top = (unsigned)c->out.top, .svg = c->out.svg};
    unsigned nfiles = of->per_metric ? p->nmetrics : 1;
    for (unsigned m = 0; m < nfiles; m++) {
      oo.metric = m;
      const char *file = f != SCP_FMT_SVG ? of->file : m ? NEVER_RUN_SVG : SIZE_SVG;
      int st = cli_write_format(od->tmp, od->final, file, p, of, &oo);
      if (st) return st;
    }
  }
  return 0;
}

/* What the bytes cost, into p's header: a contract's VM instantiation
 * (and with --network its upload), a program's deploy. */
static int deploy_costs(scp_profile *p, const uint8_t *bytes, size_t len, const size_cli *c,
                        scp_error *err) {
  int rc;
  if (len < 4 || memcmp(bytes, "\0asm", 4)) {
    if (c->net.network || c->net.network_config)
      return scp_fail(err, SCP_ERR_ARG, "--network is the Soroban upload's fee: not for a "
                      "Solana program");
    scp_size_deploy d;
    scp_size_solana_deploy(len, &d);
    rc = scp_size_solana_meta(p, &d);
    return rc ? scp_fail(err, rc, "out of memory") : SCP_OK;
  }
  scp_size_vm vm;
  rc = scp_size_soroban_vm(bytes, len, &vm, err);
  if (!rc) rc = scp_size_soroban_meta(p, &vm);
  if (!rc && (c->net.network || c->net.network_config)) {
    scp_size_upload *u = malloc(sizeof *u);
    if (!u) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    rc = scp_size_soroban_upload(bytes, len, &c->net, u, err);
    if (!rc) rc = scp_size_upload_meta(p, u, len);
    free(u);
  }
  return rc == SCP_ERR_NOMEM ? scp_fail(err, rc, "out of memory") : rc;
}

/* --profile: load each run and mark the code that never ran in them; the
 * totals go into the report's header. */
static int mark(scp_profile *p, const size_cli *c) {
  scp_profile *runs[MAX_RUNS] = {0};
  int st = 0;
  for (size_t i = 0; i < c->nruns && !st; i++) st = cli_load_profile(c->runs[i], &runs[i]);
  scp_size_mark_result r;
  scp_error err = {0};
  int rc = st ? SCP_OK : scp_size_mark(p, (const scp_profile *const *)runs, c->nruns, &r, &err);
  for (size_t i = 0; i < c->nruns; i++) scp_profile_destroy(runs[i]);
  if (st) return st;
  if (rc) return cli_die(rc, "%s: %s", c->path, err.msg);
  if (r.functions && !r.functions_ran)
    return cli_die(SCP_ERR_ARG, "%s: none of its functions ran in %s%s (profiles of another file?)",
                   c->path, c->runs[0], c->nruns > 1 ? " and the others" : "");
  char line[160];
  snprintf(line, sizeof line, "%llu of %llu code bytes (%.2f%%); %zu of %zu functions ran",
           (unsigned long long)r.never_run, (unsigned long long)r.code,
           r.code ? 100.0 * (double)r.never_run / (double)r.code : 0.0, r.functions_ran,
           r.functions);
  return scp_prof_meta(p, "never run", line) ? cli_die(SCP_ERR_NOMEM, "out of memory") : 0;
}

int cmd_size(int argc, char **argv) {
  size_cli c = {.out = {.dir = "scprof-size"}};
  int st = cli_optset_init(&c.seen, argc) ? parse_args(argc, argv, &c) : cli_die(SCP_ERR_NOMEM, "out of memory");
  if (!st) st = cli_optset_outputs(&c.seen, c.out.want[SCP_FMT_SVG], c.out.want[SCP_FMT_REPORT] || !c.quiet);
  cli_optset_free(&c.seen);
  if (st) return st;
  uint8_t *bytes = NULL;
  size_t len = 0;
  scp_error err = {0};
  if (scp_read_file_max(c.path, SCP_MAX_WASM_BYTES, "a contract or program", &bytes, &len, &err))
    return cli_die(err.code, "%s", err.msg);
  const char *base = strrchr(c.path, '/');
  char warn[256];
  scp_size_opts o = {.name = base ? base + 1 : c.path, .sym = {.keep_rust_hash = c.keep_hash},
                     .warn = warn, .warn_size = sizeof warn};
  scp_profile *p = NULL;
  int rc = scp_size_build(bytes, len, &o, &p, &err);
  if (!rc) rc = deploy_costs(p, bytes, len, &c, &err);
  free(bytes);
  if (rc) {
    scp_profile_destroy(p);
    return cli_die(rc, "%s: %s", c.path, err.msg);
  }
  if (*warn) cli_warn("%s: %s", c.path, warn);
  st = c.nruns ? mark(p, &c) : 0;
  cli_outdir od = {0};
  if (!st) st = cli_outdir_begin(&od, c.out.dir);
  if (!st) st = write_outputs(p, &c, &od);
  if (!st) st = cli_outdir_commit(&od);
  cli_outdir_abort(&od);
  if (!st && !c.quiet) {
    scp_buf b = {0};
    /* with --profile, the tables rank what never ran */
    scp_out_opts oo = {.top = (unsigned)c.out.top, .metric = c.nruns ? 1 : 0};
    rc = scp_out_format_get(SCP_FMT_REPORT)->write(p, &oo, &b);
    st = rc == SCP_OK ? cli_write_stdout(&b) : cli_die(rc, "report: %s", scp_strerror(rc));
    scp_buf_free(&b);
  }
  scp_profile_destroy(p);
  return st;
}
