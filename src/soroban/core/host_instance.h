/*
 * host_instance.h — a contract frame's instance storage (host_instance.c):
 * loaded from the frame's instance on first access, written back into the
 * instance entry when the frame ends well.  Shared by the WASM frames
 * (sor_vm.c), the Stellar Asset Contract's frames (sac_contract.c) and the
 * instance-storage host functions (host_fns_map.c).  Hidden internals.
 *
 * rs-soroban-env v28: host/frame.rs (maybe_init_instance_storage,
 * persist_instance_storage, maybe_reload_instance_storage_on_frame_pop),
 * storage.rs (InstanceStorageMap::from_instance_xdr), host/conversion.rs
 * (instance_storage_map_to_scmap), host/data_helper.rs
 * (store_contract_instance).
 */
#ifndef SCP_HOST_INSTANCE_H
#define SCP_HOST_INSTANCE_H

#include "soroban/core/host_private.h"

/* The frame's instance (Frame::instance): a copy of the contract's
 * instance entry value as the storage holds it when the frame is pushed --
 * the entry the call just read (call_contract_fn), so no charge.  A frame
 * whose contract has no instance entry (a host-function frame, a test's
 * bare frame) keeps none.  SCP_OK or SCP_ERR_NOMEM (f unchanged). */
SCP_HIDDEN int scp_inst_capture(scp_host *h, scp_frame *f);
/* Contract id's instance entry as the storage map holds it (the snapshot
 * source when the map has not read it; NULL when deleted or absent),
 * found without charge. */
SCP_HIDDEN const scp_sentry *scp_inst_entry(const scp_host *h, const uint8_t id[32]);

/* Frees what the frame holds (its instance copy and storage map). */
SCP_HIDDEN void scp_inst_frame_free(scp_frame *f);

/* with_instance_storage: the current frame's map, loaded on the frame's
 * first access (maybe_init_instance_storage: from_instance_xdr of the
 * frame's instance; a frame without one reads as storage None, an empty
 * map).  Errors: no frame (Error(Context, InternalError)), the load's
 * (budget, a bad image).  *out points into the top frame. */
SCP_HIDDEN int scp_inst_storage(scp_host *h, scp_instance **out);

/* The end of a frame that succeeded, before its pop (with_frame):
 * persist_instance_storage when the frame modified its map, then the
 * re-entrant parent frames of the same contract reload it.  A failure
 * (budget, a missing instance entry) must fail the frame: the caller
 * rolls the storage back.  SCP_OK when nothing was modified. */
SCP_HIDDEN int scp_inst_frame_end(scp_host *h);

/* persist_instance_storage alone, for the top frame: what call_n_internal
 * does before a re-entrant call in SelfAllowed mode (a custom account's
 * __check_auth called while the account's own frame is the last contract
 * frame), so the re-entered frame reads the changes made so far.  The
 * frame's map stays loaded and marked modified (the reference does not
 * clear is_modified), so the frame persists again at its end unless the
 * re-entered frame's own write-back reloaded it.  SCP_OK when nothing
 * was modified; errors as scp_inst_frame_end's (nothing written then). */
SCP_HIDDEN int scp_inst_persist_top(scp_host *h);

#endif
