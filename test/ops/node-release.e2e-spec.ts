import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRED_NODE_MAJOR } from '../../src/lifecycle/node-version';

const root = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

describe('the Node.js release', () => {
  const release = read('.node-version').trim();

  it('is one the image builds and runs on', () => {
    expect(read('Dockerfile')).toMatch(
      new RegExp(`^ARG NODE_VERSION=${release.replace(/\./g, '\\.')}$`, 'm'),
    );
    expect(read('Dockerfile').match(/^FROM node:\$\{NODE_VERSION\}-/gm)).toHaveLength(3);
  });

  it("is within package.json's engines, on an LTS line", () => {
    const major = Number(release.split('.')[0]);
    const engines = JSON.parse(read('package.json')).engines.node as string;
    expect(engines).toBe(`>=${major}`);
    expect(major % 2).toBe(0);
  });

  it('is the line the service itself asks for at start', () => {
    expect(REQUIRED_NODE_MAJOR).toBe(Number(release.split('.')[0]));
  });
});
