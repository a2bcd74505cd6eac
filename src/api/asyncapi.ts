import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ASYNCAPI_PATH, asyncApiDocument } from './asyncapi/asyncapi-document';
import { Contact } from './schema/document-info';
import { StreamLimits } from './stream/stream-limits';

/**
 * The AsyncAPI document of `/stream` beside the OpenAPI one. Like that one it is written out in
 * TypeScript, from the types the stream sends, and a test checks every frame a running stream sends
 * against it.
 */
export function serveAsyncApi(app: NestFastifyApplication, limits: StreamLimits, contact: Contact): void {
  const body = JSON.stringify(asyncApiDocument(limits, contact));
  app
    .getHttpAdapter()
    .getInstance()
    .get(ASYNCAPI_PATH, (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}
