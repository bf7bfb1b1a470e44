/*
 * bench_sbpf.c — the sBPF interpreter, plain (metered, no calling-context
 * tree) against profiled (tree attached, block counters settled into
 * per-pc CU), in the same run: CU per second and the overhead, then the
 * peak resident memory of profiled runs whose instruction counts differ a
 * hundredfold, each in a child process, to show it does not grow with the
 * instruction count.
 *   usage: bench_sbpf WORK.so
 *          bench_sbpf WORK.so plain|profiled N   one run of N rounds, CU on stdout
 * The second form is for counting instructions under callgrind: the
 * difference between two N, divided by the difference in CU, is the
 * interpreter's instructions per CU without the set-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profile/scp_tree.h"
#include "sbpf/scp_sbpf.h"

/* CPU time of this thread: on a shared machine, the time other processes
 * take the CPU away does not count against the interpreter. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The aligned input region of an instruction with no accounts and 4
 * bytes of data: n. */
static size_t input(uint8_t *b, uint32_t n) {
  uint64_t zero = 0, four = 4;
  memset(b, 0, 128);
  memcpy(b, &zero, 8);
  memcpy(b + 8, &four, 8);
  memcpy(b + 16, &n, 4);
  return 16 + 4 + 32;
}

/* One run of n rounds; returns the CU used, or 0 on failure. */
static uint64_t run(const scp_sbpf_prog *p, uint32_t n, bool profiled) {
  uint8_t in[128];
  size_t len = input(in, n);
  uint64_t limit = UINT64_MAX / 2, meter = limit;
  scp_tree t;
  if (profiled && scp_tree_init(&t, 1)) return 0;
  scp_sbpf_region r = { SCP_SBPF_MM_INPUT, in, len, true };
  scp_sbpf_vm_config cfg = { .meter = &meter, .input = &r, .ninput = 1,
                             .tree = profiled ? &t : NULL, .module = 1 };
  scp_sbpf_vm *vm;
  scp_error err = { 0 };
  uint64_t r0 = 0, used = 0;
  if (scp_sbpf_vm_create(p, &cfg, &vm, &err) == SCP_OK) {
    scp_sbpf_vm_set_reg(vm, 1, SCP_SBPF_MM_INPUT);
    if (scp_sbpf_vm_run(vm, &r0, &err) == SCP_OK) used = limit - meter;
    else fprintf(stderr, "bench_sbpf: %s\n", err.msg);
    scp_sbpf_vm_destroy(vm);
  }
  if (profiled) scp_tree_free(&t);
  return used;
}

static double best_of_3(const scp_sbpf_prog *p, uint32_t n, bool profiled, uint64_t *cu) {
  double best = 1e30;
  for (int i = 0; i < 3; i++) {
    double t0 = now();
    *cu = run(p, n, profiled);
    double dt = now() - t0;
    if (dt < best) best = dt;
  }
  return best;
}

static long peak_kib(const scp_sbpf_prog *p, uint32_t n, uint64_t *cu) {
  int fd[2];
  if (pipe(fd)) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    uint64_t used = run(p, n, true);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long out[2] = { ru.ru_maxrss, (long)used };
    if (write(fd[1], out, sizeof out) != (ssize_t)sizeof out) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  long got[2] = { -1, 0 };
  if (read(fd[0], got, sizeof got) != (ssize_t)sizeof got) got[0] = -1;
  close(fd[0]);
  waitpid(pid, NULL, 0);
  *cu = (uint64_t)got[1];
  return got[0];
}

int main(int argc, char **argv) {
  bool once = argc == 4 && (!strcmp(argv[2], "plain") || !strcmp(argv[2], "profiled"));
  if (argc != 2 && !once) {
    fprintf(stderr, "usage: bench_sbpf WORK.so [plain|profiled N]\n");
    return 2;
  }
  uint8_t *elf;
  size_t len;
  scp_error err = { 0 };
  scp_sbpf_loader *l;
  scp_sbpf_prog *p;
  if (scp_read_file(argv[1], &elf, &len, &err) || scp_sbpf_loader_create(NULL, &l) ||
      scp_sbpf_load(l, elf, len, argv[1], &p, &err)) {
    fprintf(stderr, "bench_sbpf: %s\n", err.msg[0] ? err.msg : "cannot load");
    return 1;
  }
  if (once) {
    uint64_t cu = run(p, (uint32_t)strtoul(argv[3], NULL, 10), !strcmp(argv[2], "profiled"));
    printf("%llu\n", (unsigned long long)cu);
    scp_sbpf_prog_free(p);
    scp_sbpf_loader_destroy(l);
    free(elf);
    return cu ? 0 : 1;
  }
  uint64_t cu_plain, cu_prof;
  uint32_t n = 2000000;
  double plain = best_of_3(p, n, false, &cu_plain), prof = best_of_3(p, n, true, &cu_prof);
  printf("%-10s %14s %10s %10s %12s %12s %9s\n", "workload", "CU", "plain s", "profiled s",
         "plain MCU/s", "prof MCU/s", "overhead");
  printf("%-10s %14llu %10.3f %10.3f %12.0f %12.0f %8.1f%%%s\n", "work", (unsigned long long)cu_prof,
         plain, prof, (double)cu_plain / plain / 1e6, (double)cu_prof / prof / 1e6,
         (prof / plain - 1) * 100, cu_plain == cu_prof ? "" : "  (CU differ!)");
  printf("peak memory of a profiled run (child process, max RSS):\n");
  const uint32_t sizes[] = { 20000, 2000000 };
  for (size_t i = 0; i < 2; i++) {
    uint64_t cu = 0;
    long kib = peak_kib(p, sizes[i], &cu);
    printf("  %14llu CU  %8ld KiB\n", (unsigned long long)cu, kib);
  }
  scp_sbpf_prog_free(p);
  scp_sbpf_loader_destroy(l);
  free(elf);
  return cu_plain == cu_prof ? 0 : 1;
}
