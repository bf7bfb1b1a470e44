/*
 * sac_flows.h — the reference's Stellar Asset Contract tests redone whole
 * against their traces (sac_flows.c), one flow per test.
 */
#ifndef SCP_TEST_SAC_FLOWS_H
#define SCP_TEST_SAC_FLOWS_H

#include <stddef.h>

/* A flow and the trace it redoes (tests/data/observations/FILE): run it
 * as a cmocka test whose state is FILE.  test_sac_whole runs them all;
 * test_replay runs the ones of direct-call traces in place of its
 * trace-driven replay. */
typedef struct sac_flow {
  const char *file;
  void (*run)(void **state);
} sac_flow;

extern const sac_flow sac_flows[];
extern const size_t sac_nflows;

#endif
