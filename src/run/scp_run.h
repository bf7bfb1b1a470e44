/*
 * scp_run.h — the chain-neutral run core: books every unit a chain's meter
 * charges to exactly one node of the calling-context tree, and turns the
 * finished tree into a profile.
 *
 * A chain (a Soroban invocation, a Solana transaction) owns a meter: one
 * running total per metric (CPU and memory, compute units, storage reads,
 * ...), read through a callback or straight from a vector the chain keeps
 * up to date.  The core keeps a cursor, per metric, of the amount already
 * booked.  Every boundary (a guest call into the host, a cross-contract
 * call, a program invocation, the end of the run) books "now - cursor" to
 * one node and moves the cursor, so each unit lands on exactly one node:
 *
 *     cursor ──── now        booked to the node on top of the stack
 *
 * Guest code is not booked here: an engine counts its own work per region
 * or block and writes exact per-pc costs into the tree (scp_tree_add_pc).
 * When the chain turns guest work into meter charges (Soroban's fuel flush
 * before a host call, sBPF's pending instruction count before a syscall),
 * it calls scp_run_skip so that those units are not booked twice, or
 * scp_run_enter_from_guest, which skips them and enters the host call in
 * one meter reading.
 *
 * The stack holds the node that pending costs go to: the root at first,
 * then whatever scp_run_enter pushed (a host call, a syscall, a contract or
 * program entry).  Guest calls are the engine's business; a host call from
 * guest code names the engine's current guest node as its parent.  Every
 * enter is paired with one leave; a trap may leave calls open, which
 * scp_run_unwind (and scp_run_build) closes.
 *
 * Errors: scp_run_create, scp_run_check and scp_run_build return codes.
 * Booking never loses a unit: a per-pc cost that cannot be stored stays in
 * the node's self (scp_run_book_pc says so), and a call that cannot be
 * entered (out of memory) has its costs booked to the caller
 * (scp_run_enter says so).
 *
 * After the run, the invariant (scp_run_check): for every metric, the sum of
 * the tree's self costs equals the meter's total.  scp_run_build checks it,
 * builds the profile, checks inclusive == self + sum of children for every
 * node, and writes the run's metadata (metrics with their limits, title,
 * status and its one-line text).
 *
 * Nothing here knows a chain: node kinds are scp_kind, `module` and
 * `callee` are the chain's numbers, names come from the chain's resolver.
 * One scp_run per run; several may live in one process (no global state).
 */
#ifndef SCP_RUN_H
#define SCP_RUN_H

#include "profile/scp_prof.h"

typedef struct scp_run scp_run;

/* Reads the meter: writes the running total of every metric, in the order
 * of scp_run_opts.metrics, into now[0 .. nmetrics).  Totals may only grow
 * between two readings, except where the chain books the drop itself
 * (the differences are taken modulo 2^64, so the sums still telescope). */
typedef void (*scp_run_meter_fn)(void *ctx, uint64_t *now);

typedef struct scp_run_opts {
  unsigned nmetrics;              /* 1 .. SCP_MAX_METRICS */
  const scp_metric *metrics;      /* nmetrics descriptions (name, unit, limit); copied */
  scp_run_meter_fn meter;         /* the meter as a callback ... */
  void *meter_ctx;
  const uint64_t *totals;         /* ... or, when meter is NULL, a live vector of
                                     nmetrics totals that outlives the run */
} scp_run_opts;

/* Create a run whose tree holds only the root (node 0, the only node on
 * the stack) and whose cursor is zero: everything the meter has counted,
 * before the run was created too, is booked at the first boundary.  The
 * meter is not read here (the chain may create its meter afterwards).
 * Returns SCP_OK and sets *out, SCP_ERR_ARG (nmetrics out of range, no meter
 * and no totals, no metrics) or SCP_ERR_NOMEM, with err filled; on failure
 * *out is NULL and nothing is left allocated. */
int scp_run_create(const scp_run_opts *o, scp_run **out, scp_error *err);

/* Free the run and its tree.  NULL is a no-op. */
void scp_run_destroy(scp_run *r);

/* Shape the tree (scp_tree_opts, include/scprof.h) before anything is
 * entered; a run starts with SCP_DEFAULT_MAX_NODES and no folding. */
void scp_run_set_shape(scp_run *r, const scp_tree_opts *shape);

/* The tree, for the engine to attach to (scp_wasm_attach) and for the
 * chain's own node lookups.  Owned by the run; valid until destroy. */
scp_tree *scp_run_tree(scp_run *r);

/* ---- booking --------------------------------------------------------------- */

/* Book the costs since the cursor to node and move the cursor. */
void scp_run_book(scp_run *r, uint32_t node);

/* Book the costs since the cursor to node at pc (a guest node's per-pc
 * costs: a memory.grow, a bulk copy) and move the cursor.  Returns false
 * on OOM; the costs are then in node's self without a pc, so the invariant
 * still holds. */
bool scp_run_book_pc(scp_run *r, uint32_t node, uint64_t pc);

/* Move the cursor without booking: the units since the cursor are guest
 * work that the engine books itself. */
void scp_run_skip(scp_run *r);

/* A chain that keeps a finer breakdown of the same costs per node
 * (Soroban's Budget by cost type) is told where each booking went, just
 * before it is made: hook(ctx, node, pc) from scp_run_book, enter, leave
 * (pc UINT64_MAX) and scp_run_book_pc (its pc); hook(ctx, SCP_NODE_NONE,
 * UINT64_MAX) from scp_run_skip and enter_from_guest (guest work the
 * engine books).  scp_run_take does not call it: its caller books the
 * delta, and tells its breakdown itself.  fn NULL: no hook. */
typedef void (*scp_run_book_fn)(void *ctx, uint32_t node, uint64_t pc);
void scp_run_set_book_hook(scp_run *r, scp_run_book_fn fn, void *ctx);

/* Write the costs since the cursor into delta[0 .. nmetrics), move the
 * cursor, book nothing.  The caller must book delta (scp_run_add) to keep
 * the invariant.  Returns true when any of them is non-zero. */
bool scp_run_take(scp_run *r, uint64_t *delta);

/* Add a cost vector of nmetrics entries to node's self. */
void scp_run_add(scp_run *r, uint32_t node, const uint64_t *delta);

/* ---- the node stack ---------------------------------------------------------- */

/* The node that pending costs go to: the root (0) or the last entered. */
uint32_t scp_run_top(const scp_run *r);

/* How many scp_run_enter calls are not yet left (0 at the root). */
size_t scp_run_depth(const scp_run *r);

/* Enter a call: book the costs since the cursor to the top, find or create
 * the child of parent keyed (callsite, kind, module, callee), count one call
 * of it, and push it.  parent is usually the top; a host call made from
 * guest code names the engine's current guest node instead.
 * Returns the child's id, or SCP_NODE_NONE when out of memory.  Either way
 * exactly one entry is pushed (on failure the top again, so costs keep
 * going where they went), and exactly one scp_run_leave must follow. */
uint32_t scp_run_enter(scp_run *r, uint32_t parent, uint64_t callsite, scp_kind kind,
                       uint32_t module, uint32_t callee);

/* A call out of guest code (a host call, a syscall): what is pending since
 * the cursor is guest work that the engine books itself (Soroban's fuel
 * flushed into the Budget, sBPF's pending instructions charged just
 * before), so the cursor moves past it as scp_run_skip does -- one meter
 * reading for both -- and then the call is entered as scp_run_enter does,
 * parent being the engine's current guest node and callsite its pc.  Same
 * return value and the same one-leave rule as scp_run_enter. */
uint32_t scp_run_enter_from_guest(scp_run *r, uint32_t parent, uint64_t callsite, scp_kind kind,
                                  uint32_t module, uint32_t callee);

/* Leave the call on top: book the costs since the cursor to it and pop it.
 * At the root (depth 0) this only books to the root. */
void scp_run_leave(scp_run *r);

/* A trap or an exhausted meter ends the run with calls still open: leave
 * them all, innermost first (what is pending goes to the innermost). */
void scp_run_unwind(scp_run *r);

/* ---- after the run ------------------------------------------------------------- */

/* The meter's total of metric m (m < nmetrics), read now. */
uint64_t scp_run_total(scp_run *r, unsigned m);

/* The invariant: every unit the meter counted sits on exactly one node,
 * i.e. for every metric, sum of self costs == the meter's total now.
 * Returns SCP_OK, or SCP_ERR_INTERNAL with err naming the first metric
 * that differs and both numbers.  Changes nothing. */
int scp_run_check(scp_run *r, scp_error *err);

/* What the profile says about the run besides its tree. */
typedef struct scp_run_report {
  unsigned nmetrics;              /* metrics kept in the profile: the first n (0 = all) */
  const char *title;              /* the profile's heading ("demo.wasm run(u32:200)"); NULL = "" */
  int status;                     /* SCP_OK, or how the run ended (trap, budget) */
  const char *status_msg;         /* its one line when status != SCP_OK */
  const scp_resolver *resolver;   /* names and inline chains (stage 2) */
  /* the chain's key/value lines (scp_prof_meta), written after the title
   * and before the status text; NULL = none.  Returns SCP_OK or an error
   * code (its message is the chain's to write into err). */
  int (*add_meta)(void *ctx, scp_profile *p, scp_error *err);
  void *ctx;
} scp_run_report;

/* Unwind (scp_run_unwind), check the invariant (scp_run_check) on
 * every metric, build the profile (scp_prof_build) keeping rep->nmetrics
 * metrics, set its status, title and metadata (after the chain's lines: a
 * "call tree" line when the node budget merged paths into [truncated]
 * frames, a "recursion" line when folded), and check that inclusive ==
 * self + sum of children for every node and metric.
 * Returns SCP_OK with *out a new profile (the caller destroys it with
 * scp_profile_destroy); or SCP_ERR_INTERNAL (an invariant does not hold),
 * SCP_ERR_NOMEM, or add_meta's error, with err filled and *out NULL.  The
 * run is left unwound and booked up to now; it may be built again or
 * destroyed. */
int scp_run_build(scp_run *r, const scp_run_report *rep, scp_profile **out, scp_error *err);

#endif
