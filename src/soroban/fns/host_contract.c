/*
 * host_contract.c — contracts: code upload, deployment (contract ids the
 * way the reference derives them), cross-contract call / try_call through
 * the embedder's invoker (a nested VM, run/sor_vm.c), and the instance and
 * code TTL host functions.  Authorization and native contracts are
 * reached through the host's links (scp_host_links).  Reference:
 * rs-soroban-env v28 host/lifecycle.rs, host/frame.rs, host.rs; each
 * function names its part and what is not charged yet.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/core/host_instance.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/fns/sor_code.h"
#include "wasm/scp_wasm.h"

enum {
  SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288, SIZE_CONTRACT_ID = 32,
  SIZE_SCADDRESS = 48, SIZE_CONTRACT_INSTANCE = 96, SIZE_CONTEXT = 552,
  SIZE_STR_PAIR = 16 + 16 + 8,  /* (&str, &str) */
  SIZE_COST_INPUTS = 40,        /* ContractCodeCostInputs */
  SIZE_CONTRACT_ID_PREIMAGE = 80
};

/* ParsedModule::with_import_symbols (vm/parsed_module.rs): the distinct
 * (module, name) pairs of the function imports with both names shorter
 * than 10 bytes (SYM_LEN_LIMIT); the set is charged as a Vec<(&str, &str)> bulk init. */
uint64_t scp_host_import_symbols(const scp_wasm_module *m) {
  uint32_t n = scp_wasm_import_count(m);
  uint64_t count = 0;
  for (uint32_t i = 0; i < n; i++) {
    const scp_wasm_import *a = scp_wasm_import_get(m, i);
    if (a->kind != SCP_EXT_FUNC || a->module_len >= 10 || a->field_len >= 10) continue;
    bool dup = false;
    for (uint32_t k = 0; k < i && !dup; k++) {
      const scp_wasm_import *b = scp_wasm_import_get(m, k);
      dup = b->kind == SCP_EXT_FUNC && a->module_len == b->module_len && a->field_len == b->field_len &&
            !memcmp(a->module, b->module, a->module_len) && !memcmp(a->field, b->field, a->field_len);
    }
    count += !dup;
  }
  return count;
}

/* add_host_object of a value the host built (no copy charge): MemAlloc(64). */
static int new_obj(scp_host *h, unsigned tag, const uint8_t *p, uint32_t len, uint64_t *out) {
  scp_hobj o = { .tag = (uint8_t)tag, .len = len };
  o.u.bytes = malloc(len ? len : 1);
  if (!o.u.bytes) return SCP_ERR_NOMEM;
  memcpy(o.u.bytes, p, len);
  return scp_host_add_obj(h, &o, out);
}

/* ScVal image of an instance entry's value: ScVal::ContractInstance with
 * ContractExecutable::Wasm(hash) and no storage map. */
static void instance_image(const uint8_t hash[32], uint8_t out[44]) {
  static const uint8_t head[8] = { 0, 0, 0, 19, 0, 0, 0, 0 };
  memcpy(out, head, 8);
  memcpy(out + 8, hash, 32);
  memset(out + 40, 0, 4);
}

/* HashIdPreimage::ContractId XDR: ENVELOPE_TYPE_CONTRACT_ID (8), network
 * id, ContractIdPreimage::FromAddress (0), ScAddress, salt.  addr is the
 * host's address encoding (kind byte, payload). */
static size_t preimage(const scp_host *h, const uint8_t *addr, const uint8_t salt[32],
                       uint8_t out[120]) {
  size_t n = 0;
  static const uint8_t env[4] = { 0, 0, 0, 8 };
  memcpy(out + n, env, 4); n += 4;
  memcpy(out + n, h->opts.network_id, 32); n += 32;
  memset(out + n, 0, 4); n += 4;
  memset(out + n, 0, 4);
  out[n + 3] = addr[0];
  n += 4;
  if (addr[0] == 0) { memset(out + n, 0, 4); n += 4; }   /* PublicKey ed25519 */
  memcpy(out + n, addr + 1, 32); n += 32;
  memcpy(out + n, salt, 32); n += 32;
  return n;
}

void scp_host_contract_id(const scp_host *h, bool deployer_is_contract,
                          const uint8_t deployer[32], const uint8_t salt[32], uint8_t id[32]) {
  uint8_t addr[33], pre[120];
  addr[0] = deployer_is_contract ? 1 : 0;
  memcpy(addr + 1, deployer, 32);
  size_t n = preimage(h, addr, salt, pre);
  SHA256(pre, n, id);
}

/* The contract id of an address preimage as get_contract_id_hash and
 * create_contract_with_optional_auth charge it (host/metered_xdr.rs: one
 * ValSer per XDR write, which is why the preimage is charged write by
 * write). */
int scp_host_address_contract_id(scp_host *h, const uint8_t addr[33], const uint8_t salt[32],
                               uint8_t id[32]) {
  if (addr[0] > 1) {
    snprintf(h->errmsg, sizeof h->errmsg,
             "deployers other than accounts and contracts are not supported");
    return SCP_ERR_UNSUPPORTED;
  }
  /* get_ledger_network_id is called through Env: the body, then its
   * result's CheckedEnvArg (a VisitObject), as create_asset_contract's
   * traces show (1,031 CPU between the nested call and ret) */
  uint64_t nidobj;
  uint8_t nid[32];
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID_PREIMAGE);
  if (rc == SCP_OK) rc = scp_hf_get_ledger_network_id(h, NULL, &nidobj);
  if (rc == SCP_OK) rc = scp_host_check_val(h, nidobj);
  if (rc == SCP_OK) rc = scp_lc_hash_input(h, nidobj, nid);
  if (rc != SCP_OK) return rc;
  /* HashIdPreimage::ContractId: envelope type, network id, preimage type,
   * ScAddress type, [PublicKey type], the key or contract id, the salt --
   * metered_write_xdr charges each write_all on its own */
  static const uint32_t writes_account[] = { 4, 32, 4, 4, 4, 32, 32 };
  static const uint32_t writes_contract[] = { 4, 32, 4, 4, 32, 32 };
  const uint32_t *w = addr[0] == 0 ? writes_account : writes_contract;
  size_t nw = addr[0] == 0 ? 7 : 6, total = 0;
  for (size_t i = 0; rc == SCP_OK && i < nw; i++) {
    rc = scp_host_charge(h, SCP_COST_ValSer, w[i]);
    total += w[i];
  }
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeSha256Hash, (int64_t)total);
  if (rc == SCP_OK) scp_host_contract_id(h, addr[0] == 1, addr + 1, salt, id);
  return rc;
}

int scp_host_deploy(scp_host *h, const uint8_t *wasm, size_t len, const uint8_t deployer[32],
                    const uint8_t salt[32], uint8_t id[32]) {
  uint8_t hash[32], img[44], kb[4];
  SHA256(wasm, len, hash);
  scp_host_contract_id(h, false, deployer, salt, id);
  scp_lkey ck, ik;
  scp_lc_code_key(hash, &ck);
  scp_lc_instance_key(id, &ik, kb);
  instance_image(hash, img);
  uint32_t lu = h->opts.ledger_sequence + h->opts.min_persistent_entry_ttl - 1;
  int rc = scp_storage_seed(h, &ck, wasm, (uint32_t)len, lu, false);
  if (rc == SCP_OK) rc = scp_storage_seed(h, &ik, img, sizeof img, lu, false);
  return rc;
}

/* soroban-sdk's e.register(WASM, ()) (env.rs register_contract_with_source):
 * CreateContractV2 from the test generator's next address (contract
 * 00..0gen: the first register's is 1) with a zero salt, in recording auth; its invocation leaves four
 * entries in the Env's long-lived storage map: the deployer's instance key
 * (read, None), the deployer's recording nonce (temporary), the new
 * instance and the code.  The code and the instance are also the module
 * cache's snapshot (scp_host_opts.module_cache). */
int scp_host_deploy_test_env(scp_host *h, const uint8_t *wasm, size_t len, uint32_t gen, uint8_t id[32]) {
  static const uint8_t salt[32];
  uint8_t deployer[32] = { 0 }, hash[32], img[44], kb[4], dkb[4], nonce[12], unit[4] = { 0, 0, 0, 1 };
  scp_put_be64(deployer + 24, gen);
  SHA256(wasm, len, hash);
  scp_host_contract_id(h, true, deployer, salt, id);
  scp_lkey ck, ik, dk, nk;
  scp_lc_code_key(hash, &ck);
  scp_lc_instance_key(id, &ik, kb);
  scp_lc_instance_key(deployer, &dk, dkb);
  /* ScVal::LedgerKeyNonce (21) of the first recording nonce; its value
   * never takes part in a lookup of the called contract's keys (the
   * deployer's address sorts first) */
  memset(nonce, 0, sizeof nonce);
  nonce[3] = 21;
  nk = (scp_lkey){ .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_TEMPORARY, .key = nonce, .keylen = 12 };
  memcpy(nk.id, deployer, 32);
  instance_image(hash, img);
  uint32_t lu = h->opts.ledger_sequence + h->opts.min_persistent_entry_ttl - 1;
  uint32_t tlu = h->opts.ledger_sequence + h->opts.min_temp_entry_ttl - 1;
  int rc = scp_storage_seed(h, &ck, wasm, (uint32_t)len, lu, false);
  if (rc == SCP_OK) rc = scp_storage_seed(h, &ik, img, sizeof img, lu, false);
  if (rc == SCP_OK) rc = scp_storage_seed_map(h, &ck, wasm, (uint32_t)len, lu);
  if (rc == SCP_OK) rc = scp_storage_seed_map(h, &ik, img, sizeof img, lu);
  if (rc == SCP_OK) rc = scp_storage_seed_map(h, &dk, NULL, 0, 0);
  if (rc == SCP_OK) rc = scp_storage_seed_map(h, &nk, unit, sizeof unit, tlu);
  return rc;
}

void scp_host_set_invoker(scp_host *h, scp_host_invoker fn, void *ctx) {
  h->invoker = fn;
  h->invoker_ctx = ctx;
}

/* ---- upload_wasm ------------------------------------------------------------ */

/* upload_contract_wasm, checked to the unit against the reference's
 * traces (test_storage.c: two contracts, success and corrupt-module
 * paths): the Bytes clone (Vec<u8> bulk init), SHA-256
 * (ComputeSha256Hash(n)), the check VM (V0 cost inputs: MemCpy(32) for its
 * id, VmInstantiation(n) -- where a corrupt module fails, exactly as the
 * reference's traces -- the linker's import-symbol set (Vec<(&str, &str)>
 * bulk init), VmCachedInstantiation(n), the import protocol check's
 * symbol set again, MemAlloc of the initial linear memory),
 * charge_for_parsing again (VmInstantiation(n)), the hash object, the code
 * key (MemCpy(32) + MemAlloc(152)), storage has + put (host_storage.c)
 * with the new entry (MemAlloc(288)). */
int scp_hf_upload_wasm(scp_host *h, const uint64_t *a, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);   /* the Vec<u8> clone */
  if (rc != SCP_OK) return rc;
  uint32_t len = o->len;
  uint8_t *wasm = malloc(len ? len : 1);
  if (!wasm) return SCP_ERR_NOMEM;
  memcpy(wasm, o->u.bytes, len);
  uint8_t hash[32];
  rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeSha256Hash, len);
  SHA256(wasm, len, hash);
  /* the check VM: Vm::new with V0 cost inputs */
  if (rc == SCP_OK) {
    scp_wasm_module *m = NULL;
    scp_error werr;
    rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);   /* ContractId(hash) for the VM */
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_VmInstantiation, len);
    if (rc == SCP_OK && (scp_wasm_load(wasm, len, &m, &werr) != SCP_OK ||
                         scp_sor_check_code(m, &werr) != SCP_OK))
      rc = scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INVALID_INPUT, "invalid Wasm: %s", werr.msg);
    /* make_wasmi_linker's import-symbol set, instantiation
     * (VmCachedInstantiation), the import protocol check's symbol set, then
     * wasmi's limiter charges the initial linear memory; then upload
     * charges parsing once more */
    uint64_t nsym = m ? scp_host_import_symbols(m) : 0;
    if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, nsym, SIZE_STR_PAIR);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_VmCachedInstantiation, len);
    if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, nsym, SIZE_STR_PAIR);
    uint64_t pages = m ? scp_wasm_initial_pages(m) : 0;
    if (rc == SCP_OK && pages) rc = scp_host_charge(h, SCP_COST_MemAlloc, (int64_t)(pages * 65536));
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_VmInstantiation, len);
    scp_wasm_module_free(m);
  }
  /* the hash object, then the code key and the storage write */
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 32, 1);
  if (rc == SCP_OK) rc = new_obj(h, SCP_TAG_BYTES_OBJ, hash, 32, ret);
  scp_lkey ck;
  scp_lc_code_key(hash, &ck);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  bool has = false;
  if (rc == SCP_OK) rc = scp_storage_has(h, &ck, &has);
  if (rc == SCP_OK && !has) {
    rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
    if (rc == SCP_OK)
      rc = scp_storage_put(h, &ck, wasm, len,
                           h->opts.ledger_sequence + h->opts.min_persistent_entry_ttl - 1);
  }
  free(wasm);
  return rc;
}

/* ---- create_contract ---------------------------------------------------------- */

static int call_contract(scp_host *h, const uint8_t id[32], const char *name, const uint64_t *args,
                         uint32_t n, int mode, uint64_t *ret);
enum { MODE_CALL, MODE_CONSTRUCTOR, MODE_PROBE, MODE_INTERNAL, MODE_INTERNAL_PROHIBITED };
static int missing_callee(scp_host *h, const uint8_t id[32], int rc);
#define CONSTRUCTOR_SUPPORT_PROTOCOL 22

/* vecobject_to_scval_vec (each Val converted to an ScVal, collected into
 * a Result<Vec<ScVal>, HostError>: its 40-byte shell, 112 bytes an item)
 * then call_args_from_obj (the Vec<Val> clone).  *out is malloc'd. */
static int ctor_args(scp_host *h, uint64_t vec, uint64_t **out, uint32_t *n) {
  enum { SIZE_RESULT_VEC_SCVAL = 24 + 16, SIZE_RESULT_SCVAL = 96 + 16 };
  const scp_hobj *o;
  int rc = scp_host_visit(h, vec, &o);
  if (rc != SCP_OK) return rc;
  if (o->tag != SCP_TAG_VEC_OBJ)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_UNEXPECTED_TYPE, "constructor args must be a Vec");
  uint32_t len = o->len;
  uint64_t *v = malloc((len ? len : 1) * sizeof *v);
  if (!v) return SCP_ERR_NOMEM;
  memcpy(v, o->u.vals, len * sizeof *v);   /* the object table may move under conversions */
  rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC_SCVAL);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, len, SIZE_RESULT_SCVAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, len, SIZE_RESULT_SCVAL);
  for (uint32_t i = 0; rc == SCP_OK && i < len; i++) rc = scp_host_from_host_val_charges(h, v[i]);
  if (rc == SCP_OK) rc = scp_host_visit(h, vec, &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, len, 8);
  if (rc != SCP_OK) {
    free(v);
    return rc;
  }
  *out = v;
  *n = len;
  return SCP_OK;
}

static int construct(scp_host *h, const uint8_t id[32], const uint64_t *ctor, uint32_t nctor);

/* The reference's create path (create_contract_internal), checked up to
 * get_contract_protocol_version's VM (test_contract.c).  The deployer's
 * auth (the auth manager's create-contract frame with its args clones,
 * and require_auth) goes through the auth_create_frame hook for every
 * deployer; the frame stays pushed over the constructor.
 * create_contract_from_obj_inputs reads the deployer and the salt
 * (the wasm hash was read by the host function before, the constructor
 * args after); create_contract_with_optional_auth derives the id
 * (scp_host_address_contract_id); create_contract_with_id clones the id and
 * the executable, checks the instance is absent *before* the executable
 * exists, and store_contract_instance checks again and writes it; then
 * call_constructor: get_contract_protocol_version instantiates the
 * contract's VM once to read its protocol; from protocol 22 on
 * __constructor runs with ctor args (a missing export is a no-op without
 * args); the Address object last. */
static int create(scp_host *h, uint64_t deployer, uint64_t salt_obj, const scp_executable *ex,
                  uint64_t ctor_vec, uint64_t *ret) {
  const scp_hobj *dep;
  uint8_t addr[33], salt[32], id[32] = { 0 };
  int rc = scp_host_visit(h, deployer, &dep);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  memcpy(addr, dep->u.bytes, 33);
  rc = scp_lc_hash_input(h, salt_obj, salt);
  if (rc != SCP_OK) return rc;
  /* the constructor arguments: vecobject_to_scval_vec, then
   * call_args_from_obj (Vec<Val> bulk init) */
  uint64_t *ctor = NULL;
  uint32_t nctor = 0;
  if (ctor_vec != SCP_VAL_VOID) {
    rc = ctor_args(h, ctor_vec, &ctor, &nctor);
    if (rc != SCP_OK) return rc;
  }
  /* create_contract_internal's auth frame and the deployer's require_auth;
   * the frame is popped after the constructor */
  bool auth_frame = false;
  rc = h->links->auth_create_frame(h, deployer, addr, salt, ctor, nctor, ex, &auth_frame);
  if (rc == SCP_OK) rc = scp_host_address_contract_id(h, addr, salt, id);
  scp_lkey ik;
  uint8_t kb[4], wimg[44];
  bool has = false;
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_lc_charge_executable_clone(h, ex);
  scp_lc_instance_key(id, &ik, kb);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_has(h, &ik, &has);
  if (rc == SCP_OK && has) {
    /* the error carries the id as a Bytes object (scbytes_from_hash) */
    uint64_t b;
    rc = scp_host_charge_bulk_init(h, 32, 1);
    if (rc == SCP_OK) rc = new_obj(h, SCP_TAG_BYTES_OBJ, id, 32, &b);
    if (rc == SCP_OK)
      rc = scp_host_err(h, SCP_ET_STORAGE, SCP_EC_EXISTING_VALUE, "contract already exists");
  }
  if (rc == SCP_OK)
    rc = ex->kind == SCP_EXEC_WASM ? scp_lc_verify_wasm_exists(h, ex->hash)
                                   : scp_lc_verify_exec_ref_exists(h, ex);
  uint8_t *img = wimg;
  uint32_t imglen = sizeof wimg;
  if (rc == SCP_OK) rc = scp_storage_has(h, &ik, &has);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);
  if (rc == SCP_OK && ex->kind == SCP_EXEC_WASM) instance_image(ex->hash, wimg);
  else if (rc == SCP_OK) rc = scp_lc_instance_image(ex, &img, &imglen);
  if (rc == SCP_OK)
    rc = scp_storage_put(h, &ik, img, imglen,
                         h->opts.ledger_sequence + h->opts.min_persistent_entry_ttl - 1);
  if (img != wimg) free(img);
  if (rc == SCP_OK) rc = construct(h, id, ctor, nctor);
  if (auth_frame) h->links->auth_create_pop(h);
  free(ctor);
  if (rc != SCP_OK) return rc;
  uint8_t enc[33];
  enc[0] = 1;
  memcpy(enc + 1, id, 32);
  return new_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, ret);
}

/* call_constructor (lifecycle.rs). */
static int construct(scp_host *h, const uint8_t id[32], const uint64_t *ctor, uint32_t nctor) {
  uint64_t proto = 0, r;
  int rc = call_contract(h, id, "", NULL, 0, MODE_PROBE, &proto);
  if (rc != SCP_OK) return rc;
  if (scp_val_major(proto) < CONSTRUCTOR_SUPPORT_PROTOCOL) {
    if (nctor)
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION,
                          "trying to call non-default constructor on a contract that doesn't support constructors (built prior to protocol 22)");
    return SCP_OK;
  }
  /* CONSTRUCTOR_FUNCTION_NAME.try_into_val: a Symbol object (13 bytes:
   * MemCmp, the bytes' bulk init, the object) -- 1,010 CPU and 109 bytes,
   * as test_v_new_gets_contract_code_cost_inputs_upload.json steps 12-13 */
  uint64_t sym;
  static const char ctor_name[] = "__constructor";
  rc = scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)ctor_name,
                                      sizeof ctor_name - 1, &sym);
  if (rc == SCP_OK) rc = call_contract(h, id, ctor_name, ctor, nctor, MODE_CONSTRUCTOR, &r);
  if (rc == SCP_OK && r != SCP_VAL_VOID)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "constructor returned non-void value");
  return rc;
}

/* create_contract (host.rs): hash_from_bytesobj_input of the Wasm hash
 * before anything else. */
int scp_hf_create_contract(scp_host *h, const uint64_t *a, uint64_t *ret) {
  scp_executable ex = { .kind = SCP_EXEC_WASM };
  int rc = scp_lc_hash_input(h, a[1], ex.hash);
  return rc == SCP_OK ? create(h, a[0], a[2], &ex, SCP_VAL_VOID, ret) : rc;
}

int scp_hf_create_contract_with_constructor(scp_host *h, const uint64_t *a, uint64_t *ret) {
  scp_executable ex = { .kind = SCP_EXEC_WASM };
  int rc = scp_lc_hash_input(h, a[1], ex.hash);
  return rc == SCP_OK ? create(h, a[0], a[2], &ex, a[3], ret) : rc;
}

/* create_external_ref_contract (host.rs): executable_ref_from_inputs
 * first, then as create_contract_with_constructor; the instance's
 * executable is the reference, its constructor the referenced Wasm's. */
int scp_hf_create_external_ref_contract(scp_host *h, const uint64_t *a, uint64_t *ret) {
  scp_executable ex;
  int rc = scp_lc_exec_ref_from_inputs(h, a[1], a[2], &ex);
  return rc == SCP_OK ? create(h, a[0], a[3], &ex, a[4], ret) : rc;
}

/* ---- call / try_call ------------------------------------------------------------- */

static bool symbol_text(scp_host *h, uint64_t sym, char *out, size_t cap) {
  if (scp_val_tag_of(sym) == SCP_TAG_SYMBOL_SMALL) {
    char s[16];
    size_t n = scp_val_symbol_small_str(sym, s);
    if (n >= cap) return false;
    memcpy(out, s, n);
    out[n] = 0;
    return true;
  }
  const scp_hobj *o = scp_host_obj(h, sym);
  if (!o || o->len >= cap) return false;
  memcpy(out, o->u.bytes, o->len);
  out[o->len] = 0;
  return true;
}

/* call_n_internal's re-entry rule: the only internal call
 * (check_account_contract_auth, ContractReentryMode::SelfAllowed) may
 * re-enter the last contract frame -- a custom account whose own function
 * requires its auth -- after that frame's instance storage is persisted,
 * so __check_auth sees it; any other re-entry is refused (the frames are
 * all contract frames, so the top one is reentry_distance 0).  A
 * constructor is never a re-entry. */
static int check_reentry(scp_host *h, const uint8_t id[32], int mode, bool constructor) {
  for (size_t i = h->nframes; i-- > 0;)   /* the nearest first (reentry_distance) */
    if (!memcmp(h->frames[i].contract_id, id, 32) && !constructor) {
      if (mode == MODE_INTERNAL && i + 1 == h->nframes) return scp_inst_persist_top(h);
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION, "Contract re-entry is not allowed");
    }
  return SCP_OK;
}

/* A native test contract (call_contract_fn's registry branch): the
 * TestContractFrame's id clone, then with_frame, whose failure rolls the
 * storage map and the events back. */
static int call_test_contract(scp_host *h, const uint8_t id[32], const char *name,
                              const uint64_t *args, uint32_t n, uint64_t *ret) {
  scp_sentry *snap = NULL;
  size_t nsnap = 0, nevents = h->nevents;
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_storage_snapshot(h, &snap, &nsnap);
  if (rc != SCP_OK) return rc;
  rc = h->test_contract(h->test_contract_ctx, h, id, name, args, n, ret);
  scp_storage_frame_end(h, rc != SCP_OK, snap, nsnap, nevents);
  return rc;
}

/* instantiate_vm: the id clone, then the code.  Code live in the snapshot
 * is read and parsed in shadow mode (uncharged; the storage still records
 * the access): *parse false; code written during the run is read with
 * charges (key, get, the BytesM clone, the cost inputs' clone) and parsed
 * with charges (the invoker): *parse true. */
static int read_code(scp_host *h, const uint8_t hash[32], const scp_sentry **e, bool *parse) {
  scp_lkey ck;
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  scp_lc_code_key(hash, &ck);
  *parse = !scp_storage_live_in_snapshot(h, &ck);
  if (!*parse && h->opts.module_cache) {
    /* the cache branch: the key, has(), the cached module */
    bool found;
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
    if (rc == SCP_OK) rc = scp_storage_has(h, &ck, &found);
    if (rc == SCP_OK) *e = scp_storage_snapshot_entry(h, &ck);
    return rc;
  }
  scp_budget *real = h->budget, shadow;
  if (!*parse) {
    scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
    h->budget = &shadow;
  }
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_get(h, &ck, e);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, (*e)->vallen, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_COST_INPUTS);
  h->budget = real;
  return rc;
}

/* The contract's code run by the invoker (a VM of its own) inside
 * with_frame's rollback point: a failing frame leaves the storage map, the
 * auth manager and the events as they were (pop_context).  A trap becomes
 * the host's Error(WasmVm, InvalidAction) with the trap's message. */
static int call_vm(scp_host *h, const scp_invocation *proto, const scp_sentry *e, int mode,
                   uint64_t *ret) {
  /* the code may move when the storage map changes: copy it */
  uint32_t len = e->vallen;
  uint8_t *wasm = malloc(len ? len : 1);
  if (!wasm) return SCP_ERR_NOMEM;
  memcpy(wasm, e->val, len);
  scp_hostmem *saved = h->mem;
  scp_error err = { 0 };
  scp_invocation inv = *proto;
  inv.wasm = wasm;
  inv.len = len;
  scp_sentry *snap = NULL;
  size_t nsnap = 0, nevents = h->nevents;
  struct scp_auth_mgr_snap *asnap = NULL;
  if (mode != MODE_PROBE && (scp_storage_snapshot(h, &snap, &nsnap) != SCP_OK ||
                             h->links->auth_save(h, &asnap) != SCP_OK)) {
    scp_storage_snapshot_free(snap, nsnap);
    free(wasm);
    return SCP_ERR_NOMEM;
  }
  int rc = h->invoker(h->invoker_ctx, h, &inv, ret, &err);
  h->mem = saved;
  free(wasm);
  bool roll_back = rc != SCP_OK && mode != MODE_PROBE;
  scp_storage_frame_end(h, roll_back, snap, nsnap, nevents);
  if (roll_back) h->links->auth_restore(h, asnap);   /* the auth manager's rollback (uncharged) */
  else h->links->auth_snap_free(asnap);
  if (rc == SCP_ERR_TRAP && !h->errmsg[0]) {
    size_t m = strnlen(err.msg, sizeof h->errmsg - 1);
    memcpy(h->errmsg, err.msg, m);
    h->errmsg[m] = 0;
    h->errval = scp_val_error(SCP_ET_WASM_VM, SCP_EC_INVALID_ACTION);
  }
  return rc;
}

static int call_contract(scp_host *h, const uint8_t id[32], const char *name, const uint64_t *args,
                         uint32_t n, int mode, uint64_t *ret) {
  bool constructor = mode != MODE_CALL && mode != MODE_INTERNAL && mode != MODE_INTERNAL_PROHIBITED;
  if (mode == MODE_CALL && !strncmp(name, "__", 2))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION,
                        "can't invoke a reserved function directly");
  int rc = check_reentry(h, id, mode, constructor);
  if (rc != SCP_OK) return rc;
  /* the instance */
  scp_lkey ik;
  uint8_t kb[4];
  scp_lc_instance_key(id, &ik, kb);
  const scp_sentry *e;
  rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_get(h, &ik, &e);
  if (rc != SCP_OK) return missing_callee(h, id, rc);
  scp_executable ex;
  rc = scp_lc_instance_from_entry(h, e, &ex);
  if (rc != SCP_OK) return rc;
  if (mode != MODE_PROBE) rc = scp_host_charge_bulk_init(h, n, 8);   /* args_vec */
  /* the executable: a Stellar Asset contract runs no VM (its protocol is
   * the ledger's); an external reference resolves to a Wasm hash */
  if (rc == SCP_OK && ex.kind == SCP_EXEC_STELLAR_ASSET) {
    if (mode == MODE_PROBE) {
      *ret = scp_val_u32(h->opts.protocol);
      return SCP_OK;
    }
    /* the native contract (sac_contract.c) */
    return h->links->native_call(h, id, name, args, n, ret);
  }
  if (rc == SCP_OK && ex.kind == SCP_EXEC_EXTERNAL_REF) rc = scp_lc_resolve_ref(h, &ex, ex.hash);
  if (rc != SCP_OK) return rc;
  if (h->test_contract && mode != MODE_PROBE) return call_test_contract(h, id, name, args, n, ret);
  uint8_t hash[32];
  memcpy(hash, ex.hash, 32);
  bool parse;
  if ((rc = read_code(h, hash, &e, &parse)) != SCP_OK) return rc;
  if (!h->invoker)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "no VM to run a contract in");
  scp_invocation inv = { .id = id, .wasm = NULL, .len = 0, .fn = name,
                         .constructor = mode == MODE_CONSTRUCTOR, .parse = parse, .args = args,
                         .nargs = n, .probe = mode == MODE_PROBE };
  return call_vm(h, &inv, e, mode, ret);
}

/* A callee with no instance: the host's error as it is (Error(Storage,
 * MissingValue)), its message naming the contract and how a profile gets
 * it deployed, which the storage key alone does not say. */
static int missing_callee(scp_host *h, const uint8_t id[32], int rc) {
  if (rc != SCP_ERR_HOST || h->errval != scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE)) return rc;
  char sk[57];
  scp_host_contract_strkey(id, sk);
  snprintf(h->errmsg, sizeof h->errmsg,
           "trying to get non-existing value for contract storage key: contract %s is not deployed "
           "(give its Wasm with --contract FILE.wasm, or list it in the scenario's \"contracts\")", sk);
  return rc;
}

int scp_host_test_frame_instance(scp_host *h, const uint8_t id[32]) {
  scp_lkey ik;
  uint8_t kb[4];
  scp_lc_instance_key(id, &ik, kb);
  const scp_sentry *e;
  scp_executable ex;
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_get(h, &ik, &e);
  return rc == SCP_OK ? scp_lc_instance_from_entry(h, e, &ex) : rc;
}

/* call / try_call (host.rs), checked to the unit against the reference's
 * trace up to the callee's frame push (test_contract.c): the args Vec
 * (bulk init), the ScAddress clone, the reserved-name check's read of a
 * Symbol object, the instance key and its storage read and clone, the
 * args Vec<Val>, the id clone, the code key, its storage read and clone
 * (for code written during the run; snapshot code is read in shadow
 * mode), then the invoker (VM creation, push_context, the call).  Not
 * charged: the diagnostics.  A failing callee's storage-map changes,
 * events and auth trackers are rolled back (pop_context). */
static int do_call(scp_host *h, const uint64_t *a, uint64_t *ret, bool try_call) {
  const scp_hobj *addr, *args;
  int rc = scp_host_visit(h, a[2], &args);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, args->len, 8);   /* call_args_from_obj */
  if (rc != SCP_OK) return rc;
  uint32_t n = args->len;
  uint64_t *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) return SCP_ERR_NOMEM;
  memcpy(v, args->u.vals, n * sizeof *v);
  rc = scp_host_visit(h, a[0], &addr);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc == SCP_OK && addr->u.bytes[0] != 1)
    rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT, "not a contract address");
  uint8_t id[32];
  char name[64];
  if (rc == SCP_OK && !symbol_text(h, a[1], name, sizeof name))
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "function name too long");
  /* call_n_internal's reserved-name check reads the name as a SymbolStr:
   * a Symbol object through symbol_len (checked: 2 x VisitObject) and
   * symbol_copy_to_slice (VisitObject, MemCpy(len)) */
  if (rc == SCP_OK && scp_val_is_object(a[1])) {
    for (int k = 0; k < 3 && rc == SCP_OK; k++) rc = scp_host_charge(h, SCP_COST_VisitObject, -1);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCpy, (int64_t)strlen(name));
  }
  if (rc == SCP_OK) {
    memcpy(id, addr->u.bytes + 1, 32);
    rc = call_contract(h, id, name, v, n, MODE_CALL, ret);
  }
  free(v);
  if (!try_call || rc == SCP_OK) return rc;
  /* try_call: recoverable errors come back as the Error value */
  if (rc == SCP_ERR_BUDGET || rc == SCP_ERR_NOMEM || rc == SCP_ERR_INTERNAL ||
      rc == SCP_ERR_UNSUPPORTED)
    return rc;
  uint64_t ev = h->errval;
  if (scp_val_tag_of(ev) != SCP_TAG_ERROR) ev = scp_val_error(SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION);
  unsigned type = (unsigned)scp_val_minor(ev), code = scp_val_major(ev);
  if (type == SCP_ET_BUDGET || (type != SCP_ET_CONTRACT && code == SCP_EC_INTERNAL_ERROR))
    return rc;
  *ret = ev;
  h->errmsg[0] = 0;
  return SCP_OK;
}

/* A top-level call's end: a failure's message and Error value out. */
static int top_level_end(scp_host *h, int rc, uint64_t *ret, scp_error *err) {
  if (rc == SCP_OK) return rc;
  size_t m = strnlen(h->errmsg, sizeof h->errmsg - 1);
  err->code = rc;
  memcpy(err->msg, h->errmsg, m);
  err->msg[m] = 0;
  *ret = h->errval;
  return rc;
}

/* A soroban-sdk client's call: the address, the function's Symbol and
 * the argument Vec built by the test (outside the measured span: on a
 * throwaway budget), then Host::call itself, whose charges are the span's
 * (do_call: call_args_from_obj, contract_id_from_address,
 * call_n_internal), with no HostFunction frame below it. */
int scp_host_test_call(scp_host *h, const uint8_t id[32], const char *fn, const uint64_t *args,
                       uint32_t nargs, uint64_t *ret, scp_error *err) {
  h->errmsg[0] = 0;
  uint8_t enc[33];
  enc[0] = 1;
  memcpy(enc + 1, id, 32);
  uint64_t a[3];
  scp_budget *real = h->budget, outside;
  scp_budget_init(&outside, UINT64_MAX, UINT64_MAX);
  h->budget = &outside;
  int rc = new_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &a[0]);
  if (rc == SCP_OK) rc = scp_host_symbol_val(h, fn, &a[1]);
  if (rc == SCP_OK) rc = scp_host_vec_new_from_slice(h, args, nargs, &a[2]);
  h->budget = real;
  if (rc == SCP_OK) rc = do_call(h, a, ret, false);
  return top_level_end(h, rc, ret, err);
}

/* soroban-sdk's e.register(WASM, args) after scp_host_deploy_test_env:
 * its CreateContractV2's call_constructor (lifecycle.rs) on contract id at
 * depth 0, on the caller's budget.  What the constructor leaves in the
 * storage map is the point; the create's own work is the four entries
 * scp_host_deploy_test_env put there. */
int scp_host_test_construct(scp_host *h, const uint8_t id[32], const uint64_t *args, uint32_t nargs,
                            scp_error *err) {
  h->errmsg[0] = 0;
  uint64_t ret = SCP_VAL_VOID;
  return top_level_end(h, construct(h, id, args, nargs), &ret, err);
}

int scp_host_symbol_val(scp_host *h, const char *name, uint64_t *out) {
  size_t n = strlen(name);
  if (scp_val_symbol_small((const uint8_t *)name, n, out)) return SCP_OK;
  return scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)name, (uint32_t)n, out);
}

int scp_host_invoke_contract(scp_host *h, const uint8_t id[32], const char *fn,
                             const uint64_t *args, uint32_t nargs, uint64_t *ret, scp_error *err) {
  h->errmsg[0] = 0;
  int rc = SCP_OK;
  uint64_t small;
  /* call_n_internal's reserved-name check reads a Symbol object */
  if (!scp_val_symbol_small((const uint8_t *)fn, strlen(fn), &small)) {
    for (int k = 0; k < 3 && rc == SCP_OK; k++) rc = scp_host_charge(h, SCP_COST_VisitObject, -1);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCpy, (int64_t)strlen(fn));
  }
  if (rc == SCP_OK) rc = call_contract(h, id, fn, args, nargs, MODE_CALL, ret);
  return top_level_end(h, rc, ret, err);
}

int scp_host_call_internal(scp_host *h, const uint8_t id[32], const char *fn,
                           const uint64_t *args, uint32_t n, uint64_t *ret) {
  return call_contract(h, id, fn, args, n, MODE_INTERNAL, ret);
}

int scp_host_call_internal_prohibited(scp_host *h, const uint8_t id[32], const char *fn,
                                      const uint64_t *args, uint32_t n, uint64_t *ret) {
  return call_contract(h, id, fn, args, n, MODE_INTERNAL_PROHIBITED, ret);
}

int scp_hf_call(scp_host *h, const uint64_t *a, uint64_t *ret) {
  return do_call(h, a, ret, false);
}

int scp_hf_try_call(scp_host *h, const uint64_t *a, uint64_t *ret) {
  return do_call(h, a, ret, true);
}

int scp_host_charge_push_context(scp_host *h, const uint8_t *contract_id) {
  int rc = SCP_OK;
  if (contract_id) {
    /* AuthorizationManager::push_frame for a contract frame: the id clone,
     * the ScAddress object, the call-stack push (ContractInvocation, 16),
     * push_tracker_frame (host_auth_mgr.c) */
    uint8_t enc[33];
    enc[0] = 1;
    memcpy(enc + 1, contract_id, 32);
    uint64_t obj;
    rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
    if (rc == SCP_OK) rc = new_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, &obj);
    if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 1, 16);
    if (rc == SCP_OK) rc = h->links->auth_push_contract(h, obj);
  }
  /* snapshot() (both frame kinds; host_auth_mgr.c).  A host-function frame
   * push costs 2,224 CPU and 616 bytes in enforcing mode on an empty
   * storage map, as test__lifecycle__test_invalid_contract.json step 1
   * records. */
  if (rc == SCP_OK) rc = h->links->auth_snapshot_charges(h);
  /* the rollback point's storage map: MeteredOrdMap::metered_clone */
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, h->nstore, 68);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 1, SIZE_CONTEXT);
  return rc;
}

/* ---- instance and code TTLs (host.rs extend_*_ttl, data_helper.rs) ------------- */

/* extend_contract_instance_ttl_from_contract_id: the key's Rc clone
 * (MemCpy(16)), then Storage::extend_ttl. */
static int extend_instance(scp_host *h, const scp_lkey *ik, const scp_host_ttl *x) {
  int rc = scp_host_charge_copy(h, 1, 16);
  return rc == SCP_OK ? scp_host_extend_ttl(h, ik, x) : rc;
}

int scp_host_extend_ttl(scp_host *h, const scp_lkey *k, const scp_host_ttl *x) {
  return x->v2 ? scp_storage_extend_ttl_v2(h, k, x->p[0], x->p[1], x->p[2])
               : scp_storage_extend_ttl(h, k, x->p[0], x->p[1]);
}

/* extend_contract_code_ttl_from_contract_id and extend_contract_code_ttl_v2
 * (data_helper.rs): the instance read (storage get, ScContractInstance
 * clone); Wasm: the code key, Storage::extend_ttl; ExternalRef: the
 * reference entry, then the code it resolves to; StellarAsset: nothing. */
int scp_host_extend_code(scp_host *h, const scp_lkey *ik, const scp_host_ttl *x) {
  const scp_sentry *e;
  scp_executable ex;
  int rc = scp_storage_get(h, ik, &e);
  if (rc != SCP_OK) return rc;
  rc = scp_lc_instance_from_entry(h, e, &ex);
  if (rc != SCP_OK || ex.kind == SCP_EXEC_STELLAR_ASSET) return rc;
  if (ex.kind == SCP_EXEC_EXTERNAL_REF) {
    scp_lkey rk;
    rc = scp_lc_exec_ref_key(h, &ex, &rk);
    if (rc == SCP_OK) rc = scp_host_extend_ttl(h, &rk, x);
    scp_lkey_free(&rk);
    if (rc == SCP_OK) rc = scp_lc_resolve_ref(h, &ex, ex.hash);
    if (rc != SCP_OK) return rc;
  }
  scp_lkey ck;
  scp_lc_code_key(ex.hash, &ck);
  rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  return rc == SCP_OK ? scp_host_extend_ttl(h, &ck, x) : rc;
}

int scp_host_instance_key_of(scp_host *h, uint64_t addr, scp_lkey *ik, uint8_t kb[4]) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, addr, &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc == SCP_OK && o->u.bytes[0] != 1)
    rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT, "not a contract address");
  if (rc != SCP_OK) return rc;
  scp_lc_instance_key(o->u.bytes + 1, ik, kb);
  rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  return rc == SCP_OK ? scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY) : rc;
}

enum { EXT_INSTANCE = 1, EXT_CODE = 2 };

static int extend_by_address(scp_host *h, uint64_t addr, uint64_t t, uint64_t e, int what) {
  scp_lkey ik;
  uint8_t kb[4];
  int rc = scp_host_instance_key_of(h, addr, &ik, kb);
  const scp_host_ttl x = { .v2 = false, .p = { scp_val_major(t), scp_val_major(e) } };
  if (rc == SCP_OK && (what & EXT_INSTANCE)) rc = extend_instance(h, &ik, &x);
  if (rc == SCP_OK && (what & EXT_CODE)) rc = scp_host_extend_code(h, &ik, &x);
  return rc;
}

int scp_hf_extend_current_contract_instance_and_code_ttl(scp_host *h, const uint64_t *a,
                                                         uint64_t *ret) {
  *ret = SCP_VAL_VOID;
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "Current context has no contract ID");
  scp_lkey ik;
  uint8_t kb[4];
  scp_lc_instance_key(h->frames[h->nframes - 1].contract_id, &ik, kb);
  int rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);   /* get_current_contract_id_internal */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  const scp_host_ttl x = { .v2 = false, .p = { scp_val_major(a[0]), scp_val_major(a[1]) } };
  if (rc == SCP_OK) rc = extend_instance(h, &ik, &x);
  if (rc == SCP_OK) rc = scp_host_extend_code(h, &ik, &x);
  return rc;
}

int scp_hf_extend_contract_instance_ttl(scp_host *h, const uint64_t *a, uint64_t *ret) {
  *ret = SCP_VAL_VOID;
  return extend_by_address(h, a[0], a[1], a[2], EXT_INSTANCE);
}

int scp_hf_extend_contract_instance_and_code_ttl(scp_host *h, const uint64_t *a, uint64_t *ret) {
  *ret = SCP_VAL_VOID;
  return extend_by_address(h, a[0], a[1], a[2], EXT_INSTANCE | EXT_CODE);
}

int scp_hf_extend_contract_code_ttl(scp_host *h, const uint64_t *a, uint64_t *ret) {
  *ret = SCP_VAL_VOID;
  return extend_by_address(h, a[0], a[1], a[2], EXT_CODE);
}
