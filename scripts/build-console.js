#!/usr/bin/env node
// Bundles the operator console and status page (src/console-page/) into dist/console/: one script
// and one style sheet with content-hashed names, the chunks the script imports when it needs them
// (the candle chart, on market pages only), and manifest.json naming them for the server.
// Run by `npm run build` after the server's compile, which empties dist/.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const outdir = path.join(root, 'dist', 'console');

const entryPoint = 'src/console-page/main.ts';

async function main() {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entryPoint],
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    entryNames: 'console-[hash]',
    chunkNames: 'console-chunk-[hash]',
    outdir,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: path.join(root, 'src', 'console-page', 'tsconfig.json'),
  });
  const outputs = Object.entries(result.metafile.outputs).map(([file, output]) => ({
    name: path.basename(file),
    // A module the script imports dynamically is an entry point of its own in esbuild's terms.
    entry: output.entryPoint === entryPoint,
  }));
  const manifest = {
    script: outputs.find((file) => file.entry && file.name.endsWith('.js'))?.name,
    style: outputs.find((file) => file.name.endsWith('.css'))?.name,
    chunks: outputs.filter((file) => !file.entry && file.name.endsWith('.js')).map((file) => file.name),
  };
  if (!manifest.script || !manifest.style)
    throw new Error(`unexpected bundle outputs: ${outputs.map((file) => file.name).join(', ')}`);
  fs.writeFileSync(path.join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
