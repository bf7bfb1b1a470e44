/*
 * fuzz_diff.h — differential test of the WASM engine: one input becomes a
 * valid module (fuzz_diff_gen.h), which runs in our interpreter and in
 * wabt's wasm-interp (`--run-all-exports`); the results and traps of "a"
 * and the checksum "b" must agree (fuel is ours alone and not compared).
 * A module our loader refuses, or an answer that differs, aborts with both
 * sides printed and the module written to fuzz-diff-last.wasm.  Without
 * wasm-interp on PATH only our side runs.  Used by the libFuzzer target
 * (fuzz_diff.c) and by the corpus replay in the tests.
 */
#ifndef SCP_FUZZ_DIFF_H
#define SCP_FUZZ_DIFF_H

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz_diff_gen.h"
#include "wasm/scp_wasm.h"

extern char **environ;

/* wabt's wording of each trap (its output adds details after the text). */
static const char *fd_wabt_trap(scp_trap t) {
  switch (t) {
    case SCP_TRAP_UNREACHABLE: return "unreachable executed";
    case SCP_TRAP_MEM_OOB: return "out of bounds memory access";
    case SCP_TRAP_TABLE_OOB: return "undefined table index";
    case SCP_TRAP_NULL_ELEM: return "uninitialized table element";
    case SCP_TRAP_SIG_MISMATCH: return "indirect call signature mismatch";
    case SCP_TRAP_DIV_ZERO: return "integer divide by zero";
    case SCP_TRAP_INT_OVERFLOW: return "integer overflow";
    case SCP_TRAP_STACK_EXHAUSTED: return "call stack exhausted";
    default: return scp_trap_text(t);
  }
}

/* Run export name in our engine and write wasm-interp's line for it.
 * Returns false when fuel ran out (no comparison is possible). */
static bool fd_ours_call(scp_wasm_instance *inst, const scp_wasm_module *m, const char *name,
                         char *line, size_t cap) {
  uint8_t kind;
  uint32_t f;
  const uint8_t *ps, *rs;
  uint32_t np, nr;
  scp_error err;
  if (!scp_wasm_export_find(m, name, 1, &kind, &f) || !scp_wasm_func_sig(m, f, &ps, &np, &rs, &nr))
    abort();
  uint64_t res[1] = {0};
  scp_wasm_set_fuel(inst, 100000000);
  if (scp_wasm_call(inst, f, NULL, res, &err) != SCP_OK) {
    scp_trap t = scp_wasm_last_trap(inst);
    if (t == SCP_TRAP_OUT_OF_FUEL) return false;
    snprintf(line, cap, "%s() => error: %s", name, fd_wabt_trap(t));
  } else if (nr == 0) {
    snprintf(line, cap, "%s() =>", name);
  } else if (rs[0] == SCP_WASM_I32) {
    snprintf(line, cap, "%s() => i32:%u", name, (unsigned)(uint32_t)res[0]);
  } else {
    snprintf(line, cap, "%s() => i64:%llu", name, (unsigned long long)res[0]);
  }
  return true;
}

/* wasm-interp on the module (through a memfd); its stdout into out.
 * Returns false when it cannot be started. */
static bool fd_wabt(const uint8_t *mod, size_t len, char *out, size_t cap) {
  static int mfd = -1;
  if (mfd < 0 && (mfd = memfd_create("fuzz-diff", 0)) < 0) return false;
  if (ftruncate(mfd, 0) != 0 || pwrite(mfd, mod, len, 0) != (ssize_t)len) return false;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", mfd);
  int p[2];
  if (pipe(p) != 0) return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, p[1], 1);
  posix_spawn_file_actions_adddup2(&fa, p[1], 2);
  posix_spawn_file_actions_addclose(&fa, p[0]);
  char *argv[] = {"wasm-interp", path, "--run-all-exports", NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "wasm-interp", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(p[1]);
  /* libFuzzer's timeout timer interrupts system calls (EINTR) */
  size_t n = 0;
  ssize_t r;
  while (rc == 0 && ((r = read(p[0], out + n, cap - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
    if (r > 0) n += (size_t)r;
  close(p[0]);
  out[n] = 0;
  int st = 0;
  while (rc == 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  return rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) != 127;
}

/* wabt's line for export name ("" when missing), without its details. */
static void fd_wabt_line(const char *out, const char *name, char *line, size_t cap) {
  char key[8];
  snprintf(key, sizeof key, "%s() =>", name);
  const char *s = strstr(out, key);
  line[0] = 0;
  if (!s || (s != out && s[-1] != '\n')) return;
  size_t n = strcspn(s, "\n");
  const char *colon = strstr(s, "out of bounds memory access");
  if (colon && colon < s + n) n = (size_t)(colon - s) + strlen("out of bounds memory access");
  snprintf(line, cap, "%.*s", (int)n, s);
}

static void fd_fail(const uint8_t *mod, size_t len, const char *what, const char *ours,
                    const char *wabt) {
  FILE *f = fopen("fuzz-diff-last.wasm", "wb");
  if (f) {
    fwrite(mod, 1, len, f);
    fclose(f);
  }
  fprintf(stderr, "fuzz_diff: %s\n  ours: %s\n  wabt: %s\n  module: fuzz-diff-last.wasm\n",
          what, ours, wabt);
  abort();
}

static inline void fuzz_diff_one(const uint8_t *data, size_t size) {
  uint8_t *mod = malloc(DG_CAP);
  scp_wasm_module *m = NULL;
  scp_wasm_instance *inst = NULL;
  scp_tree tree;
  bool have_tree = false;
  char ours[2][128], wabt[4096], line[128];
  scp_error err;
  size_t len = mod ? dg_module(data, size, mod) : 0;
  if (!len) goto done;
  if (scp_wasm_load(mod, len, &m, &err) != SCP_OK) fd_fail(mod, len, "our loader refused", err.msg, "");
  scp_wasm_env env = {NULL, NULL, NULL, NULL};
  if (scp_wasm_instantiate(m, &env, &inst, &err) != SCP_OK)
    fd_fail(mod, len, "our instantiation failed", err.msg, "");
  if (scp_tree_init(&tree, 2) != SCP_OK) goto done;
  have_tree = true;
  scp_wasm_attach(inst, &tree, 0, 0, 4);
  if (!fd_ours_call(inst, m, "a", ours[0], sizeof ours[0])) goto done;
  if (!fd_ours_call(inst, m, "b", ours[1], sizeof ours[1])) goto done;
  scp_wasm_settle(inst);
  if (!fd_wabt(mod, len, wabt, sizeof wabt)) goto done;
  for (int k = 0; k < 2; k++) {
    fd_wabt_line(wabt, k ? "b" : "a", line, sizeof line);
    if (strcmp(line, ours[k])) fd_fail(mod, len, "results differ", ours[k], wabt);
  }
  if (getenv("FUZZ_DIFF_TRACE")) fprintf(stderr, "%zu bytes: %s | %s\n", len, ours[0], ours[1]);
done:
  if (have_tree) scp_tree_free(&tree);
  scp_wasm_instance_free(inst);
  scp_wasm_module_free(m);
  free(mod);
}

#endif
