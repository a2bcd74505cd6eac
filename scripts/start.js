// `npm start`: the built gateway, and without an exchange named (UPSTREAM_BASE_URL) a trial on the
// built-in sandbox exchange in-process, which a deployment never runs unless SANDBOX=true says so.
const env = process.env;
const ingests = ['', 'all', 'ingest'].includes((env.ROLE ?? '').trim());
if (ingests && !env.UPSTREAM_BASE_URL?.trim() && !env.SANDBOX?.trim()) env.SANDBOX = 'true';
require('../dist/main.js');
