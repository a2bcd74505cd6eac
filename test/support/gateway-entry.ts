import { join } from 'node:path';
import { Tuning } from '../../src/config/tuning';

const ROOT = join(__dirname, '..', '..');

/**
 * The arguments of `node` that start the gateway's build: its own entry point (`dist/main.js`) when
 * the test needs no other tuning, else the test entry that passes `tuning` in.
 */
export function gatewayEntry(tuning?: Partial<Tuning>): string[] {
  if (tuning === undefined || Object.keys(tuning).length === 0) return [join(ROOT, 'dist', 'main.js')];
  return [join(ROOT, 'test', 'support', 'tuned-gateway.js'), JSON.stringify(tuning)];
}
