/*
 * fuzz_scenario.h — one input as a scenario file (scp_scenario_load,
 * scenario.c / scenario_ledger.c), and for one that loads, its ledger's
 * set-up (scp_ledger_setup: accounts, trustlines, asset contracts,
 * deploys with constructors, storage and instance seeds) and its first
 * call, on tiny budgets.  Used by the libFuzzer target (fuzz_scenario.c,
 * with the schema's keys as a dictionary, scenario.dict) and by the corpus
 * replay (test_fuzz_replay.c, tests/fuzz/corpus-scenario).
 *
 * The input is the JSON text itself, written to s.json in a scratch folder
 * that holds every .wasm of the build's examples and test fixtures
 * (SCP_BUILD, else build/fuzz, else build), so "wasm": "counter.wasm"
 * names a real contract with a spec.  Inputs naming /dev, /proc or /sys
 * are skipped (reading a device is the user's choice, not a parser bug).
 *
 * Oracles besides the sanitizers: a failure is one line starting with the
 * file's path and has a documented status (never SCP_ERR_INTERNAL or
 * SCP_ERR_NOMEM: no unbounded allocation); the ledger set-up and the call
 * fail only with their documented statuses.
 */
#ifndef SCP_FUZZ_SCENARIO_H
#define SCP_FUZZ_SCENARIO_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scprof.h"
#include "soroban/run/scp_scenario.h"

static char fs_scratch[64];

/* At exit: the scratch folder and what it holds (links and files only). */
static void fs_cleanup(void) {
  DIR *d = opendir(fs_scratch);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    char p[1024];
    if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/%s", fs_scratch, e->d_name);
    unlink(p);
  }
  closedir(d);
  rmdir(fs_scratch);
}

/* The scratch folder, made once per process (removed at exit); NULL when
 * it cannot be. */
static inline const char *fs_dir(void) {
  char *dir = fs_scratch;
  if (dir[0]) return dir;
  snprintf(dir, sizeof fs_scratch, "/tmp/fuzz-scenario-XXXXXX");
  if (!mkdtemp(dir)) return dir[0] = 0, NULL;
  atexit(fs_cleanup);
  const char *b = getenv("SCP_BUILD");
  const char *builds[] = { b ? b : "build/fuzz", "build/fuzz", "build" };
  static const char *const subs[] = { "examples", "tests/fixtures/wasm" };
  for (size_t i = 0; i < 3; i++)
    for (size_t k = 0; k < 2; k++) {
      char from[512];
      snprintf(from, sizeof from, "%s/%s", builds[i], subs[k]);
      DIR *d = opendir(from);
      if (!d) continue;
      struct dirent *e;
      while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".wasm")) continue;
        char src[1024], dst[1024];
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", dir, e->d_name);
        char *real = realpath(src, NULL);
        if (real && symlink(real, dst)) { /* already there: an earlier build's */ }
        free(real);
      }
      closedir(d);
    }
  /* a module with no exports, and one that is not a module */
  static const uint8_t empty[] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
  char p[128];
  snprintf(p, sizeof p, "%s/empty.wasm", dir);
  FILE *f = fopen(p, "wb");
  if (f) fwrite(empty, 1, sizeof empty, f), fclose(f);
  snprintf(p, sizeof p, "%s/bad.wasm", dir);
  if ((f = fopen(p, "wb"))) fputs("not a module", f), fclose(f);
  return dir;
}

static inline void fs_check(bool ok) {
  if (!ok) __builtin_trap();
}

/* A one-line message. */
static inline bool fs_one_line(const scp_error *e) { return e->msg[0] && !strchr(e->msg, '\n'); }

static inline void fuzz_scenario_one(const uint8_t *data, size_t size) {
  if (memmem(data, size, "/dev", 4) || memmem(data, size, "/proc", 5) || memmem(data, size, "/sys", 4))
    return;
  const char *dir = fs_dir();
  if (!dir) return;
  char path[128];
  snprintf(path, sizeof path, "%s/s.json", dir);
  FILE *f = fopen(path, "wb");
  if (!f) return;
  size_t w = fwrite(data, 1, size, f);
  if (fclose(f) || w != size) return;
  scp_scenario *sc = NULL;
  scp_error err = { 0 };
  int rc = scp_scenario_load(path, &sc, &err);
  if (rc) {
    fs_check(!sc && fs_one_line(&err) && !strncmp(err.msg, path, strlen(path)));
    fs_check(rc == SCP_ERR_IO || rc == SCP_ERR_MALFORMED || rc == SCP_ERR_UNSUPPORTED ||
             rc == SCP_ERR_ARG || rc == SCP_ERR_NOTFOUND);
    return;
  }
  scp_ledger *l = scp_scenario_ledger(sc, NULL, 0);
  if (l) {
    scp_soroban_opts o;
    scp_sor_session sess = {.ledger = l};
    scp_scenario_opts(sc, 0, &o, &sess);
    /* tiny budgets: the limits the file gives, at most 2^21 CPU / 2^22 bytes */
    if (!o.limits.cpu || o.limits.cpu > (1u << 21)) o.limits.cpu = 1u << 21;
    if (!o.limits.mem || o.limits.mem > (1u << 22)) o.limits.mem = 1u << 22;
    scp_error e2 = { 0 };
    rc = scp_ledger_setup(l, &o, &e2);
    if (rc) fs_check(fs_one_line(&e2) && rc != SCP_ERR_INTERNAL && rc != SCP_ERR_NOMEM);
    else {
      scp_profile *p = NULL;
      rc = scp_soroban_profile(&o, &p, &e2);
      fs_check(!rc || (fs_one_line(&e2) && rc != SCP_ERR_INTERNAL && rc != SCP_ERR_NOMEM));
      scp_profile_destroy(p);
    }
    scp_ledger_free(l);
  }
  scp_scenario_free(sc);
}

#endif
