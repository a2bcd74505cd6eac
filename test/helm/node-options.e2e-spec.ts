import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { deployedRuntimeEnv } from '../soak/deployed-env';
import { HelmCli, ValueSet } from './support/helm-cli';
import { environment, gatewayContainer, RenderedManifest } from './support/rendered-manifest';

const NAME = 'demo-market-data-gateway';
const DEFAULTS = ['default-values.yaml'];

let helm: HelmCli;

beforeAll(async () => {
  helm = await HelmCli.start();
}, 60_000);

afterAll(async () => {
  await helm?.close();
});

/** NODE_OPTIONS of each gateway Deployment's container, by Deployment name; undefined where unset. */
async function nodeOptions(set: ValueSet): Promise<Record<string, string | undefined>> {
  const result = await helm.template(set);
  if (!result.ok) throw new Error(result.stderr);
  const gateways = new RenderedManifest(result.stdout)
    .ofKind<IDeployment>('Deployment')
    .filter((deployment) => !deployment.metadata!.name!.endsWith('-redis'));
  return Object.fromEntries(
    gateways.map((deployment) => [
      deployment.metadata!.name!,
      environment(gatewayContainer(deployment)).NODE_OPTIONS,
    ]),
  );
}

describe('NODE_OPTIONS of the gateway containers', () => {
  it('gives each role an old generation of half its memory limit (512 and 768 MiB by default) and 16 MiB semi-spaces', async () => {
    expect(await nodeOptions({ files: DEFAULTS })).toEqual({
      [`${NAME}-api`]: '--max-old-space-size=256 --max-semi-space-size=16',
      [`${NAME}-ingest`]: '--max-old-space-size=384 --max-semi-space-size=16',
    });
  });

  it('follows the limit in any unit Kubernetes accepts for memory', async () => {
    const options = await nodeOptions({
      files: DEFAULTS,
      values: {
        api: { resources: { limits: { memory: '1.5Gi' } } },
        ingest: { resources: { limits: { memory: 1e9 } } },
      },
    });
    expect(options[`${NAME}-api`]).toBe('--max-old-space-size=768 --max-semi-space-size=16');
    // 10^9 bytes are 953.67 MiB.
    expect(options[`${NAME}-ingest`]).toBe('--max-old-space-size=476 --max-semi-space-size=16');
  });

  it("takes a role's own nodeOptions as they are, and leaves the variable out without a limit", async () => {
    const options = await nodeOptions({
      files: DEFAULTS,
      values: {
        api: { nodeOptions: '--max-old-space-size=1000' },
        ingest: { resources: { limits: { memory: null } } },
      },
    });
    expect(options).toEqual({ [`${NAME}-api`]: '--max-old-space-size=1000', [`${NAME}-ingest`]: undefined });
  });

  it('sizes the combined ROLE=all pods, which the soak run stands for, as the image does', async () => {
    const options = await nodeOptions({ files: ['combined-values.yaml'] });
    expect(Object.values(options)).toEqual([deployedRuntimeEnv().NODE_OPTIONS]);
  });

  it('refuses a memory limit in millibytes rather than guess, naming it', async () => {
    const result = await helm.template({
      files: DEFAULTS,
      values: { api: { resources: { limits: { memory: '536870912000m' } } } },
    });
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/memory limit 536870912000m/);
  });

  it('refuses NODE_OPTIONS in config.extraEnv, where the container setting would hide it', async () => {
    const result = await helm.template({
      files: DEFAULTS,
      values: { config: { extraEnv: { NODE_OPTIONS: '' } } },
    });
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/\/config\/extraEnv\/NODE_OPTIONS'/);
  });
});
