import { Signal } from '../simulation/signal';
import { FAULT_NAMES, FAULTS, FaultName, isFaultName } from './fault-catalog';

export type FaultParams = Readonly<Record<string, unknown>>;

export interface FaultChange {
  readonly name: FaultName;
  readonly enabled: boolean;
  readonly params: FaultParams;
}

export interface FaultState {
  readonly name: FaultName;
  readonly enabled: boolean;
  readonly description: string;
  readonly params?: FaultParams;
}

export class FaultRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultRequestError';
  }
}

/** Which faults are on, with their parameters; every change is announced to the parts that inject them. */
export class FaultSwitchboard {
  readonly changes = new Signal<FaultChange>();
  private readonly active = new Map<FaultName, FaultParams>();

  constructor(private readonly isKnownInstrument: (instrument: string) => boolean) {}

  set(name: unknown, enabled: unknown, params: FaultParams = {}): FaultState {
    if (!isFaultName(name))
      throw new FaultRequestError(`unknown fault ${JSON.stringify(name)}; known: ${FAULT_NAMES.join(', ')}`);
    if (typeof enabled !== 'boolean') throw new FaultRequestError('"enabled" must be true or false');
    if (enabled) this.validate(name, params);
    const pulse = FAULTS[name].kind === 'pulse';
    if (enabled && !pulse) this.active.set(name, params);
    else this.active.delete(name);
    this.changes.emit({ name, enabled, params });
    return this.state(name);
  }

  /** Switches a fault off from inside the sandbox (e.g. skip-version after its count). */
  clear(name: FaultName): void {
    if (this.active.delete(name)) this.changes.emit({ name, enabled: false, params: {} });
  }

  isOn(name: FaultName): boolean {
    return this.active.has(name);
  }

  params(name: FaultName): FaultParams | undefined {
    return this.active.get(name);
  }

  /** True with the fault's `probability` (default 1) while it is on. */
  fires(name: FaultName, random: () => number = Math.random): boolean {
    const params = this.active.get(name);
    if (!params) return false;
    const probability = typeof params.probability === 'number' ? params.probability : 1;
    return probability >= 1 || random() < probability;
  }

  list(): FaultState[] {
    return FAULT_NAMES.map((name) => this.state(name));
  }

  private state(name: FaultName): FaultState {
    const params = this.active.get(name);
    return {
      name,
      enabled: params !== undefined,
      description: FAULTS[name].description,
      ...(params ? { params } : {}),
    };
  }

  private validate(name: FaultName, params: FaultParams): void {
    const positive = (key: string, required: boolean) => {
      const value = params[key];
      if (value === undefined && !required) return;
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
        throw new FaultRequestError(`${name}: "${key}" must be a positive number`);
      }
    };
    switch (name) {
      case 'halt-market':
      case 'pause-market':
      case 'stop-matching':
        if (typeof params.instrument !== 'string' || !this.isKnownInstrument(params.instrument)) {
          throw new FaultRequestError(`${name}: "instrument" must name a sandbox market`);
        }
        break;
      case 'burst':
        positive('updatesPerSecond', true);
        break;
      case 'skip-version':
        positive('count', false);
        break;
      case 'malformed-frame':
        positive('intervalMs', false);
        break;
      case 'rest-429':
      case 'rest-503': {
        const probability = params.probability;
        if (
          probability !== undefined &&
          (typeof probability !== 'number' || probability < 0 || probability > 1)
        ) {
          throw new FaultRequestError(`${name}: "probability" must be within 0-1`);
        }
        break;
      }
      case 'hub-close':
        if (params.allowReconnect !== undefined && typeof params.allowReconnect !== 'boolean') {
          throw new FaultRequestError('hub-close: "allowReconnect" must be true or false');
        }
        break;
      default:
        break;
    }
  }
}
