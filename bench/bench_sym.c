/*
 * bench_sym.c — cost of the source mapper against a bare libdw walk.
 *
 *   bench_sym [module.wasm | program.elf]
 *
 * Without an argument it generates a large C program (many compile units,
 * always-inline helpers, loops), builds it with clang for wasm32 -O2 -g
 * into a temporary directory and measures that.  Two timings on the same
 * file, best of several runs each:
 *   bare:   libdw over the same debug sections: every CU, every DIE,
 *           dwarf_ranges of every subprogram / inlined subroutine, every
 *           line table — the least any DWARF consumer must do;
 *   mapper: scp_sym_open_wasm (index) + scp_sym_chain on every byte of
 *           every function body (each a distinct pc: a full inline chain).
 * Prints both (thread CPU time) and the ratio (target: mapper <= 2x bare).
 */
#include <dwarf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "symbols/scp_sym_private.h"

#define RUNS 11

/* CPU time of this thread: the machine may be busy with other work, and
 * waiting for a CPU is not what is measured here. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the generated program ------------------------------------------- */

static int generate(const char *dir, char *wasm_path, size_t cap) {
  enum { UNITS = 16, FUNCS = 120 };
  char path[512], cmd[8192];
  size_t used = (size_t)snprintf(cmd, sizeof cmd,
                                 "%s --target=wasm32 -O2 -g -nostdlib "
                                 "-Wl,--no-entry -Wl,--export-all -o %s/big.wasm",
                                 getenv("CLANG") ? getenv("CLANG") : "clang", dir);
  for (int u = 0; u < UNITS; u++) {
    snprintf(path, sizeof path, "%s/unit%d.c", dir, u);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "static inline __attribute__((always_inline)) unsigned h1(unsigned a, unsigned b) {\n"
               "  return (a * 2654435761u) ^ (b >> 3);\n}\n"
               "static inline __attribute__((always_inline)) unsigned h2(unsigned a) {\n"
               "  unsigned x = h1(a, a + 1);\n  return h1(x, a) + (x << 7);\n}\n"
               "static inline __attribute__((always_inline)) unsigned h3(unsigned *p, int n) {\n"
               "  unsigned s = 0;\n  for (int i = 0; i < n; i++) s += h2(p[i]) ^ h1(s, i);\n"
               "  return s;\n}\n");
    for (int k = 0; k < FUNCS; k++) {
      fprintf(f,
              "__attribute__((noinline)) unsigned u%d_f%d(unsigned *p, int n) {\n"
              "  unsigned acc = %du;\n"
              "  for (int i = 0; i < n; i++) {\n"
              "    if (p[i] & %du) acc += h3(p, i %% %d);\n"
              "    else acc ^= h2(acc + p[i]);\n"
              "  }\n"
              "  return acc;\n}\n",
              u, k, k * 7 + u, 1u << (k % 8), k % 5 + 2);
      if (k > 0)
        fprintf(f, "unsigned u%d_g%d(unsigned *p, int n) { return u%d_f%d(p, n) + u%d_f%d(p, n / 2); }\n",
                u, k, u, k, u, k - 1);
    }
    fclose(f);
    used += (size_t)snprintf(cmd + used, sizeof cmd - used, " %s", path);
    if (used >= sizeof cmd) return -1;
  }
  if (system(cmd) != 0) return -1;
  snprintf(wasm_path, cap, "%s/big.wasm", dir);
  return 0;
}

/* ---- the bare walk ----------------------------------------------------- */

static size_t walk_dies(Dwarf_Die *die) {
  size_t n = 0;
  do {
    n++;
    int tag = dwarf_tag(die);
    if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
      Dwarf_Addr base, lo, hi;
      ptrdiff_t off = 0;
      while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) n++;
    }
    Dwarf_Die child;
    if (dwarf_haschildren(die) && dwarf_child(die, &child) == 0) n += walk_dies(&child);
  } while (dwarf_siblingof(die, die) == 0);
  return n;
}

static size_t bare_walk(uint8_t *img, size_t size) {
  Elf *elf = elf_memory((char *)img, size);
  Dwarf *dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
  size_t n = 0;
  if (dw) {
    Dwarf_CU *cu = NULL, *next;
    Dwarf_Half version;
    uint8_t type;
    Dwarf_Die cudie, sub, child;
    while (dwarf_get_units(dw, cu, &next, &version, &type, &cudie, &sub) == 0) {
      cu = next;
      Dwarf_Lines *lines;
      size_t nlines;
      if (dwarf_getsrclines(&cudie, &lines, &nlines) == 0) {
        for (size_t i = 0; i < nlines; i++) {
          Dwarf_Line *l = dwarf_onesrcline(lines, i);
          Dwarf_Addr a;
          int line;
          dwarf_lineaddr(l, &a);
          dwarf_lineno(l, &line);
          n += dwarf_linesrc(l, NULL, NULL) != NULL;
        }
      }
      if (dwarf_child(&cudie, &child) == 0) n += walk_dies(&child);
    }
    dwarf_end(dw);
  }
  if (elf) elf_end(elf);
  return n;
}

/* The .debug_* custom sections of a WASM module. */
static size_t debug_sections(const uint8_t *w, size_t len, sym_section *out,
                             char names[][32], size_t max) {
  const uint8_t *p = w + 8, *end = w + len;
  size_t n = 0;
  while (p < end && n < max) {
    uint8_t id = *p++;
    uint32_t size, nlen;
    if (!scp_leb_u32(&p, end, &size) || size > (size_t)(end - p)) break;
    const uint8_t *q = p, *sec_end = p + size;
    p = sec_end;
    if (id != 0 || !scp_leb_u32(&q, sec_end, &nlen) || nlen > (size_t)(sec_end - q))
      continue;
    if (nlen > 7 && nlen < 32 && memcmp(q, ".debug_", 7) == 0) {
      memcpy(names[n], q, nlen);
      names[n][nlen] = 0;
      out[n] = (sym_section){names[n], q + nlen, (uint64_t)(sec_end - q - nlen)};
      n++;
    }
  }
  return n;
}

int main(int argc, char **argv) {
  char dir[] = "/tmp/bench_sym.XXXXXX", wasm_path[600];
  bool generated = argc < 2;
  if (generated) {
    if (!mkdtemp(dir) || generate(dir, wasm_path, sizeof wasm_path) != 0) {
      fprintf(stderr, "bench_sym: cannot generate the test program (clang?)\n");
      return 1;
    }
  } else {
    snprintf(wasm_path, sizeof wasm_path, "%s", argv[1]);
  }
  uint8_t *wasm;
  size_t len;
  scp_error err;
  if (scp_read_file(wasm_path, &wasm, &len, &err) != SCP_OK) {
    fprintf(stderr, "bench_sym: %s\n", err.msg);
    return 1;
  }
  sym_section secs[32];
  char names[32][32];
  bool is_elf = len > 4 && wasm[0] == 0x7f;
  size_t nsecs = 0, img_size = len;
  uint8_t *img;
  if (is_elf) {   /* libdw reads an ELF file as it is */
    img = malloc(len);
    if (img) memcpy(img, wasm, len);
  } else {
    nsecs = debug_sections(wasm, len, secs, names, 32);
    img = scp_sym_debug_elf(secs, nsecs, false, &img_size);
  }
  if (!img) {
    fprintf(stderr, "bench_sym: no debug sections\n");
    return 1;
  }
  elf_version(EV_CURRENT);

  double bare = 1e30, mapper = 1e30, index_best = 1e30;
  size_t items = 0, pcs = 0, frames = 0, inlined_pcs = 0;
  for (int run = 0; run < RUNS; run++) {
    double t0 = now();
    items = bare_walk(img, img_size);
    double t1 = now();
    scp_sym *s;
    int rc = is_elf ? scp_sym_open_elf(wasm, len, NULL, &s, &err)
                    : scp_sym_open_wasm(wasm, len, NULL, &s, &err);
    if (rc != SCP_OK) {
      fprintf(stderr, "bench_sym: %s\n", err.msg);
      return 1;
    }
    double t_index = now();
    if (t_index - t1 < index_best) index_best = t_index - t1;
    pcs = frames = inlined_pcs = 0;
    for (uint32_t i = 0; i < scp_sym_function_count(s); i++) {
      uint64_t lo, hi;
      scp_sym_function_range(s, i, &lo, &hi);
      for (uint64_t pc = lo; pc < hi; pc++) {
        const scp_frame_info *c;
        size_t n = scp_sym_chain(s, pc, &c);
        pcs++;
        frames += n;
        inlined_pcs += n > 1;
      }
    }
    double t2 = now();
    if (run == 0 && scp_sym_warning(s)[0])
      fprintf(stderr, "bench_sym: warning: %s\n", scp_sym_warning(s));
    scp_sym_destroy(s);
    if (t1 - t0 < bare) bare = t1 - t0;
    if (t2 - t1 < mapper) mapper = t2 - t1;
  }
  printf("bench_sym: %s (%zu bytes)\n",
         generated ? "generated program" : wasm_path, len);
  printf("  bare libdw walk (DIEs, ranges, line tables; %zu items): %.2f ms\n",
         items, bare * 1e3);
  printf("  scp_sym index + chain of every code byte (%zu pcs, %zu frames, "
         "%zu inlined): %.2f ms\n", pcs, frames, inlined_pcs, mapper * 1e3);
  printf("    of which index (open): %.2f ms\n", index_best * 1e3);
  printf("  ratio mapper/bare: %.2f (target <= 2)\n", mapper / bare);
  free(img);
  free(wasm);
  if (generated && getenv("SCP_BENCH_KEEP")) {
    printf("  kept %s\n", wasm_path);
  } else if (generated) {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "bench_sym: could not remove %s\n", dir);
  }
  return 0;
}
