#!/usr/bin/env node
// The wire oracle: every transaction of a transaction scenario (the JSON of
// tests/oracle/tx.js) built and serialized by @solana/web3.js, as a legacy
// transaction and as a v0 one whose non-signer accounts come from an
// address lookup table, and run by litesvm 1.5.0 on the scenario's
// accounts (each transaction on the starting accounts, its fee payer
// FeePayer111... paying the fee).  Into OUTDIR it writes what scprof reads
// and what it must print:
//
//   state.json          programs, accounts (+ fee payer, + lookup table),
//                       the scenario's "sysvars", no instructions: the
//                       state for scprof --tx
//   state.specs         the same accounts as tests/oracle/dump.py specs,
//                       one a line, with the sysvar accounts litesvm holds
//                       for the scenario's "sysvars" (account dumps)
//   state.programs      "ID NAME ELF LOADER" a line, for --program
//   LABEL.scn.json      the transaction alone as a scenario, FeePayer111...
//                       its "fee_payer"
//   LABEL.legacy.b64    the legacy wire transaction (base64)
//   LABEL.v0.b64        the v0 one
//   LABEL.legacy.want   litesvm's lines: cu, log, result, then "post KEY
//   LABEL.v0.want       LAMPORTS OWNER HEX" for each writable account
//   LABEL.FORM.rpc.json       a getTransaction response (encoding base64)
//   LABEL.FORM.rpcjson.json   and one of encoding json, with litesvm's meta
//   LABEL.toolarge      instead of the above for a transaction larger than
//                       a packet, which web3.js cannot serialize
'use strict';
const fs = require('fs');
const path = require('path');
const { b58decode, b58encode, LOADERS, BUILTINS, DEFAULT_PROGRAM_ID, FEE_PAYER, SYSTEM, die, litesvm,
        newSvm, parseData } = require('./svm.js');
const svmErrorText = require('./svm.js').errorText;
const { applySysvars } = require('./env.js');
// litesvm's node binding gives an error without fields as its number in
// TransactionErrorFieldless (dist/internal.d.ts); these are the names
const FIELDLESS = ['AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound',
  'InsufficientFundsForFee', 'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep',
  'MissingSignatureForFee', 'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution',
  'SanitizeFailure', 'ClusterMaintenance', 'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion', 'InvalidWritableAccount', 'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks', 'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData', 'InvalidAddressLookupTableIndex'];
// litesvm's words for a transaction error, without its "TransactionError" prefix
const errorText = (e) => (typeof e === 'number' ? FIELDLESS[e] || `TransactionError ${e}`
  : svmErrorText(e).replace(/^TransactionError(?=[A-Z])/, ''));

const PROGRAMS = {
  system: '11111111111111111111111111111111',
  compute_budget: 'ComputeBudget111111111111111111111111111111',
  ...BUILTINS,
};
const ALT_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
const ALT_KEY = 'LookupTab1e11111111111111111111111111111111';
// writes to these are demoted to reads (agave's reserved account keys)
const RESERVED = new Set([ALT_PROGRAM, ...Object.values(LOADERS), 'ComputeBudget111111111111111111111111111111',
  '11111111111111111111111111111111', 'SysvarRent111111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111', 'SysvarRecentB1ockHashes11111111111111111111',
  'SysvarS1otHashes111111111111111111111111111', 'Sysvar1nstructions1111111111111111111111111']);

function web3() {
  const dir = process.env.SCP_ORACLE_DIR || path.join(__dirname, '../../build/oracle');
  const p = path.resolve(dir, 'node_modules/@solana/web3.js');
  if (!fs.existsSync(p)) die(`@solana/web3.js not installed at ${p} (run scripts/deps)`);
  return require(p);
}

// The lookup table account: 56 bytes of meta (active, extended at slot 0,
// an authority), then the addresses.
function altData(addrs) {
  const meta = Buffer.alloc(56);
  meta.writeUInt32LE(1, 0);
  meta.writeBigUInt64LE(0xffffffffffffffffn, 4);
  meta[21] = 1;
  FEE_PAYER.copy(meta, 22);
  return Buffer.concat([meta, ...addrs.map(b58decode)]);
}

// The writable accounts after the transaction, as "post" lines.
function postLines(svm, w3, msg) {
  const keys = msg.getAccountKeys({ addressLookupTableAccounts: msg.alts });
  const loaded = keys.accountKeysFromLookups || { writable: [], readonly: [] };
  const all = [...keys.staticAccountKeys, ...loaded.writable, ...loaded.readonly];
  const called = new Set(msg.compiledInstructions.map((ix) => ix.programIdIndex));
  const hasUpgradeable = all.some((k) => k.toBase58() === LOADERS.v3);
  const out = [];
  all.forEach((k, i) => {
    const key = k.toBase58();
    if (!msg.isAccountWritable(i) || RESERVED.has(key) || (called.has(i) && !hasUpgradeable)) return;
    const a = svm.getAccount(k.toBytes());
    const lamports = a ? a.lamports() : 0n;
    const owner = a && lamports ? b58encode(Buffer.from(a.owner())) : '11111111111111111111111111111111';
    const data = a && lamports ? Buffer.from(a.data()).toString('hex') : '';
    out.push(`post ${key} ${lamports} ${owner} ${data}`);
  });
  return out;
}

// A fresh litesvm holding the programs and the accounts (data in hex),
// the scenario's sysvars set by litesvm's setters, its blockhash expired
// once (the scenario's first transaction's).
function loadSvm(lib, programs, state, sigverify, sysvars) {
  const svm = newSvm(lib);
  if (sigverify) svm.setSigverify(true);
  for (const p of programs)
    svm.addProgramWithLoader(b58decode(p.id || DEFAULT_PROGRAM_ID), fs.readFileSync(p.elf), b58decode(LOADERS[p.loader || 'v3']));
  for (const a of state)
    svm.setAccount(b58decode(a.pubkey), new lib.Account(BigInt(a.lamports), a.data ? Buffer.from(a.data, 'hex') : new Uint8Array(0),
      a.owner ? b58decode(a.owner) : SYSTEM, !!a.executable, 0n));
  applySysvars(lib, svm, sysvars);
  svm.expireBlockhash();
  return svm;
}

const SYSVAR_IDS = {
  clock: 'SysvarC1ock11111111111111111111111111111111', rent: 'SysvarRent111111111111111111111111111111111',
  epoch_schedule: 'SysvarEpochSchedu1e111111111111111111111111', epoch_rewards: 'SysvarEpochRewards1111111111111111111111111',
  slot_hashes: 'SysvarS1otHashes111111111111111111111111111', stake_history: 'SysvarStakeHistory1111111111111111111111111',
  last_restart_slot: 'SysvarLastRestartS1ot1111111111111111111111',
};

// state.specs and state.programs: the state as account dumps and program
// files (the sysvars as the accounts litesvm holds after its setters)
function writeDumpState(svm, state, programs, sysvars, outdir) {
  const specs = state.map((a) => `${a.pubkey}:${a.lamports}:${a.owner || '11111111111111111111111111111111'}:` +
    `${a.data || ''}${a.executable ? ':x' : ''}`);
  for (const k of Object.keys(sysvars || {})) {
    const acc = svm.getAccount(b58decode(SYSVAR_IDS[k] || die(`sysvars.${k}: no account id`)));
    specs.push(`${SYSVAR_IDS[k]}:${acc.lamports()}:${b58encode(Buffer.from(acc.owner()))}:${Buffer.from(acc.data()).toString('hex')}`);
  }
  fs.writeFileSync(path.join(outdir, 'state.specs'), specs.join('\n') + '\n');
  fs.writeFileSync(path.join(outdir, 'state.programs'),
    programs.map((p) => `${p.id || DEFAULT_PROGRAM_ID} ${p.name} ${p.elf} ${p.loader || 'v3'}\n`).join(''));
}

// An instruction a case has web3.js build ({"web3": BUILDER, ...}):
//   createLookupTable  {authority, payer, recent_slot}
//   extendLookupTable  {authority, payer, recent_slot (the table is the one
//                      created for authority and it), addresses}
//   stakeInitialize    {stake, staker, withdrawer} (no lockup)
function web3Ix(w3, ix) {
  const key = (k) => new w3.PublicKey(k);
  const alt = w3.AddressLookupTableProgram;
  if (ix.web3 === 'createLookupTable')
    return alt.createLookupTable({ authority: key(ix.authority), payer: key(ix.payer), recentSlot: ix.recent_slot })[0];
  if (ix.web3 === 'extendLookupTable')
    return alt.extendLookupTable({ authority: key(ix.authority), payer: key(ix.payer),
      lookupTable: alt.createLookupTable({ authority: key(ix.authority), payer: key(ix.payer), recentSlot: ix.recent_slot })[1],
      addresses: ix.addresses.map(key) });
  if (ix.web3 === 'stakeInitialize')
    return w3.StakeProgram.initialize({ stakePubkey: key(ix.stake),
      authorized: new w3.Authorized(key(ix.staker), key(ix.withdrawer)) });
  return die(`web3 ${ix.web3}: not a builder wire.js knows`);
}

function run(lib, setup, bytes, v0) {
  const svm = setup();
  const res = v0 ? svm.sendVersionedTransaction(bytes) : svm.sendLegacyTransaction(bytes);
  const failed = typeof res.err === 'function';
  const meta = failed ? res.meta() : res;
  return { svm, failed, meta, err: failed ? res.err() : null };
}

function main(file, outdir) {
  const dir = path.dirname(file);
  const scn = JSON.parse(fs.readFileSync(file, 'utf8'));
  const lib = litesvm();
  const w3 = web3();
  const ids = { ...PROGRAMS };
  const programs = [];
  for (const p of scn.programs || []) {
    if (p.elf && p.elf.startsWith('builtin:')) { ids[p.name] = PROGRAMS[p.elf.slice(8)]; continue; }
    ids[p.name] = p.id || DEFAULT_PROGRAM_ID;
    programs.push({ ...p, elf: path.resolve(dir, p.elf) });
  }
  const txs = (scn.transactions || []).map((tx) => tx.instructions.map((ix) => (ix.web3 ? web3Ix(w3, ix)
    : new w3.TransactionInstruction({
      programId: new w3.PublicKey(ids[ix.program] || ix.program),
      data: parseData(ix.data, dir),
      keys: (ix.accounts || []).map((a) => ({ pubkey: new w3.PublicKey(a.pubkey), isSigner: !!a.signer,
        isWritable: !!a.writable })),
    }))));
  // the scenario form of an instruction web3.js built: its bytes, its
  // program by the name "programs" gives it
  const names = Object.fromEntries(Object.entries(ids).map(([n, id]) => [id, n]));
  const scnIxs = (tx, t) => tx.instructions.map((ix, k) => (!ix.web3 ? ix : {
    program: names[txs[t][k].programId.toBase58()] || txs[t][k].programId.toBase58(),
    data: Buffer.from(txs[t][k].data).toString('hex'),
    accounts: txs[t][k].keys.map((a) => ({ pubkey: a.pubkey.toBase58(), signer: a.isSigner, writable: a.isWritable })) }));
  const sysvars = scn.sysvars ? { sysvars: scn.sysvars } : {};
  // the table holds every account an instruction names that is not a signer
  const addrs = [];
  for (const ixs of txs) for (const ix of ixs) for (const k of ix.keys) {
    const s = k.pubkey.toBase58();
    if (!k.isSigner && !addrs.includes(s) && s !== FEE_PAYER_B58) addrs.push(s);
  }
  const alt = altData(addrs);
  const accounts = (scn.accounts || []).map((a) => ({ ...a, data: a.data ? parseData(a.data, dir).toString('hex') : undefined }));
  const extra = [{ pubkey: FEE_PAYER_B58, lamports: 1000000000000 },
                 { pubkey: ALT_KEY, lamports: (128 + alt.length) * 6960, owner: ALT_PROGRAM, data: alt.toString('hex') }];
  fs.mkdirSync(outdir, { recursive: true });
  fs.writeFileSync(path.join(outdir, 'state.json'),
    JSON.stringify({ programs, accounts: [...accounts, ...extra], ...sysvars, instructions: [] }, null, 1));
  const setup = () => loadSvm(lib, programs, [...accounts, ...extra], false, scn.sysvars);
  writeDumpState(setup(), [...accounts, ...extra], programs, scn.sysvars, outdir);
  const table = new w3.AddressLookupTableAccount({ key: new w3.PublicKey(ALT_KEY), state: {
    deactivationSlot: 0xffffffffffffffffn, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0,
    authority: new w3.PublicKey(FEE_PAYER), addresses: addrs.map((a) => new w3.PublicKey(a)) } });
  if (process.env.SCP_WIRE_ALT_CASES) sigCases(lib, w3, accounts, programs, outdir);
  if (process.env.SCP_WIRE_ALT_CASES) durableNonceCase(lib, w3, accounts, programs, outdir);
  if (process.env.SCP_WIRE_ALT_CASES) altCases(lib, w3, setup, accounts, extra, programs, txs, addrs, outdir);
  (scn.transactions || []).forEach((tx, t) => {
    const label = tx.label || String(t + 1);
    fs.writeFileSync(path.join(outdir, `${label}.scn.json`),
      JSON.stringify({ programs, accounts: [...accounts, ...extra], ...sysvars,
        transactions: [{ ...tx, instructions: scnIxs(tx, t), fee_payer: FEE_PAYER_B58 }] }, null, 1));
    const blockhash = setup().latestBlockhash();
    const payerKey = new w3.PublicKey(FEE_PAYER);
    const legacy = new w3.Transaction({ feePayer: payerKey, recentBlockhash: blockhash }).add(...txs[t]);
    const legacyMsg = legacy.compileMessage();
    let legacyBytes;
    try {
      legacyBytes = legacy.serialize({ requireAllSignatures: false, verifySignatures: false });
    } catch (e) {
      // more than a packet (1,232 bytes): web3.js cannot write it, no
      // node would take it; named in OUTDIR/LABEL.toolarge
      fs.writeFileSync(path.join(outdir, `${label}.toolarge`), `${e.message}\n`);
      return;
    }
    const v0Msg = new w3.TransactionMessage({ payerKey, recentBlockhash: blockhash, instructions: txs[t] })
      .compileToV0Message([table]);
    v0Msg.alts = [table];
    const v0Bytes = Buffer.from(new w3.VersionedTransaction(v0Msg).serialize());
    for (const [form, bytes, msg] of [['legacy', legacyBytes, legacyMsg], ['v0', v0Bytes, v0Msg]]) {
      const r = run(lib, setup, bytes, form === 'v0');
      const lines = [`cu ${r.meta.computeUnitsConsumed()}`, ...r.meta.logs().map((l) => `log ${l}`),
        r.failed ? `result err ${errorText(r.err)}` : 'result ok', ...postLines(r.svm, w3, msg)];
      fs.writeFileSync(path.join(outdir, `${label}.${form}.b64`), Buffer.from(bytes).toString('base64') + '\n');
      fs.writeFileSync(path.join(outdir, `${label}.${form}.want`), lines.join('\n') + '\n');
      fs.writeFileSync(path.join(outdir, `${label}.${form}.rpc.json`),
        JSON.stringify(rpcResponse(r, bytes, form, null), null, 1));
      fs.writeFileSync(path.join(outdir, `${label}.${form}.rpcjson.json`),
        JSON.stringify(rpcResponse(r, bytes, form, msg), null, 1));
    }
  });
}

// The first transaction's v0 form on lookup tables the runtime refuses or
// half uses, each in OUTDIR/alt-NAME/, and on fee payers that cannot pay,
// in OUTDIR/payer_NAME/ (state.json, tx.v0.b64, tx.v0.want; a refused
// table leaves no account changed and gives no "post" lines).
function altCases(lib, w3, setup0, accounts, extra, programs, txs, addrs, outdir) {
  const slot = 447552000n;
  const variants = {
    deactivated: (d) => d.writeBigUInt64LE(5n, 4),
    deactivated_now: (d) => d.writeBigUInt64LE(slot, 4),
    extended_now: (d) => d.writeBigUInt64LE(slot, 12),
    uninitialized: (d) => d.writeUInt32LE(0, 0),
    ragged: null,
    foreign: null,
  };
  const blockhash = setup0().latestBlockhash();
  const table = new w3.AddressLookupTableAccount({ key: new w3.PublicKey(ALT_KEY), state: {
    deactivationSlot: 0xffffffffffffffffn, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0,
    authority: new w3.PublicKey(FEE_PAYER), addresses: addrs.map((a) => new w3.PublicKey(a)) } });
  const msg = new w3.TransactionMessage({ payerKey: new w3.PublicKey(FEE_PAYER), recentBlockhash: blockhash,
    instructions: txs[0] }).compileToV0Message([table]);
  msg.alts = [table];
  const bytes = Buffer.from(new w3.VersionedTransaction(msg).serialize());
  // the fee payer that cannot pay: too poor, left rent-paying, not a
  // system account, absent
  const fee = 5000 * msg.header.numRequiredSignatures;
  const payers = {
    payer_poor: { lamports: fee - 1 },
    payer_rent: { lamports: 128 * 6960 + fee - 1 },
    payer_exact: { lamports: 128 * 6960 + fee },
    payer_owned: { owner: BUILTINS.token },
    payer_missing: { lamports: 0 },
  };
  for (const name of [...Object.keys(variants), ...Object.keys(payers)]) {
    const edit = variants[name];
    const alt = { ...extra[1] };
    let data = Buffer.from(alt.data, 'hex');
    if (edit) edit(data);
    if (name === 'ragged') data = Buffer.concat([data, Buffer.alloc(5)]);
    if (name === 'foreign') alt.owner = '11111111111111111111111111111111';
    alt.data = data.toString('hex');
    const state = [...accounts, { ...extra[0], ...(payers[name] || {}) }, alt];
    const dir = path.join(outdir, payers[name] ? name : `alt-${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify({ programs, accounts: state, instructions: [] }, null, 1));
    const svm = loadSvm(lib, programs, state, false);
    const res = svm.sendVersionedTransaction(bytes);
    const failed = typeof res.err === 'function';
    const meta = failed ? res.meta() : res;
    const lines = [`cu ${meta.computeUnitsConsumed()}`, ...meta.logs().map((l) => `log ${l}`),
      failed ? `result err ${errorText(res.err())}` : 'result ok', ...(failed && !payers[name] ? [] : postLines(svm, w3, msg))];
    fs.writeFileSync(path.join(dir, 'tx.v0.b64'), bytes.toString('base64') + '\n');
    fs.writeFileSync(path.join(dir, 'tx.v0.want'), lines.join('\n') + '\n');
  }
}

// A transaction really signed (a key from a fixed seed pays and sends
// 1,000 lamports) and the same with one signature byte changed, run with
// litesvm's signature checks on: OUTDIR/sig_good/ and sig_bad/ (state.json,
// tx.b64, tx.want).
function sigCases(lib, w3, accounts, programs, outdir) {
  const kp = w3.Keypair.fromSeed(new Uint8Array(32).fill(9));
  const to = new w3.PublicKey('GgBaCs3NCBuZN12kCJgAW63ydqohFkHEdfdEXBPzLHq');
  const state = [...accounts, { pubkey: kp.publicKey.toBase58(), lamports: 1000000000 }];
  for (const name of ['sig_good', 'sig_bad']) {
    const svm = loadSvm(lib, programs, state, true);
    const tx = new w3.Transaction({ feePayer: kp.publicKey, recentBlockhash: svm.latestBlockhash() })
      .add(w3.SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: to, lamports: 1000 }));
    tx.sign(kp);
    const bytes = Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false }));
    if (name === 'sig_bad') bytes[5] ^= 1;
    const res = svm.sendLegacyTransaction(bytes);
    const failed = typeof res.err === 'function';
    const meta = failed ? res.meta() : res;
    const msg = tx.compileMessage();
    const lines = [`cu ${meta.computeUnitsConsumed()}`, ...meta.logs().map((l) => `log ${l}`),
      failed ? `result err ${errorText(res.err())}` : 'result ok', ...(failed ? [] : postLines(svm, w3, msg))];
    const dir = path.join(outdir, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify({ programs, accounts: state, instructions: [] }, null, 1));
    fs.writeFileSync(path.join(dir, 'tx.b64'), bytes.toString('base64') + '\n');
    fs.writeFileSync(path.join(dir, 'tx.want'), lines.join('\n') + '\n');
  }
}

// A durable-nonce transaction as web3.js builds one (AdvanceNonceAccount
// first, the nonce account's stored nonce as the recent blockhash, not
// litesvm's latest: litesvm's blockhash check lets it through as a nonce
// transaction), then a transfer: OUTDIR/nonce_durable/ (state.json,
// tx.b64, tx.want).
function durableNonceCase(lib, w3, accounts, programs, outdir) {
  const nonce = Buffer.alloc(32, 0x2a);
  const noncePubkey = new w3.PublicKey(Buffer.alloc(32, 0x55));
  const payerKey = new w3.PublicKey(FEE_PAYER);
  const data = Buffer.alloc(80);
  data.writeUInt32LE(1, 0);
  data.writeUInt32LE(1, 4);
  FEE_PAYER.copy(data, 8);
  nonce.copy(data, 40);
  data.writeBigUInt64LE(5000n, 72);
  const state = [...accounts, { pubkey: FEE_PAYER_B58, lamports: 1000000000000 },
    { pubkey: noncePubkey.toBase58(), lamports: (128 + 80) * 6960, data: data.toString('hex') }];
  const svm = loadSvm(lib, programs, state, false);
  const tx = new w3.Transaction({ feePayer: payerKey, nonceInfo: { nonce: b58encode(nonce),
    nonceInstruction: w3.SystemProgram.nonceAdvance({ noncePubkey, authorizedPubkey: payerKey }) } })
    .add(w3.SystemProgram.transfer({ fromPubkey: payerKey, toPubkey: new w3.PublicKey(Buffer.alloc(32, 0x66)),
      lamports: 1000000 }));
  const bytes = Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false }));
  const res = svm.sendLegacyTransaction(bytes);
  const failed = typeof res.err === 'function';
  const meta = failed ? res.meta() : res;
  const lines = [`cu ${meta.computeUnitsConsumed()}`, ...meta.logs().map((l) => `log ${l}`),
    failed ? `result err ${errorText(res.err())}` : 'result ok', ...postLines(svm, w3, tx.compileMessage())];
  const dir = path.join(outdir, 'nonce_durable');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify({ programs, accounts: state, instructions: [] }, null, 1));
  fs.writeFileSync(path.join(dir, 'tx.b64'), bytes.toString('base64') + '\n');
  fs.writeFileSync(path.join(dir, 'tx.want'), lines.join('\n') + '\n');
}

// The RPC's err: "Name", {"Name": value}, {"InstructionError": [k, E]}.
function rpcErr(r) {
  if (!r.failed) return null;
  const s = errorText(r.err);
  let m = /^(\d+) Custom\((\d+)\)$/.exec(s);
  if (m) return { InstructionError: [Number(m[1]), { Custom: Number(m[2]) }] };
  m = /^(\d+) (\w+)$/.exec(s);
  if (m) return { InstructionError: [Number(m[1]), m[2]] };
  m = /^(\w+) \{ (\w+): (\d+) \}$/.exec(s);
  if (m) return m[1] === 'DuplicateInstruction' ? { [m[1]]: Number(m[3]) } : { [m[1]]: { [m[2]]: Number(m[3]) } };
  return s;
}

// encoding "json": the message as the RPC writes it
function jsonTx(msg, bytes) {
  const sig = b58encode(Buffer.from(bytes.slice(1, 65)));
  const out = { signatures: Array(msg.header.numRequiredSignatures).fill(sig), message: {
    header: msg.header, accountKeys: msg.staticAccountKeys.map((k) => k.toBase58()),
    recentBlockhash: msg.recentBlockhash,
    instructions: msg.compiledInstructions.map((ix) => ({ programIdIndex: ix.programIdIndex,
      accounts: Array.from(ix.accountKeyIndexes), data: b58encode(Buffer.from(ix.data)), stackHeight: null })) } };
  if (msg.version === 0)
    out.message.addressTableLookups = msg.addressTableLookups.map((l) => ({ accountKey: l.accountKey.toBase58(),
      writableIndexes: Array.from(l.writableIndexes), readonlyIndexes: Array.from(l.readonlyIndexes) }));
  return out;
}

function rpcResponse(r, bytes, form, msg) {
  const inner = r.meta.innerInstructions().map((list, index) => ({ index, instructions: list.map((ii) => {
    const c = ii.instruction();
    return { programIdIndex: c.programIdIndex(), accounts: Array.from(c.accounts()),
             data: b58encode(Buffer.from(c.data())), stackHeight: ii.stackHeight() };
  }) })).filter((x) => x.instructions.length);
  return { jsonrpc: '2.0', id: 1, result: {
    slot: 447552000, blockTime: null, version: form === 'v0' ? 0 : 'legacy',
    transaction: msg ? jsonTx(msg, bytes) : [Buffer.from(bytes).toString('base64'), 'base64'],
    meta: { err: rpcErr(r), status: r.failed ? { Err: rpcErr(r) } : { Ok: null },
            innerInstructions: inner, logMessages: r.meta.logs(),
            computeUnitsConsumed: Number(r.meta.computeUnitsConsumed()) } } };
}

const FEE_PAYER_B58 = b58encode(FEE_PAYER);
main(process.argv[2] || die('usage: wire.js SCENARIO.json OUTDIR'), process.argv[3] || die('usage: wire.js SCENARIO.json OUTDIR'));
