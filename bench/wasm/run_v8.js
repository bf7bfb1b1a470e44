// Runs a bench workload's run() -> i64 in node's WebAssembly (V8), the
// JIT upper bound beside our interpreter (bench/wasm_vs.sh).  Imports get
// the same treatment as in bench_engine/bench_overhead: none is provided,
// so a workload that imports anything is refused rather than stubbed.
//   node bench/wasm/run_v8.js FILE.wasm
'use strict';
const fs = require('fs');
const file = process.argv[2];
if (!file) { console.error('usage: node run_v8.js FILE.wasm'); process.exit(2); }
const mod = new WebAssembly.Module(fs.readFileSync(file));
const imports = WebAssembly.Module.imports(mod);
if (imports.length) {
  console.error(`${file}: imports ${imports[0].module}.${imports[0].name}; the bench workloads import nothing`);
  process.exit(1);
}
const inst = new WebAssembly.Instance(mod, {});
if (typeof inst.exports.run !== 'function') { console.error(`${file}: no run export`); process.exit(1); }
console.log(BigInt.asUintN(64, inst.exports.run()).toString());
