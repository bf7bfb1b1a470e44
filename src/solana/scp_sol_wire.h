/*
 * scp_sol_wire.h — a Solana transaction in the wire format (what a wallet
 * signs and an RPC node's getTransaction returns as base64), read into the
 * same transaction scp_sol_tx_run runs for a scenario.
 *
 * The format (agave's VersionedTransaction, bincode with compact-u16
 * lengths): the signatures, then a legacy message or, behind a first byte
 * 0x80, a v0 message whose address table lookups load more accounts from
 * lookup-table accounts.  Decoding refuses what does not parse (a length
 * past the end, a non-canonical compact-u16, a message version other than
 * 0, bytes after the transaction); what parses but the runtime would not
 * run is the runtime's transaction error, given back as such:
 *
 *   SanitizeFailure                 the header, an index or the signature
 *                                   count out of its bounds
 *   AddressLookupTableNotFound      no table account, or it is deactivated
 *                                   (its deactivation slot is neither the
 *                                   current slot nor in SlotHashes)
 *   InvalidAddressLookupTableOwner  the account is not the ALT program's
 *   InvalidAddressLookupTableData   its data is not a lookup table
 *   InvalidAddressLookupTableIndex  an index past the table's active
 *                                   addresses
 *   AccountLoadedTwice              a key twice among all accounts
 *   TooManyAccountLocks             more than 128 accounts
 *
 * The accounts are then as the runtime orders them: the static keys, every
 * table's writable addresses (table by table), then every table's
 * read-only ones.  An account is writable as the header (or its lookup)
 * says, except a reserved key (sysvars, builtin programs) and a program an
 * instruction calls while the upgradeable loader is not among the
 * accounts: those are demoted to read-only, as agave does.
 */
#ifndef SCP_SOL_WIRE_H
#define SCP_SOL_WIRE_H

#include "solana/scp_sol.h"
#include "solana/scp_sol_tx.h"
#include "util/scp_util.h"

typedef struct scp_sol_wire_ix {
  uint8_t program;             /* index of a static key */
  const uint8_t *accts;        /* account indexes */
  size_t naccts;
  const uint8_t *data;
  size_t len;
} scp_sol_wire_ix;

typedef struct scp_sol_wire_lookup {
  const uint8_t *table;        /* the lookup table's address (32 bytes) */
  const uint8_t *writable;
  size_t nwritable;
  const uint8_t *readonly;
  size_t nreadonly;
} scp_sol_wire_lookup;

/* A decoded transaction: every pointer points into bytes, which it owns. */
typedef struct scp_sol_wire_tx {
  uint8_t *bytes;
  size_t len;
  size_t nsigs;
  const uint8_t *sigs;         /* nsigs x 64 bytes */
  const uint8_t *msg;          /* the signed message */
  size_t msglen;
  bool v0;
  uint8_t nreq, nro_signed, nro_unsigned;   /* the header */
  size_t nkeys;
  const uint8_t *keys;         /* nkeys x 32 bytes: the static keys */
  const uint8_t *blockhash;
  scp_sol_wire_ix *ixs;
  size_t nixs;
  scp_sol_wire_lookup *lookups;
  size_t nlookups;
} scp_sol_wire_tx;

/* Decode the bytes of one transaction (copied).  SCP_OK; SCP_ERR_MALFORMED
 * (err says what and at which byte), SCP_ERR_NOMEM; on failure *tx is
 * empty (scp_sol_wire_free is still safe). */
int scp_sol_wire_decode(const uint8_t *in, size_t n, scp_sol_wire_tx *tx, scp_error *err);

/* A file's contents as a transaction's bytes: raw bytes as they are, or
 * text (surrounding white space ignored) in base64, else base58.  SCP_OK
 * with *out malloc'd; SCP_ERR_MALFORMED (text in neither), SCP_ERR_NOMEM. */
int scp_sol_wire_text(const uint8_t *in, size_t n, uint8_t **out, size_t *outlen, scp_error *err);

void scp_sol_wire_free(scp_sol_wire_tx *tx);

/* Whether every signature is the ed25519 signature of the message by the
 * static key at its index (libsodium's strict verification; the runtime
 * checks them after the lookups load, and a bad one is SignatureFailure). */
bool scp_sol_wire_verify(const scp_sol_wire_tx *tx);

/* The transaction on a set of accounts, ready for scp_sol_tx_run. */
typedef struct scp_sol_wire_msg {
  scp_sol_account *accts;      /* the message's accounts in its order, then
                                * the other accounts of the state */
  size_t naccts, nmsg;
  bool *writable;              /* nmsg flags */
  scp_sol_tx_ix *ixs;
  size_t nixs;
  scp_sol_ixacct *ixaccts;     /* what ixs[k].accts point into */
  char txerr[96];              /* a load error of the runtime ("" if none) */
} scp_sol_wire_msg;

/* The current slot and the slots SlotHashes holds, which decide whether a
 * deactivated table still loads; NULL: litesvm's (its clock's slot, which
 * is also SlotHashes' one entry). */
typedef struct scp_sol_wire_slots {
  uint64_t current;
  const uint64_t *hashes;
  size_t nhashes;
} scp_sol_wire_slots;

/* Resolve tx against the accounts of state (copied; a key the state does
 * not hold is an empty system account).  SCP_OK also when the runtime
 * refuses the transaction: then m->txerr says why and m holds no
 * instruction.  SCP_ERR_NOMEM; on failure *m is empty. */
int scp_sol_wire_load(const scp_sol_wire_tx *tx, const scp_sol_account *state, size_t nstate,
                      const scp_sol_wire_slots *slots, scp_sol_wire_msg *m, scp_error *err);
void scp_sol_wire_msg_free(scp_sol_wire_msg *m);

/* A compact-u16 (short_vec length) appended to b */
void scp_sol_wire_put_cu16(scp_buf *b, size_t v);

/* A legacy transaction of instructions (their accounts indexes into
 * accts) as a client compiles it: payer first, then every account once,
 * its flags merged over the instructions, then the programs (read-only),
 * ordered stably by class (writable signers, read-only signers, writable,
 * read-only), signatures zero.  SCP_OK with *out malloc'd; SCP_ERR_ARG
 * (more than 256 accounts), SCP_ERR_NOMEM. */
int scp_sol_wire_compile(const uint8_t payer[32], const scp_sol_tx_ix *ixs, size_t n, const scp_sol_account *accts,
                         const uint8_t blockhash[32], uint8_t **out, size_t *len, scp_error *err);

/* The id of the Address Lookup Table program */
extern const char scp_sol_alt_program[];

#endif
