import { GatewayInstrument } from '../../market/gateway-records';
import { FieldError, JsonFields } from '../json-fields';
import { ExactJson } from '../exact-json';
import { pascalCaseFields, payloadArray, PayloadProblems } from './payload-values';

/** The gateway's trading-session states; older gateways send the index instead of the name. */
const SESSION_STATUSES = ['Unknown', 'Running', 'Paused', 'Stopped', 'Starting'] as const;

function sessionStatus(fields: JsonFields): string {
  if (!fields.has('SessionStatus')) return 'Unknown';
  const value = fields.raw('SessionStatus');
  if (typeof value === 'string') {
    const byName = SESSION_STATUSES.find((name) => name.toLowerCase() === value.trim().toLowerCase());
    if (byName) return byName;
    if (/^\d+$/.test(value) && Number(value) < SESSION_STATUSES.length)
      return SESSION_STATUSES[Number(value)];
  }
  throw new FieldError(fields.at('SessionStatus'), `one of ${SESSION_STATUSES.join(', ')} or 0-4`, value);
}

/**
 * Decodes the GetInstruments reply. Keys may be PascalCase or camelCase and `SessionStatus` a name or
 * its number; a missing status is `Unknown`. Any instrument that cannot be read rejects the whole
 * reply, with every problem listed.
 */
export function decodeInstruments(payload: ExactJson): GatewayInstrument[] {
  const problems = new PayloadProblems('GetInstruments reply');
  const instruments: GatewayInstrument[] = [];
  payloadArray(payload, 'GetInstruments reply').forEach((entry, index) => {
    const instrument = problems.read((): GatewayInstrument => {
      const fields = pascalCaseFields(entry, `[${index}]`);
      return {
        instrumentId: fields.integer('InstrumentId', 0, Number.MAX_SAFE_INTEGER),
        symbol: fields.string('Symbol').trim(),
        baseSymbol: fields.string('Product1Symbol').trim(),
        quoteSymbol: fields.string('Product2Symbol').trim(),
        sessionStatus: sessionStatus(fields),
      };
    });
    if (instrument) instruments.push(instrument);
  });
  problems.throwIfAny();
  return instruments;
}
