/* sol_scenario.c — Solana scenario files (format in scp_sol_scenario.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_scenario.h"
#include "solana/scp_sol_state.h"
#include "solana/scp_sol_tx.h"
#include "util/scp_json.h"
#include "util/scp_util.h"

#define DEFAULT_PROGRAM_ID "ScprofProgram111111111111111111111111111111"

/* The top-level keys, in one place: a part of the scenario another reader
 * adds joins this list. */
static const char *const TOP_KEYS[] = {"programs", "accounts", "instructions", "transactions",
                                       "sysvars", "features", NULL};

/* Programs and accounts are found through maps: a scenario of 100,000
 * instructions each naming accounts would otherwise compare every key
 * with every account read so far. */
typedef struct loader_ctx {
  const char *file;     /* the scenario, for messages */
  const char *dir;      /* its folder, for relative paths */
  scp_error *err;
  scp_bmap programs;    /* program names: index (the first of a name) */
  scp_sol_state st;     /* the accounts */
  scp_bmap files;       /* ELF files read: the first program of each */
  uint8_t default_id[32];
  uint8_t *flags;       /* per account, while an instruction's are merged */
  size_t flags_cap;
} loader_ctx;

/* "FILE: PATH: what" */
static int bad(loader_ctx *l, const char *path, const char *what) {
  return scp_fail(l->err, SCP_ERR_MALFORMED, "%s: %s%s%s", l->file, path, *path ? ": " : "", what);
}

static int nomem(loader_ctx *l) { return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory"); }

static char *join(const loader_ctx *l, const char *rel) {
  size_t n = strlen(l->dir) + strlen(rel) + 2;
  char *p = malloc(n);
  if (!p) return NULL;
  if (rel[0] == '/' || !l->dir[0]) snprintf(p, n, "%s", rel);
  else snprintf(p, n, "%s/%s", l->dir, rel);
  return p;
}

/* A string member, or NULL (absent); a member of another type fails. */
static int str_of(loader_ctx *l, const json_t *o, const char *key, const char *path, const char **out) {
  const json_t *v = json_object_get(o, key);
  *out = json_string_value(v);
  if (!v || *out) return SCP_OK;
  char w[160];
  snprintf(w, sizeof w, "\"%s\" is a string", key);
  return bad(l, path, w);
}

static int bool_of(loader_ctx *l, const json_t *o, const char *key, const char *path, bool dflt, bool *out) {
  const json_t *v = json_object_get(o, key);
  *out = v ? json_is_true(v) : dflt;
  if (!v || json_is_boolean(v)) return SCP_OK;
  char w[160];
  snprintf(w, sizeof w, "\"%s\" is true or false", key);
  return bad(l, path, w);
}

/* hex, b64:BASE64 or @FILE (relative to the scenario) */
static int data_of(loader_ctx *l, const json_t *o, const char *path, uint8_t **out, size_t *len) {
  const char *data;
  int rc = str_of(l, o, "data", path, &data);
  if (rc) return rc;
  rc = scp_sol_data_parse(data ? data : "", data ? strlen(data) : 0, l->dir, out, len, l->err);
  if (rc == SCP_ERR_MALFORMED) {
    char m[sizeof l->err->msg];
    snprintf(m, sizeof m, "\"data\": %.400s", l->err->msg);
    return bad(l, path, m);
  }
  return rc;
}

static int key_of(loader_ctx *l, const json_t *o, const char *key, const char *path, uint8_t out[32]) {
  const json_t *v = json_object_get(o, key);
  const char *t = json_string_value(v);
  if (t && scp_sol_key_parse(t, json_string_length(v), out)) return SCP_OK;
  char w[160];
  snprintf(w, sizeof w, v ? "\"%s\" is not a base58 public key" : "no \"%s\"", key);
  return bad(l, path, w);
}

/* Program i of s; a file named before is not read again: its bytes are
 * shared. */
static int load_program(loader_ctx *l, const json_t *j, scp_sol_scenario *s, size_t i, const char *path) {
  static const char *const known[] = {"name", "elf", "id", "loader", NULL};
  scp_sol_scn_program *p = &s->programs[i];
  const char *name, *elf, *loader;
  p->same_file = i;
  if (!json_is_object(j)) return bad(l, path, "a program is an object");
  int rc = scp_json_check_keys(j, known, l->file, path, l->err);
  if (!rc) rc = str_of(l, j, "name", path, &name);
  if (!rc) rc = str_of(l, j, "elf", path, &elf);
  if (!rc) rc = str_of(l, j, "loader", path, &loader);
  if (rc) return rc;
  if (!name || !elf) return bad(l, path, "a program needs \"name\" and \"elf\"");
  if (!(p->name = strdup(name)) || !(p->path = join(l, elf))) return nomem(l);
  bool added;
  size_t *first = scp_bmap_put(&l->files, p->path, strlen(p->path), &added);
  if (!first) return nomem(l);
  if (added) {
    *first = i;
    rc = scp_read_file_max(p->path, SCP_MAX_ELF_BYTES, "an sBPF program", &p->elf, &p->len, l->err);
  } else {
    p->same_file = *first;
    p->elf = s->programs[*first].elf;
    p->len = s->programs[*first].len;
  }
  if (rc) return rc;
  if (json_object_get(j, "id")) {
    if ((rc = key_of(l, j, "id", path, p->id))) return rc;
  } else {
    memcpy(p->id, l->default_id, 32);
  }
  if (!loader || !strcmp(loader, "v3")) p->loader = SCP_SOL_LOADER_V3;
  else if (!strcmp(loader, "v2")) p->loader = SCP_SOL_LOADER_V2;
  else if (!strcmp(loader, "v1")) p->loader = SCP_SOL_LOADER_V1;
  else return bad(l, path, "\"loader\" is v1, v2 or v3");
  return SCP_OK;
}

/* The account's index, added as an empty system account when unknown. */
static int account_index(loader_ctx *l, const uint8_t key[32], uint16_t *idx, const char *path) {
  size_t i;
  int rc = scp_sol_state_index(&l->st, key, &i, l->err);
  if (!rc && i >= UINT16_MAX) return bad(l, path, "too many accounts");
  *idx = (uint16_t)i;
  return rc;
}

/* prefix (n bytes) then "[i]": the path of an array element, written
 * without printf (a scenario has hundreds of thousands of them) */
static void elem_path(char *out, size_t cap, const char *prefix, size_t n, size_t i) {
  char d[24];
  size_t k = 0;
  do d[k++] = (char)('0' + i % 10); while ((i /= 10));
  if (n + k + 3 > cap) n = cap - k - 3;
  memcpy(out, prefix, n);
  out[n++] = '[';
  while (k) out[n++] = d[--k];
  out[n++] = ']';
  out[n] = 0;
}

static bool sol_scn_builtin(const char *prog, scp_sol_scn_ix *x);

/* The instruction's program: a name of "programs", or in a transaction a
 * builtin or a program deployed in "accounts", by its id. */
static int ix_program(loader_ctx *l, scp_sol_scenario *s, const json_t *j, scp_sol_scn_ix *x,
                      const char *path, const char **prog) {
  int rc = str_of(l, j, "program", path, prog);
  if (rc) return rc;
  if (!*prog) return bad(l, path, "an instruction needs \"program\"");
  if (s->ntx && sol_scn_builtin(*prog, x)) return SCP_OK;
  const size_t *named = scp_bmap_get(&l->programs, *prog, strlen(*prog));
  if (named) {
    x->program = *named;
    memcpy(x->program_id, s->programs[x->program].id, 32);
    return SCP_OK;
  }
  if (scp_sol_key_parse(*prog, strlen(*prog), x->program_id)) {
    x->program = SIZE_MAX;   /* deployed in "accounts", found when it runs */
    return SCP_OK;
  }
  return bad(l, path, s->ntx ? "\"program\" is not in \"programs\", a builtin or a public key"
                             : "\"program\" is not in \"programs\" or a public key");
}

/* "cu_limit" (1 to the runtime's 1,400,000) and "heap" (1 to 256 KiB) */
static int ix_limits(loader_ctx *l, const json_t *j, scp_sol_scn_ix *x, const char *path) {
  const json_t *cu = json_object_get(j, "cu_limit"), *heap = json_object_get(j, "heap");
  uint64_t v;
  if (cu && (!scp_json_u64(cu, &v) || !v || v > SCP_SOL_TX_MAX_CU))
    return bad(l, path, "\"cu_limit\" is an integer from 1 to 1400000");
  x->cu_limit = cu ? v : 0;
  if (heap && (!scp_json_u64(heap, &v) || !v || v > 262144))
    return bad(l, path, "\"heap\" is an integer from 1 to 262144");
  x->heap = heap ? (uint32_t)v : 0;
  return SCP_OK;
}

static int ix_accounts(loader_ctx *l, const json_t *accts, scp_sol_scn_ix *x, const char *path) {
  static const char *const known[] = {"pubkey", "signer", "writable", NULL};
  size_t n = json_array_size(accts);
  char p[160];
  int rc;
  char prefix[160];
  size_t plen = strlen(path);
  if (plen > sizeof prefix - 10) plen = sizeof prefix - 10;
  memcpy(prefix, path, plen);
  memcpy(prefix + plen, ".accounts", 10);
  plen += 9;
  memcpy(p, prefix, plen + 1);
  if (accts && !json_is_array(accts)) return bad(l, p, "an instruction's \"accounts\" is an array");
  if (!(x->accts = calloc(n ? n : 1, sizeof *x->accts))) return nomem(l);
  for (size_t i = 0; i < n; i++) {
    const json_t *e = json_array_get(accts, i);
    elem_path(p, sizeof p, prefix, plen, i);
    uint8_t key[32];
    if (!json_is_object(e)) return bad(l, p, "an account is an object");
    if ((rc = scp_json_check_keys(e, known, l->file, p, l->err)) || (rc = key_of(l, e, "pubkey", p, key)) ||
        (rc = account_index(l, key, &x->accts[i].index, p)) ||
        (rc = bool_of(l, e, "signer", p, false, &x->accts[i].signer)) ||
        (rc = bool_of(l, e, "writable", p, false, &x->accts[i].writable)))
      return rc;
  }
  x->naccts = n;
  /* the message gives each account the union of its flags: gathered per
   * account, handed back, then cleared for the next instruction */
  size_t had = l->flags_cap;
  if (!scp_grow(&l->flags, &l->flags_cap, l->st.n, 1)) return nomem(l);
  if (l->flags_cap > had) memset(l->flags + had, 0, l->flags_cap - had);
  for (size_t i = 0; i < n; i++)
    l->flags[x->accts[i].index] |= (uint8_t)(x->accts[i].signer | x->accts[i].writable << 1);
  for (size_t i = 0; i < n; i++) {
    uint8_t f = l->flags[x->accts[i].index];
    x->accts[i].signer = f & 1;
    x->accts[i].writable = f >> 1 & 1;
  }
  for (size_t i = 0; i < n; i++) l->flags[x->accts[i].index] = 0;
  return SCP_OK;
}

static int load_ix(loader_ctx *l, scp_sol_scenario *s, const json_t *j, scp_sol_scn_ix *x, const char *path) {
  static const char *const known[] = {"program", "data", "accounts", "cu_limit", "heap", "profile", "label", NULL};
  const char *prog, *label;
  if (!json_is_object(j)) return bad(l, path, "an instruction is an object");
  int rc = scp_json_check_keys(j, known, l->file, path, l->err);
  if (!rc) rc = ix_program(l, s, j, x, path, &prog);
  if (!rc) rc = data_of(l, j, path, &x->data, &x->len);
  if (!rc) rc = ix_limits(l, j, x, path);
  if (!rc) rc = bool_of(l, j, "profile", path, true, &x->profile);
  if (!rc) rc = str_of(l, j, "label", path, &label);
  if (rc) return rc;
  if (!(x->label = strdup(label ? label : x->program == SIZE_MAX ? prog : s->programs[x->program].name)))
    return nomem(l);
  x->label_given = label != NULL;
  return ix_accounts(l, json_object_get(j, "accounts"), x, path);
}

/* ---- "transactions": flattened into one instruction list, each
 * instruction tagged with its transaction ---- */

static bool sol_scn_builtin(const char *prog, scp_sol_scn_ix *x) {
  if (strcmp(prog, "system") && strcmp(prog, "compute_budget")) return false;
  x->program = SIZE_MAX;
  scp_sol_key_parse(strcmp(prog, "system") ? "ComputeBudget111111111111111111111111111111"
                                           : "11111111111111111111111111111111",
                    strcmp(prog, "system") ? 43 : 32, x->program_id);
  return true;
}

/* Each transaction's label, and the number of instructions of all. */
static int tx_shape(loader_ctx *l, const json_t *txs, scp_sol_scenario *s, size_t *nix) {
  static const char *const known[] = {"label", "fee_payer", "profile", "instructions", NULL};
  size_t n = json_array_size(txs);
  char p[64];
  *nix = 0;
  if (!json_is_array(txs) || !n) return bad(l, "transactions", "a non-empty array");
  if (!(s->tx_labels = calloc(n, sizeof *s->tx_labels)) || !(s->tx_fee_payer = calloc(n, sizeof *s->tx_fee_payer)) ||
      !(s->tx_has_fee_payer = calloc(n, 1)))
    return nomem(l);
  for (size_t t = 0; t < n; t++) {
    const json_t *tx = json_array_get(txs, t), *ixs = json_object_get(tx, "instructions");
    const char *label;
    char def[32];
    snprintf(p, sizeof p, "transactions[%zu]", t);
    if (!json_is_object(tx)) return bad(l, p, "a transaction is an object");
    int rc = scp_json_check_keys(tx, known, l->file, p, l->err);
    if (!rc) rc = str_of(l, tx, "label", p, &label);
    if (rc) return rc;
    snprintf(def, sizeof def, "tx%zu", t + 1);
    if (!(s->tx_labels[s->ntx++] = strdup(label ? label : def))) return nomem(l);
    if (!json_is_array(ixs) || !json_array_size(ixs))
      return bad(l, p, "a transaction needs a non-empty \"instructions\" array");
    const json_t *pf = json_object_get(tx, "profile");
    if (pf && !json_is_boolean(pf)) return bad(l, p, "\"profile\" is true or false");
    const json_t *fp = json_object_get(tx, "fee_payer");
    const char *fps = json_string_value(fp);
    if (fp && (!fps || !scp_sol_key_parse(fps, strlen(fps), s->tx_fee_payer[t])))
      return bad(l, p, "\"fee_payer\" is a base58 public key");
    s->tx_has_fee_payer[t] = fp != NULL;
    *nix += json_array_size(ixs);
  }
  return SCP_OK;
}

/* "accounts": entries of the scenario's own form or any form of
 * scp_sol_state.h, or strings naming account files or folders. */
static int load_accounts(loader_ctx *l, const json_t *accts) {
  char p[64];
  if (!accts) return SCP_OK;
  if (!json_is_array(accts)) return bad(l, "accounts", "an array");
  for (size_t i = 0; i < json_array_size(accts); i++) {
    const json_t *e = json_array_get(accts, i);
    snprintf(p, sizeof p, "accounts[%zu]", i);
    size_t had = l->st.n;
    int rc = json_is_string(e) ? scp_sol_state_load(&l->st, json_string_value(e), l->dir, l->err)
                               : scp_sol_state_add_json(&l->st, e, l->file, l->dir, p, true, l->err);
    if (rc) return rc;
    /* the scenario's own entry of an address already read, same contents or not */
    if (l->st.n == had && json_object_get(e, "pubkey") && !json_object_get(e, "account"))
      return bad(l, p, "an account is listed twice");
  }
  if (l->st.n > UINT16_MAX) return bad(l, "accounts", "too many accounts");
  return SCP_OK;
}

static int load_programs(loader_ctx *l, const json_t *progs, scp_sol_scenario *s) {
  size_t np = json_array_size(progs);
  char p[64];
  if (!json_is_array(progs)) return bad(l, "programs", "an array");
  if (!(s->programs = calloc(np ? np : 1, sizeof *s->programs))) return nomem(l);
  for (; s->nprograms < np; s->nprograms++) {
    scp_sol_scn_program *pr = &s->programs[s->nprograms];
    elem_path(p, sizeof p, "programs", 8, s->nprograms);
    int rc = load_program(l, json_array_get(progs, s->nprograms), s, s->nprograms, p);
    if (rc) {
      s->nprograms++;   /* what it holds is freed with the rest */
      return rc;
    }
    bool added;
    size_t *v = scp_bmap_put(&l->programs, pr->name, strlen(pr->name), &added);
    if (!v) return nomem(l);
    if (added) *v = s->nprograms;   /* the first of a name is the one called */
  }
  return SCP_OK;
}

static int load_all(loader_ctx *l, const json_t *root, scp_sol_scenario *s) {
  if (!json_is_object(root)) return bad(l, "", "a scenario is a JSON object");
  int rc = scp_json_check_keys(root, TOP_KEYS, l->file, "", l->err);
  if (rc) return rc;
  const json_t *ixs = json_object_get(root, "instructions"), *txs = json_object_get(root, "transactions");
  if (ixs && txs) return bad(l, "", "\"instructions\" or \"transactions\", not both");
  if (!ixs && !txs) return bad(l, "", "no \"instructions\" or \"transactions\"");
  if (!json_object_get(root, "programs")) return bad(l, "", "no \"programs\"");
  size_t nx = json_array_size(ixs);
  if (txs && (rc = tx_shape(l, txs, s, &nx))) return rc;
  if (ixs && !json_is_array(ixs)) return bad(l, "instructions", "an array");
  if ((rc = load_programs(l, json_object_get(root, "programs"), s)) ||
      (rc = load_accounts(l, json_object_get(root, "accounts"))))
    return rc;
  if (!(s->ixs = calloc(nx ? nx : 1, sizeof *s->ixs))) return nomem(l);
  char p[96];
  for (size_t t = 0; t < (txs ? s->ntx : 1); t++) {
    const json_t *list = txs ? json_object_get(json_array_get(txs, t), "instructions") : ixs;
    for (size_t i = 0; i < json_array_size(list); i++) {
      if (txs) snprintf(p, sizeof p, "transactions[%zu].instructions[%zu]", t, i);
      else elem_path(p, sizeof p, "instructions", 12, i);
      scp_sol_scn_ix *x = &s->ixs[s->nixs++];
      x->tx = txs ? t : s->nixs - 1;
      if ((rc = load_ix(l, s, json_array_get(list, i), x, p))) return rc;
      /* a transaction's "profile" is each of its instructions' */
      const json_t *pf = txs ? json_object_get(json_array_get(txs, t), "profile") : NULL;
      if (pf) x->profile = json_is_true(pf);
    }
  }
  return SCP_OK;
}

/* The sysvar cache from the state and "sysvars", and the feature gates
 * from "features"; the sysvar accounts are then rewritten from the cache.
 * An account with no lamports and no data is one an instruction named
 * without giving it: litesvm's sysvar account. */
static int sol_scn_sysvars(loader_ctx *l, const json_t *root, scp_sol_scenario *s) {
  const json_t *sv = json_object_get(root, "sysvars"), *feat = json_object_get(root, "features");
  if (scp_sol_sysvars_init(&s->sysvars)) return nomem(l);
  for (size_t i = 0; i < s->naccounts; i++) {
    if (!s->accounts[i].lamports && !s->accounts[i].len) continue;
    scp_error why = {0};
    int rc = scp_sol_sysvars_from_accounts(&s->sysvars, &s->accounts[i], 1, &why);
    if (rc) return scp_fail(l->err, rc, "%s: %s", l->file, why.msg);
  }
  int rc = sv ? scp_sol_sysvars_json(&s->sysvars, sv, l->file, l->err) : SCP_OK;
  scp_sol_features_default(&s->features);
  if (!rc && feat) rc = scp_sol_features_json(&s->features, feat, l->file, l->err);
  if (!rc && scp_sol_sysvars_to_accounts(&s->sysvars, s->accounts, s->naccounts)) rc = nomem(l);
  return rc;
}

/* A file parsed to say whether it is a Solana scenario, for the load
 * that follows: the command line is sorted by the file's kind first, and
 * a scenario of 1,000 transactions costs as much to parse as some of them
 * to run.  The caller owns it; the library keeps nothing between calls. */
struct scp_sol_scenario_file {
  char *path;
  json_t *root;
};

int scp_sol_scenario_load(const char *path, scp_sol_scenario **out, scp_error *err) {
  return scp_sol_scenario_load_parsed(path, NULL, out, err);
}

int scp_sol_scenario_load_parsed(const char *path, const scp_sol_scenario_file *f, scp_sol_scenario **out,
                                 scp_error *err) {
  *out = NULL;
  json_t *root = f && !strcmp(f->path, path) ? json_incref(f->root) : NULL;
  int rc = root ? SCP_OK : scp_json_load_file(path, SCP_MAX_SCENARIO_BYTES, "a scenario file", &root, err);
  if (rc) return rc;
  scp_sol_scenario *s = calloc(1, sizeof *s);
  char *dir = strdup(path);
  if (!s || !dir) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  else dir[0] = 0;
  loader_ctx l = {.file = path, .dir = dir, .err = err};
  scp_sol_key_parse(DEFAULT_PROGRAM_ID, strlen(DEFAULT_PROGRAM_ID), l.default_id);
  rc = load_all(&l, root, s);
  /* the scenario owns the accounts from here */
  s->accounts = l.st.accts;
  s->naccounts = l.st.n;
  scp_bmap_free(&l.st.index);
  scp_bmap_free(&l.programs);
  scp_bmap_free(&l.files);
  free(l.flags);
  if (!rc) rc = sol_scn_sysvars(&l, root, s);
done:
  json_decref(root);
  free(dir);
  if (rc) scp_sol_scenario_free(s);
  else *out = s;
  return rc;
}

void scp_sol_scenario_free(scp_sol_scenario *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nprograms; i++) {
    free(s->programs[i].name);
    free(s->programs[i].path);
    if (s->programs[i].same_file == i) free(s->programs[i].elf);
  }
  for (size_t i = 0; i < s->naccounts; i++) scp_sol_account_free(&s->accounts[i]);
  for (size_t i = 0; i < s->nixs; i++) {
    free(s->ixs[i].data);
    free(s->ixs[i].accts);
    free(s->ixs[i].label);
  }
  for (size_t i = 0; i < s->ntx; i++) free(s->tx_labels[i]);
  free(s->tx_labels);
  free(s->tx_fee_payer);
  free(s->tx_has_fee_payer);
  free(s->programs);
  free(s->accounts);
  free(s->ixs);
  scp_sol_sysvars_free(&s->sysvars);
  free(s);
}

bool scp_sol_scenario_probe(const char *path, scp_sol_scenario_file **out) {
  if (out) *out = NULL;
  json_t *root = NULL;
  /* over the limit or not JSON: the Soroban loader says why */
  scp_json_load_file(path, SCP_MAX_SCENARIO_BYTES, "a scenario file", &root, NULL);
  bool yes = root && json_object_get(root, "programs") != NULL;
  scp_sol_scenario_file *f = yes && out ? calloc(1, sizeof *f) : NULL;
  if (f && (f->path = strdup(path))) {
    f->root = root;
    *out = f;
    return yes;
  }
  /* out of memory for the handle: still a yes, and the load reads the file */
  free(f);
  json_decref(root);
  return yes;
}

void scp_sol_scenario_file_free(scp_sol_scenario_file *f) {
  if (!f) return;
  free(f->path);
  json_decref(f->root);
  free(f);
}

bool scp_sol_scenario_is(const char *path) { return scp_sol_scenario_probe(path, NULL); }
