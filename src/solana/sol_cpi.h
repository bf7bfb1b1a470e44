/* sol_cpi.h — cross-program invocation from an sBPF program: the
 * sol_invoke_signed_c/_rust syscalls (their bodies are declared in
 * sol_syscalls.def) and the callee's profile put under the invoke. */
#ifndef SOL_CPI_H
#define SOL_CPI_H

#include "solana/scp_sol_run.h"
#include "solana/sol_sys.h"

struct sol_cpi;

/* Attach CPI state for the instruction o to c (c->cpi). */
int sol_cpi_new(const scp_sol_run_opts *o, sol_ctx *c, scp_error *err);
void sol_cpi_free(struct sol_cpi *x);
/* The syscall node now entered in tree t (profiled runs). */
void sol_cpi_at(struct sol_cpi *x, scp_tree *t, uint32_t node);
/* Name the placeholder node a CPI left in the raw tree. */
int sol_cpi_frame(struct sol_cpi *x, const scp_tree_node *n, scp_frame_info *out);
/* Put each callee's profile at its placeholder, taking its CU off the
 * invoke's syscall node (which the meter charged them to). */
int sol_cpi_graft(struct sol_cpi *x, scp_profile *p, scp_error *err);

#endif
