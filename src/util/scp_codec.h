/*
 * scp_codec.h — the text and compression encodings input arrives in, each
 * written once for both chains: base58 (Bitcoin alphabet, as Solana prints
 * keys and short account data), base64 and hex (through libsodium), gzip
 * or zlib streams (zlib) and zstd frames (libzstd), as `solana account`
 * and RPC replies carry account data and Seashell caches its scenarios.
 * Internal to libscprof (not installed).
 */
#ifndef SCP_CODEC_H
#define SCP_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Base58 of n bytes into out (cap bytes, NUL-terminated); the length, or 0
 * when it does not fit. */
size_t scp_b58_encode(const uint8_t *in, size_t n, char *out, size_t cap);

/* Base58 text that decodes to exactly 32 bytes (a public key). */
bool scp_b58_decode32(const char *text, size_t len, uint8_t out[32]);

/* Base58 text of at most SCP_B58_MAX_TEXT characters (the work grows with
 * the square of the length) into a new buffer (*out, *n; one byte at least
 * allocated).  false: not base58, too long, or out of memory (*out NULL,
 * *n 0 then). */
#define SCP_B58_MAX_TEXT 8192u
bool scp_b58_decode(const char *text, size_t len, uint8_t **out, size_t *n, bool *nomem);

/* Base64 (RFC 4648 alphabet; padded, or unpadded when padded is false and
 * the text has no '=') into a new buffer.  Same contract as scp_b58_decode. */
bool scp_b64_decode(const char *text, size_t len, bool padded, uint8_t **out, size_t *n,
                    bool *nomem);

/* Appends n bytes to b as lowercase hex ("%02x" each). */
struct scp_buf;
void scp_buf_put_hex(struct scp_buf *b, const uint8_t *p, size_t n);

/* Hex (an even number of digits, either case) into a new buffer. */
bool scp_hex_decode(const char *text, size_t len, uint8_t **out, size_t *n, bool *nomem);

/* A gzip (or zlib) stream, or a zstd frame, decompressed into a new buffer
 * of at most max bytes.  0 on success, else a short reason ("not gzip",
 * "larger than the limit", "out of memory") with *out NULL. */
const char *scp_gunzip(const uint8_t *in, size_t n, size_t max, uint8_t **out, size_t *len);
const char *scp_unzstd(const uint8_t *in, size_t n, size_t max, uint8_t **out, size_t *len);

/* Whether bytes start a gzip stream (1f 8b). */
static inline bool scp_is_gzip(const uint8_t *p, size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

#endif
