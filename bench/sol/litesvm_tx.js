#!/usr/bin/env node
// litesvm's side of bench/sol_litesvm.sh: runs every transaction of a
// Solana transaction scenario (the JSON `scprof profile --scenario`
// reads) in litesvm 1.5.0, as tests/oracle/tx.js does (a fresh blockhash
// before each, signatures off), in a loop, and prints
//   cu N          the first transaction's computeUnitsConsumed
//   loop_ns N     the loop's time: building and sending every transaction
// Any failed transaction is an error (exit 1).
//   usage: litesvm_tx.js SCENARIO.json
'use strict';
const fs = require('fs');
const path = require('path');
const svmjs = require(path.join(__dirname, '../../tests/oracle/svm.js'));
const { b58decode, LOADERS, SYSTEM, die, litesvm, newSvm, parseData } = svmjs;

function main(file) {
  const dir = path.dirname(file);
  const scn = JSON.parse(fs.readFileSync(file, 'utf8'));
  const lib = litesvm();
  const svm = newSvm(lib);
  const ids = {};
  for (const p of scn.programs) {
    svm.addProgramWithLoader(b58decode(p.id), fs.readFileSync(path.resolve(dir, p.elf)), b58decode(LOADERS[p.loader || 'v3']));
    ids[p.name] = p.id;
  }
  for (const a of scn.accounts)
    svm.setAccount(b58decode(a.pubkey), new lib.Account(BigInt(a.lamports), parseData(a.data, dir),
      a.owner ? b58decode(a.owner) : SYSTEM, false, 0n));
  const txs = scn.transactions.map((tx) => tx.instructions.map((ix) => ({
    program: b58decode(ids[ix.program] || ix.program),
    data: parseData(ix.data, dir),
    accounts: ix.accounts.map((a) => ({ key: b58decode(a.pubkey), signer: !!a.signer, writable: !!a.writable })),
  })));
  let cu = -1n;
  const t0 = process.hrtime.bigint();
  for (const ixs of txs) {
    svm.expireBlockhash();
    const res = svm.sendLegacyTransaction(svmjs.transaction(ixs, b58decode(svm.latestBlockhash())));
    if (typeof res.err === 'function') die(`a transaction failed: ${res.err()}`);
    if (cu < 0n) cu = res.computeUnitsConsumed();
  }
  const t1 = process.hrtime.bigint();
  process.stdout.write(`cu ${cu}\nloop_ns ${t1 - t0}\n`);
}
main(process.argv[2] || die('usage: litesvm_tx.js SCENARIO.json'));
