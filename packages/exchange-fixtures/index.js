'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** A file of this package, e.g. `rest/depth.json`, parsed. */
function readSpecFixture(file) {
  return JSON.parse(readFileSync(join(__dirname, file), 'utf8'));
}

/** Unix milliseconds of an instant the fixtures write in ISO 8601. */
function unixMs(iso) {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO 8601 instant: ${iso}`);
  return ms;
}

module.exports = { readSpecFixture, unixMs };
