/*
 * scp_upload.h — what the host charges for uploading a contract's code:
 * the upload_wasm host function run in the engine on a host of its own, so
 * the figures are the engine's own charges (the ones test_storage pins to
 * the reference's traces), not an estimate.
 */
#ifndef SCP_UPLOAD_H
#define SCP_UPLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "scprof.h"

/* The Budget CPU and memory of upload_wasm(wasm[0..len)) called as an Env
 * call on a fresh host with the default options (the bytes object it
 * takes made beforehand, not counted).  Returns SCP_OK, SCP_ERR_HOST (the
 * host refuses the code: err says why), SCP_ERR_NOMEM or SCP_ERR_INTERNAL. */
int scp_sor_upload_charges(const uint8_t *wasm, size_t len, uint64_t *cpu, uint64_t *mem,
                           scp_error *err);

#endif
