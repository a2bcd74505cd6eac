import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

const COMPONENTS = 'components';

/** `#/components/schemas/X` as a reference into the schema registered under COMPONENTS. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string'
        ? [key, inner.replace('#/components/schemas/', `${COMPONENTS}#/definitions/`)]
        : [key, rewriteRefs(inner)],
    ),
  );
}

export interface ContractResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * Checks live responses against the OpenAPI 3.1 document: the status is documented for the
 * operation, the content type is the documented one, the body matches the schema (ajv, with the
 * document's components, which are the wire schemas as plain JSON Schema), and the documented headers are there when
 * required and match their schemas when present. Returns the problems found, none when the response keeps the contract.
 */
export class ResponseContract {
  private readonly ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
  private readonly compiled = new Map<object, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
    this.ajv.addVocabulary(['example']);
    this.ajv.addSchema({ $id: COMPONENTS, definitions: rewriteRefs(document.components?.schemas ?? {}) });
  }

  /** The response object documented for `status`, its `$ref` resolved. */
  private documented(path: string, status: number): Json | undefined {
    const responses = this.document.paths[path]?.get?.responses as Record<string, Json> | undefined;
    const response = responses?.[String(status)];
    if (response === undefined) return undefined;
    const ref = response.$ref;
    if (typeof ref !== 'string') return response;
    return this.document.components?.responses?.[ref.split('/').pop()!] as unknown as Json;
  }

  private validator(schema: object): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema) as object);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  private header(ref: unknown): Json {
    const name = (ref as { $ref?: string }).$ref?.split('/').pop();
    return (name ? this.document.components?.headers?.[name] : ref) as Json;
  }

  problems(path: string, response: ContractResponse): string[] {
    const documented = this.documented(path, response.status);
    if (!documented) return [`${response.status} is not documented for ${path}`];
    const problems: string[] = [];
    for (const [name, ref] of Object.entries((documented.headers ?? {}) as Json)) {
      const value = response.headers.get(name);
      const header = this.header(ref);
      if (value === null && header.required === true) problems.push(`header ${name} is missing`);
      if (value !== null && !this.validator(header.schema as object)(value))
        problems.push(`header ${name}: ${JSON.stringify(value)} breaks ${JSON.stringify(header.schema)}`);
    }
    const content = documented.content as Record<string, { schema: object }> | undefined;
    if (!content) return response.text === '' ? problems : [...problems, 'a body where none is documented'];
    const contentType = response.headers.get('content-type') ?? '';
    const [mediaType, documentedAs] =
      Object.entries(content).find(([type]) => contentType.startsWith(type.split(';')[0])) ?? [];
    if (!documentedAs)
      return [...problems, `content type ${contentType} is not ${Object.keys(content).join(', ')}`];
    if (!mediaType!.endsWith('json')) return problems;
    return [...problems, ...this.schemaProblems(documentedAs.schema, JSON.parse(response.text))];
  }

  /** How `value` breaks `schema`, a schema object of the document; none when it matches. */
  schemaProblems(schema: object, value: unknown): string[] {
    const validate = this.validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}
