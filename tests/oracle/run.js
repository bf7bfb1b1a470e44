#!/usr/bin/env node
// The oracle: runs one instruction of a Solana program in litesvm 1.5.0 (agave's
// program runtime and solana-sbpf, as npm ships them) and prints what the
// runtime charged and logged, one fact per line, for scprof's tests to compare:
//
//   cu N                       computeUnitsConsumed of the transaction
//   log TEXT                   each log line, as the runtime printed it
//   result ok | result err E   the outcome; E as agave's InstructionError {:?}
//   post PUBKEY LAMPORTS OWNER DATAHEX   each instruction account afterwards
//
// Usage (the arguments are scprof profile's, so one case line drives both):
//   run.js PROGRAM --ix HEX [--account PUBKEY:LAMPORTS:OWNER:DATA[:s][:w]]...
//          [--program-id PUBKEY] [--loader v1|v2|v3] [--cu-limit N] [--heap N]
//          [--warp-slot N] [--feature ID=on|off]...
//   run.js --extract DIR       write the built-in programs' ELF files to DIR
// PROGRAM is an ELF path or builtin:NAME (token, token2022, ata, memo1, memo).
// DATA is hex, b64:BASE64, @FILE, or empty.  The litesvm package is found in
// $SCP_ORACLE_DIR/node_modules (default build/oracle).
'use strict';
const fs = require('fs');
const path = require('path');
const { b58decode, b58encode, LOADERS, BUILTINS, DEFAULT_PROGRAM_ID, SYSTEM, die, litesvm, newSvm,
        parseData, posts, send } = require('./svm.js');
const { setFeatures } = require('./env.js');

// A program account's ELF: the account itself for loaders 1 and 2, the
// programdata account after its 45-byte header for the upgradeable loader.
function elfOf(svm, id) {
  const acc = svm.getAccount(b58decode(id));
  if (!acc) die(`no account ${id}`);
  const data = Buffer.from(acc.data());
  if (b58encode(Buffer.from(acc.owner())) !== LOADERS.v3) return { elf: data, loader: b58encode(Buffer.from(acc.owner())) };
  const pd = svm.getAccount(data.subarray(4, 36));
  return { elf: Buffer.from(pd.data()).subarray(45), loader: LOADERS.v3 };
}

function extract(dir) {
  const { LiteSvm } = litesvm();
  const svm = new LiteSvm();
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, id] of Object.entries(BUILTINS)) {
    const { elf, loader } = elfOf(svm, id);
    fs.writeFileSync(path.join(dir, `${name}.so`), elf);
    const lname = Object.keys(LOADERS).find((k) => LOADERS[k] === loader);
    process.stdout.write(`${name} ${id} ${lname} ${elf.length}\n`);
  }
}

function parseAccount(spec) {
  const f = spec.split(':');
  if (f.length < 4) die(`--account ${spec}: want PUBKEY:LAMPORTS:OWNER:DATA[:s][:w]`);
  const a = { key: b58decode(f[0]), lamports: BigInt(f[1]), owner: b58decode(f[2]),
              data: parseData(f[3]), signer: false, writable: false, executable: false };
  for (const flag of f.slice(4)) {
    if (flag === 's') a.signer = true;
    else if (flag === 'w') a.writable = true;
    else if (flag === 'x') a.executable = true;
    else die(`--account ${spec}: unknown flag '${flag}'`);
  }
  return a;
}

// The instruction error as agave's InstructionError prints with {:?}:
// Custom(1), MissingRequiredSignature, ...; other transaction errors as is.
function errorName(err) {
  const s = String(err.toString ? err.toString() : err);
  const m = /error: InstructionErrorCustom \{ code: (\d+) \}/.exec(s) || /error: (\w+) \}$/.exec(s);
  if (!m) return s;
  return /^\d+$/.test(m[1]) ? `Custom(${m[1]})` : m[1];
}

function run(argv) {
  const lib = litesvm();
  const svm = newSvm(lib);
  let program = null, programId = null, loader = null, ix = Buffer.alloc(0);
  let cuLimit = null, heap = null, warp = null;
  const features = [];
  const accounts = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) die(`${a} wants a value`); return argv[++i]; };
    if (a === '--ix') ix = parseData(v());
    else if (a === '--account') accounts.push(parseAccount(v()));
    else if (a === '--program-id') programId = v();
    else if (a === '--loader') loader = v();
    else if (a === '--cu-limit') cuLimit = BigInt(v());
    else if (a === '--heap') heap = BigInt(v());
    else if (a === '--warp-slot') warp = BigInt(v());
    else if (a === '--feature') features.push(v());
    else if (a.startsWith('--')) die(`unknown option ${a}`);
    else if (program) die(`two programs: ${program} and ${a}`);
    else program = a;
  }
  if (!program) die('no program');
  if (features.length) setFeatures(lib, svm, features);
  if (program.startsWith('builtin:')) {
    const id = BUILTINS[program.slice(8)];
    if (!id) die(`unknown built-in ${program}`);
    if (programId && programId !== id) die(`${program} runs as ${id}`);
    programId = id;
    if (loader) die('--loader with a built-in program');
  } else {
    programId ||= DEFAULT_PROGRAM_ID;
    const elf = fs.readFileSync(program);
    svm.addProgramWithLoader(b58decode(programId), elf, b58decode(LOADERS[loader || 'v3'] || die(`unknown loader ${loader}`)));
  }
  if (cuLimit !== null || heap !== null) {
    // a fresh ComputeBudget says 1.4M CU; a transaction without a limit
    // instruction gets 200,000 for its one instruction
    const b = svm.getComputeBudget() || new lib.ComputeBudget();
    b.computeUnitLimit = cuLimit !== null ? cuLimit : 200000n;
    if (heap !== null) b.heapSize = Number(heap);
    svm.setComputeBudget(b);
  }
  for (const a of accounts)
    svm.setAccount(a.key, new lib.Account(a.lamports, a.data, a.owner, a.executable, 0n));
  // after the accounts: a Clock account given moves with the warp
  if (warp !== null) svm.warpToSlot(warp);
  const out = send(svm, [{ program: b58decode(programId), accounts, data: ix }], errorName);
  out.push(...posts(svm, accounts.map((a) => a.key)));
  process.stdout.write(out.join('\n') + '\n');
}

const argv = process.argv.slice(2);
if (argv[0] === '--extract') extract(argv[1] || die('--extract wants a folder'));
else run(argv);
