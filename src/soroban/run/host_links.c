/*
 * host_links.c — a host wired to the layers above core: the table of every
 * host-function body by id, and the hooks core calls when a frame pops, a
 * contract is called or a native contract runs (scp_host_links).  Every
 * host made with scp_host_create gets this one table.
 */
#include "soroban/fns/host_fns_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/sac/sac_private.h"

/* ---- the host-function bodies ----------------------------------------- */

/* A function registered twice is a compile error (-Woverride-init under
 * -Wextra); one declared in host_fns.def but not implemented is NULL. */
#define REG(name) [SCP_HF_##name] = scp_hf_##name

static const scp_hostfn_impl impls[SCP_HF_COUNT] = {
  REG(log_from_linear_memory), REG(get_ledger_version), REG(get_ledger_sequence),
  REG(get_ledger_timestamp), REG(contract_event), REG(fail_with_error),
  REG(get_ledger_network_id), REG(get_current_contract_address), REG(get_max_live_until_ledger),
  REG(obj_from_u64), REG(obj_to_u64), REG(obj_from_i64), REG(obj_to_i64),
  REG(timepoint_obj_from_u64), REG(timepoint_obj_to_u64),
  REG(duration_obj_from_u64), REG(duration_obj_to_u64),
  REG(obj_from_u128_pieces), REG(obj_to_u128_lo64), REG(obj_to_u128_hi64),
  REG(obj_from_i128_pieces), REG(obj_to_i128_lo64), REG(obj_to_i128_hi64),
  REG(obj_from_u256_pieces), REG(obj_from_i256_pieces),
  REG(obj_to_u256_hi_hi), REG(obj_to_u256_hi_lo), REG(obj_to_u256_lo_hi), REG(obj_to_u256_lo_lo),
  REG(obj_to_i256_hi_hi), REG(obj_to_i256_hi_lo), REG(obj_to_i256_lo_hi), REG(obj_to_i256_lo_lo),
  REG(u256_add), REG(u256_sub), REG(u256_mul), REG(u256_div), REG(u256_rem_euclid),
  REG(u256_pow), REG(u256_shl), REG(u256_shr),
  REG(i256_add), REG(i256_sub), REG(i256_mul), REG(i256_div), REG(i256_rem_euclid),
  REG(i256_pow), REG(i256_shl), REG(i256_shr),
  REG(u256_checked_add), REG(u256_checked_sub), REG(u256_checked_mul), REG(u256_checked_pow),
  REG(i256_checked_add), REG(i256_checked_sub), REG(i256_checked_mul), REG(i256_checked_pow),
  REG(u256_val_from_be_bytes), REG(i256_val_from_be_bytes),
  REG(u256_val_to_be_bytes), REG(i256_val_to_be_bytes),
  REG(vec_new), REG(vec_len), REG(vec_get), REG(vec_front), REG(vec_back),
  REG(vec_push_back), REG(vec_push_front), REG(vec_pop_back), REG(vec_pop_front),
  REG(vec_del), REG(vec_put),
  REG(bytes_new_from_linear_memory), REG(string_new_from_linear_memory),
  REG(symbol_new_from_linear_memory), REG(bytes_len), REG(string_len),
  REG(symbol_len), REG(bytes_new),
  REG(compute_hash_sha256), REG(compute_hash_keccak256), REG(verify_sig_ed25519),
  REG(recover_key_ecdsa_secp256k1), REG(verify_sig_ecdsa_secp256r1),
  REG(vec_insert), REG(vec_append), REG(vec_slice), REG(vec_first_index_of),
  REG(vec_last_index_of), REG(vec_binary_search), REG(vec_new_from_linear_memory),
  REG(vec_unpack_to_linear_memory),
  REG(map_new), REG(map_put), REG(map_get), REG(map_del), REG(map_len), REG(map_has),
  REG(map_key_by_pos), REG(map_val_by_pos), REG(map_keys), REG(map_values),
  REG(obj_cmp), REG(serialize_to_bytes), REG(deserialize_from_bytes),
  REG(address_to_strkey), REG(muxed_address_to_strkey), REG(strkey_to_address),
  REG(strkey_to_muxed_address), REG(get_address_from_muxed_address),
  REG(get_id_from_muxed_address),
  REG(bls12_381_fr_add), REG(bls12_381_fr_sub), REG(bls12_381_fr_mul), REG(bls12_381_fr_pow),
  REG(bls12_381_fr_inv), REG(bn254_fr_add), REG(bn254_fr_sub), REG(bn254_fr_mul),
  REG(bn254_fr_pow), REG(bn254_fr_inv), REG(dummy0), REG(protocol_gated_dummy),
  REG(bn254_g1_add), REG(bn254_g1_msm), REG(bn254_g1_is_on_curve), REG(bn254_g1_mul),   /* host_fns_curve.c */
  REG(bn254_multi_pairing_check), REG(bls12_381_multi_pairing_check),   /* host_fns_pairing.c */
  REG(bls12_381_g1_add), REG(bls12_381_g1_mul), REG(bls12_381_g1_msm), REG(bls12_381_g1_is_on_curve), REG(bls12_381_check_g1_is_in_subgroup), REG(bls12_381_map_fp_to_g1), REG(bls12_381_hash_to_g1), REG(bls12_381_g2_add), REG(bls12_381_g2_mul), REG(bls12_381_g2_msm), REG(bls12_381_g2_is_on_curve), REG(bls12_381_check_g2_is_in_subgroup), REG(bls12_381_map_fp2_to_g2), REG(bls12_381_hash_to_g2),   /* host_fns_bls.c */
  REG(prng_reseed), REG(prng_bytes_new), REG(prng_u64_in_inclusive_range), REG(prng_vec_shuffle),
  REG(poseidon_permutation), REG(poseidon2_permutation),   /* host_fns_poseidon.c */
  REG(map_new_from_linear_memory), REG(sparse_map_new_from_linear_memory),
  REG(map_unpack_to_linear_memory), REG(sparse_map_unpack_to_linear_memory),
  REG(symbol_index_in_linear_memory),
  REG(put_contract_data), REG(get_contract_data), REG(has_contract_data), REG(del_contract_data),
  REG(extend_contract_data_ttl), REG(extend_contract_data_ttl_v2),
  REG(upload_wasm), REG(create_contract), REG(create_contract_with_constructor),
  REG(get_asset_contract_id), REG(create_asset_contract),   /* host_sac.c */
  REG(call), REG(try_call), REG(require_auth), REG(require_auth_for_args),
  REG(authorize_as_curr_contract), REG(delegate_account_auth),
  REG(get_delegated_signers_for_current_auth_check),
  REG(extend_current_contract_instance_and_code_ttl), REG(extend_contract_instance_ttl),
  REG(extend_contract_instance_and_code_ttl), REG(extend_contract_code_ttl),
  REG(get_contract_id), REG(update_current_contract_wasm),
  REG(update_current_contract_executable_ref), REG(extend_contract_instance_and_code_ttl_v2),
  REG(get_address_executable), REG(create_external_ref_contract),
  REG(bytes_put), REG(bytes_get), REG(bytes_del), REG(bytes_push), REG(bytes_pop),
  REG(bytes_front), REG(bytes_back), REG(bytes_insert), REG(bytes_append), REG(bytes_slice),
  REG(string_to_bytes), REG(bytes_to_string), REG(create_executable_tag),
  REG(bytes_copy_to_linear_memory), REG(string_copy_to_linear_memory),
  REG(symbol_copy_to_linear_memory), REG(bytes_copy_from_linear_memory),
};

bool scp_hostfn_implemented(unsigned id) {
  return id < SCP_HF_COUNT && impls[id] != NULL;
}

/* ---- the hooks -------------------------------------------------------- */

static const scp_host_links links = {
  .impls = impls,
  .frame_popped = scp_auth_mgr_frame_popped,
  .destroying = scp_auth_mgr_free,
  .auth_push_contract = scp_auth_mgr_push_contract,
  .auth_snapshot_charges = scp_auth_mgr_snapshot_charges,
  .auth_save = scp_auth_mgr_save,
  .auth_restore = scp_auth_mgr_restore,
  .auth_snap_free = scp_auth_mgr_snap_free,
  .auth_create_frame = scp_auth_push_create,
  .auth_create_pop = scp_auth_pop_create,
  .native_call = scp_sac_call,
};

int scp_host_create(scp_budget *b, const scp_host_opts *opts, scp_host **out) {
  return scp_host_create_linked(b, opts, &links, out);
}
