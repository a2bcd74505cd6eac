import { execFile } from 'node:child_process';

export interface OpenApiValidation {
  readonly valid: boolean;
  readonly errors?: unknown;
}

const SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const result = await new Validator().validate(JSON.parse(text));
process.stdout.write(JSON.stringify(result));
`;

/**
 * `document` checked against the OpenAPI specification's own schema by an independent validator.
 * It is an ES module, which Jest's module system cannot load without an experimental flag, so it
 * runs in a node process of its own.
 */
export function validateOpenApi(document: object): Promise<OpenApiValidation> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '--eval', SCRIPT],
      { cwd: __dirname, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as OpenApiValidation);
      },
    );
    child.stdin!.end(JSON.stringify(document));
  });
}
