/*
 * host_bn254.h — the BN254 G1 point decoder of host_fns_curve.c
 * (bn254_g1_affine_deserialize, crypto/bn254.rs), shared with the pairing
 * host function (host_fns_pairing.c).
 */
#ifndef SCP_HOST_BN254_H
#define SCP_HOST_BN254_H

#include <stdbool.h>
#include <stdint.h>

#include "crypto/crypto_bn254.h"
#include "soroban/core/host_private.h"

/* Visits the BytesObject v (absolute handle) and decodes its 64 bytes
 * X || Y with the reference's length, flag and range checks and charges;
 * check adds the on-curve charge and check (every validation mode but
 * NoCheck).  Returns SCP_OK, or SCP_ERR_HOST with Error(Crypto,
 * InvalidInput) / the budget's or the visit's error recorded in h; *pt is
 * unspecified on failure. */
SCP_HIDDEN int scp_bn_g1_decode(scp_host *h, uint64_t v, bool check, scp_bn_g1 *pt);

#endif
