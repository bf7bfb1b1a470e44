/*
 * host_fixture.h — the host set-up the Soroban unit tests share: a Budget,
 * a host on it, and a small linear memory for dispatch; cmocka set-up and
 * teardown around it, and host functions looked up by name.
 * Include after <cmocka.h> and "soroban/core/host_private.h".
 */
#ifndef SCP_TEST_HOST_FIXTURE_H
#define SCP_TEST_HOST_FIXTURE_H

/* Every host test's set-up: plain (fixture_open), the reference's test
 * ledger (fixture_open_ledger), the reference's Stellar Asset Contract test
 * host (fixture_open_sac); and the helpers they all need: a dispatch that
 * returns its cost (fixture_call), symbols, Bytes objects, hex vectors. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The reference's test ledger (sequence 123, max entry TTL 6,312,000),
 * enforcing auth, the network's limits, 64 bytes of linear memory. */
static inline int fixture_open_ledger(void **state) {
  scp_host_opts o = { .ledger_sequence = 123, .max_entry_ttl = 6312000, .auth_enforcing = true };
  return fixture_open(state, 0, 0, &o, 64);
}

/* The reference's Stellar Asset Contract test host: enforcing auth with
 * no entries, unlimited, and the budget where its traces begin (CPU
 * 14,285 already spent by Host::test_host, memory 0). */
static inline int fixture_open_sac(void **state) {
  scp_host_opts o = { .auth_enforcing = true };
  if (fixture_open(state, UINT64_MAX, UINT64_MAX, &o, 0)) return -1;
  fixture *f = *state;
  f->b.cpu = 14285;
  f->b.mem = f->b.mem_peak = 0;
  return 0;
}

/* The table index of host function NAME; fails the test when unknown. */
static inline unsigned fn(const char *name) {
  int id = scp_hostfn_find_name(name);
  assert_true(id >= 0);
  return (unsigned)id;
}

/* Host function NAME dispatched from the VM (the fixture's memory); the
 * rc, and in *cpu / *mem (when not NULL) what it cost. */
static inline int fixture_call(fixture *f, const char *name, const uint64_t *args,
                               uint64_t *ret, uint64_t *cpu, uint64_t *mem) {
  scp_error err;
  uint64_t c = f->b.cpu, m = f->b.mem;
  int rc = scp_host_dispatch(f->h, fn(name), args, &f->mem, ret, &err);
  if (cpu) *cpu = f->b.cpu - c;
  if (mem) *mem = f->b.mem - m;
  return rc;
}

/* A small Symbol Val (at most 9 characters of [_0-9A-Za-z]). */
static inline uint64_t sym(const char *s) {
  uint64_t v = 0;
  assert_true(scp_val_symbol_small((const uint8_t *)s, strlen(s), &v));
  return v;
}

/* A Bytes object holding p[0..n). */
static inline uint64_t bytes_obj(scp_host *h, const uint8_t *p, uint32_t n) {
  uint64_t v;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, p, n, &v), SCP_OK);
  return v;
}

/* Hex digits s (an even number of them) into out. */
static inline void hex(const char *s, uint8_t *out) {
  for (size_t i = 0; s[2 * i]; i++) {
    unsigned v;
    sscanf(s + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

#endif
