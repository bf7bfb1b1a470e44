/* sol_b58.c — Solana public keys in base58 (the codec is util's). */
#include "solana/scp_sol.h"
#include "solana/sol_keyslot.h"
#include "util/scp_codec.h"

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

bool scp_sol_key_parse(const char *text, size_t len, uint8_t key[32]) {
  return scp_b58_decode32(text, len, key);
}

int scp_sol_b58_decode(const char *text, size_t len, uint8_t **out, size_t *n) {
  bool nomem = false;
  if (scp_b58_decode(text, len, out, n, &nomem)) return SCP_OK;
  *out = NULL;
  *n = 0;
  return nomem ? SCP_ERR_NOMEM : SCP_ERR_MALFORMED;
}
