/*
 * scp_sol_idl.h — instruction names from Anchor IDLs (`--idl ID=FILE.json`).
 *
 * An Anchor program starts its instruction data with a discriminator: the
 * first 8 bytes of sha256("global:" + the instruction's name in snake case,
 * as Anchor writes it with heck's to_snake_case).  Two IDL shapes are read:
 * Anchor 0.30 and later give each instruction its "discriminator" (an array
 * of byte values), older IDLs give only the "name" (camelCase), whose
 * discriminator is worked out.  A file of any other shape is refused in one
 * line naming the file and the JSON path.
 */
#ifndef SCP_SOL_IDL_H
#define SCP_SOL_IDL_H

#include "solana/scp_sol.h"

typedef struct scp_sol_idls scp_sol_idls;

/* Read the IDL at path as program id's, appending to *idls (created on
 * the first call; free with scp_sol_idls_free).  Errors: SCP_ERR_IO,
 * SCP_ERR_MALFORMED (the file and JSON path in err), SCP_ERR_NOMEM; then
 * *idls is as it was. */
int scp_sol_idls_add(scp_sol_idls **idls, const uint8_t id[32], const char *path, scp_error *err);
void scp_sol_idls_free(scp_sol_idls *idls);

/* The name of the instruction program id runs with data, when an IDL of
 * that program has a discriminator the data starts with (the longest);
 * NULL otherwise.  idls may be NULL. */
const char *scp_sol_idl_lookup(const scp_sol_idls *idls, const uint8_t id[32], const uint8_t *data,
                               size_t len);

/* name in snake case as Anchor hashes it ("initializeVault" ->
 * "initialize_vault", "HTTPServer" -> "http_server") into out. */
void scp_sol_idl_snake(const char *name, char *out, size_t cap);

#endif
