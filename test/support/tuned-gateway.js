// The gateway's build as `node dist/main.js` runs it, with a test's tuning (JSON, the first
// argument) on top of the production defaults: the entry of a test's gateway process, which the
// production entry point and the environment cannot reach.
require('reflect-metadata');
const { runGateway } = require('../../dist/run-gateway');
const { tuning } = require('../../dist/config/tuning');

runGateway(tuning(JSON.parse(process.argv[2] ?? '{}')));
