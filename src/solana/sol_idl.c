/* sol_idl.c — Anchor IDLs read for instruction names (scp_sol_idl.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_idl.h"
#include "solana/sol_sys.h"
#include "util/scp_json.h"

#define MAX_IDL_BYTES (16u << 20)
#define MAX_DISC 32u

typedef struct idl_ix {
  uint8_t id[32];
  uint8_t disc[MAX_DISC];
  size_t ndisc;
  char *name;
} idl_ix;

struct scp_sol_idls {
  idl_ix *v;
  size_t n, cap;
};

void scp_sol_idl_snake(const char *name, char *out, size_t cap) {
  size_t at = 0;
  bool sep = false;   /* a word boundary is pending */
  for (size_t i = 0; name[i] && at + 2 < cap; i++) {
    unsigned char c = (unsigned char)name[i], prev = i ? (unsigned char)name[i - 1] : 0,
                  next = (unsigned char)name[i + 1];
    if (!isalnum(c)) {
      sep = at > 0;
      continue;
    }
    if (isupper(c) && i && (islower(prev) || isdigit(prev) || (isupper(prev) && islower(next))))
      sep = at > 0;
    if (sep) out[at++] = '_';
    sep = false;
    out[at++] = (char)tolower(c);
  }
  out[at < cap ? at : cap - 1] = 0;
}

static void disc_of(const char *name, uint8_t out[8]) {
  char snake[512], pre[600];
  uint8_t h[32];
  scp_sol_idl_snake(name, snake, sizeof snake);
  snprintf(pre, sizeof pre, "global:%s", snake);
  const uint8_t *p = (const uint8_t *)pre;
  size_t n = strlen(pre);
  sol_sha256(&p, &n, 1, h);
  memcpy(out, h, 8);
}

static int bad(scp_error *err, const char *path, const char *where, const char *what) {
  return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s: %s", path, where, what);
}

/* One instruction of the IDL: its name and its discriminator, given
 * (new shape) or worked out (old shape). */
static int read_ix(const json_t *ix, size_t i, bool given, const char *path, idl_ix *out,
                   scp_error *err) {
  char where[64];
  snprintf(where, sizeof where, "instructions[%zu]", i);
  const json_t *name = json_object_get(ix, "name"), *disc = json_object_get(ix, "discriminator");
  if (!json_is_object(ix) || !json_is_string(name) || !json_string_length(name))
    return bad(err, path, where, "an instruction needs a \"name\" string");
  if (!given) {
    if (disc) return bad(err, path, where, "\"discriminator\" in only some instructions: not an IDL shape scprof knows");
    disc_of(json_string_value(name), out->disc);
    out->ndisc = 8;
  } else {
    snprintf(where, sizeof where, "instructions[%zu].discriminator", i);
    size_t n = json_array_size(disc);
    if (!json_is_array(disc) || !n || n > MAX_DISC)
      return bad(err, path, where, "not an array of 1 to 32 byte values");
    for (size_t k = 0; k < n; k++) {
      const json_t *b = json_array_get(disc, k);
      if (!json_is_integer(b) || json_integer_value(b) < 0 || json_integer_value(b) > 255)
        return bad(err, path, where, "not an array of 1 to 32 byte values");
      out->disc[k] = (uint8_t)json_integer_value(b);
    }
    out->ndisc = n;
  }
  if (!(out->name = strdup(json_string_value(name)))) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  return SCP_OK;
}

int scp_sol_idls_add(scp_sol_idls **idls, const uint8_t id[32], const char *path, scp_error *err) {
  json_t *root = NULL;
  int rc = scp_json_load_file(path, MAX_IDL_BYTES, "an Anchor IDL", &root, err);
  if (rc) return rc;
  const json_t *ixs = json_object_get(root, "instructions");
  if (!json_is_object(root) || !json_is_array(ixs)) {
    json_decref(root);
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: not an Anchor IDL: no \"instructions\" array", path);
  }
  size_t n = json_array_size(ixs);
  bool given = n && json_object_get(json_array_get(ixs, 0), "discriminator");
  scp_sol_idls *s = *idls ? *idls : calloc(1, sizeof *s);
  size_t was = s ? s->n : 0;
  if (!s || !scp_grow(&s->v, &s->cap, s->n + n + 1, sizeof *s->v)) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < n && !rc; i++) {
    idl_ix *x = &s->v[s->n];
    memset(x, 0, sizeof *x);
    memcpy(x->id, id, 32);
    if (!(rc = read_ix(json_array_get(ixs, i), i, given, path, x, err))) s->n++;
  }
done:
  json_decref(root);
  if (rc && s) {
    for (size_t i = was; i < s->n; i++) free(s->v[i].name);
    s->n = was;
    if (!*idls) scp_sol_idls_free(s);
  } else if (!rc) {
    *idls = s;
  }
  return rc;
}

void scp_sol_idls_free(scp_sol_idls *idls) {
  if (!idls) return;
  for (size_t i = 0; i < idls->n; i++) free(idls->v[i].name);
  free(idls->v);
  free(idls);
}

const char *scp_sol_idl_lookup(const scp_sol_idls *idls, const uint8_t id[32], const uint8_t *data,
                               size_t len) {
  const idl_ix *best = NULL;
  for (size_t i = 0; idls && i < idls->n; i++) {
    const idl_ix *x = &idls->v[i];
    if (memcmp(x->id, id, 32) || x->ndisc > len || memcmp(x->disc, data, x->ndisc)) continue;
    if (!best || x->ndisc > best->ndisc) best = x;
  }
  return best ? best->name : NULL;
}
