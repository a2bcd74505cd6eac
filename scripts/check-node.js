#!/usr/bin/env node
// Run first by every npm script: on an older Node.js the build and the tests would run for minutes and
// then fail in places. Plain CommonJS of the oldest syntax, so that any Node.js can read it.
var fs = require('fs');
var path = require('path');

var required = fs.readFileSync(path.join(__dirname, '..', '.node-version'), 'utf8').trim();
var requiredMajor = Number(required.split('.')[0]);
var major = Number(process.versions.node.split('.')[0]);
if (major < requiredMajor) {
  process.stderr.write(
    'market-data-gateway needs Node.js ' +
      requiredMajor +
      ' or later (.node-version: ' +
      required +
      '); this is ' +
      process.version +
      '\n',
  );
  process.exit(1);
}
