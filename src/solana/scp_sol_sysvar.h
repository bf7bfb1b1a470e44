/*
 * scp_sol_sysvar.h — the sysvar cache a run reads, as agave's SysvarCache
 * holds it: for each sysvar the whole account data (bincode, trailing
 * bytes kept), which sol_get_sysvar slices and the typed getters
 * (sol_get_clock_sysvar ...) deserialize.
 *
 * The cache starts as litesvm 1.5.0's (../shared/spec/sbpf/state-inputs.txt:
 * slot 447,552,000, unix_timestamp 0, rent 6,960 lamports per byte-year,
 * SlotHashes one entry (that slot, sha256("genesis")) in a 20,488-byte
 * account, StakeHistory empty ...).  A sysvar account in the state replaces
 * its entry, as litesvm's setAccount does, and must deserialize as that
 * sysvar (litesvm refuses it otherwise); a scenario's "sysvars" object sets
 * fields (sol_sysvar_json.c); the accounts are then rewritten from the cache
 * so that a program reading the account sees what the syscalls serve.
 */
#ifndef SCP_SOL_SYSVAR_H
#define SCP_SOL_SYSVAR_H

#include "solana/scp_sol.h"

typedef enum scp_sol_sysvar_kind {
  SCP_SOL_SV_CLOCK,
  SCP_SOL_SV_EPOCH_SCHEDULE,
  SCP_SOL_SV_EPOCH_REWARDS,
  SCP_SOL_SV_RENT,
  SCP_SOL_SV_SLOT_HASHES,
  SCP_SOL_SV_STAKE_HISTORY,
  SCP_SOL_SV_LAST_RESTART_SLOT,
  SCP_SOL_SV_RECENT_BLOCKHASHES,
  SCP_SOL_SV_COUNT
} scp_sol_sysvar_kind;

/* The entries vectors may hold (bincode length prefix, then entries). */
#define SCP_SOL_SLOT_HASHES_MAX 512u
#define SCP_SOL_SLOT_HASHES_BYTES (8u + SCP_SOL_SLOT_HASHES_MAX * 40u)   /* 20,488 */
#define SCP_SOL_STAKE_HISTORY_MAX 512u

typedef struct scp_sol_sysvars {
  uint8_t *data[SCP_SOL_SV_COUNT];   /* malloc'd account data */
  size_t len[SCP_SOL_SV_COUNT];
} scp_sol_sysvars;

/* litesvm's defaults.  SCP_OK or SCP_ERR_NOMEM (then *s is empty). */
int scp_sol_sysvars_init(scp_sol_sysvars *s);
void scp_sol_sysvars_free(scp_sol_sysvars *s);
int scp_sol_sysvars_copy(scp_sol_sysvars *dst, const scp_sol_sysvars *src);

/* The sysvar whose id key is, or -1. */
int scp_sol_sysvar_kind_of(const uint8_t key[32]);
/* Its base58 id and its name in a scenario ("clock", "slot_hashes" ...). */
const char *scp_sol_sysvar_id(scp_sol_sysvar_kind k);
const char *scp_sol_sysvar_name(scp_sol_sysvar_kind k);

/* Replace one entry with account data.  SCP_ERR_MALFORMED (err: "the
 * Clock sysvar: 12 bytes do not hold one (40 needed)") when the data does
 * not deserialize as the sysvar; SCP_ERR_NOMEM. */
int scp_sol_sysvars_set(scp_sol_sysvars *s, scp_sol_sysvar_kind k, const uint8_t *data, size_t len,
                        scp_error *err);

/* Every account of the state whose key is a sysvar id replaces its entry
 * (errors as scp_sol_sysvars_set, naming the account). */
int scp_sol_sysvars_from_accounts(scp_sol_sysvars *s, const scp_sol_account *a, size_t n,
                                  scp_error *err);
/* Every account whose key is a sysvar id becomes the cache's account (1
 * lamport or its own, owner Sysvar1111..., the entry's data), as litesvm
 * holds them all; SCP_OK or SCP_ERR_NOMEM. */
int scp_sol_sysvars_to_accounts(const scp_sol_sysvars *s, scp_sol_account *a, size_t n);

/* Field access on the entries whose layout is fixed. */
uint64_t scp_sol_sysvars_slot(const scp_sol_sysvars *s);
/* litesvm's warpToSlot: the Clock's slot only. */
void scp_sol_sysvars_warp(scp_sol_sysvars *s, uint64_t slot);

/* A scenario's "sysvars" object (json is a jansson json_t *) applied to s;
 * errors name file and the JSON path ("sysvars.clock.slot"). */
int scp_sol_sysvars_json(scp_sol_sysvars *s, const void *json, const char *file, scp_error *err);

#endif
