/*
 * sor_upload.c — the upload host function run for its charges alone
 * (scp_upload.h): the one public way to make a Bytes object from a file
 * and hand it to upload_wasm, so `scprof size` reports the engine's
 * charges instead of working them out again.
 */
#include "soroban/run/scp_upload.h"
#include "soroban/core/host_private.h"
#include "soroban/core/scp_host.h"

#include <stdint.h>

int scp_sor_upload_charges(const uint8_t *wasm, size_t len, uint64_t *cpu, uint64_t *mem,
                           scp_error *err) {
  *cpu = *mem = 0;
  if (len > UINT32_MAX) return scp_fail(err, SCP_ERR_ARG, "%zu bytes are too many to upload", len);
  int fn = scp_hostfn_find_name("upload_wasm");
  if (fn < 0) return scp_fail(err, SCP_ERR_INTERNAL, "no upload_wasm host function");
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX / 2, UINT64_MAX / 2);
  scp_host *h = NULL;
  if (scp_host_create(&b, NULL, &h)) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  uint64_t obj = 0, ret = 0;
  int rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, wasm, (uint32_t)len, &obj);
  if (rc) rc = scp_fail(err, rc, "making the code's Bytes object: %s", scp_strerror(rc));
  uint64_t cpu0 = b.cpu, mem0 = b.mem;
  if (!rc) rc = scp_host_call(h, (unsigned)fn, &obj, NULL, &ret, err);
  if (!rc) {
    *cpu = b.cpu - cpu0;
    *mem = b.mem - mem0;
  }
  scp_host_destroy(h);
  return rc;
}
