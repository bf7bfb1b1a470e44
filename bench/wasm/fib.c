/* Recursive Fibonacci: call-heavy guest code. */
__attribute__((noinline)) static unsigned fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
__attribute__((export_name("run"))) unsigned long long run(void) { return fib(30); }
