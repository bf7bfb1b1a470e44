/*
 * scp_sol_rpctx.h — an RPC getTransaction response: the transaction it
 * holds (encoding "base64", or "json", which is turned back into the wire
 * bytes) and what the chain recorded when it ran (meta).
 *
 * Accepted: the whole JSON-RPC reply ({"jsonrpc", "id", "result"}) or its
 * "result" alone: {"slot", "blockTime", "version", "transaction", "meta"}.
 * meta must hold computeUnitsConsumed, logMessages and err (older nodes
 * left the first out: such a record cannot be compared, so it is refused);
 * its other keys are those RPC nodes write.  innerInstructions entries
 * are {"index", "instructions"}, each instruction {"programIdIndex",
 * "accounts", "data" (base58), "stackHeight"}; a record without the stack
 * height (older nodes) is refused, as it cannot be compared.  "jsonParsed" transactions
 * name accounts without their order and cannot be turned back into bytes:
 * refused.  Every refusal is SCP_ERR_MALFORMED with the file and the JSON
 * path.  Account data is not in a response: the state comes from elsewhere.
 */
#ifndef SCP_SOL_RPCTX_H
#define SCP_SOL_RPCTX_H

#include "solana/scp_sol.h"
#include "solana/scp_sol_tx.h"

typedef struct scp_sol_chain {
  uint8_t *wire;               /* the transaction's wire bytes (malloc'd) */
  size_t len;
  uint64_t cu;                 /* meta.computeUnitsConsumed */
  char **logs;                 /* meta.logMessages */
  size_t nlogs;
  char *err;                   /* meta.err, compact JSON with sorted keys ("null") */
  /* meta.innerInstructions, one line per inner instruction in the order
   * recorded, as scp_sol_tx_result's inner lines are written */
  char **inner;
  size_t ninner;
} scp_sol_chain;

/* Whether the bytes are JSON (an object), not a wire transaction. */
bool scp_sol_rpctx_is(const uint8_t *p, size_t n);

/* Read a response; file names it in errors.  SCP_OK; SCP_ERR_MALFORMED,
 * SCP_ERR_NOMEM; on failure *c is empty. */
int scp_sol_rpctx_read(const uint8_t *p, size_t n, const char *file, scp_sol_chain *c, scp_error *err);
void scp_sol_chain_free(scp_sol_chain *c);

/* The outcome of r as the RPC writes meta.err (compact, sorted keys):
 * null, "Name", {"InstructionError":[k,"Name"]},
 * {"InstructionError":[k,{"Custom":n}]}, {"DuplicateInstruction":k},
 * {"InsufficientFundsForRent":{"account_index":k}}. */
void scp_sol_rpc_err(const scp_sol_tx_result *r, char *buf, size_t cap);

#endif
