/*
 * host_account.h — classic AccountEntry images (host_account.c), read by
 * the asset contract and by auth's account signature checks.  Hidden
 * internals.
 */
#ifndef SCP_HOST_ACCOUNT_H
#define SCP_HOST_ACCOUNT_H

#include "soroban/core/host_private.h"

/* An AccountEntry's XDR image, parsed; missing trailing fields are zero. */
typedef struct scp_host_account {
  int64_t balance;
  uint32_t num_sub, flags, home_len, nsigners, nsig_img;
  size_t signers_at[20];        /* each signer's offset in the image */
  bool v1, v2;                  /* AccountEntryExt V1, its ext V2 */
  int64_t buying, selling;      /* V1 liabilities */
  uint32_t sponsored, sponsoring, nspons_ids;   /* V2 */
} scp_host_account;

/* 0, or -1 for an image too short or malformed to be an AccountEntry. */
SCP_HIDDEN int scp_host_account_parse(const uint8_t *p, size_t len, scp_host_account *a);
/* AccountEntry::metered_clone of the image. */
SCP_HIDDEN int scp_host_account_clone_charges(scp_host *h, const uint8_t *p, size_t len);
/* load_account (data_helper.rs): Rc<LedgerKey>, Storage::get (a missing
 * account is Error(Storage, MissingValue)), the clone; *ent (may be
 * NULL) is the entry. */
SCP_HIDDEN int scp_host_load_account(scp_host *h, const uint8_t key[32], scp_host_account *a,
                                    const scp_sentry **ent);

#endif
