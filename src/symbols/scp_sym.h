/*
 * scp_sym.h — stage 2, the source mapper: code address -> inline chain of
 * (function, file, line) frames, innermost first.
 *
 * One mapper for two containers.  WASM: addresses are offsets from the
 * start of the Code section payload (what DWARF uses); the .debug_* custom
 * sections are handed to libdw through an in-memory ELF.  ELF (BPF/sBPF):
 * read directly.  Without DWARF, names come from the WASM "name" section,
 * then ELF .symtab, then "func[N]" / "0xADDR"; such frames carry no line
 * and are marked by their source (scp_source in profile/scp_prof.h).
 *
 * Each distinct address is resolved once and cached; the returned chains
 * stay valid until scp_sym_destroy().
 */
#ifndef SCP_SYM_H
#define SCP_SYM_H

#include "profile/scp_prof.h"

typedef struct scp_sym scp_sym;

typedef struct scp_sym_opts {
  bool keep_rust_hash;   /* keep the ::h<hash> suffix of legacy Rust names */
  bool no_dwarf_repair;  /* ELF: leave old-toolchain DWARF damage as it is */
} scp_sym_opts;

/* Open a mapper over a WASM module (bytes are borrowed and must outlive the
 * mapper).  A module without DWARF is not an error: the mapper falls back.
 * Malformed DWARF is not fatal either: the mapper falls back and
 * scp_sym_warning() says why.  Returns SCP_OK, SCP_ERR_MALFORMED (not a wasm
 * container; err filled), SCP_ERR_NOMEM.  opts may be NULL. */
int scp_sym_open_wasm(const uint8_t *wasm, size_t len, const scp_sym_opts *opts,
                      scp_sym **out, scp_error *err);

/* Open a mapper over a 64-bit little-endian ELF: a BPF object (clang
 * -target bpf -g -c) or a linked sBPF program (bytes borrowed, must outlive
 * the mapper).  pcs are byte addresses as DWARF and .symtab use them
 * (sh_addr + offset; an object's .text starts at 0; an sBPF instruction
 * index i is text_addr + 8*i).  Functions come from .symtab (else .dynsym)
 * sorted by address: that order is the func_index of scp_sym_function.
 * Unless opts->no_dwarf_repair, DWARF damaged by old Solana toolchains is
 * repaired in memory (not for SBPF v3, whose text is at 0x1_0000_0000); see
 * scp_sym_repaired().  Returns SCP_OK, SCP_ERR_MALFORMED (not an ELF, or
 * headers past the end; err filled), SCP_ERR_UNSUPPORTED (32-bit or
 * big-endian), SCP_ERR_NOMEM; *out is NULL on failure. */
int scp_sym_open_elf(const uint8_t *elf, size_t len, const scp_sym_opts *opts,
                     scp_sym **out, scp_error *err);

/* Whether dbg, an unstripped build or a split debug file (objcopy
 * --only-keep-debug: DWARF and .symtab, code sections SHT_NOBITS), belongs
 * to the program prog: every executable section of prog is in dbg under
 * its name at the same address with the same size, and with the same bytes
 * when dbg has them.  Then a mapper opened over dbg answers for prog's pcs.
 * Returns SCP_OK; SCP_ERR_ARG when dbg does not belong (err says which
 * section differs and how, or that dbg is not an ELF); the errors of the
 * ELF header checks for prog (SCP_ERR_MALFORMED, SCP_ERR_UNSUPPORTED);
 * SCP_ERR_NOMEM. */
int scp_sym_elf_matches(const uint8_t *prog, size_t plen, const uint8_t *dbg, size_t dlen,
                        scp_error *err);

/* True for a split debug file: an ELF whose executable sections have no
 * bytes (SHT_NOBITS), so it can give symbols but cannot run. */
bool scp_sym_elf_debug_only(const uint8_t *elf, size_t len);

/* The same for a WASM contract: dbg's Code and Import sections are
 * byte-identical to wasm's (what stripping custom sections leaves alone).
 * SCP_OK, SCP_ERR_ARG (err says what differs), SCP_ERR_MALFORMED (wasm is
 * not a module). */
int scp_sym_wasm_matches(const uint8_t *wasm, size_t len, const uint8_t *dbg, size_t dlen,
                         scp_error *err);

/* Function starts the mapper's container does not give: an ELF mapper
 * without .symtab (a stripped program, whose .dynsym names a few
 * functions at most) cuts its functions at each of pcs (call targets the
 * loader found), naming a new one names[i] (names or names[i] may be NULL
 * or "") or else fn_0xADDR (source SCP_SRC_RAW).  A pc outside the code
 * or already a function start is skipped; a mapper with .symtab, or a WASM
 * one, is left as it is.  Call before the first lookup.  Returns SCP_OK,
 * SCP_ERR_NOMEM (the mapper stays usable, perhaps partly cut), SCP_ERR_ARG
 * (lookups already made: nothing changed). */
int scp_sym_add_entries(scp_sym *s, const uint64_t *pcs, const char *const *names, size_t n);

/* Either of the above, chosen by the magic bytes ("\0asm" or "\177ELF");
 * SCP_ERR_MALFORMED (err filled) for anything else. */
int scp_sym_open(const uint8_t *bytes, size_t len, const scp_sym_opts *opts,
                 scp_sym **out, scp_error *err);

void scp_sym_destroy(scp_sym *s);

/* Inline chain at pc (see scp_resolver.pc_chain).  Always returns >= 1
 * frame for an address inside a function; 0 when pc is outside all code
 * or s is NULL (a module without symbols), *chain then NULL. */
size_t scp_sym_chain(scp_sym *s, uint64_t pc, const scp_frame_info **chain);

/* The frame for a whole function, by WASM function index (imports counted
 * first, as in the name section): name, decl file/line, source. */
int scp_sym_function(scp_sym *s, uint32_t func_index, scp_frame_info *out);

/* scp_sym_function returns SCP_OK, SCP_ERR_NOTFOUND (index out of range)
 * or SCP_ERR_ARG (NULL argument).  For a DWARF function, file/decl_file
 * are its declaration file, line is 0; an import is named by the name
 * section, else by its import field name (both SCP_SRC_NAMESEC).
 *
 * Frames of a chain (scp_sym_chain): the innermost frame's file:line come
 * from the line table at pc, with line 0 ("compiler-generated") reported as
 * the function's declaration file and line 0; every outer frame carries the
 * DW_AT_call_file/call_line of the inlined frame inside it.  inlined is 1
 * on every frame but the last.  Strings live until scp_sym_destroy().
 * A mapper is not thread-safe (lookups fill its cache); use one per thread
 * or lock around it. */

/* The frame of the (non-inlined) function containing pc: what
 * scp_sym_function gives for it, or for a pc no function covers the last
 * frame of its chain.  Returns SCP_OK, SCP_ERR_NOTFOUND (pc outside all
 * code), SCP_ERR_ARG. */
int scp_sym_function_at(scp_sym *s, uint64_t pc, scp_frame_info *out);

/* Number of functions, imports included (the valid func_index values). */
uint32_t scp_sym_function_count(const scp_sym *s);

/* Code range [*lo, *hi) of a function in pc units (WASM: Code payload
 * offsets of the body, locals declaration included; imports: 0, 0).
 * Returns SCP_OK or SCP_ERR_NOTFOUND (outputs untouched). */
int scp_sym_function_range(const scp_sym *s, uint32_t func_index,
                           uint64_t *lo, uint64_t *hi);

/* The profile's "source lines" note for code without DWARF (after the
 * code's label): the same words, and the same pointer to the recipe, for
 * every engine. */
#define SCP_SYM_NO_DWARF_NOTE \
  "no DWARF, so no source lines; build with debug info or give the unstripped build with --symbols (docs/symbols.md)"

/* True when a DWARF index was built (lines and inline chains available). */
bool scp_sym_has_dwarf(const scp_sym *s);

/* Number of damaged DWARF fields the ELF repair fixed (0 when none). */
uint32_t scp_sym_repaired(const scp_sym *s);

/* Non-empty when DWARF was present but unusable (and why). */
const char *scp_sym_warning(const scp_sym *s);

/* Demangle a Rust (legacy or v0) or C++ symbol into buf; returns buf, or
 * name itself when it is not mangled. */
const char *scp_sym_demangle(const char *name, bool keep_rust_hash, char *buf,
                             size_t len);

#endif
