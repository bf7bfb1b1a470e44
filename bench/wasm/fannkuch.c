/* Fannkuch-redux(9): permutation flips, small arrays, tight loops. */
#define N 9
__attribute__((export_name("run"))) unsigned long long run(void) {
  int perm[N], perm1[N], count[N];
  int max_flips = 0, checksum = 0, r = N, permcount = 0;
  for (int i = 0; i < N; i++) perm1[i] = i;
  for (;;) {
    while (r != 1) { count[r - 1] = r; r--; }
    for (int i = 0; i < N; i++) perm[i] = perm1[i];
    int flips = 0, k;
    while ((k = perm[0]) != 0) {
      for (int i = 0, j = k; i < j; i++, j--) { int t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
      flips++;
    }
    if (flips > max_flips) max_flips = flips;
    checksum += (permcount % 2 == 0) ? flips : -flips;
    for (;;) {
      if (r == N) return (unsigned long long)(unsigned)checksum << 32 | (unsigned)max_flips;
      int p0 = perm1[0];
      for (int i = 0; i < r; i++) perm1[i] = perm1[i + 1];
      perm1[r] = p0;
      if (--count[r] > 0) break;
      r++;
    }
    permcount++;
  }
}
