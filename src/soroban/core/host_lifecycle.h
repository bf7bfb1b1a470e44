/*
 * host_lifecycle.h — contract instances and executables (host_lifecycle.c),
 * shared by host_contract.c (create, call) and host_fns_map.c
 * (executable-reference storage keys).  Hidden internals.
 *
 * An instance entry's value is kept as the XDR image of
 * ScVal::ContractInstance { executable, storage }: storage None when
 * created, Some(ScMap) once a frame persisted its instance storage
 * (host_instance.c).  ContractExecutable
 * (Stellar-contract.x, CAP-85): 0 Wasm(Hash), 1 StellarAsset, 2
 * ExternalRef { ScAddress executable_owner; SCString tag }.
 */
#ifndef SCP_HOST_LIFECYCLE_H
#define SCP_HOST_LIFECYCLE_H

#include "soroban/core/host_private.h"

/* LedgerKey::Account: id = the ed25519 key (next to SCP_LK_CONTRACT_*);
 * LedgerKey::Trustline: id = the account's key, key = the TrustLineAsset
 * XDR (the Stellar Asset Contract's classic balances, sac_balance.c). */
enum { SCP_LK_ACCOUNT = 0, SCP_LK_TRUSTLINE = 1 };

enum { SCP_EXEC_WASM = 0, SCP_EXEC_STELLAR_ASSET = 1, SCP_EXEC_EXTERNAL_REF = 2 };

#define SCP_EXEC_TAG_MAX 256

typedef struct scp_executable {
  uint8_t kind;                  /* SCP_EXEC_* */
  uint8_t hash[32];              /* WASM */
  uint8_t owner[33];             /* EXTERNAL_REF: host address encoding (kind, 32 bytes) */
  uint8_t tag[SCP_EXEC_TAG_MAX]; /* EXTERNAL_REF: the tag string */
  uint32_t taglen;
} scp_executable;

/* The executable of an instance image; false when the image is not one
 * (or holds a form we do not keep: a muxed owner, a tag over 256 bytes). */
SCP_HIDDEN bool scp_lc_parse_instance(const uint8_t *img, uint32_t len, scp_executable *e);
/* The image of an instance with executable e and no storage map; *out is
 * malloc'd.  SCP_OK or SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_lc_instance_image(const scp_executable *e, uint8_t **out, uint32_t *len);

/* The offset of an instance image's storage (Option<ScMap>), right after
 * executable e. */
SCP_HIDDEN uint32_t scp_lc_instance_storage_at(const scp_executable *e);
/* The image of an instance with executable e and the storage of the image
 * old (store_contract_instance(Some(executable), None): the map is kept);
 * *out is malloc'd.  SCP_OK or SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_lc_instance_image_keep(const scp_executable *e, const uint8_t *old,
                                          uint32_t oldlen, uint8_t **out, uint32_t *len);

/* Keys without charges (kb: 4 bytes the key image points into). */
SCP_HIDDEN void scp_lc_instance_key(const uint8_t id[32], scp_lkey *k, uint8_t kb[4]);
SCP_HIDDEN void scp_lc_code_key(const uint8_t hash[32], scp_lkey *k);

/* ScString::metered_clone: the string itself, then its Vec<u8>. */
SCP_HIDDEN int scp_lc_charge_string_clone(scp_host *h, uint32_t n);
/* ScContractInstance::metered_clone: MemCpy(96), then an external
 * reference's tag (MemAlloc(n), MemCpy(n)). */
SCP_HIDDEN int scp_lc_charge_instance_clone(scp_host *h, const scp_executable *e);

/* An instance entry read from storage: its executable parsed (a malformed
 * image is the reference's Error(Storage, InternalError)) and the
 * ScContractInstance clone charged. */
SCP_HIDDEN int scp_lc_instance_from_entry(scp_host *h, const scp_sentry *e, scp_executable *ex);

/* data_helper.rs executable_ref_ledger_key: the owner's and the tag's
 * clones, Rc::metered_new(LedgerKey).  k->key is malloc'd (scp_lkey_free). */
SCP_HIDDEN int scp_lc_exec_ref_key(scp_host *h, const scp_executable *e, scp_lkey *k);

/* resolve_external_ref_wasm_hash: the key, a storage get, the 32-byte
 * Wasm hash out of the entry's Bytes value (MemCpy(32)). */
SCP_HIDDEN int scp_lc_resolve_ref(scp_host *h, const scp_executable *e, uint8_t hash[32]);

/* validate_put_contract_data's executable-reference part for key tag
 * objects (the durability check aside): the value must be a Bytes object
 * of a 32-byte hash of existing Wasm. */
SCP_HIDDEN int scp_lc_validate_exec_ref_put(scp_host *h, uint64_t v);

/* verify_wasm_exists: the code key, storage has; Error(Storage,
 * MissingValue) "Wasm does not exist". */
SCP_HIDDEN int scp_lc_verify_wasm_exists(scp_host *h, const uint8_t hash[32]);

/* executable_ref_from_inputs (visits, ScAddress and tag clones) then
 * verify_executable_ref_entry_exists. */
SCP_HIDDEN int scp_lc_exec_ref_from_inputs(scp_host *h, uint64_t owner, uint64_t tag,
                                           scp_executable *e);
SCP_HIDDEN int scp_lc_verify_exec_ref_exists(scp_host *h, const scp_executable *e);

/* ContractExecutable::metered_clone: the enum, an ExternalRef's tag. */
SCP_HIDDEN int scp_lc_charge_executable_clone(scp_host *h, const scp_executable *e);
/* hash_from_bytesobj_input / u256_from_bytesobj_input: visit, the size
 * check, MemCpy(32). */
SCP_HIDDEN int scp_lc_hash_input(scp_host *h, uint64_t obj, uint8_t out[32]);

/* A create-contract authorized function (auth.rs
 * AuthorizedFunction::CreateContractHostFn(CreateContractArgsV2)): the
 * FROM_ADDRESS preimage (deployer, salt), the executable, the constructor
 * arguments as host Vals (the reference keeps them as ScVals: their
 * images are taken where it works on those).  A create-contract frame's
 * (auth/) borrows ctor; the recorded roots' and the entries' own it. */
typedef struct scp_create_args {
  uint8_t deployer[33];
  uint8_t salt[32];
  scp_executable ex;
  uint64_t *ctor;
  uint32_t nctor;
} scp_create_args;

/* Storage::try_get_full (host_storage.c): one read; *ent NULL when the
 * entry is absent. */
SCP_HIDDEN int scp_storage_try_get(scp_host *h, const scp_lkey *k, const scp_sentry **ent);

/* EnvBase::map_new_from_slices over Symbol keys (host_fns_map.c). */
SCP_HIDDEN int scp_host_map_new_from_slices(scp_host *h, const uint64_t *keys,
                                            const uint64_t *vals, uint32_t n, uint64_t *ret);

#endif
