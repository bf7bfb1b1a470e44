// sym_cpp.cc — C++ fixture for test_sym.c: DWARF names come from the
// demangled DW_AT_linkage_name.  Lines marked "LINE n" are asserted.
namespace geo {
struct Point { int x, y; };
static inline __attribute__((always_inline)) int dot(const Point &a,
                                                     const Point &b) {
  return a.x * b.x + a.y * b.y;   // LINE 7: body of dot
}
__attribute__((noinline)) int norm2(const Point &p) {  // LINE 9
  return dot(p, p);               // LINE 10: norm2 calls dot
}
}  // namespace geo
extern "C" __attribute__((visibility("default"))) int entry(int v) {
  geo::Point p{v, v + 1};
  return geo::norm2(p);
}
