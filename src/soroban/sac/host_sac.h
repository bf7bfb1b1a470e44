/*
 * host_sac.h — the Stellar Asset Contract's creation side: the Asset XDR
 * the host functions take, and the contract id derived from it.
 *
 * rs-soroban-env v28: host.rs (create_asset_contract,
 * get_asset_contract_id), host/lifecycle.rs (create_contract_internal,
 * get_asset_contract_id_hash), host/data_helper.rs
 * (get_full_contract_id_preimage).
 */
#ifndef SCP_HOST_SAC_H
#define SCP_HOST_SAC_H

#include <stddef.h>
#include <stdint.h>

#include "soroban/core/host_private.h"

/* stellar-xdr Asset: AssetType (0 native, 1 credit alphanum4, 2 credit
 * alphanum12), the code (4 or 12 bytes, as given: trailing zeros kept)
 * and the issuer's ed25519 key. */
typedef struct scp_sac_asset {
  uint32_t type;
  uint8_t code[12];
  uint8_t issuer[32];
} scp_sac_asset;

enum { SCP_SAC_NATIVE = 0, SCP_SAC_ALPHANUM4 = 1, SCP_SAC_ALPHANUM12 = 2 };

/* Decodes Asset XDR the way the reference's from_xdr does with the input's
 * length as the read limit: SCP_OK; 1 when the input ends early (the
 * reference's LengthLimitExceeded); 2 for anything else that is not exactly
 * one Asset (bad discriminant, bad key type, trailing bytes).  No charge. */
SCP_HIDDEN int scp_sac_asset_decode(const uint8_t *p, size_t len, scp_sac_asset *out);

/* The Asset's XDR as the reference's writer emits it: one piece per
 * write_all call (the unit a ValSer charge is made for).  *n receives the
 * number of pieces (at most 4) and len[i] their sizes; bytes (at most 52)
 * receives the concatenated image.  Returns the total length. */
SCP_HIDDEN size_t scp_sac_asset_pieces(const scp_sac_asset *a, uint8_t bytes[52],
                                       uint32_t len[4], unsigned *n);

/* Uncharged contract id of an asset on network_id:
 * SHA-256(HashIdPreimage::ContractId{network_id, ContractIdPreimage::Asset}). */
SCP_HIDDEN void scp_sac_contract_id(const uint8_t network_id[32], const scp_sac_asset *a,
                                    uint8_t id[32]);

#endif
