/* scp_codec.c — base58, base64, hex, gzip and zstd, once (scp_codec.h). */
#include "util/scp_codec.h"
#include "util/scp_util.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

static const char ALPHA[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

size_t scp_b58_encode(const uint8_t *in, size_t n, char *out, size_t cap) {
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

/* The digit c stands for (its place in ALPHA), or -1: a table, as a
 * scenario parses hundreds of thousands of keys (bytes from 128 are -1). */
static int b58_digit(unsigned char c) {
  static const signed char table[128] = {
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, -1, -1, -1,
      -1, 9, 10, 11, 12, 13, 14, 15, 16, -1, 17, 18, 19, 20, 21, -1,
      22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, -1, -1, -1, -1, -1,
      -1, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, -1, 44, 45, 46,
      47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, -1, -1, -1, -1, -1,
  };
  return c < 128 ? table[c] : -1;
}

bool scp_b58_decode32(const char *text, size_t len, uint8_t key[32]) {
  /* the value in 32-bit limbs, most significant first (a scenario parses
   * hundreds of thousands of keys: a byte at a time costs four times as
   * much); a limb times 58 plus the carry stays within 64 bits */
  uint32_t v[8] = {0};
  size_t ones = 0;
  if (len == 0 || len > 44) return false;
  while (ones < len && text[ones] == '1') ones++;
  /* five digits per pass: 58^5 < 2^30, so a limb times it plus the carry
   * still fits in 64 bits */
  for (size_t i = 0; i < len;) {
    uint64_t mul = 1, chunk = 0;
    for (size_t k = 0; k < 5 && i < len; k++, i++) {
      int d = b58_digit((unsigned char)text[i]);
      if (d < 0) return false;
      chunk = chunk * 58 + (uint64_t)d;
      mul *= 58;
    }
    uint64_t carry = chunk;
    for (int j = 7; j >= 0; j--) {
      carry += (uint64_t)v[j] * mul;
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

static bool fail(uint8_t **out, size_t *n, bool *nomem, bool oom) {
  *out = NULL;
  *n = 0;
  if (nomem) *nomem = oom;
  return false;
}

bool scp_b58_decode(const char *text, size_t len, uint8_t **out, size_t *n, bool *nomem) {
  if (nomem) *nomem = false;
  if (len > SCP_B58_MAX_TEXT) return fail(out, n, nomem, false);
  size_t ones = 0;
  while (ones < len && text[ones] == '1') ones++;
  /* the value's bytes, least significant first; 733/1000 > log(58)/log(256) */
  size_t cap = len * 733 / 1000 + 1, nb = 0;
  uint8_t *b = malloc(cap + ones + 1);
  if (!b) return fail(out, n, nomem, true);
  for (size_t i = ones; i < len; i++) {
    int d = b58_digit((unsigned char)text[i]);
    if (d < 0) {
      free(b);
      return fail(out, n, nomem, false);
    }
    unsigned carry = (unsigned)d;
    for (size_t j = 0; j < nb; j++) {
      carry += (unsigned)b[j] * 58;
      b[j] = (uint8_t)carry;
      carry >>= 8;
    }
    while (carry) { b[nb++] = (uint8_t)carry; carry >>= 8; }
  }
  /* most significant first, behind the zero bytes the leading '1's stand for */
  for (size_t i = 0; i < nb / 2; i++) {
    uint8_t t = b[i];
    b[i] = b[nb - 1 - i];
    b[nb - 1 - i] = t;
  }
  memmove(b + ones, b, nb);
  memset(b, 0, ones);
  *out = b;
  *n = ones + nb;
  return true;
}

bool scp_b64_decode(const char *text, size_t len, bool padded, uint8_t **out, size_t *n,
                    bool *nomem) {
  if (nomem) *nomem = false;
  uint8_t *b = malloc(len / 4 * 3 + 3);
  size_t got = 0;
  const char *end = NULL;
  if (!b) return fail(out, n, nomem, true);
  int variant = padded || memchr(text, '=', len) ? sodium_base64_VARIANT_ORIGINAL
                                                 : sodium_base64_VARIANT_ORIGINAL_NO_PADDING;
  if (sodium_base642bin(b, len / 4 * 3 + 3, text, len, NULL, &got, &end, variant) || end != text + len) {
    free(b);
    return fail(out, n, nomem, false);
  }
  *out = b;
  *n = got;
  return true;
}

bool scp_hex_decode(const char *text, size_t len, uint8_t **out, size_t *n, bool *nomem) {
  if (nomem) *nomem = false;
  uint8_t *b = malloc(len / 2 + 1);
  size_t got = 0;
  const char *end = NULL;
  if (!b) return fail(out, n, nomem, true);
  if (len % 2 || sodium_hex2bin(b, len / 2 + 1, text, len, NULL, &got, &end) || end != text + len) {
    free(b);
    return fail(out, n, nomem, false);
  }
  *out = b;
  *n = got;
  return true;
}

/* Output grows by doubling up to max. */
static bool grow_to(uint8_t **b, size_t *cap, size_t max) {
  if (*cap >= max) return false;
  size_t c = *cap * 2 > max ? max : *cap * 2;
  uint8_t *nb = realloc(*b, c);
  if (!nb) return false;
  *b = nb;
  *cap = c;
  return true;
}

/* The output buffers hold max + 1 bytes at most: one byte more than the
 * limit tells "larger" from "exactly the limit". */
static size_t first_cap(size_t max) { return max < (1u << 16) ? max + 1 : 1u << 16; }

const char *scp_gunzip(const uint8_t *in, size_t n, size_t max, uint8_t **out, size_t *len) {
  z_stream z = {0};
  size_t cap = first_cap(max);
  uint8_t *b = malloc(cap);
  *out = NULL;
  *len = 0;
  /* 15 + 32: a gzip or zlib header, told apart by zlib */
  if (!b || inflateInit2(&z, 15 + 32) != Z_OK) {
    free(b);
    return "out of memory";
  }
  const char *why = NULL;
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n;
  if (n > 0xffffffffu) why = "larger than the limit";
  while (!why) {
    if (z.total_out == cap && !grow_to(&b, &cap, max + 1)) {
      why = cap > max ? "larger than the limit" : "out of memory";
      break;
    }
    z.next_out = b + z.total_out;
    z.avail_out = (uInt)(cap - z.total_out);
    int rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      if (z.avail_in) why = "bytes after the end of the gzip stream";
      break;
    }
    if (rc == Z_BUF_ERROR && !z.avail_in) why = "a truncated gzip stream";
    else if (rc != Z_OK && rc != Z_BUF_ERROR) why = "not a valid gzip stream";
  }
  size_t got = z.total_out;
  inflateEnd(&z);
  if (!why && got > max) why = "larger than the limit";
  if (why) {
    free(b);
    return why;
  }
  *out = b;
  *len = got;
  return NULL;
}

const char *scp_unzstd(const uint8_t *in, size_t n, size_t max, uint8_t **out, size_t *len) {
  *out = NULL;
  *len = 0;
  ZSTD_DStream *z = ZSTD_createDStream();
  size_t cap = first_cap(max);
  uint8_t *b = malloc(cap);
  if (!z || !b) {
    ZSTD_freeDStream(z);
    free(b);
    return "out of memory";
  }
  ZSTD_initDStream(z);
  ZSTD_inBuffer ib = {.src = in, .size = n, .pos = 0};
  ZSTD_outBuffer ob = {.dst = b, .size = cap, .pos = 0};
  const char *why = NULL;
  for (;;) {
    size_t rc = ZSTD_decompressStream(z, &ob, &ib);
    if (ZSTD_isError(rc)) { why = "not a valid zstd frame"; break; }
    if (rc == 0 && ib.pos == ib.size) break;
    if (ob.pos == ob.size) {
      if (!grow_to(&b, &cap, max + 1)) { why = cap > max ? "larger than the limit" : "out of memory"; break; }
      ob.dst = b;
      ob.size = cap;
    } else if (ib.pos == ib.size) {
      why = rc ? "a truncated zstd frame" : NULL;
      break;
    }
  }
  ZSTD_freeDStream(z);
  if (!why && ob.pos > max) why = "larger than the limit";
  if (why) {
    free(b);
    return why;
  }
  *out = b;
  *len = ob.pos;
  return NULL;
}

void scp_buf_put_hex(scp_buf *b, const uint8_t *p, size_t n) {
  /* a piece at a time through a small buffer: accounts hold up to 10 MiB */
  char hex[2 * 256 + 1];
  for (size_t i = 0; i < n; i += 256) {
    size_t k = n - i < 256 ? n - i : 256;
    sodium_bin2hex(hex, sizeof hex, p + i, k);
    scp_buf_put(b, hex, 2 * k);
  }
}
