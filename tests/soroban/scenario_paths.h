/*
 * scenario_paths.h — a scenario's text for tests, with @rel@ replaced by the
 * absolute path of the build's file rel (scenarios written to /tmp need
 * absolute names).  Shared by test_scenario.c and test_snapshot.c.
 */
#ifndef SCP_TEST_SCENARIO_PATHS_H
#define SCP_TEST_SCENARIO_PATHS_H

#include <stdlib.h>
#include <string.h>

#include "build_dir.h"

/* In a buffer the next call overwrites. */
static inline char *with_paths(const char *tmpl) {
  static char out[8192];
  size_t n = 0;
  for (const char *t = tmpl; *t && n < sizeof out - 1;) {
    const char *end = *t == '@' ? strchr(t + 1, '@') : NULL;
    if (!end) {
      out[n++] = *t++;
      continue;
    }
    char rel[256];
    snprintf(rel, sizeof rel, "%.*s", (int)(end - t - 1), t + 1);
    char *abs = realpath(build_path(rel), NULL);
    assert_non_null(abs);
    n += (size_t)snprintf(out + n, sizeof out - n, "%s", abs);
    free(abs);
    t = end + 1;
  }
  out[n] = 0;
  return out;
}

#endif
