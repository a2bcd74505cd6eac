import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { openApiDocument } from './openapi/openapi-document';
import { Contact } from './schema/document-info';

/**
 * The OpenAPI 3.1 document at `/docs-json` and a browsable page for it at `/docs`. The document is
 * built from the wire schemas and the paths in `openapi/` rather than gathered from decorators, so
 * that every response has its schema; a test holds it and the served routes together.
 */
export function setUpOpenApi(app: NestFastifyApplication, contact: Contact): void {
  SwaggerModule.setup('docs', app, openApiDocument(contact), { jsonDocumentUrl: 'docs-json' });
}
