/* sol_state.c — account state files (formats in scp_sol_state.h). */
#include "solana/scp_sol_state.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/scp_codec.h"
#include "util/scp_json.h"

/* a Seashell cache or a folder of dumps may be large once inflated */
#define MAX_INFLATED (256u << 20)

typedef struct src {
  const char *file;            /* for messages */
  const char *dir;             /* for a scenario's @FILE data */
  const uint8_t (*keys)[32];   /* ADDR,...= of the spec */
  size_t nkeys;
  bool named;                  /* the file is named ADDR.json: keys[0] */
  bool scenario;
  scp_error *err;
} src;

static int nomem(const src *s) { return scp_fail(s->err, SCP_ERR_NOMEM, "out of memory"); }

static void sub(char *out, size_t cap, const char *path, const char *key) {
  snprintf(out, cap, "%s%s%s", path, *path ? "." : "", key);
}

static void at(char *out, size_t cap, const char *path, size_t i) {
  snprintf(out, cap, "%s[%zu]", path, i);
}

static int key_at(const src *s, const json_t *v, const char *path, uint8_t key[32]) {
  const char *t = json_string_value(v);
  if (t && scp_sol_key_parse(t, json_string_length(v), key)) return SCP_OK;
  return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: not a base58 public key", s->file, path);
}

static int u64_at(const src *s, const json_t *v, const char *path, uint64_t *out) {
  if (scp_json_u64(v, out)) return SCP_OK;
  return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: not an integer from 0 to 18446744073709551615",
                  s->file, path);
}

/* [TEXT, ENCODING] as the CLI and the RPC write account data. */
static int data_pair(const src *s, const json_t *v, const char *path, scp_sol_account *a) {
  const char *text = json_string_value(json_array_get(v, 0));
  const char *enc = json_string_value(json_array_get(v, 1));
  if (json_array_size(v) != 2 || !text || !enc)
    return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: want [TEXT, ENCODING]", s->file, path);
  size_t n = json_string_length(json_array_get(v, 0));
  bool ok, oom = false;
  if (!strcmp(enc, "base64")) {
    ok = scp_b64_decode(text, n, true, &a->data, &a->len, &oom);
  } else if (!strcmp(enc, "base58")) {
    ok = scp_b58_decode(text, n, &a->data, &a->len, &oom);
  } else if (!strcmp(enc, "base64+zstd")) {
    uint8_t *z = NULL;
    size_t zn = 0;
    ok = scp_b64_decode(text, n, true, &z, &zn, &oom);
    const char *why = ok ? scp_unzstd(z, zn, SCP_SOL_MAX_PERMITTED_DATA_LENGTH, &a->data, &a->len) : NULL;
    free(z);
    if (why) return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: base64+zstd data: %s", s->file, path, why);
  } else {
    return scp_fail(s->err, SCP_ERR_MALFORMED,
                    "%s: %s: encoding \"%.40s\" is not base64, base58 or base64+zstd", s->file, path, enc);
  }
  if (oom) return nomem(s);
  if (!ok)
    return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: not %s text%s", s->file, path, enc,
                    !strcmp(enc, "base58") && n > SCP_B58_MAX_TEXT ? " of at most 8192 characters" : "");
  if (a->len > SCP_SOL_MAX_PERMITTED_DATA_LENGTH)
    return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: %zu bytes, over the runtime's 10 MiB account limit",
                    s->file, path, a->len);
  return SCP_OK;
}

/* Whether raw data read for @FILE is rather one of the account files:
 * taken as bytes, the JSON text would silently be the account's data. */
static bool looks_like_state(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t')) i++;
  if (i == n || (p[i] != '{' && p[i] != '[')) return false;
  json_t *v = NULL;
  if (scp_json_parse(p, n, "", &v, NULL)) return false;
  const json_t *o = json_is_array(v) ? json_array_get(v, 0) : v;
  bool yes = json_object_get(o, "account") || json_object_get(o, "value") || json_object_get(o, "result") ||
             json_object_get(o, "lamports");
  json_decref(v);
  return yes;
}

int scp_sol_data_parse(const char *t, size_t n, const char *dir, uint8_t **out, size_t *len,
                       scp_error *err) {
  bool ok, oom = false;
  *out = NULL;
  *len = 0;
  if (t[0] == '@') {
    dir = dir ? dir : "";
    size_t need = strlen(dir) + n + 2;
    char *p = malloc(need);
    if (!p) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    if (t[1] == '/' || !dir[0]) snprintf(p, need, "%.*s", (int)(n - 1), t + 1);
    else snprintf(p, need, "%s/%.*s", dir, (int)(n - 1), t + 1);
    int rc = scp_read_file_max(p, SCP_MAX_DATA_BYTES, "instruction or account data", out, len, err);
    if (!rc && looks_like_state(*out, *len)) {
      free(*out);
      *out = NULL;
      *len = 0;
      rc = scp_fail(err, SCP_ERR_ARG, "%s is an account file (JSON), not the account's bytes: give it with --accounts",
                    p);
    }
    free(p);
    return rc;
  }
  if (!strncmp(t, "b64:", 4)) ok = scp_b64_decode(t + 4, n - 4, false, out, len, &oom);
  else ok = scp_hex_decode(t, n, out, len, &oom);
  if (oom) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (!ok) return scp_fail(err, SCP_ERR_MALFORMED, "'%.60s%s' is not hex, b64:BASE64 or @FILE", t, n > 60 ? "..." : "");
  return SCP_OK;
}

/* A scenario's own data string: hex, b64:BASE64 or @FILE. */
static int data_text(const src *s, const json_t *v, const char *path, scp_sol_account *a) {
  int rc = scp_sol_data_parse(json_string_value(v), json_string_length(v), s->dir, &a->data, &a->len, s->err);
  if (rc == SCP_ERR_MALFORMED && s->err) {
    char m[sizeof s->err->msg];
    snprintf(m, sizeof m, "%.400s", s->err->msg);
    return scp_fail(s->err, rc, "%s: %s: %s", s->file, path, m);
  }
  return rc;
}

typedef enum style { CLI, SEASHELL, SCENARIO } style;

static int data_of(const src *s, const json_t *v, const char *path, style how, scp_sol_account *a) {
  if (json_is_object(v) && json_object_get(v, "parsed"))
    return scp_fail(s->err, SCP_ERR_MALFORMED,
                    "%s: %s: jsonParsed data cannot be profiled; ask the RPC for \"encoding\": \"base64\"",
                    s->file, path);
  if (json_is_array(v) && how != SEASHELL) return data_pair(s, v, path, a);
  if (json_is_string(v) && how == SCENARIO) return data_text(s, v, path, a);
  if (json_is_string(v) && how == SEASHELL) {
    bool oom = false;
    if (scp_hex_decode(json_string_value(v), json_string_length(v), &a->data, &a->len, &oom)) return SCP_OK;
    return oom ? nomem(s) : scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: not hex", s->file, path);
  }
  if (json_is_string(v))
    return scp_fail(s->err, SCP_ERR_MALFORMED,
                    "%s: %s: a bare string is the RPC's legacy binary encoding; ask for \"encoding\": \"base64\"",
                    s->file, path);
  return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: want %s", s->file, path,
                  how == SEASHELL ? "hex text" : how == SCENARIO ? "hex, b64:BASE64, @FILE or [TEXT, ENCODING]"
                                                             : "[TEXT, ENCODING]");
}

/* The fields of one account; key already set.  The dumps must say every
 * field; a scenario's own entries default them. */
static int fields(const src *s, const json_t *o, const char *path, style how, scp_sol_account *a) {
  static const char *const cli[] = {"lamports", "data", "owner", "executable", "rentEpoch", "space", NULL};
  static const char *const sea[] = {"lamports", "data", "owner", "executable", "rent_epoch", NULL};
  static const char *const scn[] = {"pubkey", "lamports", "data", "owner", "executable", "rentEpoch",
                                    "rent_epoch", "space", NULL};
  char p[256];
  if (!json_is_object(o)) return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: an account is an object", s->file, path);
  int rc = scp_json_check_keys(o, how == CLI ? cli : how == SEASHELL ? sea : scn, s->file, path, s->err);
  if (rc) return rc;
  const char *need[] = {"lamports", "data", "owner", "executable"};
  for (size_t i = 0; i < 4 && how != SCENARIO; i++)
    if (!json_object_get(o, need[i]))
      return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: no \"%s\"", s->file, path, need[i]);
  const json_t *v;
  uint64_t u;
  if ((v = json_object_get(o, "lamports"))) {
    sub(p, sizeof p, path, "lamports");
    if ((rc = u64_at(s, v, p, &a->lamports))) return rc;
  }
  if ((v = json_object_get(o, "owner"))) {
    sub(p, sizeof p, path, "owner");
    if ((rc = key_at(s, v, p, a->owner))) return rc;
  }
  if ((v = json_object_get(o, "executable"))) {
    sub(p, sizeof p, path, "executable");
    if (!json_is_boolean(v)) return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: true or false", s->file, p);
    a->executable = json_is_true(v);
  }
  const char *re = json_object_get(o, "rentEpoch") ? "rentEpoch" : "rent_epoch";
  if ((v = json_object_get(o, re))) {
    sub(p, sizeof p, path, re);
    if ((rc = u64_at(s, v, p, &u))) return rc;
  }
  if ((v = json_object_get(o, "data"))) {
    sub(p, sizeof p, path, "data");
    if ((rc = data_of(s, v, p, how, a))) return rc;
  }
  if (!a->data && !(a->data = malloc(1))) return nomem(s);
  if ((v = json_object_get(o, "space"))) {
    sub(p, sizeof p, path, "space");
    if ((rc = u64_at(s, v, p, &u))) return rc;
    if (u != a->len)
      return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: %llu, but the data has %zu bytes", s->file, p,
                      (unsigned long long)u, a->len);
  }
  return SCP_OK;
}

static int put(scp_sol_state *st, scp_sol_account *a, const src *s, const char *path) {
  bool added;
  size_t *v = scp_bmap_put(&st->index, a->key, 32, &added);
  if (!v || (added && !scp_grow(&st->accts, &st->cap, st->n + 1, sizeof *st->accts))) {
    scp_sol_account_free(a);
    return nomem(s);
  }
  if (added) {
    *v = st->n;
    st->accts[st->n++] = *a;
    a->data = NULL;
    a->len = 0;
    return SCP_OK;
  }
  const scp_sol_account *o = &st->accts[*v];
  bool same = o->lamports == a->lamports && !memcmp(o->owner, a->owner, 32) && o->len == a->len &&
              (!a->len || !memcmp(o->data, a->data, a->len)) && o->executable == a->executable;
  scp_sol_account_free(a);
  if (same) return SCP_OK;
  char k[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(o->key, k);
  return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s%saccount %s given twice with different contents",
                  s->file, path, *path ? ": " : "", k);
}

/* One account: its fields read, then kept. */
static int one(scp_sol_state *st, const src *s, const json_t *o, const char *path, style how,
               const uint8_t key[32]) {
  scp_sol_account a = {0};
  memcpy(a.key, key, 32);
  int rc = fields(s, o, path, how, &a);
  if (rc) {
    scp_sol_account_free(&a);
    return rc;
  }
  return put(st, &a, s, path);
}

static int value(scp_sol_state *st, const src *s, const json_t *v, const char *path, const uint8_t *key);

/* {"pubkey", "account"} (the CLI, getProgramAccounts), or with scenario
 * set a scenario's own {"pubkey", "lamports", ...}. */
static int keyed(scp_sol_state *st, const src *s, const json_t *o, const char *path) {
  static const char *const known[] = {"pubkey", "account", NULL};
  char p[256];
  uint8_t key[32];
  sub(p, sizeof p, path, "pubkey");
  int rc = key_at(s, json_object_get(o, "pubkey"), p, key);
  if (rc) return rc;
  if (s->scenario && !json_object_get(o, "account")) return one(st, s, o, path, SCENARIO, key);
  if ((rc = scp_json_check_keys(o, known, s->file, path, s->err))) return rc;
  sub(p, sizeof p, path, "account");
  if (!json_object_get(o, "account")) return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: no \"account\"", s->file, path);
  return one(st, s, json_object_get(o, "account"), p, CLI, key);
}

/* An RPC "value": an account (its address from the spec), null (none), or
 * an array of either (getMultipleAccounts: the spec's addresses in order)
 * or of {"pubkey", "account"} (getProgramAccounts). */
static int rpc_value(scp_sol_state *st, const src *s, const json_t *v, const char *path, const uint8_t *key) {
  char p[256];
  if (json_is_null(v)) return SCP_OK;
  if (json_is_object(v)) {
    if (!key)
      return scp_fail(s->err, SCP_ERR_MALFORMED,
                      "%s: %s: a getAccountInfo reply does not say whose account it is: give ADDR=%s or name "
                      "the file ADDR.json",
                      s->file, path, s->file);
    return one(st, s, v, path, CLI, key);
  }
  if (!json_is_array(v)) return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s: want an account, null or an array", s->file, path);
  size_t n = json_array_size(v);
  bool keyed_all = true;
  for (size_t i = 0; i < n; i++) keyed_all &= json_object_get(json_array_get(v, i), "pubkey") != NULL;
  if (n && keyed_all) return value(st, s, v, path, NULL);
  if (s->nkeys != n || s->named)
    return scp_fail(s->err, SCP_ERR_MALFORMED,
                    "%s: %s: a getMultipleAccounts reply of %zu accounts wants their %zu addresses: give "
                    "ADDR1,ADDR2,...=%s",
                    s->file, path, n, n, s->file);
  for (size_t i = 0; i < n; i++) {
    at(p, sizeof p, path, i);
    int rc = rpc_value(st, s, json_array_get(v, i), p, s->keys[i]);
    if (rc) return rc;
  }
  return SCP_OK;
}

/* Seashell: {PUBKEY: {"lamports", "data": HEX, "owner", "executable",
 * "rent_epoch"}} */
static int seashell(scp_sol_state *st, const src *s, const json_t *o, const char *path) {
  static const char *const known[] = {"pubkey", "account", "context", "value", "jsonrpc", "result", NULL};
  const char *k;
  json_t *v;
  char p[256];
  json_object_foreach((json_t *)o, k, v) {
    uint8_t key[32];
    if (!scp_sol_key_parse(k, strlen(k), key)) return scp_json_check_keys(o, known, s->file, path, s->err);
    sub(p, sizeof p, path, k);
    int rc = one(st, s, v, p, SEASHELL, key);
    if (rc) return rc;
  }
  return SCP_OK;
}

static int value(scp_sol_state *st, const src *s, const json_t *v, const char *path, const uint8_t *key) {
  static const char *const reply[] = {"jsonrpc", "id", "result", NULL};
  static const char *const ctx[] = {"context", "value", NULL};
  char p[256];
  int rc;
  if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); i++) {
      at(p, sizeof p, path, i);
      if ((rc = value(st, s, json_array_get(v, i), p, NULL))) return rc;
    }
    return SCP_OK;
  }
  if (!json_is_object(v)) return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s%swant an object or an array", s->file, path, *path ? ": " : "");
  if (json_object_get(v, "error") && json_object_get(v, "jsonrpc"))
    return scp_fail(s->err, SCP_ERR_MALFORMED, "%s: %s%san RPC error reply, not an account", s->file, path, *path ? ": " : "");
  if (json_object_get(v, "result")) {
    if ((rc = scp_json_check_keys(v, reply, s->file, path, s->err))) return rc;
    sub(p, sizeof p, path, "result");
    const json_t *r = json_object_get(v, "result");
    if (json_is_object(r) && json_object_get(r, "value")) return value(st, s, r, p, key);
    return rpc_value(st, s, r, p, key ? key : s->nkeys == 1 ? s->keys[0] : NULL);
  }
  if (json_object_get(v, "value") || json_object_get(v, "context")) {
    if ((rc = scp_json_check_keys(v, ctx, s->file, path, s->err))) return rc;
    sub(p, sizeof p, path, "value");
    return rpc_value(st, s, json_object_get(v, "value"), p, key ? key : s->nkeys == 1 ? s->keys[0] : NULL);
  }
  if (json_object_get(v, "pubkey")) return keyed(st, s, v, path);
  if (json_object_get(v, "lamports") || json_object_get(v, "owner") || json_object_get(v, "data"))
    return rpc_value(st, s, v, path, key ? key : s->nkeys == 1 ? s->keys[0] : NULL);
  return seashell(st, s, v, path);
}

int scp_sol_state_add_json(scp_sol_state *st, const json_t *v, const char *file, const char *dir,
                           const char *path, bool scenario, scp_error *err) {
  src s = {.file = file, .dir = dir ? dir : "", .keys = NULL, .nkeys = 0, .named = false, .scenario = scenario,
           .err = err};
  return value(st, &s, v, path ? path : "", NULL);
}

/* a dump of a 10 MiB account is 14 MB of base64 */
#define MAX_FILE (64u << 20)

int scp_sol_state_add_bytes(scp_sol_state *st, const uint8_t *bytes, size_t len, const char *name,
                            const uint8_t (*keys)[32], size_t nkeys, scp_error *err) {
  uint8_t *plain = NULL;
  size_t plen = 0;
  if (scp_is_gzip(bytes, len)) {
    const char *why = scp_gunzip(bytes, len, MAX_INFLATED, &plain, &plen);
    if (why) return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s", name, why);
    bytes = plain;
    len = plen;
  }
  json_t *root = NULL;
  int rc = scp_json_parse(bytes, len, name, &root, err);
  free(plain);
  if (rc) return rc;
  src s = {.file = name, .dir = "", .keys = keys, .nkeys = nkeys, .named = false, .scenario = false, .err = err};
  uint8_t named[1][32];
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  if (!nkeys && scp_sol_key_parse(base, strcspn(base, "."), named[0])) {
    s.keys = (const uint8_t(*)[32])named;
    s.nkeys = 1;
    s.named = true;
  }
  rc = value(st, &s, root, "", NULL);
  json_decref(root);
  return rc;
}

static int load_file(scp_sol_state *st, const char *path, const uint8_t (*keys)[32], size_t nkeys,
                     scp_error *err) {
  uint8_t *text = NULL;
  size_t len = 0;
  int rc = scp_read_file_max(path, MAX_FILE, "an account file", &text, &len, err);
  if (rc) return rc;
  rc = scp_sol_state_add_bytes(st, text, len, path, keys, nkeys, err);
  free(text);
  return rc;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of a folder not starting with '.', in name order (the order
 * the accounts are kept in does not depend on the file system). */
static int load_dir(scp_sol_state *st, const char *path, scp_error *err) {
  DIR *d = opendir(path);
  if (!d) return scp_fail(err, SCP_ERR_IO, "%s: cannot read the folder", path);
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = SCP_OK;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    size_t need = strlen(path) + strlen(e->d_name) + 2;
    char *full = malloc(need);
    if (!full || !scp_grow(&names, &cap, n + 1, sizeof *names)) {
      free(full);
      rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
      break;
    }
    snprintf(full, need, "%s/%s", path, e->d_name);
    names[n++] = full;
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n && !rc; i++) {
    struct stat sb;
    if (stat(names[i], &sb) || !S_ISREG(sb.st_mode)) continue;
    rc = load_file(st, names[i], NULL, 0, err);
  }
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

/* "ADDR,ADDR=" in front of a path: the addresses, or 0 when spec has no
 * such prefix (a path may hold '=' itself). */
static size_t spec_keys(const char *spec, uint8_t (**keys)[32], const char **path) {
  const char *eq = strchr(spec, '=');
  *path = spec;
  *keys = NULL;
  if (!eq || eq == spec) return 0;
  size_t n = 1;
  for (const char *p = spec; p < eq; p++) n += *p == ',';
  uint8_t(*k)[32] = calloc(n, 32);
  if (!k) return SIZE_MAX;
  const char *p = spec;
  for (size_t i = 0; i < n; i++) {
    size_t len = strcspn(p, ",=");
    if (!scp_sol_key_parse(p, len, k[i])) {
      free(k);
      return 0;
    }
    p += len + 1;
  }
  *keys = k;
  *path = eq + 1;
  return n;
}

int scp_sol_state_load(scp_sol_state *st, const char *spec, const char *dir, scp_error *err) {
  uint8_t(*keys)[32];
  const char *rel;
  size_t nkeys = spec_keys(spec, &keys, &rel);
  if (nkeys == SIZE_MAX) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  size_t need = (dir ? strlen(dir) : 0) + strlen(rel) + 2;
  char *path = malloc(need);
  if (!path) {
    free(keys);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (rel[0] == '/' || !dir || !dir[0]) snprintf(path, need, "%s", rel);
  else snprintf(path, need, "%s/%s", dir, rel);
  struct stat sb;
  int rc;
  if (stat(path, &sb)) rc = scp_fail(err, SCP_ERR_IO, "%s: no such file or folder", path);
  else if (S_ISDIR(sb.st_mode) && nkeys)
    rc = scp_fail(err, SCP_ERR_ARG, "%s: ADDR=PATH names the accounts of one file, not a folder", spec);
  else if (S_ISDIR(sb.st_mode)) rc = load_dir(st, path, err);
  else rc = load_file(st, path, (const uint8_t(*)[32])keys, nkeys, err);
  free(path);
  free(keys);
  return rc;
}

int scp_sol_state_index(scp_sol_state *st, const uint8_t key[32], size_t *idx, scp_error *err) {
  const size_t *known = scp_bmap_get(&st->index, key, 32);
  if (known) {
    *idx = *known;
    return SCP_OK;
  }
  scp_sol_account a = {0};
  memcpy(a.key, key, 32);
  src s = {.file = "", .dir = "", .keys = NULL, .nkeys = 0, .named = false, .scenario = false, .err = err};
  if (!(a.data = malloc(1))) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  int rc = put(st, &a, &s, "");
  *idx = st->n - 1;
  return rc;
}

int scp_sol_state_add(scp_sol_state *st, scp_sol_account *a, const char *what, scp_error *err) {
  src s = {.file = what, .dir = "", .keys = NULL, .nkeys = 0, .named = false, .scenario = false, .err = err};
  return put(st, a, &s, "");
}

scp_sol_account *scp_sol_state_get(const scp_sol_state *st, const uint8_t key[32]) {
  const size_t *i = scp_bmap_get(&st->index, key, 32);
  return i ? &st->accts[*i] : NULL;
}

void scp_sol_state_free(scp_sol_state *st) {
  for (size_t i = 0; i < st->n; i++) scp_sol_account_free(&st->accts[i]);
  free(st->accts);
  scp_bmap_free(&st->index);
  memset(st, 0, sizeof *st);
}

/* The ELF of program account a (pd: the account its upgradeable state
 * names, when there is one). */
static bool deployed_elf(const scp_sol_account *a, const scp_sol_account *(*find)(const void *, const uint8_t *),
                         const void *where, const uint8_t **elf, size_t *len, scp_sol_loader *loader) {
  static const char *const LOADERS[3] = {"BPFLoader1111111111111111111111111111111111",
                                         "BPFLoader2111111111111111111111111111111111",
                                         "BPFLoaderUpgradeab1e11111111111111111111111"};
  if (!a || !a->executable) return false;
  for (int l = 0; l < 3; l++) {
    uint8_t k[32];
    scp_sol_key_parse(LOADERS[l], strlen(LOADERS[l]), k);
    if (memcmp(k, a->owner, 32)) continue;
    *loader = (scp_sol_loader)(l + 1);
    if (l < 2) {
      *elf = a->data;
      *len = a->len;
      return true;
    }
    /* UpgradeableLoaderState::Program { programdata_address }, and the
     * ProgramData account's 45-byte header (tag 3, slot, authority) */
    const scp_sol_account *pd = a->len >= 36 && a->data[0] == 2 ? find(where, a->data + 4) : NULL;
    if (!pd || pd->len <= 45 || pd->data[0] != 3) return false;
    *elf = pd->data + 45;
    *len = pd->len - 45;
    return true;
  }
  return false;
}

static const scp_sol_account *in_state(const void *st, const uint8_t *key) { return scp_sol_state_get(st, key); }

bool scp_sol_state_program(const scp_sol_state *st, const uint8_t id[32], const uint8_t **elf,
                           size_t *len, scp_sol_loader *loader) {
  return deployed_elf(scp_sol_state_get(st, id), in_state, st, elf, len, loader);
}

typedef struct array { const scp_sol_account *a; size_t n; } array;

static const scp_sol_account *in_array(const void *arr, const uint8_t *key) {
  const array *x = arr;
  for (size_t i = 0; i < x->n; i++)
    if (!memcmp(x->a[i].key, key, 32)) return &x->a[i];
  return NULL;
}

bool scp_sol_program_in(const scp_sol_account *accts, size_t n, const uint8_t id[32], const uint8_t **elf,
                        size_t *len, scp_sol_loader *loader) {
  array x = {.a = accts, .n = n};
  return deployed_elf(in_array(&x, id), in_array, &x, elf, len, loader);
}
