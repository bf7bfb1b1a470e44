/* sol_b58.c — Solana public keys in base58 (the codec is util's). */
#include "solana/scp_sol.h"
#include "solana/sol_keyslot.h"
#include "util/scp_codec.h"
#include "util/scp_util.h"

#include <string.h>

/* A key's base58 costs some thousands of instructions (a division of
 * the whole number per digit), and a scenario's transactions name the
 * same programs, sysvars and accounts over and over: each thread keeps
 * the last texts in a small direct-mapped table (its own, so the threads
 * that write profiles take no lock).  A slot holds the key it was made
 * from and is compared whole, so a text is always scp_b58_encode's. */
enum { KEY_BITS = 8, KEY_SLOTS = 1 << KEY_BITS };

typedef struct key_slot {
  bool used;
  uint8_t len;
  uint8_t key[32];
  char text[SCP_SOL_B58_KEY_MAX];
} key_slot;

static _Thread_local key_slot key_cache[KEY_SLOTS];

void scp_sol_key_str(const uint8_t key[32], char out[SCP_SOL_B58_KEY_MAX]) {
  key_slot *s = &key_cache[sol_key_slot(key, KEY_BITS)];
  if (!s->used || memcmp(s->key, key, 32)) {
    s->len = (uint8_t)scp_b58_encode(key, 32, s->text, SCP_SOL_B58_KEY_MAX);
    memcpy(s->key, key, 32);
    s->used = true;
  }
  memcpy(out, s->text, (size_t)s->len + 1);
}

/* And the other way: a scenario names the same keys in every
 * transaction.  Only keys that parsed are kept; a slot holds the whole
 * text, compared whole. */
enum { TEXT_BITS = 8 };

typedef struct text_slot {
  uint8_t len;               /* 0: empty */
  char text[SCP_SOL_B58_KEY_MAX - 1];
  uint8_t key[32];
} text_slot;

static _Thread_local text_slot text_cache[1 << TEXT_BITS];

bool scp_sol_key_parse(const char *text, size_t len, uint8_t key[32]) {
  if (len == 0 || len > sizeof text_cache[0].text) return scp_b58_decode32(text, len, key);
  text_slot *s = &text_cache[scp_murmur3_32(text, len) >> (32 - TEXT_BITS)];
  if (s->len == len && !memcmp(s->text, text, len)) {
    memcpy(key, s->key, 32);
    return true;
  }
  if (!scp_b58_decode32(text, len, key)) return false;
  s->len = (uint8_t)len;
  memcpy(s->text, text, len);
  memcpy(s->key, key, 32);
  return true;
}

int scp_sol_b58_decode(const char *text, size_t len, uint8_t **out, size_t *n) {
  bool nomem = false;
  if (scp_b58_decode(text, len, out, n, &nomem)) return SCP_OK;
  *out = NULL;
  *n = 0;
  return nomem ? SCP_ERR_NOMEM : SCP_ERR_MALFORMED;
}
