/*
 * host.c — the Soroban host core: object table, relative-handle frames,
 * the host-function table, argument checking and dispatch, in the order and
 * with the charges of rs-soroban-env v28:
 *   soroban-env-host/src/vm/dispatch.rs        (VM -> host dispatch)
 *   soroban-env-common/src/vmcaller_env.rs     (direct Env calls, tests)
 *   soroban-env-common/src/env.rs              (CheckedEnvArg)
 *   soroban-env-host/src/host_object.rs        (handles, add/visit objects)
 *   soroban-env-host/src/host/metered_clone.rs (MemAlloc / MemCpy helpers)
 *   soroban-env-host/src/host/declared_size.rs (declared sizes)
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_private.h"
#include "soroban/core/host_instance.h"

/* Declared sizes (declared_size.rs). */
enum { SIZE_HOST_OBJECT = 64, SIZE_OBJECT = 8, SIZE_VEC = 24 };

/* ---- host-function table --------------------------------------------- */

static const scp_hostfn hostfns[SCP_HF_COUNT] = {
#define A(t)
#define X(id, mod, fld, nm, n, lo, hi, ret, args) \
  [id] = { .module = mod, .field = fld, .name = #nm, .argc = n, .min_proto = lo, .max_proto = hi },
#include "soroban/core/host_fns.def"
#undef X
#undef A
};

static const uint8_t hostfn_argtypes[SCP_HF_COUNT][SCP_HOST_MAX_ARGS] = {
#define A(t) SCP_VT_##t,
#define X(id, mod, field, name, argc, lo, hi, ret, args) [id] = { args },
#include "soroban/core/host_fns.def"
#undef X
#undef A
};

static const uint8_t hostfn_rettype[SCP_HF_COUNT] = {
#define A(t)
#define X(id, mod, field, name, argc, lo, hi, ret, args) [id] = SCP_VT_##ret,
#include "soroban/core/host_fns.def"
#undef X
#undef A
};

_Static_assert(SCP_HF_COUNT == 199, "env.json v28 has 199 host functions");

/* The newest protocol env.json names (a min/max bound); the default. */
#define LATEST_PROTOCOL 28

unsigned scp_hostfn_count(void) { return SCP_HF_COUNT; }

const scp_hostfn *scp_hostfn_get(unsigned id) {
  return id < SCP_HF_COUNT ? &hostfns[id] : NULL;
}

int scp_hostfn_find(const char *module, const char *field) {
  for (unsigned i = 0; i < SCP_HF_COUNT; i++)
    if (!strcmp(hostfns[i].module, module) && !strcmp(hostfns[i].field, field))
      return (int)i;
  return -1;
}

int scp_hostfn_find_name(const char *name) {
  for (unsigned i = 0; i < SCP_HF_COUNT; i++)
    if (!strcmp(hostfns[i].name, name)) return (int)i;
  return -1;
}

unsigned scp_hostfn_argtype(unsigned id, unsigned arg) {
  return id < SCP_HF_COUNT && arg < SCP_HOST_MAX_ARGS ? hostfn_argtypes[id][arg] : SCP_VT_COUNT;
}

unsigned scp_hostfn_rettype(unsigned id) {
  return id < SCP_HF_COUNT ? hostfn_rettype[id] : SCP_VT_COUNT;
}

/* ---- errors and charges ---------------------------------------------- */

int scp_host_err(scp_host *h, scp_err_type type, scp_err_code code,
                 const char *fmt, ...) {
  h->errval = scp_val_error(type, code);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(h->errmsg, sizeof h->errmsg, fmt, ap);
  va_end(ap);
  return SCP_ERR_HOST;
}

int scp_host_charge_n(scp_host *h, scp_cost_type t, uint64_t n, int64_t input) {
  int rc = scp_budget_charge(h->budget, t, n, input);
  if (rc == SCP_ERR_BUDGET) {
    h->errval = scp_val_error(SCP_ET_BUDGET, SCP_EC_EXCEEDED_LIMIT);
    snprintf(h->errmsg, sizeof h->errmsg, "budget exceeded charging %s",
             scp_cost_type_name(t));
  } else if (rc != SCP_OK) {
    h->errval = scp_val_error(SCP_ET_BUDGET, SCP_EC_INTERNAL_ERROR);
    snprintf(h->errmsg, sizeof h->errmsg, "bad charge of %s",
             scp_cost_type_name(t));
  }
  return rc;
}

int scp_host_charge(scp_host *h, scp_cost_type t, int64_t input) {
  return scp_host_charge_n(h, t, 1, input);
}

static int64_t sat_input(uint64_t n, uint64_t size) {
  uint64_t r;
  if (__builtin_mul_overflow(n, size, &r) || r > (uint64_t)INT64_MAX)
    return INT64_MAX;
  return (int64_t)r;
}

int scp_host_charge_alloc(scp_host *h, uint64_t n, uint64_t size) {
  return scp_host_charge(h, SCP_COST_MemAlloc, sat_input(n, size));
}

int scp_host_charge_copy(scp_host *h, uint64_t n, uint64_t size) {
  return scp_host_charge(h, SCP_COST_MemCpy, sat_input(n, size));
}

/* MeteredContainer::charge_bulk_init_cpy for Vec<T> (metered_clone.rs). */
int scp_host_charge_bulk_init(scp_host *h, uint64_t n, uint64_t size) {
  int rc = scp_host_charge_copy(h, 1, SIZE_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n, size);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, size);
  return rc;
}

/* ---- objects ----------------------------------------------------------- */

static bool obj_owns_bytes(unsigned tag) {
  return tag == SCP_TAG_BYTES_OBJ || tag == SCP_TAG_STRING_OBJ ||
         tag == SCP_TAG_SYMBOL_OBJ || tag == SCP_TAG_ADDRESS_OBJ ||
         tag == SCP_TAG_MUXED_ADDRESS_OBJ || tag == SCP_TAG_EXECUTABLE_TAG_OBJ;
}

static void obj_free(scp_hobj *o) {
  if (obj_owns_bytes(o->tag)) free(o->u.bytes);
  else if (o->tag == SCP_TAG_VEC_OBJ || o->tag == SCP_TAG_MAP_OBJ) free(o->u.vals);
}

int scp_host_add_obj(scp_host *h, scp_hobj *o, uint64_t *out) {
  /* containers always own a (possibly 1-word) buffer, so that copies out
   * of an empty one never see a null pointer */
  if ((o->tag == SCP_TAG_VEC_OBJ || o->tag == SCP_TAG_MAP_OBJ) && !o->u.vals) {
    o->u.vals = calloc(1, sizeof *o->u.vals);
    if (!o->u.vals) return SCP_ERR_NOMEM;
  } else if (obj_owns_bytes(o->tag) && !o->u.bytes) {
    o->u.bytes = calloc(1, 1);
    if (!o->u.bytes) return SCP_ERR_NOMEM;
  }
  /* add_host_object: the index (and so the handle) is taken before the
   * charge; an index that does not fit a handle is an arithmetic overflow. */
  if (h->nobjs >= (size_t)UINT32_MAX >> 1) {
    obj_free(o);
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_ARITH_DOMAIN, "too many host objects");
  }
  int rc = scp_host_charge_alloc(h, 1, SIZE_HOST_OBJECT);
  if (rc == SCP_OK && !scp_grow(&h->objs, &h->capobjs, h->nobjs + 1, sizeof *h->objs))
    rc = SCP_ERR_NOMEM;
  if (rc != SCP_OK) {
    obj_free(o);
    return rc;
  }
  uint32_t handle = ((uint32_t)h->nobjs << 1) | 1;
  h->objs[h->nobjs++] = *o;
  *out = scp_val_object(o->tag, handle);
  return SCP_OK;
}

const scp_hobj *scp_host_obj(const scp_host *h, uint64_t v) {
  if (!scp_val_is_object(v)) return NULL;
  uint32_t handle = scp_val_handle(v);
  if (scp_val_handle_is_relative(handle)) return NULL;
  size_t idx = handle >> 1;
  return idx < h->nobjs ? &h->objs[idx] : NULL;
}

int scp_host_visit(scp_host *h, uint64_t v, const scp_hobj **out) {
  int rc = scp_host_charge(h, SCP_COST_VisitObject, -1);
  if (rc != SCP_OK) return rc;
  uint32_t handle = scp_val_handle(v);
  if (scp_val_handle_is_relative(handle))
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR,
                        "looking up relative object %u", handle);
  size_t idx = handle >> 1;
  if (idx >= h->nobjs)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "unknown object reference %u", handle);
  *out = &h->objs[idx];
  return SCP_OK;
}

/* EnvBase::check_val_integrity (env.rs) with Host::check_obj_integrity
 * (host.rs): a bad Val is Error(Value, InvalidInput); an object is visited
 * (one VisitObject) and must be of the kind its tag names. */
int scp_host_check_val(scp_host *h, uint64_t v) {
  if (!scp_val_is_good(v))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "bad Val 0x%016llx", (unsigned long long)v);
  if (!scp_val_is_object(v)) return SCP_OK;
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->tag != scp_val_tag_of(v))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "mis-tagged object reference");
  return SCP_OK;
}

/* ---- frames and relative handles --------------------------------------- */

int scp_host_push_contract_frame(scp_host *h, const uint8_t contract_id[32]) {
  if (!scp_grow(&h->frames, &h->capframes, h->nframes + 1, sizeof *h->frames))
    return SCP_ERR_NOMEM;
  scp_frame *f = &h->frames[h->nframes];
  *f = (scp_frame){ 0 };
  memcpy(f->contract_id, contract_id, 32);
  /* the instance the call read (host_instance.c) */
  int rc = scp_inst_capture(h, f);
  if (rc == SCP_OK) h->nframes++;
  return rc;
}

int scp_host_push_frame(scp_host *h) {
  static const uint8_t zero[32];
  return scp_host_push_contract_frame(h, zero);
}

void scp_host_pop_frame(scp_host *h) {
  if (!h->nframes) return;
  scp_frame *f = &h->frames[--h->nframes];
  free(f->rel);
  free(f->args);
  scp_inst_frame_free(f);
  /* pop_context: auth's emulation and the manager's pop_frame */
  if (h->links) h->links->frame_popped(h);
}

int scp_host_take_auth_emulation_rc(scp_host *h, scp_error *err) {
  int rc = h->auth_emul_rc;
  h->auth_emul_rc = SCP_OK;
  if (rc != SCP_OK && err)
    scp_fail(err, rc, "%s", h->errmsg[0] ? h->errmsg : "auth emulation failed");
  return rc;
}

int scp_host_set_frame_args(scp_host *h, const uint64_t *args, uint32_t n) {
  if (!h->nframes) return SCP_ERR_INTERNAL;
  scp_frame *f = &h->frames[h->nframes - 1];
  uint64_t *c = malloc((n ? n : 1) * sizeof *c);
  if (!c) return SCP_ERR_NOMEM;
  if (n) memcpy(c, args, n * sizeof *c);
  free(f->args);
  f->args = c;
  f->nargs = n;
  return SCP_OK;
}

bool scp_host_in_vm(const scp_host *h) { return h->nframes > 0; }

/* Host::relative_to_absolute (host_object.rs): no charge. */
int scp_host_to_absolute(scp_host *h, uint64_t v, uint64_t *out) {
  *out = v;
  if (!scp_val_is_object(v)) return SCP_OK;
  uint32_t handle = scp_val_handle(v);
  if (!scp_val_handle_is_relative(handle))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "relative_to_absolute given an absolute reference %u", handle);
  if (!h->nframes)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "no frame");
  const scp_frame *f = &h->frames[h->nframes - 1];
  size_t idx = handle >> 1;
  if (idx >= f->n)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "unknown relative object reference %u", handle);
  if (scp_val_tag_of(f->rel[idx]) != scp_val_tag_of(v))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "relative and absolute object types differ");
  *out = f->rel[idx];
  return SCP_OK;
}

/* Host::absolute_to_relative: charge_heap_alloc::<Object>(1) = MemAlloc(8),
 * then a new entry in the current frame's table (never deduplicated). */
int scp_host_to_relative(scp_host *h, uint64_t v, uint64_t *out) {
  *out = v;
  if (!scp_val_is_object(v)) return SCP_OK;
  uint32_t handle = scp_val_handle(v);
  if (scp_val_handle_is_relative(handle))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "absolute_to_relative given a relative reference %u", handle);
  int rc = scp_host_charge_alloc(h, 1, SIZE_OBJECT);
  if (rc != SCP_OK) return rc;
  if (!h->nframes)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "no frame");
  scp_frame *f = &h->frames[h->nframes - 1];
  if (f->n >= (size_t)UINT32_MAX >> 1)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_ARITH_DOMAIN, "too many relative objects");
  if (!scp_grow(&f->rel, &f->cap, f->n + 1, sizeof *f->rel)) return SCP_ERR_NOMEM;
  f->rel[f->n] = v;
  *out = scp_val_object(scp_val_tag_of(v), (uint32_t)f->n << 1);
  f->n++;
  return SCP_OK;
}

/* ---- linear memory ------------------------------------------------------- */

/* Vm::get_memory (vm.rs): a module without a `memory` export has no
 * linear memory, Error(WasmVm, MissingValue).  A 0-page memory exists
 * (base may be NULL, len 0). */
int scp_host_mem_get(scp_host *h) {
  if (!h->mem)
    return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_MISSING_VALUE,
                        "no linear memory named `memory`");
  return SCP_OK;
}

int scp_host_mem_oob(scp_host *h) {
  return scp_host_err(h, SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS,
                      "out-of-bounds access to WASM linear memory");
}

/* wasmi Memory::read/write: pos + len within the data (usize arithmetic,
 * no overflow from two u32s). */
static int mem_range(scp_host *h, uint32_t pos, uint32_t len) {
  int rc = scp_host_mem_get(h);
  if (rc == SCP_OK && (uint64_t)pos + len > h->mem->len) rc = scp_host_mem_oob(h);
  return rc;
}

/* metered_vm_read_bytes_from_linear_memory (mem_helper.rs): MemCpy(len) is
 * charged before get_memory and the bounds check. */
int scp_host_mem_read(scp_host *h, uint32_t pos, uint32_t len, uint8_t *dst) {
  int rc = scp_host_charge(h, SCP_COST_MemCpy, len);
  if (rc == SCP_OK) rc = mem_range(h, pos, len);
  if (rc == SCP_OK && len) memcpy(dst, h->mem->base + pos, len);
  return rc;
}

int scp_host_mem_write(scp_host *h, uint32_t pos, const uint8_t *src, uint32_t len) {
  int rc = scp_host_charge(h, SCP_COST_MemCpy, len);
  if (rc == SCP_OK) rc = mem_range(h, pos, len);
  if (rc == SCP_OK && len) memcpy(h->mem->base + pos, src, len);
  return rc;
}

/* ---- create / destroy ---------------------------------------------------- */

int scp_host_create_linked(scp_budget *b, const scp_host_opts *opts,
                           const scp_host_links *links, scp_host **out) {
  *out = NULL;
  scp_host *h = calloc(1, sizeof *h);
  if (!h) return SCP_ERR_NOMEM;
  h->budget = b;
  h->links = links;
  if (opts) h->opts = *opts;
  if (!h->opts.protocol) h->opts.protocol = LATEST_PROTOCOL;
  if (!h->opts.max_entry_ttl) h->opts.max_entry_ttl = 3110400;
  if (!h->opts.min_temp_entry_ttl) h->opts.min_temp_entry_ttl = 16;
  if (!h->opts.min_persistent_entry_ttl) h->opts.min_persistent_entry_ttl = 4096;
  *out = h;
  return SCP_OK;
}

void scp_host_destroy(scp_host *h) {
  if (!h) return;
  /* the auth manager first: frames popped below run no emulation */
  if (h->links) h->links->destroying(h);
  scp_storage_free(h);
  free(h->auths);
  for (size_t i = 0; i < h->nobjs; i++) obj_free(&h->objs[i]);
  free(h->objs);
  while (h->nframes) scp_host_pop_frame(h);
  free(h->frames);
  free(h->events);
  free(h->failed_events);
  free(h);
}

size_t scp_host_event_count(const scp_host *h) { return h->nevents; }

uint64_t scp_host_recording_nonces(const scp_host *h) { return h->nonces_drawn; }

void scp_host_skip_recording_nonces(scp_host *h, uint64_t n) {
  for (uint64_t i = 0; i < n && h->has_nonce_prng; i++) scp_prng_u64_inclusive(&h->nonce_prng, 0, INT64_MAX);
}

int scp_host_set_base_prng_seed(scp_host *h, const uint8_t seed[32]) {
  /* unbias_prng_seed (crypto/mod.rs): bulk_charge(ComputeSha256Hash, 2, 64) */
  int rc = scp_host_charge_n(h, SCP_COST_ComputeSha256Hash, 2, 64);
  if (rc != SCP_OK) return rc;
  scp_prng_seed(&h->base_prng, seed);
  h->has_base_prng = true;
  /* two unmetered sub-PRNGs are drawn right away (unmetered_raw_sub_prng):
   * the recording-auth nonce PRNG, then the tests' */
  uint8_t sub[32];
  scp_prng_fill(&h->base_prng, sub, sizeof sub);
  scp_prng_seed_raw(&h->nonce_prng, sub);
  h->has_nonce_prng = true;
  scp_prng_fill(&h->base_prng, sub, sizeof sub);
  return SCP_OK;
}

size_t scp_host_object_count(const scp_host *h) { return h->nobjs; }

/* ---- argument typing ----------------------------------------------------- */

/* WasmiMarshal::try_marshal_from_value + ValConvert::is_val_type: what a
 * raw i64 must look like to be passed as `type`. */
static bool marshal_ok(unsigned type, uint64_t v) {
  unsigned tag = scp_val_tag_of(v);
  switch (type) {
  case SCP_VT_u64: case SCP_VT_i64: return true;
  /* StorageType / ContractTtlExtension are plain enums across the ABI. */
  case SCP_VT_StorageType: case SCP_VT_ContractTtlExtension: return v <= 2;
  default: break;
  }
  if (!scp_val_is_good(v)) return false;
  switch (type) {
  case SCP_VT_Val: return true;
  case SCP_VT_Void: return tag == SCP_TAG_VOID;
  case SCP_VT_Bool: return tag == SCP_TAG_TRUE || tag == SCP_TAG_FALSE;
  case SCP_VT_Error: return tag == SCP_TAG_ERROR;
  case SCP_VT_U32Val: return tag == SCP_TAG_U32;
  case SCP_VT_Symbol: return tag == SCP_TAG_SYMBOL_SMALL || tag == SCP_TAG_SYMBOL_OBJ;
  case SCP_VT_U64Val: return tag == SCP_TAG_U64_SMALL || tag == SCP_TAG_U64_OBJ;
  case SCP_VT_U256Val: return tag == SCP_TAG_U256_SMALL || tag == SCP_TAG_U256_OBJ;
  case SCP_VT_I256Val: return tag == SCP_TAG_I256_SMALL || tag == SCP_TAG_I256_OBJ;
  case SCP_VT_AddressObject: return tag == SCP_TAG_ADDRESS_OBJ;
  case SCP_VT_MuxedAddressObject: return tag == SCP_TAG_MUXED_ADDRESS_OBJ;
  case SCP_VT_BytesObject: return tag == SCP_TAG_BYTES_OBJ;
  case SCP_VT_StringObject: return tag == SCP_TAG_STRING_OBJ;
  case SCP_VT_SymbolObject: return tag == SCP_TAG_SYMBOL_OBJ;
  case SCP_VT_VecObject: return tag == SCP_TAG_VEC_OBJ;
  case SCP_VT_MapObject: return tag == SCP_TAG_MAP_OBJ;
  case SCP_VT_U64Object: return tag == SCP_TAG_U64_OBJ;
  case SCP_VT_I64Object: return tag == SCP_TAG_I64_OBJ;
  case SCP_VT_TimepointObject: return tag == SCP_TAG_TIMEPOINT_OBJ;
  case SCP_VT_DurationObject: return tag == SCP_TAG_DURATION_OBJ;
  case SCP_VT_U128Object: return tag == SCP_TAG_U128_OBJ;
  case SCP_VT_I128Object: return tag == SCP_TAG_I128_OBJ;
  case SCP_VT_U256Object: return tag == SCP_TAG_U256_OBJ;
  case SCP_VT_I256Object: return tag == SCP_TAG_I256_OBJ;
  case SCP_VT_ExecutableTagObject: return tag == SCP_TAG_EXECUTABLE_TAG_OBJ;
  default: return false;
  }
}

/* Types that carry a Val (CheckedEnvArg checks them; u64/i64 and the enums
 * are passed through untouched). */
static bool is_val_type(unsigned type) {
  return type != SCP_VT_u64 && type != SCP_VT_i64 &&
         type != SCP_VT_StorageType && type != SCP_VT_ContractTtlExtension;
}

static int fail(scp_host *h, int rc, uint64_t *ret, scp_error *err, const char *name) {
  if (rc == SCP_ERR_HOST || rc == SCP_ERR_BUDGET) {
    *ret = h->errval;
    scp_fail(err, rc, "%s: %s", name, h->errmsg);
  } else if (rc == SCP_ERR_NOMEM) {
    scp_fail(err, rc, "%s: out of memory", name);
  } else {
    scp_fail(err, rc, "%s: %s", name, h->errmsg[0] ? h->errmsg : scp_strerror(rc));
  }
  return rc;
}

static int check_protocol(scp_host *h, const scp_hostfn *d) {
  if (d->min_proto && h->opts.protocol < d->min_proto)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INDEX_BOUNDS,
                        "protocol version %u is below %u", h->opts.protocol, d->min_proto);
  if (d->max_proto && h->opts.protocol > d->max_proto)
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INDEX_BOUNDS,
                        "protocol version %u is above %u", h->opts.protocol, d->max_proto);
  return SCP_OK;
}

/* The shared middle of both call paths: the function body, then the
 * result's CheckedEnvArg. */
static int run_impl(scp_host *h, unsigned fn, const uint64_t *abs, uint64_t *ret) {
  scp_hostfn_impl impl = h->links ? h->links->impls[fn] : NULL;
  if (!impl) {
    snprintf(h->errmsg, sizeof h->errmsg, "host function not implemented");
    return SCP_ERR_UNSUPPORTED;
  }
  uint64_t r = SCP_VAL_VOID;
  int rc = impl(h, abs, &r);
  if (rc != SCP_OK) return rc;
  if (is_val_type(hostfn_rettype[fn])) {
    rc = scp_host_check_val(h, r);
    if (rc != SCP_OK) return rc;
  }
  *ret = r;
  return SCP_OK;
}

/* The two call paths share everything but what the VM adds: the
 * DispatchHostFunction charge and the relative <-> absolute conversion of
 * object handles (dispatch.rs); a direct call (the reference's own tests
 * calling the host as an Env) has neither. */
static int invoke(scp_host *h, unsigned fn, const uint64_t *args, scp_hostmem *mem,
                  uint64_t *ret, scp_error *err, bool from_vm) {
  if (fn >= SCP_HF_COUNT)
    return scp_fail(err, SCP_ERR_INTERNAL, "host function id %u out of range", fn);
  const scp_hostfn *d = &hostfns[fn];
  h->errmsg[0] = 0;
  int rc = check_protocol(h, d);
  /* dispatch.rs: the guest's fuel is already in the budget (sor_vm.c). */
  if (from_vm && rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_DispatchHostFunction, -1);
  uint64_t abs[SCP_HOST_MAX_ARGS];
  /* Each argument in turn: marshal (type check), relative -> absolute,
   * CheckedEnvArg. */
  for (unsigned i = 0; rc == SCP_OK && i < d->argc; i++) {
    unsigned type = hostfn_argtypes[fn][i];
    if (!marshal_ok(type, args[i])) {
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "argument %u has the wrong type", i + 1);
      break;
    }
    abs[i] = args[i];
    if (!is_val_type(type)) continue;
    if (from_vm) rc = scp_host_to_absolute(h, args[i], &abs[i]);
    if (rc == SCP_OK) rc = scp_host_check_val(h, abs[i]);
  }
  h->mem = mem;
  uint64_t r = SCP_VAL_VOID;
  if (rc == SCP_OK) rc = run_impl(h, fn, abs, &r);
  h->mem = NULL;
  if (from_vm && rc == SCP_OK && is_val_type(hostfn_rettype[fn]))
    rc = scp_host_to_relative(h, r, &r);
  if (rc != SCP_OK) return fail(h, rc, ret, err, d->name);
  *ret = r;
  return SCP_OK;
}

int scp_host_dispatch(scp_host *h, unsigned fn, const uint64_t *args,
                      scp_hostmem *mem, uint64_t *ret, scp_error *err) {
  return invoke(h, fn, args, mem, ret, err, true);
}

int scp_host_call(scp_host *h, unsigned fn, const uint64_t *args,
                  scp_hostmem *mem, uint64_t *ret, scp_error *err) {
  return invoke(h, fn, args, mem, ret, err, false);
}

/* ---- formatting -------------------------------------------------------- */

static void put_u128(scp_buf *b, uint64_t hi, uint64_t lo) {
  char tmp[48];
  int n = 0;
  unsigned __int128 x = ((unsigned __int128)hi << 64) | lo;
  do {
    tmp[n++] = (char)('0' + (int)(x % 10));
    x /= 10;
  } while (x);
  while (n) scp_buf_putc(b, tmp[--n]);
}

static void put_i128(scp_buf *b, uint64_t hi, uint64_t lo) {
  __int128 x = (__int128)(((unsigned __int128)hi << 64) | lo);
  if (x < 0) {
    scp_buf_putc(b, '-');
    unsigned __int128 m = (unsigned __int128)0 - (unsigned __int128)x;
    put_u128(b, (uint64_t)(m >> 64), (uint64_t)m);
  } else {
    put_u128(b, hi, lo);
  }
}

/* A rendering stops ("...") past depth 8, 32 elements per container, and
 * once it has written FORMAT_MAX bytes: containers may share sub-objects,
 * so a few hundred bytes of objects can stand for 32^8 elements. */
#define FORMAT_MAX 4096

static void format_val(scp_host *h, uint64_t v, scp_buf *b, int depth, size_t stop);

static void format_obj(scp_host *h, uint64_t v, scp_buf *b, int depth, size_t stop) {
  uint64_t abs = v;
  if (scp_val_handle_is_relative(scp_val_handle(v)) && h->nframes) {
    const scp_frame *f = &h->frames[h->nframes - 1];
    size_t idx = scp_val_handle(v) >> 1;
    if (idx < f->n) abs = f->rel[idx];
  }
  const scp_hobj *o = scp_host_obj(h, abs);
  if (!o) {
    scp_buf_printf(b, "obj#%u?", scp_val_handle(v));
    return;
  }
  switch (o->tag) {
  case SCP_TAG_U64_OBJ: scp_buf_printf(b, "u64:%llu", (unsigned long long)o->u.u64); break;
  case SCP_TAG_I64_OBJ: scp_buf_printf(b, "i64:%lld", (long long)o->u.i64); break;
  case SCP_TAG_TIMEPOINT_OBJ: scp_buf_printf(b, "timepoint:%llu", (unsigned long long)o->u.u64); break;
  case SCP_TAG_DURATION_OBJ: scp_buf_printf(b, "duration:%llu", (unsigned long long)o->u.u64); break;
  case SCP_TAG_U128_OBJ: scp_buf_puts(b, "u128:"); put_u128(b, o->u.i128.hi, o->u.i128.lo); break;
  case SCP_TAG_I128_OBJ: scp_buf_puts(b, "i128:"); put_i128(b, o->u.i128.hi, o->u.i128.lo); break;
  case SCP_TAG_U256_OBJ: case SCP_TAG_I256_OBJ:
    scp_buf_printf(b, "%s:0x%016llx%016llx%016llx%016llx",
                   o->tag == SCP_TAG_U256_OBJ ? "u256" : "i256",
                   (unsigned long long)o->u.w[0], (unsigned long long)o->u.w[1],
                   (unsigned long long)o->u.w[2], (unsigned long long)o->u.w[3]);
    break;
  case SCP_TAG_BYTES_OBJ:
    scp_buf_puts(b, "bytes:");
    for (uint32_t i = 0; i < o->len && i < 64; i++) scp_buf_printf(b, "%02x", o->u.bytes[i]);
    if (o->len > 64) scp_buf_printf(b, "...(%u bytes)", o->len);
    break;
  case SCP_TAG_STRING_OBJ: case SCP_TAG_SYMBOL_OBJ:
    scp_buf_puts(b, o->tag == SCP_TAG_STRING_OBJ ? "str:\"" : "sym:");
    for (uint32_t i = 0; i < o->len && i < 200; i++) {
      uint8_t c = o->u.bytes[i];
      if (c >= 32 && c < 127 && c != '"' && c != '\\') scp_buf_putc(b, (char)c);
      else scp_buf_printf(b, "\\x%02x", c);
    }
    if (o->tag == SCP_TAG_STRING_OBJ) scp_buf_putc(b, '"');
    break;
  case SCP_TAG_VEC_OBJ:
    scp_buf_puts(b, "Vec[");
    for (uint32_t i = 0; i < o->len; i++) {
      if (i) scp_buf_puts(b, ", ");
      if (depth > 8 || i >= 32 || b->len >= stop) { scp_buf_puts(b, "..."); break; }
      format_val(h, o->u.vals[i], b, depth + 1, stop);
    }
    scp_buf_putc(b, ']');
    break;
  case SCP_TAG_MAP_OBJ:
    scp_buf_puts(b, "Map{");
    for (uint32_t i = 0; i < o->len; i++) {
      if (i) scp_buf_puts(b, ", ");
      if (depth > 8 || i >= 32 || b->len >= stop) { scp_buf_puts(b, "..."); break; }
      format_val(h, o->u.vals[2 * i], b, depth + 1, stop);
      scp_buf_puts(b, ": ");
      format_val(h, o->u.vals[2 * i + 1], b, depth + 1, stop);
    }
    scp_buf_putc(b, '}');
    break;
  case SCP_TAG_ADDRESS_OBJ: case SCP_TAG_MUXED_ADDRESS_OBJ:
    /* account, contract or muxed account; other kinds have no strkey here */
    if (o->len && o->u.bytes[0] <= 2 && o->len == (o->u.bytes[0] == 2 ? 41u : 33u)) {
      char sk[80];
      scp_host_addr_obj_strkey(o, sk);
      scp_buf_printf(b, "addr:%s", sk);
      break;
    }
    /* fall through */
  default:
    scp_buf_printf(b, "obj(tag %u)", o->tag);
    break;
  }
}

static void format_val(scp_host *h, uint64_t v, scp_buf *b, int depth, size_t stop) {
  unsigned tag = scp_val_tag_of(v);
  char sym[16];
  switch (tag) {
  case SCP_TAG_FALSE: scp_buf_puts(b, "bool:false"); return;
  case SCP_TAG_TRUE: scp_buf_puts(b, "bool:true"); return;
  case SCP_TAG_VOID: scp_buf_puts(b, "void"); return;
  case SCP_TAG_ERROR:
    scp_buf_printf(b, "Error(%u, %u)", scp_val_minor(v), scp_val_major(v));
    return;
  case SCP_TAG_U32: scp_buf_printf(b, "u32:%u", scp_val_major(v)); return;
  case SCP_TAG_I32: scp_buf_printf(b, "i32:%d", (int32_t)scp_val_major(v)); return;
  case SCP_TAG_U64_SMALL: scp_buf_printf(b, "u64:%llu", (unsigned long long)scp_val_body(v)); return;
  case SCP_TAG_I64_SMALL: scp_buf_printf(b, "i64:%lld", (long long)scp_val_signed_body(v)); return;
  case SCP_TAG_TIMEPOINT_SMALL: scp_buf_printf(b, "timepoint:%llu", (unsigned long long)scp_val_body(v)); return;
  case SCP_TAG_DURATION_SMALL: scp_buf_printf(b, "duration:%llu", (unsigned long long)scp_val_body(v)); return;
  case SCP_TAG_U128_SMALL: scp_buf_printf(b, "u128:%llu", (unsigned long long)scp_val_body(v)); return;
  case SCP_TAG_I128_SMALL: scp_buf_printf(b, "i128:%lld", (long long)scp_val_signed_body(v)); return;
  case SCP_TAG_U256_SMALL: scp_buf_printf(b, "u256:%llu", (unsigned long long)scp_val_body(v)); return;
  case SCP_TAG_I256_SMALL: scp_buf_printf(b, "i256:%lld", (long long)scp_val_signed_body(v)); return;
  case SCP_TAG_SYMBOL_SMALL:
    scp_val_symbol_small_str(v, sym);
    scp_buf_printf(b, "sym:%s", sym);
    return;
  default:
    if (scp_val_tag_is_object(tag)) format_obj(h, v, b, depth, stop);
    else scp_buf_printf(b, "bad:0x%016llx", (unsigned long long)v);
    return;
  }
}

void scp_host_val_format(scp_host *h, uint64_t val, scp_buf *b) {
  format_val(h, val, b, 0, b->len + FORMAT_MAX);
}
