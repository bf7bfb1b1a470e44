#!/usr/bin/env node
// The transaction oracle: runs every transaction of a Solana transaction
// scenario (the JSON scprof profile --scenario reads when it has
// "transactions") in litesvm 1.5.0, one after the other on the same
// accounts, and prints what the runtime charged and logged per transaction:
//
//   tx LABEL
//   cu N                       computeUnitsConsumed
//   log TEXT                   each log line, as the runtime printed it
//   result ok | result err E   E: "k Name" for InstructionError(k, Name), else the error
//
// Programs are named by "name" in "programs" (an ELF under a loader, or
// "builtin:NAME" for a program litesvm ships), or by base58 id; "system" and
// "compute_budget" are the builtins.  Signatures are zero (sigverify off).
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
const LOADERS = {
  v1: 'BPFLoader1111111111111111111111111111111111',
  v2: 'BPFLoader2111111111111111111111111111111111',
  v3: 'BPFLoaderUpgradeab1e11111111111111111111111',
};
const BUILTINS = {
  system: '11111111111111111111111111111111',
  compute_budget: 'ComputeBudget111111111111111111111111111111',
  token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  token2022: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  ata: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  memo1: 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  memo: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
};
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
function parseData(s, dir) {
  if (!s) return Buffer.alloc(0);
  if (s.startsWith('b64:')) return Buffer.from(s.slice(4), 'base64');
  if (s.startsWith('@')) return fs.readFileSync(path.resolve(dir, s.slice(1)));
  if (!/^([0-9a-fA-F]{2})*$/.test(s)) die(`bad hex data '${s}'`);
  return Buffer.from(s, 'hex');
}
function compactU16(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f; n >>= 7;
    if (n === 0) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}
// A legacy message: the fee payer first, then every key once with its
// flags merged over the instructions, in the runtime's order (writable
// signers, read-only signers, writable, read-only; programs read-only).
function transaction(ixs, blockhash) {
  const keys = [{ key: FEE_PAYER, signer: true, writable: true }];
  const add = (k, s, w) => {
    const e = keys.find((x) => x.key.equals(k));
    if (e) { e.signer ||= s; e.writable ||= w; } else keys.push({ key: k, signer: s, writable: w });
  };
  for (const ix of ixs) for (const a of ix.accounts) add(a.key, a.signer, a.writable);
  for (const ix of ixs) add(ix.program, false, false);
  const rank = (e) => (e.signer ? 0 : 2) + (e.writable ? 0 : 1);
  const sorted = [keys[0], ...keys.slice(1).sort((x, y) => rank(x) - rank(y))];
  const nsig = sorted.filter((e) => e.signer).length;
  const header = [nsig, sorted.filter((e) => e.signer && !e.writable).length,
                  sorted.filter((e) => !e.signer && !e.writable).length];
  const index = (k) => sorted.findIndex((e) => e.key.equals(k));
  const parts = [Buffer.from(header), Buffer.from(compactU16(sorted.length)), ...sorted.map((e) => e.key),
                 blockhash, Buffer.from(compactU16(ixs.length))];
  for (const ix of ixs)
    parts.push(Buffer.from([index(ix.program)]), Buffer.from(compactU16(ix.accounts.length)),
               Buffer.from(ix.accounts.map((a) => index(a.key))), Buffer.from(compactU16(ix.data.length)), ix.data);
  return Buffer.concat([Buffer.from(compactU16(nsig)), Buffer.alloc(64 * nsig), ...parts]);
}
function errorText(err) {
  const s = String(err.toString ? err.toString() : err);
  let m = /index: (\d+), error: InstructionErrorCustom \{ code: (\d+) \}/.exec(s);
  if (m) return `${m[1]} Custom(${m[2]})`;
  m = /index: (\d+), error: (\w+) \}/.exec(s);
  if (m) return `${m[1]} ${m[2]}`;
  return s;
}

function main(file) {
  const dir = path.dirname(file);
  const scn = JSON.parse(fs.readFileSync(file, 'utf8'));
  const lib = litesvm();
  const svm = new lib.LiteSvm();
  svm.setSigverify(false);
  svm.setTransactionHistory(0n);
  const ids = { ...BUILTINS };
  for (const p of scn.programs || []) {
    if (p.elf && p.elf.startsWith('builtin:')) { ids[p.name] = BUILTINS[p.elf.slice(8)]; continue; }
    const id = p.id || DEFAULT_PROGRAM_ID;
    svm.addProgramWithLoader(b58decode(id), fs.readFileSync(path.resolve(dir, p.elf)), b58decode(LOADERS[p.loader || 'v3']));
    ids[p.name] = id;
  }
  svm.setAccount(FEE_PAYER, new lib.Account(1000000000000n, new Uint8Array(0), SYSTEM, false, 0n));
  for (const a of scn.accounts || [])
    svm.setAccount(b58decode(a.pubkey), new lib.Account(BigInt(a.lamports), parseData(a.data, dir),
      a.owner ? b58decode(a.owner) : SYSTEM, !!a.executable, 0n));
  const out = [];
  for (const [t, tx] of (scn.transactions || []).entries()) {
    const ixs = tx.instructions.map((ix) => ({
      program: b58decode(ids[ix.program] || ix.program),
      data: parseData(ix.data, dir),
      accounts: (ix.accounts || []).map((a) => ({ key: b58decode(a.pubkey), signer: !!a.signer, writable: !!a.writable })),
    }));
    svm.expireBlockhash();
    const res = svm.sendLegacyTransaction(transaction(ixs, b58decode(svm.latestBlockhash())));
    const failed = typeof res.err === 'function';
    const meta = failed ? res.meta() : res;
    out.push(`tx ${tx.label || t + 1}`, `cu ${meta.computeUnitsConsumed()}`);
    for (const l of meta.logs()) out.push(`log ${l}`);
    out.push(failed ? `result err ${errorText(res.err())}` : 'result ok');
  }
  process.stdout.write(out.join('\n') + '\n');
}
main(process.argv[2] || die('usage: tx.js SCENARIO.json'));
