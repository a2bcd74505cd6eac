import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { servedRoutes } from '../support/served-routes';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { validateOpenApi } from '../support/validate-openapi';

/** Paths the API serves for itself: the OpenAPI page and its assets. */
const DOCS = /^\/docs($|[-/])/;

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
    const served = servedRoutes(stack.app.app).filter((path) => !DOCS.test(path));
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

  it('serves the browsable page at /docs', async () => {
    const response = await fetch(`${stack.app.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
  });
});
