import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';

interface Validating {
  validate(): void;
}

/** The model of every kind the chart may render, by `apiVersion/kind`; ServiceMonitor is the Prometheus Operator CRD. */
const MODELS: Record<string, new (data: never) => Validating> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Pod': Pod,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

/**
 * Problems of one rendered object against the Kubernetes schema of its kind (types, required fields,
 * enumerations, formats); an empty list when it is valid. A kind without a model is a problem too, so
 * that a new template cannot go unchecked.
 */
export function schemaProblems(object: { apiVersion?: unknown; kind?: unknown }): string[] {
  const key = `${String(object.apiVersion)}/${String(object.kind)}`;
  const Model = MODELS[key];
  if (!Model) return [`${key}: no schema known for this kind`];
  try {
    new Model(object as never).validate();
    return [];
  } catch (error) {
    return [`${key}: ${(error as Error).message}`];
  }
}
