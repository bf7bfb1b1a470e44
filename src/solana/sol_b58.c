/* sol_b58.c — Solana public keys in base58 (the codec is util's). */
#include "solana/scp_sol.h"
#include "util/scp_codec.h"

void scp_sol_key_str(const uint8_t key[32], char out[SCP_SOL_B58_KEY_MAX]) {
  scp_b58_encode(key, 32, out, SCP_SOL_B58_KEY_MAX);
}

bool scp_sol_key_parse(const char *text, size_t len, uint8_t key[32]) {
  return scp_b58_decode32(text, len, key);
}
