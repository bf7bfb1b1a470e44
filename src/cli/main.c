/*
 * main.c — the scprof command line.
 *
 *   scprof profile CONTRACT.wasm FUNCTION [ARG...] [options]
 *
 * Errors are one line on stderr ("scprof: FILE: problem") with the exit
 * status of the error table (include/scprof_err.def, README).  A run that
 * started but trapped or ran out of budget still writes its (partial)
 * profile, then exits with the trap/budget status.
 */
#include "scprof.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/scp_util.h"

static const char usage_text[] =
  "usage: scprof profile CONTRACT.wasm FUNCTION [ARG...] [options]\n"
  "       scprof --help | --version\n"
  "\n"
  "Runs FUNCTION of a Soroban contract under a faithful re-implementation of\n"
  "the Soroban host's metering and writes where every CPU instruction and\n"
  "memory byte of the Budget went, by call path and source line.\n"
  "\n"
  "arguments (typed):\n"
  "  u32:7  i32:-1  u64:N  i64:N  u128:N  i128:N  bool:true  sym:name\n"
  "  bytes:00ff  str:text  void\n"
  "\n"
  "options:\n"
  "  -o, --out DIR       output folder (default: scprof-out)\n"
  "      --cpu-limit N   CPU instruction limit (default 100000000)\n"
  "      --mem-limit N   memory byte limit (default 41943040)\n"
  "      --top N         rows per report table (default 20)\n"
  "  -q, --quiet         do not print the report\n"
  "\n"
  "writes DIR/flamegraph.svg, DIR/profile.folded and DIR/report.txt.\n"
  "exit status: 0 ok, 2 usage, 3 bad argument, 4 not found, 10 trap,\n"
  "11 budget exceeded, 65 malformed wasm, 66 unsupported feature,\n"
  "67 invalid module, 74 I/O error, 70 out of memory, 71 internal error.\n";

static int die(int status, const char *fmt, ...) SCP_PRINTF(2, 3);
static int die(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("scprof: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return scp_exit_status(status);
}

static bool parse_u64(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  if (!*s || *s == '-') return false;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end) return false;
  *v = x;
  return true;
}

static int write_one(const scp_profile *p, const char *dir, const char *name, scp_format fmt,
                     const scp_write_opts *wo) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return die(SCP_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  int rc = scp_profile_write(p, fmt, wo, f);
  if (fclose(f) != 0 && rc == SCP_OK) rc = SCP_ERR_IO;
  if (rc) return die(rc, "%s: %s", path, scp_strerror(rc));
  return 0;
}

static int mkdir_p(const char *dir) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", dir);
  for (char *s = tmp + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    *s = '/';
  }
  if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
  return 0;
}

static int cmd_profile(int argc, char **argv) {
  const char *out_dir = "scprof-out", *wasm_path = NULL, *function = NULL;
  uint64_t cpu_limit = 0, mem_limit = 0, top = 0;
  bool quiet = false;
  scp_arg *args = calloc((size_t)argc + 1, sizeof *args);
  size_t nargs = 0;
  if (!args) return die(SCP_ERR_NOMEM, "out of memory");
  int status = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (!val) { status = die(SCP_ERR_USAGE, "%s needs a folder", a); goto out; }
      out_dir = val; i++;
    } else if (!strcmp(a, "--cpu-limit") || !strcmp(a, "--mem-limit") || !strcmp(a, "--top")) {
      uint64_t v;
      if (!val || !parse_u64(val, &v)) { status = die(SCP_ERR_USAGE, "%s needs a non-negative integer", a); goto out; }
      *(a[2] == 'c' ? &cpu_limit : a[2] == 'm' ? &mem_limit : &top) = v;
      i++;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = true;
    } else if (a[0] == '-' && a[1] == '-') {
      status = die(SCP_ERR_USAGE, "unknown option %s (see scprof --help)", a);
      goto out;
    } else if (!wasm_path) {
      wasm_path = a;
    } else if (!function) {
      function = a;
    } else {
      scp_error e = {0};
      if (scp_arg_parse(a, &args[nargs], &e)) { status = die(SCP_ERR_ARG, "%s", e.msg); goto out; }
      nargs++;
    }
  }
  if (!wasm_path || !function) { status = die(SCP_ERR_USAGE, "profile needs CONTRACT.wasm and FUNCTION (see scprof --help)"); goto out; }

  uint8_t *wasm = NULL;
  size_t wasm_len = 0;
  scp_error err = {0};
  if (scp_read_file(wasm_path, &wasm, &wasm_len, &err)) { status = die(err.code, "%s", err.msg); goto out; }
  scp_soroban_opts o = {wasm_path, wasm, wasm_len, function, args, nargs, cpu_limit, mem_limit};
  scp_profile *p = NULL;
  int rc = scp_soroban_profile(&o, &p, &err);
  free(wasm);
  if (!p) { status = die(rc, "%s", err.msg); goto out; }
  if (mkdir_p(out_dir) != 0) {
    status = die(SCP_ERR_IO, "%s: cannot create folder: %s", out_dir, strerror(errno));
  } else {
    scp_write_opts wo = {0, (unsigned)top};
    status = write_one(p, out_dir, "flamegraph.svg", SCP_FMT_SVG, &wo);
    if (!status) status = write_one(p, out_dir, "profile.folded", SCP_FMT_FOLDED, &wo);
    if (!status) status = write_one(p, out_dir, "report.txt", SCP_FMT_REPORT, &wo);
    if (!status && !quiet && scp_profile_write(p, SCP_FMT_REPORT, &wo, stdout) != SCP_OK)
      status = die(SCP_ERR_IO, "stdout: write error");
  }
  scp_profile_destroy(p);
  if (!status && rc) status = die(rc, "%s (partial profile written to %s)", err.msg, out_dir);
out:
  free(args);
  return status;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return scp_exit_status(SCP_ERR_USAGE);
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("scprof %s\n", SCP_VERSION);
    return 0;
  }
  if (!strcmp(argv[1], "profile")) return cmd_profile(argc - 2, argv + 2);
  return die(SCP_ERR_USAGE, "unknown command '%s' (see scprof --help)", argv[1]);
}
