/*
 * scale_test.h — what the scale tests (100,000 of everything in a
 * scenario) share: their clock, the process's CPU time, so other work on
 * the shared machine does not count; the budget a load gets on it, three
 * seconds in the release build, ten under the sanitizers; and the folder
 * under SCP_BUILD their generated scenarios are written to.  Include
 * after <cmocka.h>, "util/scp_util.h" and "build_dir.h".
 */
#ifndef SCP_TEST_SCALE_TEST_H
#define SCP_TEST_SCALE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* What the budget separates is linear from quadratic work: at 100,000
 * entries a quadratic loader takes minutes (10,000 contracts took 7 s
 * before the maps), a linear one about a second (1.0 to 1.6 s of CPU seen
 * on a quiet two-core machine of this project in December 2026, where the
 * older one-second budget failed on the loaders as they were). */
#if defined(__SANITIZE_ADDRESS__)
#define CPU_LIMIT 10.0
#else
#define CPU_LIMIT 3.0
#endif

/* seconds of CPU time this process has used */
static inline double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Writes len bytes of data as dir/name; the path in path. */
static inline void scale_put(char *path, size_t cap, const char *dir, const char *name,
                             const void *data, size_t len) {
  snprintf(path, cap, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  fclose(f);
}

/* dir = SCP_BUILD/tests/AREA/scale, made, with the file every scenario
 * there names as its code: seed, len bytes of data. */
static inline void scale_folder(char *dir, size_t cap, const char *area, const char *seed,
                                const void *data, size_t len) {
  snprintf(dir, cap, "%s/tests/%s/scale", build_dir(), area);
  char cmd[600], path[600];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  assert_int_equal(system(cmd), 0);
  scale_put(path, sizeof path, dir, seed, data, len);
}

/* Writes the scenario b (then freed) as dir/name; returns path. */
static inline const char *scale_write(char *path, size_t cap, const char *dir, const char *name,
                                      scp_buf *b) {
  assert_false(b->oom);
  scale_put(path, cap, dir, name, b->data, b->len);
  scp_buf_free(b);
  return path;
}

#endif
