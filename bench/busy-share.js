'use strict';
const fs = require('node:fs');

/** Share of all cores busy over half a second (Linux /proc/stat), or null: other work on the machine skews every figure. */
async function busyShare() {
  const sample = () => {
    try {
      const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
      return { idle: fields[3] + (fields[4] || 0), total: fields.reduce((sum, value) => sum + value, 0) };
    } catch {
      return null;
    }
  };
  const first = sample();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const second = sample();
  if (!first || !second || second.total === first.total) return null;
  return 1 - (second.idle - first.idle) / (second.total - first.total);
}

module.exports = { busyShare };
