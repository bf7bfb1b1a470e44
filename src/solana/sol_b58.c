/* sol_b58.c — Solana public keys in base58 (the codec is util's). */
#include "solana/scp_sol.h"
#include "util/scp_codec.h"

void scp_sol_key_str(const uint8_t key[32], char out[SCP_SOL_B58_KEY_MAX]) {
  scp_b58_encode(key, 32, out, SCP_SOL_B58_KEY_MAX);
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
