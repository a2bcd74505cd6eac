import { schemas } from '@asyncapi/specs';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Ref = { $ref: string };
type Message = { name: string; payload: object };
type Operation = { action: 'send' | 'receive'; messages: Ref[] };
export type AsyncApiDocument = {
  asyncapi: string;
  operations: Record<string, Operation>;
} & Record<string, unknown>;

/**
 * `document` checked against the AsyncAPI 3.0 specification's own JSON Schema. The schema bundles
 * its own copy of the draft-07 meta-schema, so Ajv's is left out to keep the `$id`s unique.
 */
export function asyncApiProblems(document: object): ErrorObject[] {
  const ajv = new Ajv({ allErrors: true, strict: false, meta: false, validateSchema: false });
  addFormats(ajv);
  const validate = ajv.compile(schemas['3.0.0']);
  return validate(document) ? [] : (validate.errors ?? []);
}

/** The value `ref` (a local JSON pointer, `#/a/b`) names in `document`. */
function resolve(document: object, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], document);
}

/** Follows `$ref`s until a value that is not one. */
function dereference(document: object, value: unknown): unknown {
  let current = value;
  for (let hops = 0; typeof current === 'object' && current !== null && '$ref' in current; hops++) {
    if (hops > 10) throw new Error('a reference cycle');
    current = resolve(document, (current as Ref).$ref);
  }
  return current;
}

/** The messages of the document's operations of one action, with validators of their payloads. */
export class StreamContract {
  private readonly byAction: Record<'send' | 'receive', { name: string; validate: ValidateFunction }[]>;

  constructor(document: AsyncApiDocument) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    addFormats(ajv);
    this.byAction = { send: [], receive: [] };
    for (const operation of Object.values(document.operations)) {
      for (const ref of operation.messages) {
        const message = dereference(document, ref) as Message;
        this.byAction[operation.action].push({ name: message.name, validate: ajv.compile(message.payload) });
      }
    }
  }

  /** Names of the messages of `action` operations. */
  names(action: 'send' | 'receive'): string[] {
    return this.byAction[action].map((message) => message.name);
  }

  /** Names of the messages of `action` operations whose payload `frame` matches. */
  matches(action: 'send' | 'receive', frame: unknown): string[] {
    return this.byAction[action].filter((message) => message.validate(frame)).map((message) => message.name);
  }

  /** Why `frame` does not match the message `name`, for a failure's message. */
  problems(action: 'send' | 'receive', name: string, frame: unknown): string[] {
    const message = this.byAction[action].find((candidate) => candidate.name === name);
    if (!message) return [`no message ${name}`];
    return message.validate(frame)
      ? []
      : (message.validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  }
}
