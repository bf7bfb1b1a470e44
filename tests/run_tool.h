/*
 * run_tool.h — runs a tool a test needs (wat2wasm, wast2json) as a child
 * and waits for it; shared by the WASM tests that convert their inputs.
 * Tests run from the repository root, with the tool found on PATH.
 */
#ifndef SCP_TEST_RUN_TOOL_H
#define SCP_TEST_RUN_TOOL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* argv[0] with argv, stdout sent to /dev/null when quiet (a tool that
 * prints what it did on success); stderr stays the test's.  Returns the
 * exit status, -1 when the child could not be run or did not exit. */
static inline int run_tool(char *const argv[], bool quiet) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (quiet) {
      int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
