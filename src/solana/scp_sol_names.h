/*
 * scp_sol_names.h — names of Solana programs and of the instructions they
 * run, the same whatever form the input came in.
 *
 * A program is named by its id when the id is one the chain knows (the
 * builtins, the SPL programs, the precompiles: "token", "system",
 * "associated-token-account"), else by the name its input gives (a
 * scenario's "name", a file's name without its extension), else by the
 * first 8 characters of its id.  Its instruction is named from the
 * instruction data where the program's instruction set is known (the tag
 * tables of the public interface crates: system, compute budget,
 * spl-token and token-2022 with the extensions' second byte, ATA, memo,
 * address lookup table, stake, upgradeable loader), else from an Anchor
 * IDL's 8-byte discriminators (scp_sol_idl.h), else as "ix 0x" and the
 * first 8 data bytes in hex.
 */
#ifndef SCP_SOL_NAMES_H
#define SCP_SOL_NAMES_H

#include "solana/scp_sol.h"

#define SCP_SOL_NAME_MAX 128    /* a program's or instruction's name, NUL included */

struct scp_sol_idls;

/* The chain's name of a known program id, or NULL. */
const char *scp_sol_known_program(const uint8_t id[32]);

/* The program's display name (the rule above) into out (cap bytes).
 * given may be NULL or ""; a given name equal to the id's base58 text
 * counts as none. */
void scp_sol_program_name(const uint8_t id[32], const char *given, char *out, size_t cap);

/* A file's name without its folder and its last extension
 * ("dir/spl_token-3.5.0.so" -> "spl_token-3.5.0"). */
void scp_sol_file_name(const char *path, char *out, size_t cap);

/* The instruction program id runs with data, into out (cap bytes);
 * "" when there is nothing to say (no data for a program whose
 * instruction set is unknown).  idls may be NULL. */
void scp_sol_ix_name(const uint8_t id[32], const uint8_t *data, size_t len,
                     const struct scp_sol_idls *idls, char *out, size_t cap);

#endif
