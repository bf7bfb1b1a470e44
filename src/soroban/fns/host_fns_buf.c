/*
 * host_fns_buf.c — the bytes / string / symbol host functions
 * (host/mem_helper.rs), address and strkey conversions, and the EnvBase
 * memory-object copies, with the reference's checks and charges in the
 * reference's order.  Registered in host_fns.c.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"

/* ---- buf (host/mem_helper.rs memobj_new_from_linear_memory) ------------- */

static int memobj_new_from_lm(scp_host *h, unsigned tag, uint64_t pos_v,
                              uint64_t len_v, uint64_t *ret) {
  uint32_t pos = scp_hf_u32_arg(pos_v), len = scp_hf_u32_arg(len_v);
  if (!scp_host_in_vm(h)) return scp_hf_err_not_vm(h);
  int rc = scp_host_charge(h, SCP_COST_MemAlloc, len);
  if (rc != SCP_OK) return rc;
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) return SCP_ERR_NOMEM;
  rc = scp_host_mem_read(h, pos, len, buf);
  if (rc == SCP_OK && tag == SCP_TAG_SYMBOL_OBJ) {
    /* ScSymbol::try_from_bytes (host_object.rs): length, then characters. */
    if (len > SCP_SYMBOL_MAX)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "slice is too long to be represented as Symbol");
    for (uint32_t i = 0; rc == SCP_OK && i < len; i++)
      if (scp_val_symbol_code(buf[i]) < 0)
        rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                          "byte is not allowed in Symbol");
  }
  if (rc != SCP_OK) {
    free(buf);
    return rc;
  }
  scp_hobj o = { .tag = (uint8_t)tag, .len = len };
  o.u.bytes = buf;
  return scp_host_add_obj(h, &o, ret);
}

HOSTFN(bytes_new_from_linear_memory) {
  return memobj_new_from_lm(h, SCP_TAG_BYTES_OBJ, a[0], a[1], ret);
}
HOSTFN(string_new_from_linear_memory) {
  return memobj_new_from_lm(h, SCP_TAG_STRING_OBJ, a[0], a[1], ret);
}
HOSTFN(symbol_new_from_linear_memory) {
  return memobj_new_from_lm(h, SCP_TAG_SYMBOL_OBJ, a[0], a[1], ret);
}

/* bytes_len / string_len / symbol_len: visit only ("len is free"). */
static int memobj_len(scp_host *h, uint64_t v, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) *ret = scp_val_u32(o->len);
  return rc;
}

HOSTFN(bytes_len) { return memobj_len(h, a[0], ret); }
HOSTFN(string_len) { return memobj_len(h, a[0], ret); }
HOSTFN(symbol_len) { return memobj_len(h, a[0], ret); }

HOSTFN(bytes_new) { return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, NULL, 0, ret); }

/* u8_from_u32val_input: Error(Value, ArithDomain) past 255. */
static int u8_arg(scp_host *h, uint64_t v, uint8_t *out) {
  uint32_t u = scp_hf_u32_arg(v);
  if (u > 255)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "expecting U32Val less than 256");
  *out = (uint8_t)u;
  return SCP_OK;
}

/* A new byte-object from parts: prefix src[0..cut), optional byte, then
 * src[skip..len), plus tail; no charge here. */
static int add_bytes_edit(scp_host *h, unsigned tag, const scp_hobj *src, uint32_t cut,
                          const uint8_t *ins, uint32_t nins, uint32_t skip,
                          const uint8_t *tail, uint32_t ntail, uint64_t *ret) {
  uint64_t n = (uint64_t)cut + nins + (src->len - skip) + ntail;
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) return SCP_ERR_NOMEM;
  if (cut) memcpy(buf, src->u.bytes, cut);
  if (nins) memcpy(buf + cut, ins, nins);
  if (src->len > skip) memcpy(buf + cut + nins, src->u.bytes + skip, src->len - skip);
  if (ntail) memcpy(buf + cut + nins + (src->len - skip), tail, ntail);
  scp_hobj o = { .tag = (uint8_t)tag, .len = (uint32_t)n };
  o.u.bytes = buf;
  return scp_host_add_obj(h, &o, ret);
}

/* bytes_put: the u8 check, visit, metered_clone of the bytes (Vec<u8> of
 * len), then the index check. */
HOSTFN(bytes_put) {
  uint8_t u;
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = u8_arg(h, a[2], &u);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  if (i >= o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_put out of bounds");
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, i, &u, 1, i + 1, NULL, 0, ret);
}

HOSTFN(bytes_get) {
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_get out of bounds");
  *ret = scp_val_u32(o->u.bytes[i]);
  return SCP_OK;
}

/* bytes_del: index check, clone (len), then MemCpy(len - i) for the move. */
HOSTFN(bytes_del) {
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i >= o->len) return scp_hf_err_index(h, i);
  rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, o->len - i, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, i, NULL, 0, i + 1, NULL, 0, ret);
}

static int sum_fits(scp_host *h, uint32_t x, uint32_t y) {
  if (x > UINT32_MAX - y)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  return SCP_OK;
}

/* bytes_push: u8 check, visit, sum check, Vec<u8> with capacity len+1. */
HOSTFN(bytes_push) {
  uint8_t u;
  const scp_hobj *o;
  int rc = u8_arg(h, a[1], &u);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = sum_fits(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, (uint64_t)o->len + 1, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, o->len, &u, 1, o->len, NULL, 0, ret);
}

/* bytes_pop: clone (len) first, then the emptiness check. */
HOSTFN(bytes_pop) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  if (!o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_pop out of bounds");
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, o->len - 1, NULL, 0, o->len, NULL, 0, ret);
}

static int bytes_end(scp_host *h, uint64_t v, bool back, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (!o->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "bytes_front out of bounds");
  *ret = scp_val_u32(o->u.bytes[back ? o->len - 1 : 0]);
  return SCP_OK;
}

HOSTFN(bytes_front) { return bytes_end(h, a[0], false, ret); }
HOSTFN(bytes_back) { return bytes_end(h, a[0], true, ret); }

HOSTFN(bytes_insert) {
  uint8_t u;
  const scp_hobj *o;
  uint32_t i = scp_hf_u32_arg(a[1]);
  int rc = u8_arg(h, a[2], &u);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (i > o->len) return scp_hf_err_index(h, i);
  rc = sum_fits(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, (uint64_t)o->len + 1, 1);
  if (rc != SCP_OK) return rc;
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, o, i, &u, 1, i, NULL, 0, ret);
}

HOSTFN(bytes_append) {
  const scp_hobj *x, *y;
  int rc = scp_host_visit(h, a[0], &x);
  if (rc == SCP_OK) rc = scp_host_visit(h, a[1], &y);
  if (rc == SCP_OK) rc = sum_fits(h, x->len, y->len);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, (uint64_t)x->len + y->len, 1);
  if (rc != SCP_OK) return rc;
  if (x == y) {   /* appending an object to itself: copy before adding */
    uint8_t *tmp = malloc(y->len ? y->len : 1);
    if (!tmp) return SCP_ERR_NOMEM;
    if (y->len) memcpy(tmp, y->u.bytes, y->len);
    rc = add_bytes_edit(h, SCP_TAG_BYTES_OBJ, x, x->len, NULL, 0, x->len, tmp, x->len, ret);
    free(tmp);
    return rc;
  }
  return add_bytes_edit(h, SCP_TAG_BYTES_OBJ, x, x->len, NULL, 0, x->len, y->u.bytes, y->len,
                        ret);
}

/* bytes_slice: range check, metered_slice_to_vec (Vec<u8> bulk init). */
HOSTFN(bytes_slice) {
  const scp_hobj *o;
  uint32_t start = scp_hf_u32_arg(a[1]), end = scp_hf_u32_arg(a[2]);
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_hf_valid_range(h, start, end, o->len);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, end - start, 1);
  if (rc != SCP_OK) return rc;
  return scp_hf_add_bytes_obj(h, SCP_TAG_BYTES_OBJ, o->u.bytes + start, end - start, ret);
}

/* string_to_bytes / bytes_to_string / create_executable_tag: visit, a
 * metered copy of the bytes (Vec<u8> bulk init of len), add. */
static int memobj_convert(scp_host *h, uint64_t v, unsigned tag, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  return scp_hf_add_bytes_obj(h, tag, o->u.bytes, o->len, ret);
}

HOSTFN(string_to_bytes) { return memobj_convert(h, a[0], SCP_TAG_BYTES_OBJ, ret); }
HOSTFN(bytes_to_string) { return memobj_convert(h, a[0], SCP_TAG_STRING_OBJ, ret); }
HOSTFN(create_executable_tag) { return memobj_convert(h, a[0], SCP_TAG_EXECUTABLE_TAG_OBJ, ret); }

/* memobj_visit_and_copy_bytes_out: visit, range in the object
 * (Value/ArithDomain on overflow, Object/IndexBounds out of it). */
static int memobj_range(scp_host *h, uint64_t v, uint32_t opos, uint32_t len,
                        const scp_hobj **o) {
  int rc = scp_host_visit(h, v, o);
  if (rc != SCP_OK) return rc;
  if (opos > UINT32_MAX - len)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  if (opos + len > (*o)->len)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS,
                        "out-of-bounds read from memory-like host object");
  return SCP_OK;
}

static int memobj_copy_to_lm(scp_host *h, const uint64_t *a, uint64_t *ret) {
  uint32_t opos = scp_hf_u32_arg(a[1]), lm = scp_hf_u32_arg(a[2]), len = scp_hf_u32_arg(a[3]);
  if (!scp_host_in_vm(h)) return scp_hf_err_not_vm(h);
  const scp_hobj *o;
  int rc = memobj_range(h, a[0], opos, len, &o);
  if (rc == SCP_OK) rc = scp_host_mem_write(h, lm, o->u.bytes + opos, len);
  if (rc == SCP_OK) *ret = SCP_VAL_VOID;
  return rc;
}

HOSTFN(bytes_copy_to_linear_memory) { return memobj_copy_to_lm(h, a, ret); }
HOSTFN(string_copy_to_linear_memory) { return memobj_copy_to_lm(h, a, ret); }
HOSTFN(symbol_copy_to_linear_memory) { return memobj_copy_to_lm(h, a, ret); }

/* memobj_clone_resize_and_copy_bytes_in: clone (Vec<u8> of len), overflow
 * check, MemAlloc of the growth, range, then the copy in; a new object. */
static int memobj_copy_in(scp_host *h, uint64_t v, uint32_t opos, uint32_t len,
                          const uint8_t *src_or_null, uint32_t lm, uint64_t *ret) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc != SCP_OK) return rc;
  if (opos > UINT32_MAX - len)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  uint32_t end = opos + len, newlen = end > o->len ? end : o->len;
  if (end > o->len) {
    rc = scp_host_charge(h, SCP_COST_MemAlloc, end - o->len);
    if (rc != SCP_OK) return rc;
  }
  uint8_t *buf = calloc(newlen ? newlen : 1, 1);
  if (!buf) return SCP_ERR_NOMEM;
  if (o->len) memcpy(buf, o->u.bytes, o->len);
  if (src_or_null) {
    rc = scp_host_charge(h, SCP_COST_MemCpy, len);
    if (rc == SCP_OK && len) memcpy(buf + opos, src_or_null, len);
  } else {
    rc = scp_host_mem_read(h, lm, len, buf + opos);
  }
  if (rc != SCP_OK) {
    free(buf);
    return rc;
  }
  scp_hobj n = { .tag = o->tag, .len = newlen };
  n.u.bytes = buf;
  return scp_host_add_obj(h, &n, ret);
}

HOSTFN(bytes_copy_from_linear_memory) {
  if (!scp_host_in_vm(h)) return scp_hf_err_not_vm(h);
  return memobj_copy_in(h, a[0], scp_hf_u32_arg(a[1]), scp_hf_u32_arg(a[3]), NULL,
                        scp_hf_u32_arg(a[2]), ret);
}

/* ---- addresses and strkeys (host.rs, host/conversion.rs, the stellar-strkey
 * format: version byte, payload, CRC16-XModem little-endian, base32) ------- */

enum {
  PAYLOAD_LEN = 32 + 3, MUXED_PAYLOAD_LEN = 32 + 8 + 3,
  KEY_LEN = (PAYLOAD_LEN * 8 + 4) / 5, MUXED_KEY_LEN = (MUXED_PAYLOAD_LEN * 8 + 4) / 5
};









/* non_muxed_sc_address_to_strkey / muxed_sc_address_to_strkey: the
 * String's Vec<u8> bulk init (payload + its base32 length), the 32-byte
 * key cloned (MemCpy(32)), then the String object. */
static int address_to_strkey(scp_host *h, const scp_hobj *o, uint64_t *ret) {
  size_t plen = o->u.bytes[0] == 2 ? MUXED_PAYLOAD_LEN : PAYLOAD_LEN;
  int rc = scp_host_charge_bulk_init(h, plen + (plen * 8 + 4) / 5, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 32);
  if (rc != SCP_OK) return rc;
  char text[80];
  size_t n = scp_host_addr_obj_strkey(o, text);
  return scp_hf_add_bytes_obj(h, SCP_TAG_STRING_OBJ, (const uint8_t *)text, (uint32_t)n, ret);
}

HOSTFN(address_to_strkey) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->u.bytes[0] > 1)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR,
                        "Unexpected ScAddress type for strkey encoding");
  return address_to_strkey(h, o, ret);
}

HOSTFN(muxed_address_to_strkey) {
  if (!scp_val_is_object(a[0]))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "address is not an object");
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  if (o->tag != SCP_TAG_ADDRESS_OBJ && o->tag != SCP_TAG_MUXED_ADDRESS_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                        "value is not an AddressObject or MuxedAddressObject");
  return address_to_strkey(h, o, ret);
}

/* strkey_to_scaddress: a String or Bytes object of the right length
 * (Value/InvalidInput), two Vec<u8> bulk inits (the text, then twice the
 * payload), the decode (Value/InvalidInput), then the Address object. */
static int strkey_to_address(scp_host *h, uint64_t v, bool allow_muxed, uint64_t *ret) {
  if (!scp_val_is_object(v))
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "strkey is not an object");
  const scp_hobj *o;
  int rc = scp_host_visit(h, v, &o);
  if (rc != SCP_OK) return rc;
  if (o->tag != SCP_TAG_BYTES_OBJ && o->tag != SCP_TAG_STRING_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE,
                        "strkey is not a string or bytes object");
  size_t plen;
  if (o->len == KEY_LEN) plen = PAYLOAD_LEN;
  else if (allow_muxed && o->len == MUXED_KEY_LEN) plen = MUXED_PAYLOAD_LEN;
  else return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "unexpected strkey length");
  rc = scp_host_charge_bulk_init(h, o->len, 1);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 2 * plen, 1);
  if (rc != SCP_OK) return rc;
  uint8_t raw[64];
  size_t n;
  bool ok = scp_xdr_strkey_raw(o->u.bytes, o->len, raw, sizeof raw, &n);
  uint8_t enc[41];
  uint32_t elen = 33;
  unsigned tag = SCP_TAG_ADDRESS_OBJ;
  if (ok && raw[0] == SCP_STRKEY_ACCOUNT && n == PAYLOAD_LEN) {
    enc[0] = 0;
    memcpy(enc + 1, raw + 1, 32);
  } else if (ok && raw[0] == SCP_STRKEY_CONTRACT && n == PAYLOAD_LEN) {
    enc[0] = 1;
    memcpy(enc + 1, raw + 1, 32);
  } else if (ok && allow_muxed && raw[0] == SCP_STRKEY_MUXED && n == MUXED_PAYLOAD_LEN) {
    enc[0] = 2;
    memcpy(enc + 1, raw + 33, 8);
    memcpy(enc + 9, raw + 1, 32);
    elen = 41;
    tag = SCP_TAG_MUXED_ADDRESS_OBJ;
  } else {
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "couldn't process the string as strkey");
  }
  return scp_hf_add_bytes_obj(h, tag, enc, elen, ret);
}

HOSTFN(strkey_to_address) { return strkey_to_address(h, a[0], false, ret); }
HOSTFN(strkey_to_muxed_address) { return strkey_to_address(h, a[0], true, ret); }

/* get_address_from_muxed_address: visit, the key cloned (MemCpy(32)), a
 * new account Address. */
HOSTFN(get_address_from_muxed_address) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 32);
  if (rc != SCP_OK) return rc;
  uint8_t enc[33];
  enc[0] = 0;
  memcpy(enc + 1, o->u.bytes + 9, 32);
  return scp_hf_add_bytes_obj(h, SCP_TAG_ADDRESS_OBJ, enc, sizeof enc, ret);
}

HOSTFN(get_id_from_muxed_address) {
  const scp_hobj *o;
  int rc = scp_host_visit(h, a[0], &o);
  if (rc != SCP_OK) return rc;
  return scp_hf_u64_val(h, scp_be64(o->u.bytes + 1), ret);
}

/* ---- EnvBase (host.rs impl EnvBase for Host) ------------------------------ */

/* bytes_new_from_slice / string_new_from_slice: metered_slice_to_vec
 * (Vec<u8> bulk init of len) + add_host_object.  symbol_new_from_slice
 * first charges MemCmp(len) and validates every byte. */
int scp_host_memobj_new_from_slice(scp_host *h, unsigned tag, const uint8_t *p,
                                   uint32_t len, uint64_t *out) {
  int rc = SCP_OK;
  if (tag == SCP_TAG_SYMBOL_OBJ) {
    rc = scp_host_charge(h, SCP_COST_MemCmp, len);
    for (uint32_t i = 0; rc == SCP_OK && i < len; i++)
      if (scp_val_symbol_code(p[i]) < 0)
        rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                          "byte is not allowed in Symbol");
  }
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, len, 1);
  if (rc == SCP_OK && tag == SCP_TAG_SYMBOL_OBJ && len > SCP_SYMBOL_MAX)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "symbol too long");
  if (rc != SCP_OK) return rc;
  return scp_hf_add_bytes_obj(h, tag, p, len, out);
}

/* bytes_copy_to_slice etc.: memobj_copy_to_slice -- visit, range, then
 * metered_copy_byte_slice = MemCpy(len). */
int scp_host_memobj_copy_to_slice(scp_host *h, uint64_t obj, uint32_t pos, uint8_t *dst,
                                  uint32_t len) {
  const scp_hobj *o;
  int rc = memobj_range(h, obj, pos, len, &o);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCpy, len);
  if (rc == SCP_OK && len) memcpy(dst, o->u.bytes + pos, len);
  return rc;
}

/* bytes_copy_from_slice: memobj_copy_from_slice. */
int scp_host_memobj_copy_from_slice(scp_host *h, uint64_t obj, uint32_t pos,
                                    const uint8_t *src, uint32_t len, uint64_t *out) {
  return memobj_copy_in(h, obj, pos, len, src, 0, out);
}
