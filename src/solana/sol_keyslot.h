/* sol_keyslot.h — the slot of a 32-byte key in a small per-thread
 * direct-mapped table (sol_b58.c's texts, sol_hash.c's curve answers).
 * Keys are hashes or public keys, but a few are mostly zeros (the system
 * program's): every word is mixed in. */
#ifndef SOL_KEYSLOT_H
#define SOL_KEYSLOT_H

#include <stdint.h>
#include <string.h>

/* a slot of 1 << bits, bits at most 32 */
static inline unsigned sol_key_slot(const uint8_t key[32], unsigned bits) {
  uint64_t h = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t w;
    memcpy(&w, key + 8 * i, sizeof w);
    h = (h ^ w) * 0x9E3779B97F4A7C15u;
  }
  return (unsigned)(h >> (64 - bits));
}

#endif
