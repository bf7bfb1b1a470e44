// What the oracles (run.js: one instruction; tx.js: transactions) share:
// base58 keys, the loaders and the programs litesvm ships, litesvm itself
// (found in $SCP_ORACLE_DIR/node_modules, default build/oracle), the data
// notation of the cases, legacy transactions and the lines of an outcome.
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
// The sBPF programs litesvm ships (builtin:NAME), by id.
const BUILTINS = {
  token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  token2022: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  ata: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  memo1: 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  memo: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  alt: 'AddressLookupTab1e1111111111111111111111111',   // core BPF since the migration
  stake: 'Stake11111111111111111111111111111111111111', // core BPF too
};
// A program named by an ELF path runs under this id unless the case says.
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

// A fresh litesvm: no signature checks (any key may sign), no transaction
// history (the same transaction may run twice), the fee payer funded.
function newSvm(lib) {
  const svm = new lib.LiteSvm();
  svm.setSigverify(false);
  svm.setTransactionHistory(0n);
  svm.setAccount(FEE_PAYER, new lib.Account(1000000000000n, new Uint8Array(0), SYSTEM, false, 0n));
  return svm;
}

// Data: hex, b64:BASE64, @FILE (relative to dir), or empty.
function parseData(s, dir) {
  if (!s) return Buffer.alloc(0);
  if (s.startsWith('b64:')) return Buffer.from(s.slice(4), 'base64');
  if (s.startsWith('@')) return fs.readFileSync(path.resolve(dir || '.', s.slice(1)));
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

// A legacy transaction of ixs ({program, accounts: [{key, signer,
// writable}], data}): the fee payer first, then every key once with its
// flags merged over the instructions, in the runtime's order (writable
// signers, read-only signers, writable, read-only; programs read-only).
// Signatures are zero: sigverify is off.
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

// The error as "k Name" for InstructionError(k, Name), else as litesvm says.
function errorText(err) {
  const s = String(err.toString ? err.toString() : err);
  let m = /index: (\d+), error: InstructionErrorCustom \{ code: (\d+) \}/.exec(s);
  if (m) return `${m[1]} Custom(${m[2]})`;
  m = /index: (\d+), error: (\w+) \}/.exec(s);
  if (m) return `${m[1]} ${m[2]}`;
  return s;
}

// Send ixs; the outcome as lines "cu N", "log TEXT"..., "result ok" or
// "result err " + errorText(the error).
function send(svm, ixs, errorText) {
  const res = svm.sendLegacyTransaction(transaction(ixs, b58decode(svm.latestBlockhash())));
  const failed = typeof res.err === 'function';
  const meta = failed ? res.meta() : res;
  const out = [`cu ${meta.computeUnitsConsumed()}`];
  for (const l of meta.logs()) out.push(`log ${l}`);
  out.push(failed ? `result err ${errorText(res.err())}` : 'result ok');
  return out;
}

// "post PUBKEY LAMPORTS OWNER DATAHEX" for each of keys (Buffers) the first
// time it comes, as the account is now (an account that is gone: 0
// lamports, owned by System, no data).
function posts(svm, keys) {
  const out = [], seen = new Set();
  for (const key of keys) {
    const k = b58encode(key);
    if (seen.has(k)) continue;
    seen.add(k);
    const acc = svm.getAccount(key);
    out.push(acc ? `post ${k} ${acc.lamports()} ${b58encode(Buffer.from(acc.owner()))} ${Buffer.from(acc.data()).toString('hex')}`
                 : `post ${k} 0 ${b58encode(SYSTEM)} `);
  }
  return out;
}

module.exports = {
  b58decode, b58encode, LOADERS, BUILTINS, DEFAULT_PROGRAM_ID, FEE_PAYER, SYSTEM,
  die, litesvm, newSvm, parseData, transaction, send, posts, errorText, compactU16,
};
