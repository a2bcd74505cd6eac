import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rawRequest, rawResponse } from '../support/raw-http';
import { ResponseContract } from '../support/response-contract';
import { servedRoutes } from '../support/served-routes';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { validateOpenApi } from '../support/validate-openapi';

/** Every schema within `schema` (itself included) that carries an example. */
function withExamples(schema: Record<string, unknown>, at: string): [string, Record<string, unknown>][] {
  const found: [string, Record<string, unknown>][] = schema.examples === undefined ? [] : [[at, schema]];
  const inner = (value: unknown, name: string) =>
    typeof value === 'object' && value !== null
      ? withExamples(value as Record<string, unknown>, `${at}.${name}`)
      : [];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as object))
    found.push(...inner(property, name));
  for (const key of ['items', 'additionalProperties', 'not']) found.push(...inner(schema[key], key));
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const [index, option] of ((schema[key] ?? []) as unknown[]).entries())
      found.push(...inner(option, `${key}[${index}]`));
  return found;
}

/** Paths the API serves for itself: the OpenAPI page and its assets. */
const DOCS = /^\/docs($|[-/*])/;
/** The operator console and the status page are pages for people, not part of the API the document describes. */
const PAGES = /^\/(console|status)($|\/)/;
/** The live stream's websocket: its GET route only answers a request without the upgrade; AsyncAPI describes it. */
const STREAM = /^\/stream$/;

describe('the OpenAPI document', () => {
  let stack: TestStack;
  let document: OpenAPIObject;

  beforeAll(async () => {
    stack = await startTestStack({ redis: false, credentials: false });
    const response = await fetch(`${stack.app.url}/docs-json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as OpenAPIObject;
  });
  afterAll(() => stack.close());

  it('is a valid OpenAPI document', async () => {
    const result = await validateOpenApi(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("carries package.json's version", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(document.info.version).toBe(manifest.version);
  });

  it('documents every GET route the API serves, and serves every documented path', () => {
    const served = servedRoutes(stack.app.app).filter(
      (path) => !DOCS.test(path) && !PAGES.test(path) && !STREAM.test(path),
    );
    expect(served.length).toBeGreaterThan(0);
    expect(Object.keys(document.paths).sort()).toEqual([...new Set(served)].sort());
    for (const item of Object.values(document.paths)) expect(Object.keys(item)).toEqual(['get']);
  });

  it('documents a schema for every answer with a body', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [status, response] of Object.entries(item.get!.responses)) {
        if (status === '304' || response === undefined || '$ref' in response) continue;
        const content = Object.values(response.content ?? {});
        expect({ path, status, schemas: content.length }).toEqual({ path, status, schemas: 1 });
        expect(content[0].schema).toBeDefined();
      }
    }
  });

  it('gives examples that match their own schemas', () => {
    const contract = new ResponseContract(document);
    const broken: Record<string, string[]> = {};
    for (const [name, schema] of Object.entries(document.components!.schemas!)) {
      for (const [at, part] of withExamples(schema as Record<string, unknown>, name)) {
        for (const [index, example] of (part.examples as unknown[]).entries()) {
          const problems = contract.schemaProblems(part, example);
          if (problems.length > 0) broken[`${at}.examples[${index}]`] = problems;
        }
      }
    }
    expect(broken).toEqual({});
  });

  it('documents the 413 and the 414 every path answers, as they are answered', async () => {
    const contract = new ResponseContract(document);
    const paths = Object.keys(document.paths).filter((path) => !path.includes('{'));
    expect(paths.length).toBeGreaterThan(0);
    const broken: Record<string, string[]> = {};
    for (const path of paths) {
      const requests = {
        413: `GET ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2000\r\n\r\n`,
        414: `GET ${path}?pad=${'p'.repeat(9_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      };
      for (const [status, request] of Object.entries(requests)) {
        const answer = rawResponse((await rawRequest(stack.app.url, request)).text);
        const problems = contract.problems(path, {
          status: answer.status,
          headers: new Headers(answer.headers),
          text: answer.body,
        });
        if (answer.status !== Number(status)) problems.push(`answered ${answer.status}`);
        if (problems.length > 0) broken[`${status} ${path}`] = problems;
      }
    }
    expect(broken).toEqual({});
  });

  it('serves the browsable page at /docs', async () => {
    const response = await fetch(`${stack.app.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
  });
});
