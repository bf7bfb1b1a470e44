/*
 * factory.c — deploys contracts for a deployer that must authorize it:
 * create_contract's deployer authorization is a create-contract function
 * (CreateContractHostFn) in the deployer's authorization tree, recorded
 * in recording mode (and emulated as an account's signature check), signed
 * and checked with --auth enforce.
 *
 * deploy(deployer: Address, wasm_hash: BytesN<32>, salt: BytesN<32>) -> Address
 *   create_contract(deployer, wasm_hash, salt): the new contract's address.
 * deploy_with(deployer: Address, wasm_hash: BytesN<32>, salt: BytesN<32>,
 *             args: Vec) -> Address
 *   create_contract_with_constructor with the constructor's args.
 *
 *   scprof profile --auth enforce --signer S... --contract build/examples/counter.wasm \
 *       build/examples/factory.wasm deploy addr:G... bytes:<counter.wasm's SHA-256> \
 *       bytes:<32 bytes>
 */
#include "soroban.h"

SOROBAN_EXPORT("deploy") Val deploy(Val deployer, Val wasm_hash, Val salt) {
  return create_contract(deployer, wasm_hash, salt);
}

SOROBAN_EXPORT("deploy_with") Val deploy_with(Val deployer, Val wasm_hash, Val salt, Val args) {
  return create_contract_with_constructor(deployer, wasm_hash, salt, args);
}
