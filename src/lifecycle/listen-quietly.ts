import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * `app.listen(port, host)` without the error line Nest logs when listening fails: the caller
 * reports the failure once, naming the setting to change (see `listenNamingSetting`).
 */
export async function listenQuietly(app: NestFastifyApplication, port: number, host: string): Promise<void> {
  await app.init();
  await app.getHttpAdapter().getInstance().listen({ port, host });
}
