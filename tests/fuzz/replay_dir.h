/*
 * replay_dir.h — the corpus replay the fuzz tests share: every file of a
 * folder through one fuzz entry, and, for real inputs (modules, programs,
 * transactions), 64 truncations of each, which must be handled too.
 */
#ifndef SCP_TEST_REPLAY_DIR_H
#define SCP_TEST_REPLAY_DIR_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/scp_util.h"

/* How many files of dir went through one (0: no folder or none read). */
static unsigned replay_dir(const char *dir, bool truncations,
                           void (*one)(const uint8_t *, size_t)) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  unsigned n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    uint8_t *data;
    size_t len;
    scp_error err;
    if (scp_read_file(path, &data, &len, &err) != SCP_OK) continue;
    one(data, len);
    if (truncations)
      for (size_t cut = 0; cut < len; cut += len / 64 + 1) one(data, cut);
    free(data);
    n++;
  }
  closedir(d);
  return n;
}

#endif
