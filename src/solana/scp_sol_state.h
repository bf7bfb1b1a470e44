/*
 * scp_sol_state.h — account state as users already have it, read exactly
 * or refused in one line naming the file and the JSON path:
 *
 *   `solana account ADDR --output json|json-compact`
 *       {"pubkey", "account": {"lamports", "data": [TEXT, ENC], "owner",
 *                              "executable", "rentEpoch", "space"}}
 *       ENC base64, base58 or base64+zstd; "space" must be the data's length
 *   RPC replies: {"context", "value"} or a whole JSON-RPC reply {"jsonrpc",
 *       "id", "result"}; "value" an account (getAccountInfo: its address
 *       comes from ADDR=FILE or a file named ADDR.json), an array of them
 *       (getMultipleAccounts: ADDR1,ADDR2,...=FILE, a null entry is an
 *       account that does not exist) or of {"pubkey", "account"}
 *       (getProgramAccounts); jsonParsed data is refused
 *   Seashell's cached scenarios (gzip JSON): {PUBKEY: {"lamports", "data":
 *       HEX, "owner", "executable", "rent_epoch"}, ...}
 *   an array of any of these
 *
 * Integers are u64, as JSON numbers or decimal strings.  rentEpoch is read
 * and checked but not used: agave 4.3 serializes every account's rent epoch
 * as u64::MAX.  An address given twice with different contents is refused.
 */
#ifndef SCP_SOL_STATE_H
#define SCP_SOL_STATE_H

#include <jansson.h>
#include "solana/scp_sol.h"
#include "util/scp_util.h"

/* Accounts in the order first read, each key once. */
typedef struct scp_sol_state {
  scp_sol_account *accts;
  size_t n, cap;
  scp_bmap index;              /* key -> position in accts */
} scp_sol_state;

/* "[ADDR[,ADDR...]=]PATH": a file of one of the forms above (gzip-
 * compressed or not), or a folder whose files (not starting with '.') are
 * read in name order.  A relative PATH is taken from dir (NULL or "": as
 * given).  SCP_OK, SCP_ERR_IO, SCP_ERR_LIMIT, SCP_ERR_MALFORMED,
 * SCP_ERR_NOMEM. */
int scp_sol_state_load(scp_sol_state *st, const char *spec, const char *dir, scp_error *err);

/* The text of one account file (gzip-compressed or not) named name (for
 * messages; a name ADDR.json gives a getAccountInfo reply its address),
 * with the nkeys addresses of an ADDR,...= prefix.  As scp_sol_state_load
 * without the file system. */
int scp_sol_state_add_bytes(scp_sol_state *st, const uint8_t *bytes, size_t len, const char *name,
                            const uint8_t (*keys)[32], size_t nkeys, scp_error *err);

/* One JSON value read from file (for messages) at JSON path path.  With
 * scenario set, an object {"pubkey", "lamports", "owner", "data",
 * "executable"} is a scenario's own account too: data as hex, b64:BASE64,
 * @FILE (from dir) or [TEXT, ENC], "owner", "lamports", "data" and
 * "executable" default to the system program, 0, empty and false. */
int scp_sol_state_add_json(scp_sol_state *st, const json_t *v, const char *file, const char *dir,
                           const char *path, bool scenario, scp_error *err);

/* The position of key, added as an empty system account when absent. */
int scp_sol_state_index(scp_sol_state *st, const uint8_t key[32], size_t *idx, scp_error *err);

/* Keep *a (its data moves into st): an account already there with the
 * same contents is kept as it was, one with other contents fails with
 * SCP_ERR_MALFORMED "WHAT: account K given twice with different contents".
 * *a is empty afterwards either way. */
int scp_sol_state_add(scp_sol_state *st, scp_sol_account *a, const char *what, scp_error *err);

/* The account of key, or NULL. */
scp_sol_account *scp_sol_state_get(const scp_sol_state *st, const uint8_t key[32]);

void scp_sol_state_free(scp_sol_state *st);

/* Instruction or account data as the command line and scenarios write it:
 * hex, b64:BASE64 (padded or not) or @FILE (relative to dir; NULL or "":
 * as given), n bytes of text.  SCP_ERR_MALFORMED "'TEXT' is not hex,
 * b64:BASE64 or @FILE" (the caller says where), or as scp_read_file_max. */
int scp_sol_data_parse(const char *text, size_t n, const char *dir, uint8_t **out, size_t *len,
                       scp_error *err);

/* The ELF a program id runs when it is deployed in st, as on chain: an
 * executable account of the deprecated loader or BPFLoader2 holding it, or
 * an upgradeable program account whose programdata account (also in st)
 * holds it after a 45-byte header.  Borrowed bytes; false when id is not
 * such a program. */
bool scp_sol_state_program(const scp_sol_state *st, const uint8_t id[32], const uint8_t **elf,
                           size_t *len, scp_sol_loader *loader);
/* The same over an array of accounts (a scenario's, as they are when its
 * instruction runs). */
bool scp_sol_program_in(const scp_sol_account *accts, size_t n, const uint8_t id[32], const uint8_t **elf,
                        size_t *len, scp_sol_loader *loader);

#endif
