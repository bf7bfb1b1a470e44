/*
 * size_private.h — what the size tree's two container walkers share: the
 * raw tree they fill (profile/scp_tree.h, one metric: bytes) and the nodes
 * they make.  Structural nodes (headers, sections, crates) are
 * SCP_KIND_VM nodes of module 1 named by callee, an id in `names`;
 * functions are SCP_KIND_GUEST nodes of module 0, callee = the symbol
 * mapper's function index, their bytes booked per pc.
 */
#ifndef SIZE_PRIVATE_H
#define SIZE_PRIVATE_H

#include "size/scp_size.h"

typedef struct size_b {
  scp_tree t;
  scp_sym *s;
  scp_strtab names;          /* names of structural nodes */
  const uint8_t *bytes;
  size_t len;
  const char *root_name;
  bool oom;                  /* a node or a cost could not be added */
} size_b;

#define SIZE_MOD_CODE 0u
#define SIZE_MOD_NAMED 1u

/* The structural child of parent named name (made on first use);
 * SCP_NODE_NONE (b->oom set) when out of memory. */
SCP_HIDDEN uint32_t scp_size_node(size_b *b, uint32_t parent, const char *name);

/* Add n bytes to node's self (nothing for SCP_NODE_NONE). */
SCP_HIDDEN void scp_size_self(size_b *b, uint32_t node, uint64_t n);

/* A child named name of parent holding n bytes (nothing when n is 0). */
SCP_HIDDEN void scp_size_part(size_b *b, uint32_t parent, const char *name, uint64_t n);

/* Function func_index of the mapper, code [lo, hi) in its pc units, under
 * parent grouped by crate and module, booked per pc in steps of `step`
 * bytes (1 for WASM, 8 for an sBPF instruction slot). */
SCP_HIDDEN void scp_size_function(size_b *b, uint32_t parent, uint32_t func_index,
                                  uint64_t lo, uint64_t hi, uint64_t step);

/* The walkers: fill b's tree from b->bytes.  Return SCP_OK or an error
 * (err filled). */
SCP_HIDDEN int scp_size_wasm(size_b *b, scp_error *err);
SCP_HIDDEN int scp_size_elf(size_b *b, scp_error *err);

#endif
