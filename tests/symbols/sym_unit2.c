/*
 * sym_unit2.c — second compile unit for the mixed-DWARF test in
 * test_sym.c: built with -gdwarf-5 and linked with sym_inline.c (DWARF 4)
 * into one module.  unused_helper is dropped by the linker, which leaves a
 * tombstoned subprogram and line sequence behind.  Line numbers asserted by
 * the test are marked "LINE n": keep them where they are.
 */
#define EXPORT __attribute__((visibility("default"), noinline))

int unused_helper(int x) {          /* not exported, not called: removed */
  return x * 3 + 1;
}

static inline __attribute__((always_inline)) int square(int v) {
  return v * v;                     /* LINE 15: body of square */
}

EXPORT int sum_squares(int n) {     /* LINE 18: decl */
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(i + s);             /* LINE 21: calls square */
  return s;
}
