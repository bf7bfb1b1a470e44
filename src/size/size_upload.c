/*
 * size_upload.c — what uploading a Soroban contract costs on a network:
 * the instructions are the engine's own charges for the upload host
 * function (scp_sor_upload_charges), the resources, fee and rent those of
 * an UploadContractWasm transaction as the fee model computes them
 * (scp_fee_upload).  Each figure goes into the header with its inputs, so
 * the report can be checked by hand.
 */
#include "size/scp_size.h"
#include "soroban/fee/scp_fee_tx.h"
#include "soroban/run/scp_upload.h"
#include "util/scp_util.h"

#include <stdio.h>

int scp_size_soroban_upload(const uint8_t *wasm, size_t len, const scp_soroban_opts *o,
                            scp_size_upload *out, scp_error *err) {
  bool on = false;
  int rc = scp_fee_network_from_opts(o, &out->net, &on, err);
  if (rc) return rc;
  if (!on) return scp_fail(err, SCP_ERR_ARG, "the upload's fee needs a network");
  if (len > out->net.limit[SCP_FEE_LIM_CODE_SIZE])
    return scp_fail(err, SCP_ERR_LIMIT, "%s would refuse the upload: %zu bytes of code, over "
                    "its contract_max_size_bytes %llu", out->net.name, len,
                    (unsigned long long)out->net.limit[SCP_FEE_LIM_CODE_SIZE]);
  rc = scp_sor_upload_charges(wasm, len, &out->cpu, &out->mem, err);
  if (rc) return rc;
  scp_fee_upload(&out->net, wasm, (uint32_t)len, out->cpu, &out->tx);
  return SCP_OK;
}

static int line(scp_profile *p, const char *key, scp_buf *b) {
  int rc = b->oom ? SCP_ERR_NOMEM : scp_prof_meta(p, key, b->data);
  scp_buf_free(b);
  return rc;
}

int scp_size_upload_meta(scp_profile *p, const scp_size_upload *u, uint64_t len) {
  const scp_fee_upload_tx *t = &u->tx;
  const scp_fee_config *c = &u->net.fee;
  const scp_fee_breakdown *f = &t->fee;
  scp_buf b = {0};
  int rc = scp_fee_network_describe(&u->net, p);
  scp_buf_printf(&b, "CPU %llu instructions, memory %llu bytes (upload_wasm as the host "
                 "charges it: parse, check and instantiate, hash, the code entry)",
                 (unsigned long long)u->cpu, (unsigned long long)u->mem);
  if (!rc) rc = line(p, "upload charges", &b);
  scp_buf_printf(&b, "1 entry of %u bytes (LedgerEntry 12 + cost inputs 48 + hash 32 + "
                 "length 4 + code %llu padded to 4); transaction %u bytes (envelope 184 + "
                 "code key 36 + host function 8 + code padded + auth 4); return value %u bytes",
                 t->entry_size, (unsigned long long)len, t->tx_size, t->result_size);
  if (!rc) rc = line(p, "upload resources", &b);
  scp_buf_printf(&b, "%lld stroops: instructions %lld (%u x %lld per 10,000), write entry %lld, "
                 "write bytes %lld (%u x %lld per KB), history %lld ((%u + 300) x %lld per KB), "
                 "bandwidth %lld (%u x %lld per KB)",
                 (long long)f->non_refundable, (long long)f->compute, t->res.instructions,
                 (long long)c->fee_per_instruction_increment, (long long)f->write_entries,
                 (long long)f->write_bytes, t->res.write_bytes, (long long)c->fee_per_write_1kb,
                 (long long)f->historical, t->res.transaction_size_bytes,
                 (long long)c->fee_per_historical_1kb, (long long)f->bandwidth,
                 t->res.transaction_size_bytes, (long long)c->fee_per_transaction_size_1kb);
  if (!rc) rc = line(p, "upload non-refundable", &b);
  scp_buf_printf(&b, "%lld stroops: events %lld (%u bytes of return value x %lld per KB)",
                 (long long)f->refundable, (long long)f->events, t->result_size,
                 (long long)c->fee_per_contract_event_1kb);
  if (!rc) rc = line(p, "upload refundable", &b);
  scp_buf_printf(&b, "%lld stroops for %u ledgers (the minimum persistent TTL): entry %lld "
                 "(%u bytes for rent, the entry and its parsed module, x %lld per KB x %u "
                 "ledgers / %lld, / 3 for code), TTL entry write %lld (1 entry) + %lld (48 bytes)",
                 (long long)t->rent.total, t->ttl, (long long)t->rent.entries, t->rent_size,
                 (long long)t->rent_fee_per_1kb, t->ttl,
                 (long long)u->net.persistent_rent_rate_denominator,
                 (long long)t->rent.ttl_entries, (long long)t->rent.ttl_bytes);
  if (!rc) rc = line(p, "upload rent", &b);
  scp_buf_printf(&b, "%lld stroops (non-refundable %lld + refundable %lld + rent %lld)",
                 (long long)t->total, (long long)f->non_refundable, (long long)f->refundable,
                 (long long)t->rent.total);
  if (!rc) rc = line(p, "upload fee", &b);
  scp_buf_free(&b);
  return rc;
}
