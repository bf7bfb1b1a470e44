/* sol_trunc.h — a profile made of several program invocations (a
 * transaction, an instruction whose CPIs were grafted in) says once, not
 * once per invocation, what the node budget merged. */
#ifndef SOL_TRUNC_H
#define SOL_TRUNC_H

#include "profile/scp_prof.h"

/* When p holds "call tree" notes (each invocation's own, scp_run_build's
 * text, as the grafts copied them), keep the first in its place with the
 * whole profile's count and drop the others:
 *   node budget of MAX reached in K program invocations (NAME n, ...):
 *   C calls on paths past it merged into M [truncated] frames (...)
 * K: the program nodes with a [truncated] frame of their own below them
 * (under no nearer program node), counted by program name in node order;
 * C: the calls of the [truncated] frames' children (every call booked
 * past the budget); M: the [truncated] frames.  shape is what the
 * invocations ran under (its max_nodes as scp_tree_opts reads it).  No
 * note, nothing done.  SCP_OK, or SCP_ERR_NOMEM with p's notes as they
 * were. */
int sol_trunc_note(scp_profile *p, const scp_tree_opts *shape);

#endif
