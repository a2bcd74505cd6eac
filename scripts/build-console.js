#!/usr/bin/env node
// Bundles the operator console and status page (src/console-page/) into dist/console/: one script
// and one style sheet with content-hashed names, and manifest.json naming them for the server.
// Run by `npm run build` after the server's compile, which empties dist/.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const outdir = path.join(root, 'dist', 'console');

async function main() {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: [path.join(root, 'src', 'console-page', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    entryNames: 'console-[hash]',
    outdir,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: path.join(root, 'src', 'console-page', 'tsconfig.json'),
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
  const manifest = {
    script: outputs.find((file) => file.endsWith('.js')),
    style: outputs.find((file) => file.endsWith('.css')),
  };
  if (!manifest.script || !manifest.style)
    throw new Error(`unexpected bundle outputs: ${outputs.join(', ')}`);
  fs.writeFileSync(path.join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
