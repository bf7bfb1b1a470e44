/*
 * cpu_time.h — the clock of the scale tests: the process's CPU time, so
 * other work on the shared machine does not count, and the budget a load
 * of 100,000 things gets on it: a second in the release build, five
 * under the sanitizers.
 */
#ifndef SCP_TEST_CPU_TIME_H
#define SCP_TEST_CPU_TIME_H

#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#define CPU_LIMIT 5.0
#else
#define CPU_LIMIT 1.0
#endif

/* seconds of CPU time this process has used */
static inline double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
