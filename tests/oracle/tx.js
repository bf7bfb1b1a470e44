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
//   post PUBKEY LAMPORTS OWNER DATAHEX   each account the instructions name, afterwards
//
// Programs are named by "name" in "programs" (an ELF under a loader, or
// "builtin:NAME" for a program litesvm ships), or by base58 id; "system" and
// "compute_budget" are the builtins.  "sysvars" is applied with litesvm's
// setters (env.js).  Signatures are zero (sigverify off).
'use strict';
const fs = require('fs');
const path = require('path');
const { b58decode, LOADERS, BUILTINS, DEFAULT_PROGRAM_ID, SYSTEM, die, litesvm, newSvm, parseData,
        posts, send, errorText } = require('./svm.js');
const { applySysvars, setFeatures } = require('./env.js');

// the builtins a transaction may name besides the ELF programs litesvm ships
const PROGRAMS = {
  system: '11111111111111111111111111111111',
  compute_budget: 'ComputeBudget111111111111111111111111111111',
  ...BUILTINS,
};

function main(file) {
  const dir = path.dirname(file);
  const scn = JSON.parse(fs.readFileSync(file, 'utf8'));
  const lib = litesvm();
  const svm = newSvm(lib);
  // "features": {"<base58 id>": true|false}
  if (scn.features) setFeatures(lib, svm, Object.entries(scn.features).map(([k, v]) => `${k}=${v ? 'on' : 'off'}`));
  const ids = { ...PROGRAMS };
  for (const p of scn.programs || []) {
    if (p.elf && p.elf.startsWith('builtin:')) { ids[p.name] = PROGRAMS[p.elf.slice(8)]; continue; }
    const id = p.id || DEFAULT_PROGRAM_ID;
    svm.addProgramWithLoader(b58decode(id), fs.readFileSync(path.resolve(dir, p.elf)), b58decode(LOADERS[p.loader || 'v3']));
    ids[p.name] = id;
  }
  for (const a of scn.accounts || [])
    svm.setAccount(b58decode(a.pubkey), new lib.Account(BigInt(a.lamports), parseData(a.data, dir),
      a.owner ? b58decode(a.owner) : SYSTEM, !!a.executable, 0n));
  applySysvars(lib, svm, scn.sysvars);
  const out = [];
  for (const [t, tx] of (scn.transactions || []).entries()) {
    const ixs = tx.instructions.map((ix) => ({
      program: b58decode(ids[ix.program] || ix.program),
      data: parseData(ix.data, dir),
      accounts: (ix.accounts || []).map((a) => ({ key: b58decode(a.pubkey), signer: !!a.signer, writable: !!a.writable })),
    }));
    svm.expireBlockhash();
    out.push(`tx ${tx.label || t + 1}`, ...send(svm, ixs, errorText),
             ...posts(svm, ixs.flatMap((ix) => ix.accounts.map((a) => a.key))));
  }
  process.stdout.write(out.join('\n') + '\n');
}
main(process.argv[2] || die('usage: tx.js SCENARIO.json'));
