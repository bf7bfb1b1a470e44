// The run's environment as a case sets it in litesvm: the feature set
// (--feature, a scenario's "features") and the sysvars.
//
// A scenario's "sysvars" applied to litesvm through its own setters
// (setClock, setRent, setSlotHashes ...), after the accounts, as scprof
// applies them over the state's sysvar accounts.  Fields not given keep
// litesvm's values.  The encoding is litesvm's (agave's sysvar types), so
// comparing with scprof checks scprof's encoder too.
'use strict';
const { b58decode, die } = require('./svm.js');

const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

// obj's fields onto the litesvm object o: integers as BigInt unless the
// field is a number (exemptionThreshold, burnPercent) or a bool/string
function setFields(o, obj, where) {
  for (const [k, v] of Object.entries(obj)) {
    const f = camel(k);
    if (!(f in o)) die(`${where}.${k}: unknown field`);
    const cur = o[f];
    o[f] = typeof cur === 'bigint' ? BigInt(v) : v;
  }
  return o;
}

function applySysvars(lib, svm, sv) {
  if (!sv) return;
  for (const [k, v] of Object.entries(sv)) {
    const where = `sysvars.${k}`;
    if (k === 'clock') svm.setClock(setFields(svm.getClock(), v, where));
    else if (k === 'rent') svm.setRent(setFields(svm.getRent(), v, where));
    else if (k === 'epoch_schedule') svm.setEpochSchedule(setFields(svm.getEpochSchedule(), v, where));
    else if (k === 'epoch_rewards') svm.setEpochRewards(setFields(svm.getEpochRewards(), v, where));
    else if (k === 'last_restart_slot') svm.setLastRestartSlot(BigInt(v));
    else if (k === 'slot_hashes') {
      // SlotHash has no constructor: take fresh ones from the getter
      svm.setSlotHashes(v.map(([slot, hash]) => {
        const h = svm.getSlotHashes()[0];
        h.slot = BigInt(slot);
        h.hash = hash;
        return h;
      }));
    } else if (k === 'stake_history') {
      const h = new lib.StakeHistory();
      for (const [epoch, e, a, d] of v) h.add(BigInt(epoch), new lib.StakeHistoryEntry(BigInt(e), BigInt(a), BigInt(d)));
      svm.setStakeHistory(h);
    } else die(`${where}: unknown sysvar`);
  }
}

// litesvm's default feature set, read from its own snapshot (toBytes):
// the feature accounts of the active ones, then the inactive set as a u64
// count and the ids, 32 bytes each, near the end.  FeatureSet has no getter.
function defaultFeatureSet(lib) {
  const b = Buffer.from(new lib.LiteSvm().toBytes());
  const all = lib.FeatureSet.allEnabled();
  const pos = all.getActiveFeatures().map((x) => b.indexOf(Buffer.from(x))).sort((x, y) => x - y);
  let i = pos.length - 1;
  while (i > 0 && pos[i] - pos[i - 1] === 32) i--;
  const n = Number(b.readBigUInt64LE(pos[i] - 8));
  if (pos[i] < 0 || n !== pos.length - i) die(`cannot read litesvm's inactive features (${n} != ${pos.length - i})`);
  for (let k = 0; k < n; k++) all.deactivate(b.subarray(pos[i] + 32 * k, pos[i] + 32 * k + 32));
  return all;
}

// ID=on|off (base58 ids; names are scprof's): litesvm's default set with
// the changes, then the builtins, the program runtime and the default
// programs rebuilt from it, before any other program or account is added.
function setFeatures(lib, svm, specs) {
  const fs = defaultFeatureSet(lib);
  for (const spec of specs) {
    const m = /^([1-9A-HJ-NP-Za-km-z]{32,44})=(on|off)$/.exec(spec);
    if (!m) die(`feature ${spec}: want BASE58_ID=on|off`);
    if (m[2] === 'on') fs.activate(b58decode(m[1]), 0n);
    else fs.deactivate(b58decode(m[1]));
  }
  svm.setFeatureSet(fs);
  svm.setBuiltins();
  svm.setDefaultPrograms();
}

module.exports = { applySysvars, setFeatures };
