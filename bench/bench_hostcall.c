/*
 * bench_hostcall.c — one profiled Soroban call of hostcalls.wasm's run(N)
 * through the public API, for counting instructions under callgrind:
 * bench/run.sh runs it for two N and divides the difference by the extra
 * host calls, which gives the profiler's cost per host call (the fuel
 * flush, the host node, the booking on both sides), whatever the fixed
 * costs of loading, symbolizing and writing.
 *
 *   bench_hostcall FILE.wasm N
 */
#include <stdio.h>
#include <stdlib.h>

#include "scprof.h"
#include "util/scp_util.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: bench_hostcall FILE.wasm N\n");
    return 2;
  }
  uint8_t *wasm;
  size_t len;
  scp_error err = {0};
  char text[32];
  snprintf(text, sizeof text, "u32:%s", argv[2]);
  scp_arg arg;
  if (scp_read_file(argv[1], &wasm, &len, &err) || scp_arg_parse(text, &arg, &err)) {
    fprintf(stderr, "%s: %s\n", argv[1], err.msg);
    return 1;
  }
  scp_soroban_opts o = {.wasm_path = argv[1], .wasm = wasm, .wasm_len = len, .function = "run",
                        .args = &arg, .nargs = 1};
  scp_profile *p = NULL;
  int rc = scp_soroban_profile(&o, &p, &err);
  if (rc) fprintf(stderr, "%s: %s\n", argv[1], err.msg);
  else printf("%llu\n", (unsigned long long)scp_profile_total(p, 0));
  scp_profile_destroy(p);
  free(wasm);
  return rc ? 1 : 0;
}
