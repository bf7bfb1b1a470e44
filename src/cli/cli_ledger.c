/* cli_ledger.c — a command-line call's ledger (cli_ledger.h).  A contract
 * with a constructor goes to the same set-up transaction as a scenario's
 * with no "constructor_args" (sor_ledger.c): outside the profiled call, on
 * its own Budget. */
#include "cli.h"
#include "cli_ledger.h"
#include "wasm/scp_wasm.h"

#include <stdlib.h>
#include <string.h>

/* Whether f exports __constructor, and its parameter count.  A module
 * that does not parse has none here: the run reports it as before. */
static bool ctor_params(const scp_contract_file *f, uint32_t *np) {
  scp_wasm_module *m = NULL;
  scp_error err = {0};
  uint8_t kind = 0;
  uint32_t idx = 0, nr = 0;
  const uint8_t *ps = NULL, *rs = NULL;
  *np = 0;
  if (scp_wasm_load(f->wasm, f->len, &m, &err) != SCP_OK) return false;
  bool has = scp_wasm_export_find(m, "__constructor", 13, &kind, &idx) && kind == SCP_EXT_FUNC;
  if (has) scp_wasm_func_sig(m, idx, &ps, np, &rs, &nr);
  scp_wasm_module_free(m);
  return has;
}

int cli_ctor_deploys(const scp_contract_file *files, size_t n, uint32_t protocol, scp_ledger_deploy **out) {
  *out = NULL;
  if (protocol && protocol < 22) return 0;   /* CreateContract ran no constructor before protocol 22 */
  scp_ledger_deploy *d = calloc(n ? n : 1, sizeof *d);
  if (!d) return cli_die(SCP_ERR_NOMEM, "out of memory");
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    uint32_t np = 0;
    const char *path = files[i].path ? files[i].path : "contract.wasm";
    d[i].construct = ctor_params(&files[i], &np);
    if (d[i].construct && np) {
      free(d);
      return cli_die(SCP_ERR_ARG, "%s: __constructor takes %u argument%s, which the command line cannot "
                     "give (a scenario's \"constructor_args\" gives them: docs/scenarios.md)",
                     path, np, np == 1 ? "" : "s");
    }
    for (int k = 0; k < 8; k++) d[i].salt[31 - k] = (uint8_t)((uint64_t)i >> (8 * k));   /* salt i */
    d[i].where = "set-up";
    any = any || d[i].construct;
  }
  if (!any) free(d);
  else *out = d;
  return 0;
}

int cli_ledger_open(scp_soroban_opts *so, const scp_ledger_account *accounts, size_t naccounts,
                    const scp_ledger_trustline *trustlines, size_t ntrustlines, scp_sor_session *sess,
                    scp_ledger **ledger, scp_contract_file **files, scp_ledger_deploy **deploys) {
  size_t n = so->ledger.ncontracts + 1;
  if (!(*files = calloc(n, sizeof **files))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  (*files)[0] = (scp_contract_file){.path = so->wasm_path, .wasm = so->wasm, .len = so->wasm_len};
  if (n > 1) memcpy(*files + 1, so->ledger.contracts, (n - 1) * sizeof **files);
  int status = so->sdk_test ? 0 : cli_ctor_deploys(*files, n, so->ledger.protocol, deploys);
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
