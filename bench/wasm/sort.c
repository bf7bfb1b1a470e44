/* Heap sort of 50,000 pseudo-random words, 1 round: memory-heavy loops. */
#define N 50000
static unsigned a[N];

static void sift(unsigned *v, unsigned start, unsigned end) {
  unsigned root = start;
  while (2 * root + 1 <= end) {
    unsigned child = 2 * root + 1, sw = root;
    if (v[sw] < v[child]) sw = child;
    if (child + 1 <= end && v[sw] < v[child + 1]) sw = child + 1;
    if (sw == root) return;
    unsigned t = v[root]; v[root] = v[sw]; v[sw] = t;
    root = sw;
  }
}

__attribute__((export_name("run"))) unsigned long long run(void) {
  unsigned long long check = 0;
  unsigned x = 12345;
  for (int round = 0; round < 1; round++) {
    for (unsigned i = 0; i < N; i++) { x = x * 1103515245u + 12345u; a[i] = x >> 3; }
    for (unsigned s = (N - 2) / 2 + 1; s-- > 0;) sift(a, s, N - 1);
    for (unsigned e = N - 1; e > 0; e--) {
      unsigned t = a[0]; a[0] = a[e]; a[e] = t;
      sift(a, 0, e - 1);
    }
    check += a[N / 2];
  }
  return check;
}
