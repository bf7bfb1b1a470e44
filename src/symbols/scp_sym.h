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
} scp_sym_opts;

/* Open a mapper over a WASM module (bytes are borrowed and must outlive the
 * mapper).  A module without DWARF is not an error: the mapper falls back.
 * Malformed DWARF is not fatal either: the mapper falls back and
 * scp_sym_warning() says why.  Returns SCP_OK, SCP_ERR_MALFORMED (not a wasm
 * container; err filled), SCP_ERR_NOMEM.  opts may be NULL. */
int scp_sym_open_wasm(const uint8_t *wasm, size_t len, const scp_sym_opts *opts,
                      scp_sym **out, scp_error *err);

void scp_sym_destroy(scp_sym *s);

/* Inline chain at pc (see scp_resolver.pc_chain).  Always returns >= 1
 * frame for an address inside a function; 0 when pc is outside all code. */
size_t scp_sym_chain(scp_sym *s, uint64_t pc, const scp_frame_info **chain);

/* The frame for a whole function, by WASM function index (imports counted
 * first, as in the name section): name, decl file/line, source. */
int scp_sym_function(scp_sym *s, uint32_t func_index, scp_frame_info *out);

/* Non-empty when DWARF was present but unusable (and why). */
const char *scp_sym_warning(const scp_sym *s);

/* Demangle a Rust (legacy or v0) or C++ symbol into buf; returns buf, or
 * name itself when it is not mangled. */
const char *scp_sym_demangle(const char *name, bool keep_rust_hash, char *buf,
                             size_t len);

#endif
