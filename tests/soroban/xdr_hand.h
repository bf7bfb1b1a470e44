/*
 * xdr_hand.h — XDR written by hand, for tests that build the images the
 * host reads (authorization entries, signature payloads): an independent
 * check of the host's own writer.  Big-endian words, opaque data padded to
 * four bytes, account ids as PUBLIC_KEY_TYPE_ED25519 keys.
 */
#ifndef SCP_TEST_XDR_HAND_H
#define SCP_TEST_XDR_HAND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct xb {
  uint8_t p[8192];
  size_t n;
} xb;

static inline void x32(xb *b, uint32_t v) {
  for (int i = 0; i < 4; i++) b->p[b->n++] = (uint8_t)(v >> (24 - 8 * i));
}

static inline void x64(xb *b, uint64_t v) {
  x32(b, (uint32_t)(v >> 32));
  x32(b, (uint32_t)v);
}

/* Fixed-length opaque: the bytes, zero-padded to a multiple of 4. */
static inline void xbytes(xb *b, const void *p, size_t n) {
  memcpy(b->p + b->n, p, n);
  b->n += n;
  while (b->n % 4) b->p[b->n++] = 0;
}

/* Variable-length opaque or string: the length, then the bytes. */
static inline void xvar(xb *b, const void *p, size_t n) {
  x32(b, (uint32_t)n);
  xbytes(b, p, n);
}

/* An ScAddress: kind 0 an account (its ed25519 key), 1 a contract. */
static inline void xaddr(xb *b, unsigned kind, const uint8_t id[32]) {
  x32(b, kind);
  if (!kind) x32(b, 0);   /* PUBLIC_KEY_TYPE_ED25519 */
  xbytes(b, id, 32);
}

#endif
