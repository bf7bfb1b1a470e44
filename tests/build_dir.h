/*
 * build_dir.h — where a test finds what the build made: the folder named by
 * SCP_BUILD (tests/run.sh sets it: build, or build/san under make check),
 * else "build".  Tests run from the repository root.
 */
#ifndef SCP_TEST_BUILD_DIR_H
#define SCP_TEST_BUILD_DIR_H

#include <stdio.h>
#include <stdlib.h>

static inline const char *build_dir(void) {
  const char *b = getenv("SCP_BUILD");
  return b && *b ? b : "build";
}

/* BUILD/rel, in a buffer the next call overwrites. */
static inline const char *build_path(const char *rel) {
  static char path[1024];
  snprintf(path, sizeof path, "%s/%s", build_dir(), rel);
  return path;
}

#endif
