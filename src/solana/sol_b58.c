/* sol_b58.c — base58 (Bitcoin alphabet), as Solana prints public keys. */
#include <string.h>
#include <stdlib.h>
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

/* The digit c stands for (its place in ALPHA), or -1. */
static int b58_digit(unsigned char c) {
  if (c >= '1' && c <= '9') return c - '1';
  if (c >= 'A' && c <= 'H') return c - 'A' + 9;
  if (c >= 'J' && c <= 'N') return c - 'J' + 17;
  if (c >= 'P' && c <= 'Z') return c - 'P' + 22;
  if (c >= 'a' && c <= 'k') return c - 'a' + 33;
  if (c >= 'm' && c <= 'z') return c - 'm' + 44;
  return -1;
}

bool scp_sol_key_parse(const char *text, size_t len, uint8_t key[32]) {
  /* the value in 32-bit limbs, most significant first (a scenario parses
   * hundreds of thousands of keys: a byte at a time costs four times as
   * much); a limb times 58 plus the carry stays within 64 bits */
  uint32_t v[8] = {0};
  size_t ones = 0;
  if (len == 0 || len > 44) return false;
  while (ones < len && text[ones] == '1') ones++;
  for (size_t i = 0; i < len; i++) {
    int d = b58_digit((unsigned char)text[i]);
    if (d < 0) return false;
    uint64_t carry = (uint64_t)d;
    for (int j = 7; j >= 0; j--) {
      carry += (uint64_t)v[j] * 58;
      v[j] = (uint32_t)carry;
      carry >>= 32;
    }
    if (carry) return false;   /* 2^256 or more: not 32 bytes */
  }
  uint8_t b[32];
  for (int j = 0; j < 8; j++)
    for (int k = 0; k < 4; k++) b[4 * j + k] = (uint8_t)(v[j] >> (24 - 8 * k));
  /* exactly 32 bytes: the leading '1's are the leading zero bytes */
  size_t lead = 0;
  while (lead < 32 && b[lead] == 0) lead++;
  if (lead != ones) return false;
  memcpy(key, b, 32);
  return true;
}

int scp_sol_b58_decode(const char *text, size_t len, uint8_t **out, size_t *n) {
  /* bytes of the value, least significant first; 733/1000 > log(58)/log(256) */
  size_t cap = len * 733 / 1000 + 1, nb = 0, ones = 0;
  uint8_t *b = calloc(cap + len + 1, 1);
  *out = NULL;
  *n = 0;
  if (!b) return SCP_ERR_NOMEM;
  while (ones < len && text[ones] == '1') ones++;
  for (size_t i = 0; i < len; i++) {
    int d = b58_digit((unsigned char)text[i]);
    if (d < 0) {
      free(b);
      return SCP_ERR_MALFORMED;
    }
    unsigned carry = (unsigned)d;
    for (size_t j = 0; j < nb; j++) {
      carry += (unsigned)b[j] * 58;
      b[j] = (uint8_t)carry;
      carry >>= 8;
    }
    while (carry) b[nb++] = (uint8_t)carry, carry >>= 8;
  }
  /* the leading '1's are leading zero bytes; then the value, most
   * significant first */
  uint8_t *r = malloc(ones + nb + 1);
  if (!r) {
    free(b);
    return SCP_ERR_NOMEM;
  }
  memset(r, 0, ones);
  for (size_t j = 0; j < nb; j++) r[ones + j] = b[nb - 1 - j];
  free(b);
  *out = r;
  *n = ones + nb;
  return SCP_OK;
}
