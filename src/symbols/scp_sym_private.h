/*
 * scp_sym_private.h — internals of the source mapper shared by its .c files
 * (scp_sym.c: queries and cache; scp_sym_dwarf.c: the DWARF index;
 * scp_sym_units.c: damaged unit headers; scp_sym_wasm.c: the WASM
 * container).  Not part of any public interface.
 *
 * Everything the queries need is copied into plain sorted arrays at open
 * time and every string is interned, so libdw is closed again once the
 * index is built and a lookup is two binary searches plus a parent walk.
 */
#ifndef SCP_SYM_PRIVATE_H
#define SCP_SYM_PRIVATE_H

#include "symbols/scp_sym.h"

#include <elfutils/libdw.h>

#define SYM_NONE UINT32_MAX
/* Deeper DIE nesting than this is treated as malformed (stack safety). */
#define SYM_MAX_DIE_DEPTH 200
/* Longest inline chain reported; deeper chains are cut at the outermost. */
#define SYM_MAX_CHAIN 64

/* One function of the container: a WASM function body or an ELF symbol. */
typedef struct sym_func {
  uint64_t lo, hi;         /* code range [lo, hi); imports: 0, 0 */
  const char *name;        /* interned, never NULL once opened: the name
                              section / .symtab name, or func[N] / 0xADDR */
  uint32_t index;          /* WASM function index (imports first) */
  uint8_t source;          /* scp_source of name */
} sym_func;

/* A debug section handed to libdw (data borrowed or owned by the caller). */
typedef struct sym_section {
  const char *name;        /* ".debug_info", ... */
  const uint8_t *data;
  uint64_t size;
} sym_section;

/* A subprogram or inlined subroutine with code. */
typedef struct sym_scope {
  const char *name;        /* interned, never NULL */
  const char *decl_file;   /* interned, "" when unknown */
  uint32_t decl_line;
  uint32_t call_line;      /* inlined: the caller's line */
  const char *call_file;   /* inlined: the caller's file ("" unknown) */
  uint32_t parent;         /* enclosing scope, SYM_NONE for a subprogram */
  uint32_t cu;             /* index of its compile unit */
  uint8_t inlined;
  uint64_t entry;          /* subprogram: its low pc (first range start) */
} sym_scope;

/* A piece of the address space whose innermost scope is `scope`.  The
 * segments are disjoint and sorted by lo. */
typedef struct sym_seg {
  uint64_t lo, hi;
  uint32_t scope;
} sym_seg;

/* A line-table row; rows are sorted by (addr, end_sequence first, order).
 * A pc takes its line from the rows of the unit its scope belongs to: dead
 * code of another unit (tombstoned at 0 by some linkers) may overlap. */
typedef struct sym_row {
  uint64_t addr;
  const char *file;        /* interned */
  uint32_t line;
  uint32_t cu : 31;        /* compile unit index, as in sym_scope.cu */
  uint32_t end_sequence : 1;
} sym_row;

/* A resolved chain; chain id 0 means "not resolved yet". */
typedef struct sym_chain {
  const scp_frame_info *frames;
  uint32_t n;
} sym_chain;

/* pc -> chain id for pcs outside the dense window (open addressing; id 0
 * marks an empty slot). */
typedef struct sym_cache_slot {
  uint64_t pc;
  uint32_t id;
} sym_cache_slot;

/* The dense window caches chain ids of code pcs in lazily allocated pages:
 * one load per lookup, and neighbouring pcs share memory. */
#define SYM_PAGE_BITS 12
#define SYM_PAGE_PCS (1u << SYM_PAGE_BITS)
/* Largest window worth a page table (pcs); wider code uses the hash. */
#define SYM_MAX_WINDOW (1ULL << 32)

/* Chains live in blocks that never move, so returned pointers stay valid
 * until scp_sym_destroy. */
typedef struct sym_block {
  struct sym_block *next;
  size_t used, cap;
  scp_frame_info frames[];
} sym_block;

/* Which addresses are real code: tombstones of removed functions (wasm-ld
 * writes 0xffffffff, other linkers 0 or -1) fall outside. */
typedef struct sym_addr_limits {
  uint64_t min;            /* lowest valid address */
  uint64_t max;            /* one past the highest valid address */
} sym_addr_limits;

struct scp_sym {
  scp_sym_opts opts;
  scp_strtab strs;                 /* every name and file */

  sym_func *funcs;  size_t nfuncs, capfuncs;   /* sorted by index */
  uint32_t nimports;

  sym_scope *scopes; size_t nscopes, capscopes;
  sym_seg *segs;     size_t nsegs, capsegs;
  uint32_t *subs;    size_t nsubs;             /* subprograms by entry */
  sym_row *rows;     size_t nrows, caprows;
  bool has_dwarf;                              /* an index was built */
  bool dwarf_partial;           /* some units dropped (warning says which) */

  /* ELF: executable sections, for 0xADDR frames of pcs no symbol covers. */
  struct { uint64_t lo, hi; } *code; size_t ncode;
  uint32_t repairs;                            /* damaged DWARF fields fixed */
  bool have_symtab;              /* ELF: functions came from .symtab */

  sym_chain *chains; size_t nchains, capchains;    /* by chain id */
  uint64_t win_lo, win_hi;                         /* dense window */
  uint32_t **pages; size_t npages;                 /* chain ids by pc */
  sym_cache_slot *cache; size_t ncache, capcache;  /* pcs outside it */
  sym_block *blocks;
  /* Resolution runs in address order most of the time: start the searches
   * at the previous answer, and reuse the previous chain when the pc has
   * the same innermost scope and line row. */
  size_t hint_seg, hint_row;
  uint64_t last_key;
  uint32_t last_id;

  char warning[256];
};

/* Intern s (NULL -> ""); returns a stable pointer or NULL on OOM. */
SCP_HIDDEN const char *scp_sym_intern(scp_sym *s, const char *str);
SCP_HIDDEN const char *scp_sym_intern_n(scp_sym *s, const char *str,
                                        size_t len);

/* Set the warning (first one wins: it names the root cause). */
SCP_HIDDEN void scp_sym_warn(scp_sym *s, const char *fmt, ...)
    SCP_PRINTF(2, 3);

/* What scp_sym_check_units found among the unit headers of .debug_info. */
typedef struct sym_unit_check {
  uint64_t first;          /* offset of the first refused header, or UINT64_MAX */
  char why[120];           /* what is wrong with it */
  uint64_t stop;           /* offset of the first unit whose length cannot be
                              used (no unit from there on is read), or
                              UINT64_MAX */
  char stop_why[120];
} sym_unit_check;

/* Find the unit headers of info that libdw would refuse, and rewrite each
 * one whose unit_length is usable so that libdw steps over just that unit
 * (see scp_sym_units.c).  info is the private copy libdw is given. */
SCP_HIDDEN void scp_sym_check_units(uint8_t *info, size_t size, bool have_abbrev,
                                    size_t abbrev_size, sym_unit_check *out);

/* Build scopes, segments, subprogram table and line rows from dw, whose
 * .debug_info went through scp_sym_check_units (check: its findings).  On
 * failure (SCP_ERR_DWARF with s->warning set, or SCP_ERR_NOMEM) the partial
 * index is discarded and s->has_dwarf stays false. */
SCP_HIDDEN int scp_sym_index_dwarf(scp_sym *s, Dwarf *dw,
                                   const sym_addr_limits *lim,
                                   const sym_unit_check *check);

/* Drop every DWARF-derived table (used when indexing fails half way). */
SCP_HIDDEN void scp_sym_index_clear(scp_sym *s);

/* Demangle a container name (name section, .symtab) and, unless
 * opts.keep_rust_hash, drop a trailing Rust "::h<16 hex>"; interned, NULL on
 * OOM. */
SCP_HIDDEN const char *scp_sym_clean_name(scp_sym *s, const char *name,
                                          size_t len);

/* Lay out a little-endian ELF of class 64 (elf64) or 32 whose sections are
 * exactly secs (no relocations), for libdw.  Returns a malloc'd image and
 * its size, or NULL (OOM, or too large for ELF32).  Used by the bench too. */
SCP_HIDDEN uint8_t *scp_sym_debug_elf(const sym_section *secs, size_t n,
                                      bool elf64, size_t *size_out);

/* Index the DWARF in secs (any order) through an in-memory ELF of class 64
 * when elf64, else 32.  SCP_OK (also when n == 0), SCP_ERR_DWARF (warning
 * set, mapper left without DWARF) or SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_sym_load_dwarf(scp_sym *s, const sym_section *secs,
                                  size_t n, bool elf64,
                                  const sym_addr_limits *lim);

/* Repairs of DWARF damaged by old Solana toolchains, applied in place to
 * private copies of the sections (see scp_sym_repair.c).  Each returns the
 * number of fields it fixed. */
SCP_HIDDEN uint32_t scp_sym_repair_addr(uint8_t *debug_addr, size_t size);
SCP_HIDDEN uint32_t scp_sym_repair_ranges(uint8_t *debug_ranges, size_t size);
SCP_HIDDEN uint32_t scp_sym_repair_line(uint8_t *debug_line, size_t size);
SCP_HIDDEN uint32_t scp_sym_repair_info(uint8_t *info, size_t size,
                                        const uint8_t *abbrev,
                                        size_t abbrev_size);

/* Set the dense cache window to the code's extent [lo, hi) (call once,
 * before any lookup; a window wider than SYM_MAX_WINDOW is ignored). */
SCP_HIDDEN void scp_sym_set_window(scp_sym *s, uint64_t lo, uint64_t hi);

/* Allocate an empty mapper. */
SCP_HIDDEN scp_sym *scp_sym_new(const scp_sym_opts *opts);

#endif
