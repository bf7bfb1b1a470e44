/*
 * bench_wall.c — the wall time of one whole process, for the paired
 * engine comparison (bench/wasm_vs.sh): forks, runs CMD with its stdout
 * and stderr sent to OUT (wasm3 prints its result on stderr), waits, and prints the seconds between fork and reap.
 * A shell's `date` around the command would add a process start of its
 * own to every figure; this adds only the fork.
 *
 *   bench_wall OUT CMD [ARG...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: bench_wall OUT CMD [ARG...]\n"); return 2; }
  double t0 = now();
  pid_t pid = fork();
  if (pid < 0) { perror("fork"); return 1; }
  if (pid == 0) {
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) { perror(argv[1]); _exit(127); }
    execvp(argv[2], argv + 2);
    perror(argv[2]);
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) { perror("waitpid"); return 1; }
  double t = now() - t0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "bench_wall: %s failed (status %d; its output is in %s)\n", argv[2], status, argv[1]);
    return 1;
  }
  printf("%.6f\n", t);
  return 0;
}
