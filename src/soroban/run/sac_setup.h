#ifndef SCP_SAC_SETUP_H
#define SCP_SAC_SETUP_H
/* sac_setup.h — asset contracts created as ledger setup (sac_setup.c). */
#include "soroban/core/host_private.h"
#include "soroban/sac/host_sac.h"

/* "native" or "CODE:G...": SCP_OK, or SCP_ERR_ARG with *why the problem. */
SCP_HIDDEN int scp_sac_asset_parse(const char *text, scp_sac_asset *a, const char **why);
/* Creates the asset contract unmetered and seeds its entries into h;
 * id receives the contract id. */
SCP_HIDDEN int scp_sac_setup_deploy(scp_host *h, const scp_sac_asset *a, uint8_t id[32],
                                    scp_error *err);
/* scp_sac_asset_parse of text, then scp_sac_setup_deploy; a bad asset is
 * SCP_ERR_ARG "--asset TEXT: why". */
SCP_HIDDEN int scp_sac_setup_text(scp_host *h, const char *text, uint8_t id[32], scp_error *err);
#endif
