// A scenario's "sysvars" applied to litesvm through its own setters
// (setClock, setRent, setSlotHashes ...), after the accounts, as scprof
// applies them over the state's sysvar accounts.  Fields not given keep
// litesvm's values.  The encoding is litesvm's (agave's sysvar types), so
// comparing with scprof checks scprof's encoder too.
'use strict';
const { die } = require('./svm.js');

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

module.exports = { applySysvars };
