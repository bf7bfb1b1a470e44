/* sol_fee.h — the transaction fee of a wire message and the fee payer's
 * checks, as litesvm 1.5.0 charges them (scp_sol_tx.h says when). */
#ifndef SOL_FEE_H
#define SOL_FEE_H

#include "solana/scp_sol_tx.h"

/* 5,000 lamports per signature of the message and of its precompile
 * instructions, plus ceil(price x limit / 1,000,000) */
uint64_t sol_fee_of(const scp_sol_tx_opts *o, uint64_t cu_price, uint64_t cu_limit);

/* Take fee from the payer (validate_fee_payer): "" and the lamports
 * taken, or the transaction error in why and the payer untouched. */
void sol_fee_charge(scp_sol_account *payer, uint64_t fee, char *why, size_t cap);

#endif
