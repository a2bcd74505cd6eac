import { hostname } from 'node:os';
import { AppConfig } from './app-config';

/** This process's name among the ingest replicas: INSTANCE_ID, or host name and process id. */
export function instanceId(config: AppConfig): string {
  return config.INSTANCE_ID ?? `${hostname()}-${process.pid}`;
}
