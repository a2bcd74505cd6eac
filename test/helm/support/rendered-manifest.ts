import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { parseAllDocuments } from 'yaml';

export interface KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly [field: string]: unknown;
}

/** The objects of one `helm template` output, with look-ups by kind and name. */
export class RenderedManifest {
  readonly objects: readonly KubernetesObject[];

  constructor(yamlText: string) {
    const documents = parseAllDocuments(yamlText);
    for (const document of documents) {
      if (document.errors.length > 0)
        throw new Error(`helm rendered invalid YAML: ${document.errors[0].message}`);
    }
    this.objects = documents
      .map((document) => document.toJS() as KubernetesObject | null)
      .filter((object): object is KubernetesObject => object !== null);
  }

  ofKind<T = KubernetesObject>(kind: string): T[] {
    return this.objects.filter((object) => object.kind === kind) as T[];
  }

  get<T = KubernetesObject>(kind: string, name: string): T {
    const found = this.objects.find((object) => object.kind === kind && object.metadata.name === name);
    if (!found) {
      const present = this.objects.map((object) => `${object.kind}/${object.metadata.name}`).join(', ');
      throw new Error(`no ${kind} named ${name}; rendered: ${present}`);
    }
    return found as T;
  }

  has(kind: string, name: string): boolean {
    return this.objects.some((object) => object.kind === kind && object.metadata.name === name);
  }

  deployment(name: string): IDeployment {
    return this.get<IDeployment>('Deployment', name);
  }

  /** The pod specs of every workload: Deployments' templates and bare Pods (the helm test). */
  podSpecs(): { readonly owner: string; readonly spec: IPodSpec }[] {
    const fromDeployments = this.ofKind<IDeployment>('Deployment').map((deployment) => ({
      owner: `Deployment/${deployment.metadata?.name}`,
      spec: deployment.spec!.template.spec!,
    }));
    const fromPods = this.ofKind<{ metadata: { name: string }; spec: IPodSpec }>('Pod').map((pod) => ({
      owner: `Pod/${pod.metadata.name}`,
      spec: pod.spec,
    }));
    return [...fromDeployments, ...fromPods];
  }
}

/** The single container of a gateway Deployment. */
export function gatewayContainer(deployment: IDeployment): IContainer {
  const containers = deployment.spec!.template.spec!.containers;
  expect(containers.map((container) => container.name)).toEqual(['gateway']);
  return containers[0];
}

/** A container's environment as name to literal value, or to `secret:name/key` / `config:name` for references. */
export function environment(container: IContainer): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const variable of container.env ?? []) {
    const secret = variable.valueFrom?.secretKeyRef;
    variables[variable.name] = secret ? `secret:${secret.name}/${secret.key}` : (variable.value ?? '');
  }
  return variables;
}
