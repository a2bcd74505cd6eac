import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { BookAtError, bookAt, MOMENT_FORMS, momentOf } from '../../replay/book-at';
import { ApiError } from '../http/api-error';
import { preferredEncoding } from '../http/send-cached';
import { consoleAllows } from './console-access';
import { ConsoleBundle } from './console-bundle';
import { ConsoleState } from './console-state';
import { ASSETS_PATH, PAGE_CSP, pageHtml } from './page-html';
import { ServerSentFeed } from './server-sent-feed';

/** The bundle's names carry a hash of their content: a browser may keep each file for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CONSOLE_PATH = /^\/console(\/|$)/;
const ASSET_PATH = /^\/status\/assets\//;
/** What the market page's candle chart reads besides the console's own paths (`/stream` is an upgrade). */
const CHART_PATH = /^\/udf\/history$/;

export interface ConsoleServing {
  readonly config: AppConfig;
  readonly state: ConsoleState;
  /** The port of the console's own server once it listens (`CONSOLE_PORT`); undefined: the API's. */
  readonly consolePort: () => number | undefined;
}

/**
 * The operator console (`/console`, `/console/market/{instrument}`, their feed and market data, and a
 * market as the recordings in `RECORD_DIR` say it was at a moment, `/console/book-at/{instrument}?at=`) and
 * the public status page (`/status` and its feed), as each is enabled, with the bundle's files under
 * `/status/assets/`. The console answers only on its own port when it has one (404 elsewhere; that
 * port serves nothing else but the bars its chart reads, `/udf/history` and `/stream`) and only to the addresses `CONSOLE_ALLOW` lets in (403).
 */
export function serveConsolePages(fastify: FastifyInstance, serving: ConsoleServing): void {
  const { config, state } = serving;
  if (!config.CONSOLE_ENABLED && !config.STATUS_PAGE_ENABLED) return;
  const allows = consoleAllows(config.CONSOLE_ALLOW);
  let bundle: ConsoleBundle | undefined;
  const readBundle = (): ConsoleBundle => {
    bundle ??= ConsoleBundle.read();
    if (!bundle)
      throw ApiError.unavailable('console_not_built', 'the pages are not built: run npm run build');
    return bundle;
  };

  fastify.addHook('onRequest', (request, _reply, done) => {
    const path = request.url.split('?')[0];
    const port = serving.consolePort();
    const onConsolePort = port !== undefined && request.raw.socket.localPort === port;
    const forConsole = CONSOLE_PATH.test(path);
    if (onConsolePort && !forConsole && !ASSET_PATH.test(path) && !CHART_PATH.test(path))
      return done(ApiError.notFound('not_found', 'this port serves the operator console only'));
    if (!forConsole) return done();
    if (port !== undefined && !onConsolePort) return done(ApiError.notFound('not_found', 'no such endpoint'));
    if (!allows(request.ip))
      return done(ApiError.forbidden('forbidden', 'the operator console does not answer this address'));
    done();
  });

  const page =
    (title: string, view: 'console' | 'status') => (_request: FastifyRequest, reply: FastifyReply) => {
      const html = pageHtml(title, view, readBundle().manifest);
      reply.header('content-security-policy', PAGE_CSP);
      reply.header('cache-control', 'no-cache');
      reply.header('content-type', 'text/html; charset=utf-8');
      reply.send(html);
    };
  const feed = (which: ServerSentFeed) => (_request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    which.attach(reply.raw, reply.getHeaders() as Record<string, string>);
  };

  if (config.CONSOLE_ENABLED) {
    fastify.get('/console', page('Gateway console', 'console'));
    fastify.get('/console/market/:instrument', page('Gateway console', 'console'));
    fastify.get('/console/feed', feed(state.consoleFeed));
    fastify.get('/console/market-data/:instrument', async (request, reply) => {
      const detail = await state.market((request.params as { instrument: string }).instrument);
      reply.header('cache-control', 'no-store');
      reply.send(detail);
    });
    fastify.get('/console/book-at/:instrument', async (request, reply) => {
      const dir = config.RECORD_DIR;
      if (dir === undefined)
        throw ApiError.notFound('no_recordings', 'this process records nothing: RECORD_DIR is not set');
      const text = (request.query as { at?: unknown }).at;
      const at = typeof text === 'string' ? momentOf(text) : undefined;
      if (at === undefined) throw ApiError.badRequest('invalid_at', `at must be ${MOMENT_FORMS}`);
      const instrument = (request.params as { instrument: string }).instrument.toLowerCase();
      const answer = await bookAt(dir, instrument, at).catch((error: Error) => {
        throw error instanceof BookAtError ? ApiError.notFound('not_recorded', error.message) : error;
      });
      reply.header('cache-control', 'no-store');
      reply.send(answer);
    });
  }
  if (config.STATUS_PAGE_ENABLED) {
    fastify.get('/status', page('Market data status', 'status'));
    fastify.get('/status/feed', feed(state.statusFeed));
  }
  fastify.get(`${ASSETS_PATH}/:file`, (request, reply) => {
    const file = readBundle().file((request.params as { file: string }).file);
    if (!file) throw ApiError.notFound('not_found', 'no such file');
    reply.header('cache-control', IMMUTABLE);
    reply.header('etag', file.etag);
    reply.header('vary', 'Accept-Encoding');
    reply.header('content-type', file.contentType);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    reply.send(encoding ? file.encodedAs(encoding) : file.body);
  });
}
