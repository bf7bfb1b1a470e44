/* sol_scenario.c — Solana scenario files (format in scp_sol_scenario.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_scenario.h"
#include "util/scp_util.h"

#define DEFAULT_PROGRAM_ID "ScprofProgram111111111111111111111111111111"

/* Programs and accounts are found through maps: a scenario of 100,000
 * instructions each naming accounts would otherwise compare every key
 * with every account read so far. */
typedef struct loader_ctx {
  const char *file;     /* the scenario, for messages */
  const char *dir;      /* its folder, for relative paths */
  scp_error *err;
  scp_bmap programs;    /* program names: index (the first of a name) */
  scp_bmap accounts;    /* account keys: index */
  scp_bmap files;       /* ELF files read: the first program of each */
  uint8_t default_id[32];
  uint8_t *flags;       /* per account, while an instruction's are merged */
  size_t flags_cap;
} loader_ctx;

static int bad(loader_ctx *l, const char *what) {
  return scp_fail(l->err, SCP_ERR_MALFORMED, "%s: %s", l->file, what);
}

static char *join(const loader_ctx *l, const char *rel) {
  size_t n = strlen(l->dir) + strlen(rel) + 2;
  char *p = malloc(n);
  if (!p) return NULL;
  if (rel[0] == '/' || !l->dir[0]) snprintf(p, n, "%s", rel);
  else snprintf(p, n, "%s/%s", l->dir, rel);
  return p;
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* hex, b64:BASE64 or @FILE (relative to the scenario) */
static int data_of(loader_ctx *l, const char *s, const char *what, uint8_t **out, size_t *len) {
  static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t n = strlen(s), k = 0;
  *out = NULL;
  *len = 0;
  if (s[0] == '@') {
    char *p = join(l, s + 1);
    if (!p) return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
    int rc = scp_read_file_max(p, SCP_MAX_DATA_BYTES, "instruction or account data", out, len,
                               l->err);
    free(p);
    return rc;
  }
  uint8_t *b = malloc(n + 1);
  if (!b) return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  if (!strncmp(s, "b64:", 4)) {
    uint32_t acc = 0;
    unsigned bits = 0;
    for (const char *p = s + 4; *p && *p != '='; p++) {
      const char *q = strchr(B64, *p);
      if (!q) goto fail;
      acc = acc << 6 | (uint32_t)(q - B64);
      bits += 6;
      if (bits >= 8) b[k++] = (uint8_t)(acc >> (bits -= 8));
    }
  } else {
    if (n % 2) goto fail;
    for (size_t i = 0; i < n; i += 2) {
      int hi = hexval(s[i]), lo = hexval(s[i + 1]);
      if (hi < 0 || lo < 0) goto fail;
      b[k++] = (uint8_t)(hi << 4 | lo);
    }
  }
  *out = b;
  *len = k;
  return SCP_OK;
fail:
  free(b);
  return scp_fail(l->err, SCP_ERR_MALFORMED, "%s: %s: '%s' is not hex, b64:BASE64 or @FILE", l->file,
                  what, s);
}

static int key_of(loader_ctx *l, json_t *v, const char *what, uint8_t key[32]) {
  const char *s = json_string_value(v);
  if (s && scp_sol_key_parse(s, strlen(s), key)) return SCP_OK;
  return scp_fail(l->err, SCP_ERR_MALFORMED, "%s: %s: not a base58 public key", l->file, what);
}

/* Program i of s; a file named before is not read again: its bytes are
 * shared. */
static int load_program(loader_ctx *l, json_t *j, scp_sol_scenario *s, size_t i) {
  scp_sol_scn_program *p = &s->programs[i];
  const char *name = json_string_value(json_object_get(j, "name"));
  const char *elf = json_string_value(json_object_get(j, "elf"));
  const char *loader = json_string_value(json_object_get(j, "loader"));
  json_t *id = json_object_get(j, "id");
  p->same_file = i;
  if (!name || !elf) return bad(l, "a program needs \"name\" and \"elf\"");
  if (!(p->name = strdup(name)) || !(p->path = join(l, elf)))
    return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  bool added;
  size_t *first = scp_bmap_put(&l->files, p->path, strlen(p->path), &added);
  if (!first) return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  int rc = SCP_OK;
  if (added) {
    *first = i;
    rc = scp_read_file_max(p->path, SCP_MAX_ELF_BYTES, "an sBPF program", &p->elf, &p->len, l->err);
  } else {
    p->same_file = *first;
    p->elf = s->programs[*first].elf;
    p->len = s->programs[*first].len;
  }
  if (rc) return rc;
  if (id) {
    if ((rc = key_of(l, id, "program id", p->id))) return rc;
  } else {
    memcpy(p->id, l->default_id, 32);
  }
  if (!loader || !strcmp(loader, "v3")) p->loader = SCP_SOL_LOADER_V3;
  else if (!strcmp(loader, "v2")) p->loader = SCP_SOL_LOADER_V2;
  else if (!strcmp(loader, "v1")) p->loader = SCP_SOL_LOADER_V1;
  else return bad(l, "\"loader\" is v1, v2 or v3");
  return SCP_OK;
}

static int load_account(loader_ctx *l, json_t *j, scp_sol_account *a) {
  int rc = key_of(l, json_object_get(j, "pubkey"), "account pubkey", a->key);
  if (rc) return rc;
  json_t *owner = json_object_get(j, "owner");
  if (owner && (rc = key_of(l, owner, "account owner", a->owner))) return rc;
  json_t *lam = json_object_get(j, "lamports");
  if (lam && (!json_is_integer(lam) || json_integer_value(lam) < 0))
    return bad(l, "\"lamports\" is a non-negative integer");
  a->lamports = lam ? (uint64_t)json_integer_value(lam) : 0;
  a->executable = json_is_true(json_object_get(j, "executable"));
  const char *data = json_string_value(json_object_get(j, "data"));
  return data_of(l, data ? data : "", "account data", &a->data, &a->len);
}

/* The account's index, added as an empty system account when unknown. */
static int account_index(loader_ctx *l, scp_sol_scenario *s, size_t *cap, const uint8_t key[32],
                         uint16_t *idx) {
  const size_t *known = scp_bmap_get(&l->accounts, key, 32);
  if (known) {
    *idx = (uint16_t)*known;
    return SCP_OK;
  }
  if (s->naccounts >= UINT16_MAX) return bad(l, "too many accounts");
  bool added;
  size_t *v = scp_bmap_put(&l->accounts, key, 32, &added);
  if (!v || !scp_grow(&s->accounts, cap, s->naccounts + 1, sizeof *s->accounts))
    return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  *v = s->naccounts;
  scp_sol_account *a = &s->accounts[s->naccounts];
  memset(a, 0, sizeof *a);
  memcpy(a->key, key, 32);
  if (!(a->data = malloc(1))) return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  *idx = (uint16_t)s->naccounts++;
  return SCP_OK;
}

static bool sol_scn_builtin(const char *prog, scp_sol_scn_ix *x);

static int load_ix(loader_ctx *l, scp_sol_scenario *s, size_t *acap, json_t *j, scp_sol_scn_ix *x) {
  const char *prog = json_string_value(json_object_get(j, "program"));
  if (!prog) return bad(l, "an instruction needs \"program\"");
  if (s->ntx && sol_scn_builtin(prog, x)) goto builtin;
  const size_t *named = scp_bmap_get(&l->programs, prog, strlen(prog));
  x->program = named ? *named : s->nprograms;
  if (x->program == s->nprograms) {
    /* in a transaction: a program deployed in "accounts", by its id */
    if (s->ntx && scp_sol_key_parse(prog, strlen(prog), x->program_id)) {
      x->program = SIZE_MAX;
      goto builtin;
    }
    return bad(l, "an instruction names a program not in \"programs\"");
  }
  memcpy(x->program_id, s->programs[x->program].id, 32);
builtin:;
  const char *data = json_string_value(json_object_get(j, "data"));
  int rc = data_of(l, data ? data : "", "instruction data", &x->data, &x->len);
  if (rc) return rc;
  json_t *cu = json_object_get(j, "cu_limit"), *heap = json_object_get(j, "heap");
  if ((cu && (!json_is_integer(cu) || json_integer_value(cu) <= 0)) ||
      (heap && (!json_is_integer(heap) || json_integer_value(heap) <= 0 ||
                json_integer_value(heap) > 262144)))
    return bad(l, "\"cu_limit\" and \"heap\" are positive integers");
  x->cu_limit = cu ? (uint64_t)json_integer_value(cu) : 0;
  x->heap = heap ? (uint32_t)json_integer_value(heap) : 0;
  json_t *pf = json_object_get(j, "profile");
  x->profile = !pf || json_is_true(pf);
  const char *label = json_string_value(json_object_get(j, "label"));
  if (!(x->label = strdup(label ? label : x->program == SIZE_MAX ? prog : s->programs[x->program].name)))
    return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  json_t *accts = json_object_get(j, "accounts");
  size_t n = json_array_size(accts);
  if (accts && !json_is_array(accts)) return bad(l, "an instruction's \"accounts\" is an array");
  if (!(x->accts = calloc(n ? n : 1, sizeof *x->accts))) return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) {
    json_t *e = json_array_get(accts, i);
    uint8_t key[32];
    if ((rc = key_of(l, json_object_get(e, "pubkey"), "instruction account pubkey", key)) ||
        (rc = account_index(l, s, acap, key, &x->accts[i].index)))
      return rc;
    x->accts[i].signer = json_is_true(json_object_get(e, "signer"));
    x->accts[i].writable = json_is_true(json_object_get(e, "writable"));
  }
  x->naccts = n;
  /* the message gives each account the union of its flags: gathered per
   * account, handed back, then cleared for the next instruction */
  size_t had = l->flags_cap;
  if (!scp_grow(&l->flags, &l->flags_cap, s->naccounts, 1))
    return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
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

/* The flat list becomes root's "instructions", so root owns it. */
static int sol_scn_transactions(loader_ctx *l, json_t *root, json_t *txs, scp_sol_scenario *s,
                                json_t **flat) {
  size_t n = json_array_size(txs);
  if (!json_is_array(txs) || !n) return bad(l, "\"transactions\" is a non-empty array");
  if (!(s->tx_labels = calloc(n, sizeof *s->tx_labels)) || !(*flat = json_array()) ||
      json_object_set_new(root, "instructions", *flat))
    return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t t = 0; t < n; t++) {
    json_t *tx = json_array_get(txs, t), *ixs = json_object_get(tx, "instructions");
    json_t *pf = json_object_get(tx, "profile");
    if (pf && !json_is_boolean(pf)) return bad(l, "a transaction's \"profile\" is true or false");
    const char *label = json_string_value(json_object_get(tx, "label"));
    char def[32];
    snprintf(def, sizeof def, "tx%zu", t + 1);
    if (!(s->tx_labels[s->ntx++] = strdup(label ? label : def))) goto oom;
    if (!json_is_array(ixs) || !json_array_size(ixs))
      return bad(l, "a transaction needs a non-empty \"instructions\" array");
    for (size_t i = 0; i < json_array_size(ixs); i++) {
      json_t *ix = json_deep_copy(json_array_get(ixs, i));
      if (!ix || !json_is_object(ix)) {
        json_decref(ix);
        return bad(l, "an instruction is an object");
      }
      /* the transaction's "profile" is each of its instructions' */
      if ((pf && json_object_set(ix, "profile", pf)) ||
          json_object_set_new(ix, "tx", json_integer((json_int_t)t))) {
        json_decref(ix);
        goto oom;
      }
      if (json_array_append_new(*flat, ix)) goto oom;
    }
  }
  return SCP_OK;
oom:
  return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
}

static int load_all(loader_ctx *l, json_t *root, scp_sol_scenario *s) {
  json_t *progs = json_object_get(root, "programs"), *accts = json_object_get(root, "accounts"),
         *ixs = json_object_get(root, "instructions");
  json_t *txs = json_object_get(root, "transactions");
  if (txs && !ixs) {
    int rc = sol_scn_transactions(l, root, txs, s, &ixs);
    if (rc) return rc;
  }
  if (!json_is_array(progs) || !json_is_array(ixs) || (accts && !json_is_array(accts)))
    return bad(l, "want arrays \"programs\", \"instructions\" and optionally \"accounts\"");
  size_t np = json_array_size(progs), na = json_array_size(accts), nx = json_array_size(ixs), acap = na;
  s->programs = calloc(np ? np : 1, sizeof *s->programs);
  s->accounts = calloc(na ? na : 1, sizeof *s->accounts);
  s->ixs = calloc(nx ? nx : 1, sizeof *s->ixs);
  if (!s->programs || !s->accounts || !s->ixs) return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
  acap = na ? na : 1;
  int rc;
  bool added;
  for (; s->nprograms < np; s->nprograms++) {
    scp_sol_scn_program *p = &s->programs[s->nprograms];
    if ((rc = load_program(l, json_array_get(progs, s->nprograms), s, s->nprograms))) {
      s->nprograms++;   /* what it holds is freed with the rest */
      return rc;
    }
    size_t *v = scp_bmap_put(&l->programs, p->name, strlen(p->name), &added);
    if (!v) return scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
    if (added) *v = s->nprograms;   /* the first of a name is the one called */
  }
  for (; s->naccounts < na; s->naccounts++) {
    scp_sol_account *a = &s->accounts[s->naccounts];
    if ((rc = load_account(l, json_array_get(accts, s->naccounts), a))) {
      s->naccounts++;   /* its partial data is freed with the rest */
      return rc;
    }
    size_t *v = scp_bmap_put(&l->accounts, a->key, 32, &added);
    if (!v || !added) {
      s->naccounts++;
      return v ? bad(l, "an account is listed twice") : scp_fail(l->err, SCP_ERR_NOMEM, "out of memory");
    }
    *v = s->naccounts;
  }
  for (; s->nixs < nx; s->nixs++) {
    s->ixs[s->nixs].tx = s->ntx ? (size_t)json_integer_value(json_object_get(json_array_get(ixs, s->nixs), "tx")) : s->nixs;
    if ((rc = load_ix(l, s, &acap, json_array_get(ixs, s->nixs), &s->ixs[s->nixs]))) {
      s->nixs++;
      return rc;
    }
  }
  return SCP_OK;
}

/* The scenario file's JSON, read whole under the scenario size limit
 * before jansson parses it (a huge file is refused before it is read). */
static int load_json(const char *path, size_t flags, json_t **root, scp_error *err) {
  uint8_t *text = NULL;
  size_t len = 0;
  json_error_t je;
  *root = NULL;
  int rc = scp_read_file_max(path, SCP_MAX_SCENARIO_BYTES, "a scenario file", &text, &len, err);
  if (rc) return rc;
  *root = json_loadb((const char *)text, len, flags, &je);
  free(text);
  return *root ? SCP_OK : scp_fail(err, SCP_ERR_MALFORMED, "%s:%d: %s", path, je.line, je.text);
}

int scp_sol_scenario_load(const char *path, scp_sol_scenario **out, scp_error *err) {
  *out = NULL;
  json_t *root;
  int rc = load_json(path, JSON_REJECT_DUPLICATES, &root, err);
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
  scp_bmap_free(&l.programs);
  scp_bmap_free(&l.accounts);
  scp_bmap_free(&l.files);
  free(l.flags);
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
  free(s->programs);
  free(s->accounts);
  free(s->ixs);
  free(s);
}

bool scp_sol_scenario_is(const char *path) {
  json_t *root;
  /* over the limit or not JSON: the Soroban loader says why */
  load_json(path, 0, &root, NULL);
  bool yes = root && json_object_get(root, "programs") != NULL;
  json_decref(root);
  return yes;
}
