#ifndef SCP_SAC_LABEL_H
#define SCP_SAC_LABEL_H
/* sac_label.h — naming an asset contract's profile frame (sac_label.c). */
#include "soroban/core/host_private.h"

/* "native" or "CODE:GABCD…" for the asset contract id, from its instance
 * entry without any charge; false when id is no initialised asset contract. */
SCP_HIDDEN bool scp_sac_label(const scp_host *h, const uint8_t id[32], char *out, size_t n);

#endif
