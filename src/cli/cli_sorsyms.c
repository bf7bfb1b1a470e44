/* cli_sorsyms.c — symbol files for the contracts of a Soroban call (cli_sorsyms.h). */
#include "cli_sorsyms.h"
#include "symbols/scp_sym.h"

#include <stdlib.h>
#include <string.h>

/* C...=FILE with a snapshot: that contract's code */
static int by_id(const char *spec, const char *eq, struct scp_snapshot *snap, const uint8_t *bytes, size_t len) {
  if (!snap) return cli_die(SCP_ERR_USAGE, "--symbols %s: C...=FILE.wasm needs --snapshot", spec);
  char id[64];
  snprintf(id, sizeof id, "%.*s", (int)(eq - spec), spec);
  uint8_t *wasm = NULL;
  size_t wlen = 0;
  const struct scp_snap_contract *c = NULL;
  int st = cli_snapshot_contract(snap, id, &wasm, &wlen, &c);
  if (st) return st;
  scp_error err = {0};
  int rc = scp_sym_wasm_matches(wasm, wlen, bytes, len, &err);
  free(wasm);
  return rc ? cli_die(rc, "%s: not the symbols of contract %s: %s", eq + 1, id, err.msg) : 0;
}

static int one_spec(const char *spec, const char *main_name, const uint8_t *main, size_t mlen,
                    const scp_contract_file *cs, size_t nc, struct scp_snapshot *snap, uint8_t **bytes,
                    size_t *len) {
  const char *eq = spec[0] == 'C' ? strchr(spec, '=') : NULL;
  const char *file = eq && eq - spec == 56 ? eq + 1 : spec;
  scp_error err = {0};
  if (scp_read_file_max(file, SCP_MAX_WASM_BYTES, "a WASM module", bytes, len, &err))
    return cli_die(err.code, "%s", err.msg);
  if (file != spec) return by_id(spec, eq, snap, *bytes, *len);
  int rc = scp_sym_wasm_matches(main, mlen, *bytes, *len, &err);
  for (size_t i = 0; rc == SCP_ERR_ARG && i < nc; i++)
    if (!scp_sym_wasm_matches(cs[i].wasm, cs[i].len, *bytes, *len, NULL)) rc = SCP_OK;
  if (rc && nc) return cli_die(rc, "%s: not the symbols of %s nor of any --contract", file, main_name);
  return rc ? cli_die(rc, "%s: not the symbols of %s: %s", file, main_name, err.msg) : 0;
}

int cli_sor_syms_load(cli_sor_syms *s, const char *main_name, const uint8_t *main, size_t mlen,
                      const scp_contract_file *contracts, size_t ncontracts, struct scp_snapshot *snap) {
  if (!s->nspecs) return 0;
  if (!(s->files = calloc(s->nspecs, sizeof *s->files))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < s->nspecs; i++) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    int st = one_spec(s->specs[i], main_name, main, mlen, contracts, ncontracts, snap, &bytes, &len);
    if (bytes) s->files[s->nfiles++] = (scp_sym_file){.bytes = bytes, .len = len};
    if (st) return st;
  }
  return 0;
}

void cli_sor_syms_free(cli_sor_syms *s) {
  for (size_t i = 0; i < s->nfiles; i++) free((void *)s->files[i].bytes);
  free(s->files);
  s->files = NULL;
  s->nfiles = 0;
}
