/*
 * scp_sol_progs.h — the loaded sBPF programs of a session: each distinct ELF
 * (by its bytes) is parsed, relocated and verified once, then shared by
 * every instruction, transaction and CPI that runs it.  Its symbol mapper
 * is opened once too, the first time a profile needs it, and resolves each
 * distinct pc once (scp_sym caches), not once per transaction.
 *
 * A cache belongs to whoever owns the programs (a scp_solana handle, a
 * scenario run, a transaction); there is no process-wide state, so
 * several sessions live side by side in one process.  Not thread-safe: one
 * cache, one thread at a time.
 */
#ifndef SCP_SOL_PROGS_H
#define SCP_SOL_PROGS_H

#include "sbpf/scp_sbpf.h"
#include "symbols/scp_sym.h"

typedef struct scp_sol_progs scp_sol_progs;
typedef struct scp_sol_prog scp_sol_prog;

int scp_sol_progs_new(scp_sol_progs **out, scp_error *err);
void scp_sol_progs_free(scp_sol_progs *c);

struct scp_sol_features;

/* Symbols from another file: an unstripped build or a split debug file of
 * a program (bytes copied).  A program whose mapper is opened afterwards
 * reads the first such file that belongs to it (scp_sym_elf_matches)
 * instead of its own ELF; the caller checks beforehand that each file
 * belongs to the program it was given for.  SCP_OK or SCP_ERR_NOMEM. */
int scp_sol_progs_add_symbols(scp_sol_progs *c, const uint8_t *bytes, size_t len, scp_error *err);

/* Declares the len bytes at `bytes` a program that does not change while
 * the cache lives (a scenario's "programs", a handle's copies): the caller
 * neither writes nor frees them before scp_sol_progs_free.  A lookup of
 * exactly this buffer (address and length) that found its program once
 * finds it again by the address, without comparing the bytes; any other
 * buffer (an account's data, which an upgrade may rewrite in place) is
 * still compared byte for byte.  SCP_OK or SCP_ERR_NOMEM. */
int scp_sol_progs_pin(scp_sol_progs *c, const uint8_t *bytes, size_t len, scp_error *err);

/* The program of these ELF bytes under the syscalls the feature gates
 * register (NULL: litesvm's), loaded on the first call (the bytes are
 * copied; `name` names the file in the loader's message) and the same
 * entry afterwards.  A load that fails is not kept: the next call tries
 * again and fails the same way.  Errors: those of scp_sbpf_load,
 * SCP_ERR_NOMEM. */
int scp_sol_progs_get(scp_sol_progs *c, const struct scp_sol_features *features, const uint8_t *elf, size_t len,
                      const char *name, scp_sol_prog **out, scp_error *err);

/* The syscall registry the programs of these gates were loaded under (its
 * names); NULL before scp_sol_progs_get loaded one under them. */
const scp_sbpf_loader *scp_sol_progs_loader(const scp_sol_progs *c, const struct scp_sol_features *features);

const scp_sbpf_prog *scp_sol_prog_sbpf(const scp_sol_prog *p);
/* The ELF's mapper (or the symbol file's that belongs to it), opened on
 * first use, its functions also cut at the loader's call targets when it
 * has no .symtab; NULL when it cannot be opened (frames then fall back to
 * the loader's function names). */
scp_sym *scp_sol_prog_sym(scp_sol_prog *p);

/* The disassembly of instruction pc (scp_sbpf_prog_disasm), made once
 * per program and kept for the session: every profile of it shows the
 * same text.  NULL: pc is past the program, the text does not fit 96
 * bytes, or out of memory (the caller shows no text).  Valid while p
 * lives. */
const char *scp_sol_prog_insn_text(scp_sol_prog *p, uint32_t pc);
/* The same, and *key its text's number in the program: equal texts, equal
 * numbers, dense from 0. */
const char *scp_sol_prog_insn_key(scp_sol_prog *p, uint32_t pc, uint32_t *key);
/* The program's texts as string ids of the profile being built
 * (scp_resolver.memo, with scp_sol_prog_insn_key's numbers). */
scp_prof_memo *scp_sol_prog_memo(scp_sol_prog *p);

/* The memory every VM of the session's invocations reuses
 * (scp_sbpf_pool). */
scp_sbpf_pool *scp_sol_progs_pool(const scp_sol_progs *c);

/* Distinct programs loaded so far (what the tests check). */
size_t scp_sol_progs_count(const scp_sol_progs *c);

#endif
