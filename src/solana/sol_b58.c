/* sol_b58.c — base58 (Bitcoin alphabet), as Solana prints public keys. */
#include <string.h>
#include "solana/scp_sol.h"

static const char ALPHA[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

size_t scp_sol_b58_encode(const uint8_t *in, size_t n, char *out, size_t cap) {
  /* digits in base 58, least significant first; 138/100 > log(256)/log(58) */
  size_t zeros = 0, max = n * 138 / 100 + 1, nd = 0;
  uint8_t digits[512];
  if (max > sizeof digits) return 0;
  while (zeros < n && in[zeros] == 0) zeros++;
  for (size_t i = zeros; i < n; i++) {
    unsigned carry = in[i];
    for (size_t j = 0; j < nd; j++) {
      carry += (unsigned)digits[j] << 8;
      digits[j] = (uint8_t)(carry % 58);
      carry /= 58;
    }
    while (carry) { digits[nd++] = (uint8_t)(carry % 58); carry /= 58; }
  }
  if (zeros + nd + 1 > cap) return 0;
  size_t k = 0;
  for (size_t i = 0; i < zeros; i++) out[k++] = '1';
  while (nd) out[k++] = ALPHA[digits[--nd]];
  out[k] = 0;
  return k;
}

void scp_sol_key_str(const uint8_t key[32], char out[SCP_SOL_B58_KEY_MAX]) {
  scp_sol_b58_encode(key, 32, out, SCP_SOL_B58_KEY_MAX);
}

bool scp_sol_key_parse(const char *text, size_t len, uint8_t key[32]) {
  uint8_t b[33] = {0};   /* big-endian accumulator, one spare byte for overflow */
  size_t ones = 0;
  if (len == 0 || len > 44) return false;
  while (ones < len && text[ones] == '1') ones++;
  for (size_t i = 0; i < len; i++) {
    const char *p = memchr(ALPHA, text[i], sizeof ALPHA - 1);
    if (!p || !text[i]) return false;
    unsigned carry = (unsigned)(p - ALPHA);
    for (int j = 32; j >= 0; j--) {
      carry += (unsigned)b[j] * 58;
      b[j] = (uint8_t)carry;
      carry >>= 8;
    }
    if (carry || b[0]) return false;
  }
  /* exactly 32 bytes: the leading '1's are the leading zero bytes */
  size_t lead = 1;
  while (lead < 33 && b[lead] == 0) lead++;
  if (lead - 1 != ones) return false;
  memcpy(key, b + 1, 32);
  return true;
}
