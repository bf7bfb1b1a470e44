/*
 * crypto_poseidon.h — Poseidon over BN254's scalar field with x^5 S-boxes
 * and circom's parameters (8 full rounds, the partial rounds of the
 * reference's table for widths 2..13), as light-poseidon's new_circom
 * hashes: the state is a zero domain tag and the inputs, the result its
 * first element.  The round constants and MDS matrices are generated, not
 * stored: the Poseidon paper's Grain LFSR script
 * (generate_parameters_grain.sage) run in C, once per width.
 * Field elements are 4 words, most significant first (crypto_fr's).
 */
#ifndef SCP_CRYPTO_POSEIDON_H
#define SCP_CRYPTO_POSEIDON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/scp_util.h"

enum { SCP_POSEIDON_MAX_INPUTS = 12 };

/* One width's parameters: ark[(round * t + i)], mds[i * t + j]. */
typedef struct scp_poseidon_params {
  unsigned t, full_rounds, partial_rounds;
  uint64_t (*ark)[4];
  uint64_t (*mds)[4];
} scp_poseidon_params;

/* The parameters of width t (2..13); NULL for another width or when
 * memory ran out.  Made on first use, shared and read-only after. */
SCP_HIDDEN const scp_poseidon_params *scp_poseidon_circom(unsigned t);

/* out = the hash of n inputs (each < r), 1 <= n <= 12; false otherwise. */
SCP_HIDDEN bool scp_poseidon_hash(const uint64_t (*in)[4], size_t n, uint64_t out[4]);

#endif
