/*
 * crypto_keccak.h — Keccak-256 with the original 0x01 padding (Ethereum's,
 * and solana's keccak-hasher; not FIPS 202's SHA3-256, which OpenSSL 3.0
 * has), for Soroban's compute_hash_keccak256 and Solana's sol_keccak256.
 */
#ifndef SCP_CRYPTO_KECCAK_H
#define SCP_CRYPTO_KECCAK_H

#include <stddef.h>
#include <stdint.h>

#include "util/scp_util.h"

/* incremental: init, update with the parts in order, final */
typedef struct scp_keccak {
  uint64_t s[25];
  uint8_t buf[136];
  size_t fill;
} scp_keccak;

SCP_HIDDEN void scp_keccak_init(scp_keccak *k);
SCP_HIDDEN void scp_keccak_update(scp_keccak *k, const uint8_t *in, size_t len);
SCP_HIDDEN void scp_keccak_final(scp_keccak *k, uint8_t out[32]);
/* one buffer */
SCP_HIDDEN void scp_keccak256(const uint8_t *in, size_t len, uint8_t out[32]);

#endif
