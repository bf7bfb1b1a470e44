/*
 * host_fixture.h — the host set-up the Soroban unit tests share: a Budget,
 * a host on it, and a small linear memory for dispatch; cmocka set-up and
 * teardown around it, and host functions looked up by name.
 * Include after <cmocka.h> and "soroban/core/host_private.h".
 */
#ifndef SCP_TEST_HOST_FIXTURE_H
#define SCP_TEST_HOST_FIXTURE_H

#include <stdlib.h>

typedef struct fixture {
  scp_budget b;
  scp_host *h;
  uint8_t memory[256];
  scp_hostmem mem;   /* the first mem_len bytes of memory */
} fixture;

/* A fixture in *state with the given limits (0: the network's), host
 * options (NULL: defaults) and linear-memory size (at most 256). */
static inline int fixture_open(void **state, uint64_t cpu_limit, uint64_t mem_limit,
                               const scp_host_opts *o, size_t mem_len) {
  fixture *f = calloc(1, sizeof *f);
  if (!f || mem_len > sizeof f->memory) {
    free(f);
    return -1;
  }
  scp_budget_init(&f->b, cpu_limit, mem_limit);
  if (scp_host_create(&f->b, o, &f->h)) {
    free(f);
    return -1;
  }
  f->mem = (scp_hostmem){ f->memory, mem_len };
  *state = f;
  return 0;
}

static inline int fixture_close(void **state) {
  fixture *f = *state;
  scp_host_destroy(f->h);
  free(f);
  return 0;
}

/* The table index of host function NAME; fails the test when unknown. */
static inline unsigned fn(const char *name) {
  int id = scp_hostfn_find_name(name);
  assert_true(id >= 0);
  return (unsigned)id;
}

#endif
