import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load-config';
import { REMOVED_SETTINGS } from '../../src/config/removed-settings';
import { DATA_FILES } from '../../src/start-config';
import { parseAssetsFile } from '../../src/ingest/catalog/assets-file';
import { CHART_DIR, HelmCli, HelmResult, ValueSet } from './support/helm-cli';
import { schemaProblems } from './support/kubernetes-schemas';
import { environment, gatewayContainer, RenderedManifest } from './support/rendered-manifest';

const NAME = 'demo-market-data-gateway';

/** The value sets a user would install with: files of the chart's ci/ folder. */
const VALID_SETS: Record<string, ValueSet> = {
  defaults: { files: ['default-values.yaml'] },
  production: { files: ['production-values.yaml'] },
  trial: { files: ['trial-values.yaml'] },
  combined: { files: ['combined-values.yaml'] },
  sentinel: { files: ['sentinel-values.yaml'] },
};
type SetName = keyof typeof VALID_SETS;

let helm: HelmCli;
const linted: Record<string, HelmResult> = {};
const rendered: Record<string, RenderedManifest> = {};

beforeAll(async () => {
  helm = await HelmCli.start();
  await Promise.all(
    Object.entries(VALID_SETS).map(async ([name, set]) => {
      const [lint, template] = await Promise.all([helm.lint(set), helm.template(set)]);
      linted[name] = lint;
      if (!template.ok) throw new Error(`helm template failed for ${name}:\n${template.stderr}`);
      rendered[name] = new RenderedManifest(template.stdout);
    }),
  );
}, 60_000);

afterAll(async () => {
  await helm?.close();
});

function matches(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

function podLabels(deployment: IDeployment): Record<string, string> {
  return deployment.spec!.template.metadata!.labels ?? {};
}

function httpPort(container: IContainer): number {
  const port = container.ports?.find((candidate) => candidate.name === 'http');
  expect(port).toBeDefined();
  return port!.containerPort;
}

describe.each(Object.keys(VALID_SETS))('value set %s', (setName: SetName) => {
  it('passes helm lint --strict', () => {
    expect(linted[setName].stderr).not.toMatch(/\[(ERROR|WARNING)\]/);
    expect(linted[setName].ok).toBe(true);
  });

  it('renders only objects that are valid against the Kubernetes schemas of their kind', () => {
    const objects = rendered[setName].objects;
    expect(objects.length).toBeGreaterThanOrEqual(7);
    expect(objects.flatMap((object) => schemaProblems(object))).toEqual([]);
    const names = objects.map((object) => `${object.kind}/${object.metadata.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('runs every container non-root, read-only, unprivileged, without capabilities, under RuntimeDefault seccomp', () => {
    const pods = rendered[setName].podSpecs();
    expect(pods.length).toBeGreaterThanOrEqual(2);
    for (const { owner, spec } of pods) {
      const context = `${owner}`;
      expect({ context, runAsNonRoot: spec.securityContext?.runAsNonRoot }).toEqual({
        context,
        runAsNonRoot: true,
      });
      expect(spec.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
      expect(spec.automountServiceAccountToken).toBe(false);
      expect(spec.hostNetwork ?? false).toBe(false);
      expect(spec.hostPID ?? false).toBe(false);
      expect(spec.initContainers ?? []).toEqual([]);
      for (const container of spec.containers) {
        const security = container.securityContext;
        expect({ context, container: container.name, security }).toEqual({
          context,
          container: container.name,
          security: expect.objectContaining({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            privileged: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          }),
        });
        expect(security!.runAsUser).toBeGreaterThan(0);
        expect(container.resources?.requests).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
        expect(container.resources?.limits).toEqual(expect.objectContaining({ memory: expect.anything() }));
      }
    }
  });

  it('probes every gateway container on /health/live and /health/ready at its own port, and gives it a writable /tmp', () => {
    const manifest = rendered[setName];
    const config = manifest.get<IConfigMap>('ConfigMap', NAME);
    const gateways = manifest
      .ofKind<IDeployment>('Deployment')
      .filter((deployment) => !deployment.metadata!.name!.endsWith('-redis'));
    expect(gateways.length).toBeGreaterThanOrEqual(1);
    for (const deployment of gateways) {
      const container = gatewayContainer(deployment);
      const port = httpPort(container);
      expect(String(port)).toBe(config.data!.PORT);
      expect(container.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      // Startup holds liveness back for as long as a boot may take; readiness reacts faster than liveness.
      const startup = container.startupProbe!;
      expect(startup.periodSeconds! * startup.failureThreshold!).toBeGreaterThanOrEqual(60);
      expect(container.readinessProbe!.periodSeconds!).toBeLessThanOrEqual(
        container.livenessProbe!.periodSeconds!,
      );
      const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
      const volume = deployment.spec!.template.spec!.volumes?.find(
        (candidate) => candidate.name === tmp?.name,
      );
      expect(volume?.emptyDir).toBeDefined();
      expect(container.envFrom).toEqual([{ configMapRef: { name: NAME } }]);
    }
  });

  it("gives every gateway container an environment that the gateway's own configuration accepts", () => {
    const manifest = rendered[setName];
    const settings = manifest.get<IConfigMap>('ConfigMap', NAME).data!;
    const chartSecret = manifest.has('Secret', NAME) ? manifest.get<ISecret>('Secret', NAME).stringData! : {};
    const gateways = manifest
      .ofKind<IDeployment>('Deployment')
      .filter((deployment) => !deployment.metadata!.name!.endsWith('-redis'));
    for (const deployment of gateways) {
      const container = gatewayContainer(deployment);
      const env: Record<string, string> = { ...settings };
      for (const variable of container.env ?? []) {
        const reference = variable.valueFrom?.secretKeyRef;
        // An existing Secret is not rendered: stand in for what it holds.
        const fromExisting =
          reference?.key === 'REDIS_URL' ? 'rediss://gateway:secret@redis.example.com:6380' : 'someone';
        env[variable.name] = reference ? (chartSecret[reference.key] ?? fromExisting) : variable.value!;
      }
      // The mounted assets file, which the gateway checks at boot: the one the chart ships.
      const mounted = env.ASSETS_FILE ? mkdtempSync(join(tmpdir(), 'mdg-chart-assets-')) : undefined;
      if (mounted) {
        env.ASSETS_FILE = join(mounted, 'assets.json');
        writeFileSync(
          env.ASSETS_FILE,
          manifest.get<IConfigMap>('ConfigMap', `${NAME}-assets`).data!['assets.json'],
        );
      }
      let config;
      try {
        config = loadConfig(env, DATA_FILES);
      } finally {
        if (mounted) rmSync(mounted, { recursive: true, force: true });
      }
      expect(config.ROLE).toBe(environment(container).ROLE);
      expect(config.PORT).toBe(httpPort(container));
      expect(config.REDIS_URL).toMatch(/^rediss?:\/\//);
    }
  });

  it('selects with every Service, budget and policy the pods of its own component alone', () => {
    const manifest = rendered[setName];
    const deployments = manifest.ofKind<IDeployment>('Deployment');
    const selectors = [
      ...manifest
        .ofKind<IService>('Service')
        .map((service) => ({ name: `Service/${service.metadata!.name}`, selector: service.spec!.selector })),
      ...manifest.ofKind<IPodDisruptionBudget>('PodDisruptionBudget').map((budget) => ({
        name: `PodDisruptionBudget/${budget.metadata!.name}`,
        selector: budget.spec!.selector!.matchLabels,
      })),
      ...manifest.ofKind<INetworkPolicy>('NetworkPolicy').map((policy) => ({
        name: `NetworkPolicy/${policy.metadata!.name}`,
        selector: policy.spec!.podSelector.matchLabels,
      })),
    ];
    for (const { name, selector } of selectors) {
      const selected = deployments.filter((deployment) => matches(selector, podLabels(deployment)));
      expect({ name, selected: selected.length }).toEqual({ name, selected: 1 });
    }
  });
});

describe('split mode (defaults)', () => {
  const manifest = () => rendered.defaults;

  it('runs ROLE=api behind the Service and ROLE=ingest with no Service in front of it', () => {
    const api = manifest().deployment(`${NAME}-api`);
    const ingest = manifest().deployment(`${NAME}-ingest`);
    expect(environment(gatewayContainer(api)).ROLE).toBe('api');
    expect(environment(gatewayContainer(ingest)).ROLE).toBe('ingest');
    expect(api.spec!.replicas).toBe(2);
    expect(ingest.spec!.replicas).toBe(2);

    const services = manifest().ofKind<IService>('Service');
    expect(services.map((service) => service.metadata!.name)).toEqual([NAME]);
    const service = services[0];
    expect(matches(service.spec!.selector, podLabels(api))).toBe(true);
    expect(matches(service.spec!.selector, podLabels(ingest))).toBe(false);
    expect(service.spec!.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
  });

  it('keeps REDIS_URL in the chart Secret and reads it from there in both roles', () => {
    const secret = manifest().get<ISecret>('Secret', NAME);
    expect(secret.stringData).toEqual({ REDIS_URL: 'redis://redis.data.svc.cluster.local:6379/0' });
    for (const role of ['api', 'ingest']) {
      const variables = environment(gatewayContainer(manifest().deployment(`${NAME}-${role}`)));
      expect(variables.REDIS_URL).toBe(`secret:${NAME}/REDIS_URL`);
      expect(variables.UPSTREAM_EMAIL).toBeUndefined();
    }
    const config = manifest().get<IConfigMap>('ConfigMap', NAME);
    expect(Object.values(config.data!).join('\n')).not.toContain('redis://');
  });

  it('drains API endpoints before SIGTERM and gives both roles time to shut down', () => {
    const api = manifest().deployment(`${NAME}-api`).spec!.template.spec!;
    const ingest = manifest().deployment(`${NAME}-ingest`).spec!.template.spec!;
    expect(api.containers[0].lifecycle?.preStop?.exec?.command).toEqual(['sleep', '5']);
    expect(api.terminationGracePeriodSeconds).toBeGreaterThan(5 + 10);
    expect(ingest.containers[0].lifecycle).toBeUndefined();
    expect(ingest.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(20);
  });

  it('rolls pods when their settings change', async () => {
    const changed = await helm.template({
      files: ['default-values.yaml'],
      values: { redis: { url: 'redis://other:6379' } },
    });
    expect(changed.ok).toBe(true);
    const checksums = (manifest: RenderedManifest) =>
      manifest.deployment(`${NAME}-api`).spec!.template.metadata!.annotations!;
    const before = checksums(manifest());
    const after = checksums(new RenderedManifest(changed.stdout));
    expect(after['checksum/config']).toBe(before['checksum/config']);
    expect(after['checksum/secret']).not.toBe(before['checksum/secret']);
  });

  it('serves the console and the status page on the API port, to private addresses only', () => {
    expect(manifest().get<IConfigMap>('ConfigMap', NAME).data).toMatchObject({
      CONSOLE_ENABLED: 'true',
      STATUS_PAGE_ENABLED: 'true',
      CONSOLE_ALLOW: 'loopback,uniquelocal',
    });
    expect(manifest().get<IConfigMap>('ConfigMap', NAME).data!.CONSOLE_PORT).toBeUndefined();
  });

  it('turns either page off', async () => {
    const result = await helm.template({
      files: ['default-values.yaml'],
      values: { console: { enabled: false, port: 9090 }, statusPage: { enabled: false } },
    });
    expect(result.ok).toBe(true);
    const off = new RenderedManifest(result.stdout);
    expect(off.get<IConfigMap>('ConfigMap', NAME).data).toMatchObject({
      CONSOLE_ENABLED: 'false',
      STATUS_PAGE_ENABLED: 'false',
    });
    expect(off.ofKind<IService>('Service').map((service) => service.metadata!.name)).toEqual([NAME]);
  });

  it('has no HPA, NetworkPolicy or ServiceMonitor unless asked', () => {
    for (const kind of ['HorizontalPodAutoscaler', 'NetworkPolicy', 'ServiceMonitor']) {
      expect(manifest().ofKind(kind)).toEqual([]);
    }
  });

  it('moves the port everywhere it appears', async () => {
    const result = await helm.template({ files: ['default-values.yaml'], values: { containerPort: 8080 } });
    expect(result.ok).toBe(true);
    const moved = new RenderedManifest(result.stdout);
    expect(moved.get<IConfigMap>('ConfigMap', NAME).data!.PORT).toBe('8080');
    for (const role of ['api', 'ingest']) {
      expect(httpPort(gatewayContainer(moved.deployment(`${NAME}-${role}`)))).toBe(8080);
    }
  });
});

describe('production value set', () => {
  const manifest = () => rendered.production;

  it('reads REDIS_URL and the exchange login from the existing Secret and creates none; the API never sees the login', () => {
    expect(manifest().ofKind('Secret')).toEqual([]);
    const ingest = gatewayContainer(manifest().deployment(`${NAME}-ingest`));
    const api = gatewayContainer(manifest().deployment(`${NAME}-api`));
    const credentials = 'market-data-gateway-credentials';
    expect(environment(ingest)).toEqual(
      expect.objectContaining({
        REDIS_URL: `secret:${credentials}/REDIS_URL`,
        UPSTREAM_EMAIL: `secret:${credentials}/UPSTREAM_EMAIL`,
        UPSTREAM_PASSWORD: `secret:${credentials}/UPSTREAM_PASSWORD`,
      }),
    );
    expect(environment(api)).toEqual({
      ROLE: 'api',
      NODE_OPTIONS: '--max-old-space-size=384 --max-semi-space-size=16',
      REDIS_URL: `secret:${credentials}/REDIS_URL`,
    });
    const redisUrl = api.env!.find((variable) => variable.name === 'REDIS_URL')!;
    expect(redisUrl.valueFrom!.secretKeyRef!.optional).toBeUndefined();
  });

  it('autoscales the API Deployment, which then leaves its replica count to the HPA', () => {
    const api = manifest().deployment(`${NAME}-api`);
    expect(api.spec!.replicas).toBeUndefined();
    const hpa = manifest().get<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler', `${NAME}-api`);
    expect(hpa.spec!.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: `${NAME}-api`,
    });
    expect([hpa.spec!.minReplicas, hpa.spec!.maxReplicas]).toEqual([3, 12]);
    expect(
      hpa.spec!.metrics!.map((metric) => [metric.resource!.name, metric.resource!.target.averageUtilization]),
    ).toEqual([
      ['cpu', 60],
      ['memory', 80],
    ]);
    const budget = manifest().get<IPodDisruptionBudget>('PodDisruptionBudget', `${NAME}-api`);
    expect(budget.spec).toEqual(expect.objectContaining({ minAvailable: 2 }));
    expect(budget.spec!.maxUnavailable).toBeUndefined();
    expect(manifest().deployment(`${NAME}-ingest`).spec!.replicas).toBe(3);
  });

  it('pins the image by digest', () => {
    for (const role of ['api', 'ingest']) {
      expect(gatewayContainer(manifest().deployment(`${NAME}-${role}`)).image).toBe(
        'registry.example.com/market-data-gateway@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      );
    }
  });

  it('lets the API take traffic only from the ingress controller and the ingest pods only from monitoring', () => {
    const api = manifest().get<INetworkPolicy>('NetworkPolicy', `${NAME}-api`).spec!;
    const ingest = manifest().get<INetworkPolicy>('NetworkPolicy', `${NAME}-ingest`).spec!;
    const namespace = (name: string) => [
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } },
    ];
    expect(api.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(api.ingress).toEqual([
      { ports: [{ port: 'http', protocol: 'TCP' }], from: namespace('ingress-nginx') },
      { ports: [{ port: 'console', protocol: 'TCP' }], from: [{ ipBlock: { cidr: '10.8.0.0/16' } }] },
    ]);
    expect(ingest.ingress).toEqual([
      { ports: [{ port: 'http', protocol: 'TCP' }], from: namespace('monitoring') },
    ]);
  });

  it("serves the console on the API pods' own console port, behind a Service of its own", () => {
    const api = gatewayContainer(manifest().deployment(`${NAME}-api`));
    const ingest = gatewayContainer(manifest().deployment(`${NAME}-ingest`));
    expect(api.ports).toContainEqual({ name: 'console', containerPort: 9090, protocol: 'TCP' });
    expect(ingest.ports!.map((port) => port.name)).toEqual(['http']);
    const config = manifest().get<IConfigMap>('ConfigMap', NAME).data!;
    expect(config).toMatchObject({
      CONSOLE_ENABLED: 'true',
      CONSOLE_PORT: '9090',
      CONSOLE_ALLOW: '10.8.0.0/16',
    });
    const service = manifest().get<IService>('Service', `${NAME}-console`);
    expect(service.spec!.type).toBe('ClusterIP');
    expect(service.spec!.ports).toEqual([
      { name: 'console', port: 8080, targetPort: 'console', protocol: 'TCP' },
    ]);
    expect(
      manifest()
        .get<IService>('Service', NAME)
        .spec!.ports!.map((port) => port.name),
    ).toEqual(['http']);
  });

  it('lets gateway pods reach DNS and Redis, and only ingest pods the exchange', () => {
    const egressPorts = (name: string) =>
      manifest()
        .get<INetworkPolicy>('NetworkPolicy', name)
        .spec!.egress!.map((rule) => ({
          ports: rule.ports!.map((port) => `${port.port}/${port.protocol}`),
          to: rule.to,
        }));
    const dns = { ports: ['53/UDP', '53/TCP'], to: undefined };
    const redis = { ports: ['6380/TCP'], to: [{ ipBlock: { cidr: '10.20.0.0/16' } }] };
    expect(egressPorts(`${NAME}-api`)).toEqual([dns, redis]);
    expect(egressPorts(`${NAME}-ingest`)).toEqual([dns, redis, { ports: ['443/TCP'], to: undefined }]);
  });

  it('has Prometheus scrape /metrics of the API and ingest pods through one ServiceMonitor', () => {
    const monitor = manifest().get<IServiceMonitor>('ServiceMonitor', NAME);
    expect(monitor.metadata!.labels).toEqual(expect.objectContaining({ release: 'kube-prometheus-stack' }));
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['markets'] });
    expect(monitor.spec.endpoints).toEqual([
      expect.objectContaining({ port: 'http', path: '/metrics', interval: '15s' }),
    ]);
    const selector = monitor.spec.selector;
    const [expression] = selector.matchExpressions!;
    const scraped = manifest()
      .ofKind<IService>('Service')
      .filter(
        (service) =>
          matches(selector.matchLabels, service.metadata!.labels) &&
          expression.values!.includes(service.metadata!.labels![expression.key]),
      );
    expect(scraped.map((service) => service.metadata!.name).sort()).toEqual([NAME, `${NAME}-ingest-metrics`]);
    for (const service of scraped) {
      expect(service.spec!.ports!.map((port) => port.name)).toContain('http');
    }
    const ingestMetrics = manifest().get<IService>('Service', `${NAME}-ingest-metrics`);
    expect(ingestMetrics.spec!.clusterIP).toBe('None');
    expect(matches(ingestMetrics.spec!.selector, podLabels(manifest().deployment(`${NAME}-ingest`)))).toBe(
      true,
    );
  });

  it('ships the assets file with its decimals as written, where ASSETS_FILE points', () => {
    const config = manifest().get<IConfigMap>('ConfigMap', NAME).data!;
    const assetsFile = manifest().get<IConfigMap>('ConfigMap', `${NAME}-assets`).data!['assets.json'];
    expect(Object.keys(config)).not.toContain('assets.json');
    expect(JSON.parse(assetsFile)).toEqual({
      BTC: {
        name: 'Bitcoin',
        unified_cryptoasset_id: 1,
        can_withdraw: true,
        can_deposit: true,
        min_withdraw: '0.0005',
        max_withdraw: '50',
        maker_fee: '0.001',
        taker_fee: '0.002',
      },
      usdt: { name: 'Tether USD', min_withdraw: '10' },
    });
    expect(config).toEqual(
      expect.objectContaining({
        ASSETS_FILE: '/etc/market-data-gateway/assets.json',
        UPSTREAM_BASE_URL: 'https://exchange.example.com/trading',
        UPSTREAM_WS_URL: 'wss://exchange.example.com',
        REDIS_PREFIX: 'mdg-prod',
        LOG_LEVEL: 'warn',
        CORS_ORIGINS: 'https://status.example.com',
        USD_REFERENCE_ASSETS: 'USDT,USDC',
      }),
    );
    const ingest = manifest().deployment(`${NAME}-ingest`).spec!.template.spec!;
    const mount = ingest.containers[0].volumeMounts!.find((candidate) => candidate.name === 'assets')!;
    expect(mount).toEqual({ name: 'assets', mountPath: '/etc/market-data-gateway', readOnly: true });
    expect(parseAssetsFile(assetsFile).get('BTC')).toEqual(
      expect.objectContaining({
        name: 'Bitcoin',
        unifiedCryptoassetId: 1,
        minWithdraw: '0.0005',
        maxWithdraw: '50',
        makerFee: '0.001',
      }),
    );
    expect(ingest.volumes!.find((volume) => volume.name === 'assets')!.configMap).toEqual({
      name: `${NAME}-assets`,
      items: [{ key: 'assets.json', path: 'assets.json' }],
    });
  });
});

describe('trial value set', () => {
  const manifest = () => rendered.trial;

  it('bundles a single-node Redis without persistence that the gateway pods reach by its Service', () => {
    const redis = manifest().deployment(`${NAME}-redis`);
    expect(redis.spec!.replicas).toBe(1);
    const container = redis.spec!.template.spec!.containers[0];
    expect(container.command).toEqual(expect.arrayContaining(['--save', '', '--appendonly', 'no']));
    expect(container.securityContext!.runAsUser).toBe(999);
    const service = manifest().get<IService>('Service', `${NAME}-redis`);
    expect(matches(service.spec!.selector, podLabels(redis))).toBe(true);
    expect(service.spec!.ports![0].port).toBe(6379);
    const config = manifest().get<IConfigMap>('ConfigMap', NAME).data!;
    expect(config.REDIS_URL).toBe(`redis://${NAME}-redis:6379`);
    expect(config.UPSTREAM_BASE_URL).toBeUndefined();
    for (const role of ['api', 'ingest']) {
      expect(
        environment(gatewayContainer(manifest().deployment(`${NAME}-${role}`))).REDIS_URL,
      ).toBeUndefined();
    }
    expect(manifest().ofKind('Secret')).toEqual([]);
  });

  it('leaves out the budgets that were turned off', () => {
    expect(manifest().ofKind('PodDisruptionBudget')).toEqual([]);
  });

  it('runs the sandbox in the ingest pods alone, which asked for it', () => {
    expect(manifest().get<IConfigMap>('ConfigMap', NAME).data!.SANDBOX).toBeUndefined();
    expect(environment(gatewayContainer(manifest().deployment(`${NAME}-ingest`))).SANDBOX).toBe('true');
    expect(environment(gatewayContainer(manifest().deployment(`${NAME}-api`))).SANDBOX).toBeUndefined();
  });
});

describe('recordings', () => {
  const RECORDINGS = '/var/lib/market-data-gateway/recordings';

  async function render(values: Record<string, unknown>): Promise<RenderedManifest> {
    const result = await helm.template({ files: ['default-values.yaml'], values });
    expect([result.ok, result.stderr]).toEqual([true, '']);
    return new RenderedManifest(result.stdout);
  }

  it('are off by default: no claim, no RECORD_DIR', () => {
    expect(rendered.defaults.ofKind('PersistentVolumeClaim')).toEqual([]);
    for (const role of ['api', 'ingest'])
      expect(
        environment(gatewayContainer(rendered.defaults.deployment(`${NAME}-${role}`))).RECORD_DIR,
      ).toBeUndefined();
  });

  it('on, give the ingest pods a claim, each a directory of its pod name on it, and leave the API pods out', async () => {
    const on = await render({
      recording: { enabled: true, size: '50Gi', storageClass: 'fast', retentionHours: 48 },
    });
    const claim = on.get<IPersistentVolumeClaim>('PersistentVolumeClaim', `${NAME}-recordings`);
    expect(claim.spec).toMatchObject({
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'fast',
      resources: { requests: { storage: '50Gi' } },
    });
    const ingest = on.deployment(`${NAME}-ingest`);
    expect(environment(gatewayContainer(ingest))).toMatchObject({
      RECORD_DIR: RECORDINGS,
      RECORD_RETENTION_HOURS: '48',
      RECORD_MAX_MB: '9216',
    });
    expect(gatewayContainer(ingest).volumeMounts).toContainEqual({
      name: 'recordings',
      mountPath: RECORDINGS,
      subPathExpr: '$(POD_NAME)',
    });
    expect(ingest.spec!.template.spec!.volumes).toContainEqual({
      name: 'recordings',
      persistentVolumeClaim: { claimName: `${NAME}-recordings` },
    });
    const api = on.deployment(`${NAME}-api`);
    expect(environment(gatewayContainer(api)).RECORD_DIR).toBeUndefined();
    expect(api.spec!.template.spec!.volumes!.map((volume) => volume.name)).not.toContain('recordings');
  });

  it('on a claim of your own create none, and record in the combined pods too', async () => {
    const own = await render({
      mode: 'combined',
      recording: { enabled: true, existingClaim: 'kept-recordings' },
    });
    expect(own.ofKind('PersistentVolumeClaim')).toEqual([]);
    const all = own.deployment(`${NAME}-all`);
    expect(environment(gatewayContainer(all)).RECORD_DIR).toBe(RECORDINGS);
    expect(all.spec!.template.spec!.volumes).toContainEqual({
      name: 'recordings',
      persistentVolumeClaim: { claimName: 'kept-recordings' },
    });
  });
});

describe('combined value set', () => {
  const manifest = () => rendered.combined;

  it('runs one ROLE=all Deployment behind the Service, with the exchange login, and no ingest Deployment', () => {
    const deployments = manifest()
      .ofKind<IDeployment>('Deployment')
      .map((deployment) => deployment.metadata!.name);
    expect(deployments.sort()).toEqual([`${NAME}-all`, `${NAME}-redis`]);
    const all = manifest().deployment(`${NAME}-all`);
    expect(environment(gatewayContainer(all))).toEqual({
      ROLE: 'all',
      NODE_OPTIONS: '--max-old-space-size=256 --max-semi-space-size=16',
      UPSTREAM_EMAIL: `secret:${NAME}/UPSTREAM_EMAIL`,
      UPSTREAM_PASSWORD: `secret:${NAME}/UPSTREAM_PASSWORD`,
    });
    expect(manifest().get<ISecret>('Secret', NAME).stringData).toEqual({
      UPSTREAM_EMAIL: 'gateway@example.com',
      UPSTREAM_PASSWORD: 'not-a-real-password',
    });
    expect(matches(manifest().get<IService>('Service', NAME).spec!.selector, podLabels(all))).toBe(true);
    const hpa = manifest().get<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler', `${NAME}-all`);
    expect(hpa.spec!.scaleTargetRef.name).toBe(`${NAME}-all`);
  });

  it('lets only the gateway pods reach the bundled Redis, which reaches nothing', () => {
    const policy = manifest().get<INetworkPolicy>('NetworkPolicy', `${NAME}-redis`).spec!;
    expect(policy.egress).toEqual([]);
    const [rule] = policy.ingress!;
    expect(rule.ports).toEqual([{ port: 6379, protocol: 'TCP' }]);
    const [peer] = rule.from!;
    const allowed = manifest()
      .ofKind<IDeployment>('Deployment')
      .filter((deployment) => {
        const labels = podLabels(deployment);
        const expression = peer.podSelector!.matchExpressions![0];
        return (
          matches(peer.podSelector!.matchLabels, labels) &&
          expression.values!.includes(labels[expression.key])
        );
      });
    expect(allowed.map((deployment) => deployment.metadata!.name)).toEqual([`${NAME}-all`]);
    const gateway = manifest().get<INetworkPolicy>('NetworkPolicy', `${NAME}-all`).spec!;
    expect(gateway.egress).toContainEqual({
      to: [
        { podSelector: { matchLabels: manifest().get<IService>('Service', `${NAME}-redis`).spec!.selector } },
      ],
      ports: [{ port: 6379, protocol: 'TCP' }],
    });
  });
});

describe('sentinel value set', () => {
  const manifest = () => rendered.sentinel;

  it('names the Sentinels and the primary in the ConfigMap, and keeps both passwords in the Secret', () => {
    const config = manifest().get<IConfigMap>('ConfigMap', NAME);
    expect(config.data).toMatchObject({
      REDIS_CLUSTER: 'false',
      REDIS_SENTINELS: [0, 1, 2]
        .map((node) => `redis-node-${node}.redis-headless.data.svc.cluster.local:26379`)
        .join(','),
      REDIS_SENTINEL_NAME: 'mymaster',
    });
    const secret = manifest().get<ISecret>('Secret', NAME);
    expect(secret.stringData).toEqual({
      REDIS_URL: 'redis://:data-password@mymaster/0',
      REDIS_SENTINEL_PASSWORD: 'sentinel-password',
    });
    for (const role of ['api', 'ingest']) {
      const variables = environment(gatewayContainer(manifest().deployment(`${NAME}-${role}`)));
      expect(variables.REDIS_SENTINEL_PASSWORD).toBe(`secret:${NAME}/REDIS_SENTINEL_PASSWORD`);
    }
  });

  it('lets gateway pods reach the Sentinels as well as the data nodes', () => {
    const policy = manifest().get<INetworkPolicy>('NetworkPolicy', `${NAME}-api`);
    const ports = policy.spec!.egress!.flatMap((rule) => rule.ports!.map((port) => port.port));
    expect(ports).toEqual(expect.arrayContaining([6379, 26379]));
  });

  it('reads the Sentinel password from an existing Secret, where it may be missing', async () => {
    const result = await helm.template({
      files: ['sentinel-values.yaml'],
      values: { existingSecret: 'credentials', redis: { url: '', sentinel: { password: '' } } },
    });
    expect(result.ok).toBe(true);
    const ingest = gatewayContainer(new RenderedManifest(result.stdout).deployment(`${NAME}-ingest`));
    const password = ingest.env!.find((variable) => variable.name === 'REDIS_SENTINEL_PASSWORD')!;
    expect(password.valueFrom!.secretKeyRef).toEqual({
      name: 'credentials',
      key: 'REDIS_SENTINEL_PASSWORD',
      optional: true,
    });
  });
});

describe('Sentinels in front of data nodes without a password', () => {
  it('needs no redis.url: no REDIS_URL and no Secret', async () => {
    const result = await helm.template({
      files: ['sentinel-values.yaml'],
      values: { redis: { url: '', sentinel: { password: '' } } },
    });
    expect(result.ok).toBe(true);
    const manifest = new RenderedManifest(result.stdout);
    expect(manifest.ofKind('Secret')).toEqual([]);
    for (const role of ['api', 'ingest']) {
      const env = {
        ...manifest.get<IConfigMap>('ConfigMap', NAME).data!,
        ...environment(gatewayContainer(manifest.deployment(`${NAME}-${role}`))),
      };
      expect(env.REDIS_URL).toBeUndefined();
      expect(env.REDIS_SENTINELS).toMatch(/:26379/);
      const config = loadConfig(env, DATA_FILES);
      expect(config.REDIS_SENTINELS).toBe(env.REDIS_SENTINELS);
    }
  });
});

describe('NOTES.txt', () => {
  it('warns about the bundled Redis and the in-process sandbox of a trial', async () => {
    const result = await helm.exec([
      'install',
      'demo',
      `${__dirname}/../../helm/market-data-gateway`,
      '--dry-run=client',
      '--namespace',
      'markets',
      '-f',
      `${__dirname}/../../helm/market-data-gateway/ci/trial-values.yaml`,
    ]);
    expect(result.ok).toBe(true);
    const notes = result.stdout.slice(result.stdout.indexOf('NOTES:'));
    expect(notes).toContain(`port-forward service/${NAME} 8080:80`);
    expect(notes).toContain('WARNING: the bundled Redis');
    expect(notes).toContain('WARNING: sandbox.enabled is on');
    expect(notes).toContain('built-in sandbox exchange');
  });
});

describe('invalid values', () => {
  const defaults = ['default-values.yaml'];
  // Schema violations fail both; the cross-field checks in the templates fail `helm template` (and so
  // install and upgrade), as helm lint lets template failures through.
  const cases: [string, ValueSet, RegExp][] = [
    ['no Redis at all (the defaults alone)', {}, /\/redis\/url': minLength/],
    [
      'the sandbox switch set by extraEnv',
      { files: defaults, values: { config: { extraEnv: { SANDBOX: 'true' } } } },
      /\/config\/extraEnv\/SANDBOX'/,
    ],
    [
      'a negative replica count',
      { files: defaults, values: { api: { replicaCount: -1 } } },
      /\/api\/replicaCount': minimum/,
    ],
    [
      'an unknown mode (role)',
      { files: defaults, values: { mode: 'sandbox' } },
      /\/mode': value must be one of 'split', 'combined'/,
    ],
    [
      'a port given as text',
      { files: defaults, values: { containerPort: '3000' } },
      /\/containerPort': got string, want integer/,
    ],
    [
      'a flag given as text',
      { files: defaults, values: { api: { autoscaling: { enabled: 'true' } } } },
      /\/api\/autoscaling\/enabled': got string, want boolean/,
    ],
    [
      'a Redis URL of another scheme',
      { files: defaults, values: { redis: { url: 'http://redis:6379' } } },
      /\/redis\/url'/,
    ],
    [
      'a Redis URL beside an existing Secret',
      { files: defaults, values: { existingSecret: 'credentials' } },
      /\/redis\/url': maxLength/,
    ],
    [
      'an email without a password',
      { files: defaults, values: { upstream: { email: 'a@example.com' } } },
      /\/upstream\/password': minLength/,
    ],
    [
      'a setting the chart owns, in extraEnv',
      { files: defaults, values: { config: { extraEnv: { ROLE: 'all' } } } },
      /\/config\/extraEnv\/ROLE'/,
    ],
    [
      'a variable that is no longer a setting, in extraEnv',
      { files: defaults, values: { config: { extraEnv: { FLUSH_INTERVAL_MS: 100 } } } },
      /\/config\/extraEnv\/FLUSH_INTERVAL_MS'/,
    ],
    [
      'a value the chart no longer has',
      { files: defaults, values: { config: { leaseTtlMs: 10_000 } } },
      /\/config'.*leaseTtlMs/,
    ],
    [
      'an asset decimal given as a number',
      { files: defaults, values: { assets: { BTC: { min_withdraw: 0.1 } } } },
      /\/assets\/BTC\/min_withdraw'/,
    ],
    [
      'an unknown asset field',
      { files: defaults, values: { assets: { BTC: { min_withdrawal: '1' } } } },
      /\/assets\/BTC'.*additional properties 'min_withdrawal'/,
    ],
    [
      'a misspelt top-level key',
      { files: defaults, values: { replicas: 3 } },
      /additional properties 'replicas'/,
    ],
    ['a root user', { files: defaults, values: { runAsUser: 0 } }, /\/runAsUser': minimum/],
    [
      'a console setting in extraEnv, which the chart sets from console',
      { files: defaults, values: { config: { extraEnv: { CONSOLE_PORT: 9090 } } } },
      /\/config\/extraEnv\/CONSOLE_PORT'/,
    ],
    [
      'an empty console allow-list',
      { files: defaults, values: { console: { allow: '' } } },
      /\/console\/allow': minLength/,
    ],
    [
      'Sentinels in front of a Redis Cluster',
      { files: ['sentinel-values.yaml'], values: { redis: { cluster: true } } },
      /\/redis\/cluster': value must be false/,
    ],
    [
      'Sentinels beside the bundled Redis',
      { files: ['sentinel-values.yaml'], values: { redis: { bundled: { enabled: true } } } },
      /\/redis\/bundled\/enabled': value must be false/,
    ],
    [
      'a Sentinel without its port',
      { files: defaults, values: { redis: { sentinel: { nodes: ['sentinel-0'] } } } },
      /\/redis\/sentinel\/nodes\/0'/,
    ],
    [
      'a Sentinel password without Sentinels',
      { files: defaults, values: { redis: { sentinel: { password: 'secret' } } } },
      /\/redis\/sentinel\/nodes': minItems/,
    ],
    [
      'a Sentinel setting the chart owns, in extraEnv',
      { files: defaults, values: { config: { extraEnv: { REDIS_SENTINELS: 's:26379' } } } },
      /\/config\/extraEnv\/REDIS_SENTINELS'/,
    ],
  ];

  it.each(cases)(
    'rejects %s in helm template and helm lint, naming the value',
    async (_case, set, message) => {
      const [template, lint] = await Promise.all([helm.template(set), helm.lint(set)]);
      expect(template.ok).toBe(false);
      expect(template.stderr).toMatch(message);
      expect(lint.ok).toBe(false);
      expect(lint.stdout + lint.stderr).toMatch(message);
    },
  );

  it('refuses in extraEnv every variable the gateway no longer reads', () => {
    const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as {
      properties: { config: { properties: { extraEnv: { properties: Record<string, unknown> } } } };
    };
    const refused = schema.properties.config.properties.extraEnv.properties;
    expect(REMOVED_SETTINGS.filter((key) => !(key in refused))).toEqual([]);
  });

  it('refuses to render without upstream.baseUrl unless sandbox.enabled, naming both values', async () => {
    const result = await helm.template({ files: defaults, values: { upstream: { baseUrl: '' } } });
    expect(result.ok).toBe(false);
    expect(result.stderr).toContain(
      "upstream.baseUrl is empty: set it to the exchange's address, or sandbox.enabled: true for a trial on the built-in sandbox exchange (simulated prices)",
    );
    const trial = await helm.template({
      files: defaults,
      values: { upstream: { baseUrl: '' }, sandbox: { enabled: true } },
    });
    expect(trial.ok).toBe(true);
  });

  it('refuses upstream.baseUrl beside sandbox.enabled, naming both values', async () => {
    const result = await helm.template({ files: defaults, values: { sandbox: { enabled: true } } });
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/upstream\.baseUrl and sandbox\.enabled: set one or the other/);
  });

  it("rejects a console port that is the API's in helm template, naming both values", async () => {
    const result = await helm.template({ files: defaults, values: { console: { port: 3000 } } });
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/console\.port \(3000\) must differ from containerPort \(3000\)/);
  });

  it('rejects an autoscaler whose maximum is below its minimum in helm template, naming both values', async () => {
    const result = await helm.template({
      files: defaults,
      values: { api: { autoscaling: { enabled: true, minReplicas: 3, maxReplicas: 2 } } },
    });
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(
      /api\.autoscaling\.maxReplicas \(2\) must be at least api\.autoscaling\.minReplicas \(3\)/,
    );
  });
});
