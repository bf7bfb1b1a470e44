/*
 * main.c — the scprof command line: usage text and dispatch to the
 * subcommands (cmd_*.c).
 *
 * Errors are one line on stderr ("scprof: FILE: problem") with the exit
 * status of the error table (include/scprof_err.def, README).
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
  "usage: scprof profile [options] CONTRACT.wasm FUNCTION [--NAME VALUE... | ARG...]\n"
  "       scprof profile CONTRACT.wasm --list\n"
  "       scprof profile [options] --snapshot FILE.json [--wasm C...=FILE.wasm]\n"
  "                      C... FUNCTION [ARGS]\n"
  "       scprof profile [options] --snapshot FILE.json --tx ENVELOPE [--meta META]\n"
  "       scprof snapshot ls FILE.json\n"
  "       scprof profile [options] PROGRAM.so --ix HEX [--account SPEC...]\n"
  "       scprof profile [options] --program ID=FILE.so [--accounts PATH]\n"
  "                      --ix HEX [--account SPEC...]\n"
  "       scprof profile [options] --tx FILE [PROGRAM.so] [--account SPEC...]\n"
  "       scprof profile PROGRAM.so --list\n"
  "       scprof profile [options] --scenario FILE.json\n"
  "       scprof diff OLD.json NEW.json [-o DIR] [--metric M] [--top N] [-q]\n"
  "       scprof annotate PROFILE.json [FILE|FUNCTION] [-S DIR] [--metric M]\n"
  "                    [--calls]\n"
  "       scprof check PROFILE.json [--max-cpu N] [--max-mem N] [--max-fee N]\n"
  "                    [--max-cu N] [--max-fn NAME=N ...] [--max-fn-mem NAME=N ...]\n"
  "                    [--max-fn-fee NAME=N ...] [--max-fn-cu NAME=N ...]\n"
  "                    [--allow-failure] [-q]\n"
  "       scprof bench FILE.json [-o DIR] [--baseline B.json] [--save-baseline B.json]\n"
  "                    [--max-increase PCT] [--matrix] [--network N] [--format LIST] [-q]\n"
  "       scprof size [-o DIR] [-f LIST] [--top N] [-q] CONTRACT.wasm|PROGRAM.so\n"
  "       scprof --help | --version\n"
  "\n"
  "profile runs a Soroban contract's FUNCTION (a .wasm) or a Solana program's\n"
  "instruction or transaction (an sBPF .so) under a faithful re-implementation\n"
  "of its chain's metering, and writes where every unit of cost went, by call\n"
  "path, function and source line: the CPU instructions and memory bytes of\n"
  "Soroban's Budget (rs-soroban-env v28), or the compute units (CU) Solana's\n"
  "runtime charges (litesvm 1.5.0, agave 4.3).  --scenario FILE runs several\n"
  "calls or transactions of either chain (docs/scenarios.md, docs/solana.md).\n"
  "\n"
  "options of both chains:\n"
  "  -o, --out DIR       output folder (default: scprof-out)\n"
  "  -f, --format LIST   comma-separated: svg, folded, report, speedscope,\n"
  "                      callgrind, pprof, json (default: these), lcov\n"
  "      --top N         rows per report table (default 20)\n"
  "      --icicle        flamegraphs with the root at the top\n"
  "      --min-width PCT leave out frames narrower than PCT% of the total\n"
  "                      (default 0.01; 0 keeps every frame)\n"
  "      --scenario FILE run the calls or transactions of a scenario file,\n"
  "                      one profile each in DIR/NN-NAME/\n"
  "  -j, --jobs N        N threads: one runs a scenario's calls, N - 1 write\n"
  "                      their profiles (default: the CPUs, at most 8; 1: one\n"
  "                      thread does both); the output is the same whatever N\n"
  "  -q, --quiet         do not print the report\n"
  "      --max-nodes N   call-tree node budget (default 100000): new call\n"
  "                      paths past it go to [truncated] frames, costs exact\n"
  "      --fold-recursion  a recursive call re-enters its caller's frame\n"
  "                      (these two: in a Solana transaction, each program\n"
  "                      invocation's tree on its own; the instruction and\n"
  "                      program nodes are outside the budget)\n"
  "\n"
  "Soroban contracts (a .wasm; arguments by name, typed by the contract's\n"
  "contractspecv0 section: --NAME VALUE or --NAME=VALUE after FUNCTION; --list\n"
  "shows the names; without a spec, typed arguments in order):\n"
  "  u32:7  i32:-1  u64:N  i64:N  u128:N  i128:N  u256:N  i256:N  bool:true\n"
  "  timepoint:N  duration:N  sym:name  bytes:00ff  str:text  addr:G.../C...  void\n"
  "      --cpu-limit N   CPU instruction limit (default the network's\n"
  "                      tx_max_instructions with --network, else 100000000)\n"
  "      --mem-limit N   memory byte limit (default the network's\n"
  "                      tx_memory_limit with --network, else 41943040)\n"
  "      --contract FILE deploy FILE.wasm first, for cross-contract calls\n"
  "                      (repeatable; the report lists each contract's id)\n"
  "      --constructor-args JSON  the contract's __constructor arguments, as a\n"
  "                      scenario's constructor_args (one without parameters\n"
  "                      runs at the deploy without them)\n"  "      --protocol N    the ledger's protocol version, 20 to 28 (default 28)\n"
  "      --snapshot FILE the ledger of a soroban-sdk test snapshot or of\n"
  "                      `stellar snapshot create`; the contract is its id\n"
  "      --wasm C...=FILE  the Wasm standing in for a snapshot's contract\n"
  "                      (a natively registered test contract)\n"
  "      --tx FILE       with --snapshot: run a TransactionEnvelope (binary,\n"
  "                      base64 or JSON; a fee bump's inner transaction) as\n"
  "                      the network does: its entries, footprint, limit\n"
  "      --meta FILE     its TransactionMeta (or RPC getTransaction reply):\n"
  "                      the charges next to scprof's (docs/snapshots.md)\n"
  "      --source G...   the transaction's source account: its require_auth\n"
  "                      writes no nonce and needs no signature check\n"
  "      --auth MODE     record (default: mock all auths, as simulation) or\n"
  "                      enforce: simulate, sign the entries, profile the\n"
  "                      signed call (signatures, nonces, __check_auth);\n"
  "                      with --context sdk-test, mock (the test's\n"
  "                      env.mock_all_auths()) or mock-non-root\n"
  "                      (mock_all_auths_allowing_non_root_auth())\n"
  "      --signer S...   a secret seed signing for its account; ADDR=S...\n"
  "                      signs for account or contract ADDR (repeatable)\n"
  "      --auth-signature C...=TYPE:VALUE  a contract's signature Val\n"
  "      --auth-expiration N  the entries' signature_expiration_ledger\n"
  "      --asset ASSET   create a Stellar Asset Contract first: native or\n"
  "                      CODE:G... (repeatable; also with --scenario)\n"
  "      --account G...[:BALANCE]  a classic account in the ledger (stroops)\n"
  "      --trustline G...:CODE:ISSUER[:BALANCE]  a trustline in the ledger\n"
  "      --network NAME  the resource fee on this network, as a Fee metric\n"
  "                      (stroops) with its breakdown: mainnet or testnet\n"
  "                      (settings of 2026-07-29), NAME@YYYY-MM-DD for the\n"
  "                      settings in force then; the ledger takes its TTLs\n"
  "      --network-config FILE  a stellar-core settings .json applied on the\n"
  "                      network (mainnet unless --network)\n"
  "      --soroban-state-size N  state bytes for the rent write fee\n"
  "      --context C     network (default: the network's recording-mode\n"
  "                      invocation) or sdk-test (what a soroban-sdk test's\n"
  "                      cost_estimate() measures, with its fee estimate)\n"
  "      --strict-debug  damaged debug information (DWARF) is an error\n"
  "                      (status 68), not a warning\n"
  "      --symbols [C...=]FILE.wasm  source lines from the contract's build\n"
  "                      before its debug sections were stripped (repeatable;\n"
  "                      C...= with --snapshot; docs/symbols.md)\n"
    "\n"
  "Solana programs (an sBPF ELF .so: one instruction, as litesvm 1.5.0 runs it):\n"
  "      --ix HEX        instruction data (hex, b64:BASE64 or @FILE)\n"
  "      --account PUBKEY:LAMPORTS:OWNER:DATA[:s][:w][:x]  an instruction\n"
  "                      account, in order (signer, writable, executable;\n"
  "                      DATA as --ix; repeat a key to pass it twice)\n"
  "      --account PUBKEY[:s][:w] | @FILE[:s][:w]  one whose state a file gives\n"
  "      --accounts PATH  account files or a folder of them: solana account\n"
  "                      --output json, RPC replies ([ADDR,...=]FILE), Seashell\n"
  "      --program ID=FILE.so[:v1|v2|v3]  a program at its id (repeatable; it\n"
  "                      is the one run when no PROGRAM.so is given)\n"
  "      --program-id K  the id of the program run (default ScprofProgram1111...;\n"
  "                      which --program, with several)\n"
  "      --loader V      v1 (deprecated: unaligned input), v2, v3 (default)\n"
  "      --cu-limit N    compute-unit limit, 1 to 1400000 (default 200000)\n"
  "      --heap N        heap bytes, a multiple of 1024 to 262144 (default 32768)\n"
  "      --warp-slot N   move the Clock to slot N (litesvm's warpToSlot)\n"
  "      --feature ID|NAME=on|off  set a runtime feature gate (repeatable;\n"
  "                      docs/solana.md lists the gates scprof models)\n"
  "      --idl ID=FILE.json  an Anchor IDL naming program ID's instructions\n"
  "      --list          print the ELF's sBPF version, functions and syscalls\n"
  "      --symbols [ID=]FILE  symbols of a stripped program from its unstripped\n"
  "                      build or split debug file (repeatable; docs/symbols.md)\n"
  "      --symbols-dir DIR  the same from DIR/ID.so|.debug or DIR/NAME.so|.debug\n"
  "  also writes DIR/result.txt: cu, the runtime's log lines, the outcome, and\n"
  "  each account after the instruction (tests/oracle/run.js prints the same).\n"
  "      --tx FILE       run one real transaction instead: wire bytes, base64 or\n"
  "                      base58 (legacy or v0), or a getTransaction response; the\n"
  "                      state from --scenario, PROGRAM.so and --account; fees\n"
  "                      charged (docs/solana.md)\n"
  "      --expect-chain  with a getTransaction response: differing from the\n"
  "                      chain's record is an error (status 14)\n"
  "      --sigverify     check the transaction's ed25519 signatures\n"
  "\n"
  "files written to DIR: flamegraph.svg (CPU or CU), flamegraph-mem.svg (a\n"
  "Soroban run's memory), profile.folded, report.txt, profile.speedscope.json,\n"
  "callgrind.out.scprof, profile.pb.gz (pprof), report.json (the input of\n"
  "diff, annotate, check).\n"
  "\n"
  "size attributes every byte of CONTRACT.wasm or PROGRAM.so to headers,\n"
  "sections, functions (by crate and module), inlined functions, lines and\n"
  "data, in every format (size.svg), with what the bytes cost; --profile RUN\n"
  "(repeatable) adds the bytes that never ran in those runs; --network NAME\n"
  "adds a contract's upload fee and its code entry's rent (docs/size.md).\n"
  "\n"
  "diff compares two report.json files (or profile folders): writes\n"
  "DIR/diff.svg (default DIR: scprof-out) and DIR/diff.txt, prints the table;\n"
  "two scenario output folders are compared case by case (by label, then\n"
  "by order), each pair in DIR/NN-LABEL/.\n"
  "annotate prints source lines with their costs; -S adds a folder to look\n"
  "for source files in; --calls puts each host function's or syscall's own\n"
  "cost on the line that called it (where storage, event and auth fees sit).\n"
  "check exits 11 when a limit (inclusive) is exceeded, and with the run's own\n"
  "status when it failed (10, 11, 12) unless --allow-failure; a scenario\n"
  "output folder has every case checked.\n"
  "--metric is cpu, mem or fee (a profile run with --network); cu for a\n"
  "Solana program; default: the profile's first metric.\n"
  "\n"
  "exit status: 0 ok, 2 usage, 3 bad argument, 4 not found, 10 the contract\n"
  "trapped or a Solana instruction or transaction failed, 11 Budget or compute\n"
  "units exceeded (check: a limit exceeded), 12 host function error,\n"
  "13 limit reached (cross-contract depth, input size), 14 --expect-chain:\n"
  "differs from the chain's record, 65 malformed input, 66 unsupported\n"
  "feature, 67 invalid module, 68 bad debug information, 70 out of memory,\n"
  "71 internal error, 74 I/O error.\n";

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return scp_exit_status(SCP_ERR_USAGE);
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("scprof %s\n", SCP_VERSION);
    return 0;
  }
  static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
  } commands[] = {
      {.name = "profile", .run = cmd_profile},
      {.name = "diff", .run = cmd_diff},
      {.name = "annotate", .run = cmd_annotate},
      {.name = "check", .run = cmd_check},
      {.name = "size", .run = cmd_size},
      {.name = "snapshot", .run = cmd_snapshot},
      {.name = "bench", .run = cmd_bench},
  };
  for (size_t i = 0; i < SCP_ARRAY_LEN(commands); i++)
    if (!strcmp(cmd, commands[i].name)) return commands[i].run(argc - 2, argv + 2);
  return cli_die(SCP_ERR_USAGE, "unknown command '%s' (see scprof --help)", cmd);
}
