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
//   run.js --extract DIR       write the built-in programs' ELF files to DIR
// PROGRAM is an ELF path or builtin:NAME (token, token2022, ata, memo1, memo).
// DATA is hex, b64:BASE64, @FILE, or empty.  The litesvm package is found in
// $SCP_ORACLE_DIR/node_modules (default build/oracle).
'use strict';
const fs = require('fs');
const path = require('path');

const ALPHA = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function b58decode(s) {
  let n = 0n;
  for (const c of s) {
    const v = ALPHA.indexOf(c);
    if (v < 0) throw new Error(`bad base58 character '${c}' in ${s}`);
    n = n * 58n + BigInt(v);
  }
  const out = [];
  while (n > 0n) { out.push(Number(n & 255n)); n >>= 8n; }
  for (const c of s) { if (c !== '1') break; out.push(0); }
  const b = Buffer.from(out.reverse());
  if (b.length !== 32) throw new Error(`pubkey ${s} is not 32 bytes`);
  return b;
}
function b58encode(buf) {
  let n = 0n;
  for (const x of buf) n = n * 256n + BigInt(x);
  let s = '';
  while (n > 0n) { s = ALPHA[Number(n % 58n)] + s; n /= 58n; }
  for (const x of buf) { if (x !== 0) break; s = '1' + s; }
  return s;
}

const LOADERS = {
  v1: 'BPFLoader1111111111111111111111111111111111',
  v2: 'BPFLoader2111111111111111111111111111111111',
  v3: 'BPFLoaderUpgradeab1e11111111111111111111111',
};
const BUILTINS = {
  token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  token2022: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  ata: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  memo1: 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  memo: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
};
// The program a case names by path runs under this id unless --program-id says.
const DEFAULT_PROGRAM_ID = 'ScprofProgram111111111111111111111111111111';
const FEE_PAYER = b58decode('FeePayer11111111111111111111111111111111111');
const SYSTEM = Buffer.alloc(32);

function die(msg) { process.stderr.write(`oracle: ${msg}\n`); process.exit(2); }

function litesvm() {
  const dir = process.env.SCP_ORACLE_DIR || path.join(__dirname, '../../build/oracle');
  const p = path.resolve(dir, 'node_modules/litesvm/dist/internal.js');
  if (!fs.existsSync(p)) die(`litesvm not installed at ${p} (run scripts/deps)`);
  return require(p);
}

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

function parseData(s) {
  if (s === '') return Buffer.alloc(0);
  if (s.startsWith('b64:')) return Buffer.from(s.slice(4), 'base64');
  if (s.startsWith('@')) return fs.readFileSync(s.slice(1));
  if (!/^([0-9a-fA-F]{2})*$/.test(s)) die(`bad hex data '${s}'`);
  return Buffer.from(s, 'hex');
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

function compactU16(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f; n >>= 7;
    if (n === 0) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}

// A legacy transaction: the fee payer, then the instruction's accounts in the
// runtime's order (writable signers, read-only signers, writable, read-only),
// each key once with its flags merged, the program last.  Signatures are
// zero: sigverify is off, so any key may sign.
function transaction(programId, accounts, ixData, blockhash) {
  const keys = [{ key: FEE_PAYER, signer: true, writable: true }];
  const find = (k) => keys.find((e) => e.key.equals(k));
  for (const a of accounts) {
    const e = find(a.key);
    if (e) { e.signer ||= a.signer; e.writable ||= a.writable; }
    else keys.push({ key: a.key, signer: a.signer, writable: a.writable });
  }
  if (!find(programId)) keys.push({ key: programId, signer: false, writable: false });
  const rank = (e) => (e.signer ? 0 : 2) + (e.writable ? 0 : 1);
  const sorted = [keys[0], ...keys.slice(1).sort((x, y) => rank(x) - rank(y))];
  const nsig = sorted.filter((e) => e.signer).length;
  const header = [nsig, sorted.filter((e) => e.signer && !e.writable).length,
                  sorted.filter((e) => !e.signer && !e.writable).length];
  const index = (k) => sorted.findIndex((e) => e.key.equals(k));
  const msg = Buffer.concat([
    Buffer.from(header), Buffer.from(compactU16(sorted.length)), ...sorted.map((e) => e.key),
    blockhash, Buffer.from(compactU16(1)), Buffer.from([index(programId)]),
    Buffer.from(compactU16(accounts.length)), Buffer.from(accounts.map((a) => index(a.key))),
    Buffer.from(compactU16(ixData.length)), ixData]);
  return Buffer.concat([Buffer.from(compactU16(nsig)), Buffer.alloc(64 * nsig), msg]);
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
  const svm = new lib.LiteSvm();
  svm.setSigverify(false);
  svm.setTransactionHistory(0n);
  let program = null, programId = null, loader = null, ix = Buffer.alloc(0);
  let cuLimit = null, heap = null;
  const accounts = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) die(`${a} wants a value`); return argv[++i]; };
    if (a === '--ix') ix = parseData(v());
    else if (a === '--account') accounts.push(parseAccount(v()));
    else if (a === '--program-id') programId = v();
    else if (a === '--loader') loader = v();
    else if (a === '--cu-limit') cuLimit = BigInt(v());
    else if (a === '--heap') heap = BigInt(v());
    else if (a.startsWith('--')) die(`unknown option ${a}`);
    else if (program) die(`two programs: ${program} and ${a}`);
    else program = a;
  }
  if (!program) die('no program');
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
  svm.setAccount(FEE_PAYER, new lib.Account(1000000000000n, new Uint8Array(0), SYSTEM, false, 0n));
  for (const a of accounts)
    svm.setAccount(a.key, new lib.Account(a.lamports, a.data, a.owner, a.executable, 0n));
  const pid = b58decode(programId);
  const tx = transaction(pid, accounts, ix, b58decode(svm.latestBlockhash()));
  const res = svm.sendLegacyTransaction(tx);
  const failed = typeof res.err === 'function';
  const meta = failed ? res.meta() : res;
  const out = [`cu ${meta.computeUnitsConsumed()}`];
  for (const l of meta.logs()) out.push(`log ${l}`);
  out.push(failed ? `result err ${errorName(res.err())}` : 'result ok');
  const seen = new Set();
  for (const a of accounts) {
    const k = b58encode(a.key);
    if (seen.has(k)) continue;
    seen.add(k);
    const acc = svm.getAccount(a.key);
    out.push(acc ? `post ${k} ${acc.lamports()} ${b58encode(Buffer.from(acc.owner()))} ${Buffer.from(acc.data()).toString('hex')}`
                 : `post ${k} 0 ${b58encode(SYSTEM)} `);
  }
  process.stdout.write(out.join('\n') + '\n');
}

const argv = process.argv.slice(2);
if (argv[0] === '--extract') extract(argv[1] || die('--extract wants a folder'));
else run(argv);
