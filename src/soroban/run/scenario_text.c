/*
 * scenario_text.c — the small text forms of a scenario file: file names
 * relative to it, 32-byte hex, int64s, and "@NAME" in its arguments: the
 * code hash of one of its contracts (an upload-only one, typically), what
 * a factory's create_contract or an upgrade's update_current_contract_wasm
 * takes, so that nobody deploys a dummy instance to run sha256sum on its
 * file.
 */
#include <openssl/sha.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/run/scp_scenario.h"

bool scp_scenario_code_ref(const scp_scenario *s, size_t n, const char *text, char hex[65],
                           size_t *index) {
  if (text[0] != '@' || !text[1]) return false;
  /* references are few: a scan, not a map */
  for (size_t i = 0; i < n && i < s->ncontracts; i++) {
    const scp_scenario_contract *c = &s->contracts[i];
    if (!c->name || strcmp(c->name, text + 1) || !c->wasm) continue;
    uint8_t h[32];
    SHA256(c->wasm, c->len, h);
    sodium_bin2hex(hex, 65, h, sizeof h);
    *index = i;
    return true;
  }
  return false;
}

/* A file name relative to the scenario file's folder. */
char *scp_scenario_resolve(const char *base, const char *name) {
  const char *slash = strrchr(base, '/');
  if (name[0] == '/' || !slash) return strdup(name);
  size_t dl = (size_t)(slash - base) + 1, nl = strlen(name) + 1;
  char *p = malloc(dl + nl);
  if (!p) return NULL;
  memcpy(p, base, dl);
  memcpy(p + dl, name, nl);
  return p;
}

/* 64 hex digits (an optional 0x) into out. */
bool scp_scenario_hex32(const char *h, uint8_t out[32]) {
  if (!strncmp(h, "0x", 2)) h += 2;
  if (strlen(h) != 64) return false;
  for (size_t i = 0; i < 64; i++)
    if (!strchr("0123456789abcdefABCDEF", h[i])) return false;
  for (size_t i = 0; i < 32; i++) {
    unsigned b;
    if (sscanf(h + 2 * i, "%2x", &b) != 1) return false;
    out[i] = (uint8_t)b;
  }
  return true;
}

/* A non-negative int64 given as a JSON integer or a decimal string
 * ("100000000": stroops may pass 2^53). */
bool scp_scenario_i64(json_t *v, int64_t min, int64_t *out) {
  if (json_is_integer(v)) {
    if (json_integer_value(v) < min) return false;
    *out = (int64_t)json_integer_value(v);
    return true;
  }
  if (!json_is_string(v)) return false;
  const char *t = json_string_value(v);
  bool neg = *t == '-';
  if (neg) t++;
  if (!*t || strlen(t) > 19) return false;
  uint64_t x = 0;
  for (; *t; t++) {
    if (*t < '0' || *t > '9') return false;
    x = x * 10 + (uint64_t)(*t - '0');
  }
  if (x > (uint64_t)INT64_MAX + neg) return false;
  *out = neg ? (int64_t)(0 - x) : (int64_t)x;
  return *out >= min;
}
