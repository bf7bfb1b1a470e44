/*
 * scp_size.h — where a contract's or program's bytes go: every byte of a
 * WASM module or an ELF (sBPF) file attributed once to a node of a tree,
 * built as a profile of one metric, "Size" in bytes, so that every
 * formatter and `diff` read it as they read an execution profile.
 *
 * The tree, root = the file:
 *   WASM  "[wasm header]" (magic and version), then one node per section
 *         ("Type", "Code", "Data", "Custom:.debug_info", ...), each with a
 *         "[section header]" child (its id and size fields).  Code:
 *         "[body sizes]" (the body count and each body's size field), then
 *         the functions, their bytes split by inlined function and
 *         source line (DWARF), Rust paths grouped "crate:core" ->
 *         "module:core::fmt" -> function.  Data: "[segment headers]" (the
 *         count, and each segment's kind, offset expression and size) and
 *         one node per segment, "data[N]", holding its bytes.
 *   ELF   "[ELF header]", "[program headers]", "[section headers]",
 *         "[padding]" (bytes no header or section covers), and one node
 *         per section by name (".text", ".rodata", ".rel.dyn", ...).
 *         Executable sections hold the functions of the symbol table,
 *         grouped as for WASM, and "[no symbol]" for bytes none covers.
 * A section node's total less its "[section header]" child is the size
 * `wasm-objdump -h` shows; an ELF section's total is `llvm-objdump -h`'s.
 * A WASM function's total is its body (what the body-size field counts);
 * an ELF function's is its symbol's extent (st_size, or up to the next
 * symbol when it has none).
 *
 * Σ self over the tree == the file's length, always: scp_size_build
 * checks it (and inclusive == self + children) before returning.
 */
#ifndef SCP_SIZE_H
#define SCP_SIZE_H

#include "profile/scp_prof.h"
#include "symbols/scp_sym.h"
#include "wasm/scp_wasm.h"
#include "soroban/fee/scp_fee_tx.h"

typedef struct scp_size_opts {
  const char *name;     /* the root's name (the file's); NULL: "module" */
  scp_sym_opts sym;     /* how names are read (keep Rust hashes, ...) */
  char *warn;           /* when not NULL: the symbol mapper's warning (debug */
  size_t warn_size;     /* information present but unusable), "" if none */
} scp_size_opts;

/* Size tree of bytes[0..len) (WASM or ELF, told by the magic), as a
 * profile of one metric ("Size", "bytes").  bytes are borrowed for the
 * call only.  Returns SCP_OK (*out a new profile, scp_profile_destroy),
 * SCP_ERR_MALFORMED (neither WASM nor ELF, or a layout that does not hold:
 * a section past the end, sections that overlap; err says which),
 * SCP_ERR_UNSUPPORTED (32-bit or big-endian ELF), SCP_ERR_NOMEM, or
 * SCP_ERR_INTERNAL (the sum check failed); *out is NULL on failure.
 * o may be NULL. */
int scp_size_build(const uint8_t *bytes, size_t len, const scp_size_opts *o,
                   scp_profile **out, scp_error *err);

/* What scp_size_mark found: the code's bytes (function bodies) and how
 * many of them never ran; functions, and how many of them ran. */
typedef struct scp_size_mark_result {
  uint64_t code, never_run;
  size_t functions, functions_ran;
} scp_size_mark_result;

/* Mark size profile p (from scp_size_build, unmarked) with the code that
 * never ran in the execution profiles runs[0..nruns) of the same file:
 * adds metric 1, "Never run" (bytes), so that every node's and every
 * line's Never run is the part of its code bytes that did not run.  A
 * function that no profile called never ran, all of it; in one that ran,
 * a source line never ran when no profile booked cost that ran (cost less
 * charged ahead) on it in a frame of that name.  Lines of free
 * instructions alone (a WASM block's end) therefore count as never run.
 * Non-code bytes (headers, data, debug sections) are 0.  Returns SCP_OK,
 * SCP_ERR_ARG (p has more than one metric: not a size profile, or marked
 * already; p unchanged) or SCP_ERR_NOMEM (p unchanged).  res is filled. */
int scp_size_mark(scp_profile *p, const scp_profile *const *runs, size_t nruns,
                  scp_size_mark_result *res, scp_error *err);

/* ---- what the bytes cost ---------------------------------------------- */

/* Soroban: the Budget's charges for instantiating the contract's VM, which
 * every call pays (code already in the ledger: no parsing), with the
 * module's counts that drive them and its initial memory pages. */
typedef struct scp_size_vm {
  uint64_t cpu, mem;
  scp_wasm_cost_inputs counts;
  uint32_t pages;
} scp_size_vm;

/* Load wasm[0..len) as the VM does and charge its instantiation on a
 * Budget of its own.  Returns SCP_OK, or the loader's error (a module the
 * VM refuses: SCP_ERR_MALFORMED, SCP_ERR_INVALID, SCP_ERR_UNSUPPORTED;
 * err says why) or SCP_ERR_NOMEM. */
int scp_size_soroban_vm(const uint8_t *wasm, size_t len, scp_size_vm *out, scp_error *err);

/* The figures as two metadata lines of p ("VM per call", "VM counts").
 * SCP_OK or SCP_ERR_NOMEM. */
int scp_size_soroban_meta(scp_profile *p, const scp_size_vm *v);

/* Solana: what deploying a program of program_len bytes through the
 * upgradeable loader costs at the default Rent and fee, worked out from
 * the rules size_solana.c cites: the rent-exempt lamports of its program
 * and programdata accounts (kept) and of the buffer it is written through
 * (returned), the number of write transactions and the chunk each
 * carries, and the fees of a deploy and of a redeploy of the same length. */
typedef struct scp_size_deploy {
  uint64_t program_rent, programdata_rent, buffer_rent;
  uint64_t chunk, writes;
  uint64_t deploy_fee, redeploy_fee;
} scp_size_deploy;

void scp_size_solana_deploy(uint64_t program_len, scp_size_deploy *out);

/* The figures as metadata lines of p ("rent-exempt", "deploy",
 * "redeploy").  SCP_OK or SCP_ERR_NOMEM. */
int scp_size_solana_meta(scp_profile *p, const scp_size_deploy *d);

/* Soroban, with a network: what uploading the contract costs as the
 * network charges an UploadContractWasm transaction (size_upload.c): the
 * upload host function's charges run in the engine, the transaction's
 * resources, fee and the new code entry's rent for the minimum persistent
 * TTL, from the network's settings. */
typedef struct scp_size_upload {
  scp_fee_network net;
  uint64_t cpu, mem;           /* the upload host function's charges */
  scp_fee_upload_tx tx;
} scp_size_upload;

/* The network is o's network, network_config and soroban_state_size, as
 * a profile reads them (the rest of o is not used).  Returns SCP_OK,
 * SCP_ERR_ARG (no network, an unknown one), SCP_ERR_MALFORMED or
 * SCP_ERR_IO (the settings file), SCP_ERR_LIMIT (code over the network's
 * contract_max_size_bytes), the host's refusal of the code (SCP_ERR_HOST),
 * SCP_ERR_NOMEM; err says why. */
int scp_size_soroban_upload(const uint8_t *wasm, size_t len, const scp_soroban_opts *o,
                            scp_size_upload *out, scp_error *err);

/* The figures as metadata lines of p ("network", "network source",
 * "upload charges", "upload resources", "upload non-refundable", "upload
 * refundable", "upload rent", "upload fee"), each with its formula's
 * inputs; len is the code's.  SCP_OK or SCP_ERR_NOMEM. */
int scp_size_upload_meta(scp_profile *p, const scp_size_upload *u, uint64_t len);

#endif
