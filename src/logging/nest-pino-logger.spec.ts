import { Logger } from '@nestjs/common';
import { createRootLogger } from './root-logger';
import { NestPinoLogger } from './nest-pino-logger';
import { registerSecret } from './secret-values';

function capture(level: Parameters<typeof createRootLogger>[0] = 'trace') {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const pino = createRootLogger(level, {
    write: (line: string) => {
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { pino, lines, raw, nest: new NestPinoLogger(pino) };
}

describe('NestPinoLogger', () => {
  afterEach(() => Logger.overrideLogger(['log', 'error', 'warn']));

  it('writes Nest Logger calls as JSON lines with level, context and message', () => {
    const { nest, lines } = capture();
    Logger.overrideLogger(nest);
    new Logger('HubClient').log('connected');
    new Logger('HubClient').warn('reconnecting');
    new Logger('Jobs').verbose('tick');
    expect(lines.map(({ level, context, msg }) => ({ level, context, msg }))).toEqual([
      { level: 'info', context: 'HubClient', msg: 'connected' },
      { level: 'warn', context: 'HubClient', msg: 'reconnecting' },
      { level: 'trace', context: 'Jobs', msg: 'tick' },
    ]);
    expect(typeof lines[0].time).toBe('string');
  });

  it("writes Nest's start-up lines at debug, its other lines at their own level", () => {
    const { nest, lines } = capture('info');
    Logger.overrideLogger(nest);
    new Logger('RouterExplorer').log('Mapped {/summary, GET} route');
    new Logger('InstanceLoader').log('AppModule dependencies initialized');
    new Logger('NestApplication').log('Nest application successfully started');
    new Logger('NestApplication').error('cannot listen');
    new Logger('HubClient').log('connected');
    expect(lines.map(({ level, context }) => ({ level, context }))).toEqual([
      { level: 'error', context: 'NestApplication' },
      { level: 'info', context: 'HubClient' },
    ]);

    const atDebug = capture('debug');
    Logger.overrideLogger(atDebug.nest);
    new Logger('RouterExplorer').log('Mapped {/summary, GET} route');
    expect(atDebug.lines).toEqual([
      expect.objectContaining({
        level: 'debug',
        context: 'RouterExplorer',
        msg: 'Mapped {/summary, GET} route',
      }),
    ]);
  });

  it('keeps the stack of an error call apart from its context', () => {
    const { nest, lines } = capture();
    Logger.overrideLogger(nest);
    new Logger('Store').error('write failed', 'Error: x\n    at f (a.js:1:1)');
    new Logger('Store').error('write failed');
    nest.error('no context', 'Error: y\n    at g (b.js:2:2)');
    expect(lines[0]).toMatchObject({
      level: 'error',
      context: 'Store',
      stack: 'Error: x\n    at f (a.js:1:1)',
    });
    expect(lines[1]).toMatchObject({ level: 'error', context: 'Store', msg: 'write failed' });
    expect(lines[1].stack).toBeUndefined();
    expect(lines[2]).toMatchObject({ msg: 'no context', stack: 'Error: y\n    at g (b.js:2:2)' });
    expect(lines[2].context).toBeUndefined();
  });

  it('logs an Error message with its stack, an object as fields', () => {
    const { nest, lines } = capture();
    nest.error(new Error('boom'), 'Ctx');
    nest.log({ instrument: 'BTC_USDT', state: 'live' }, 'Ingest');
    expect(lines[0]).toMatchObject({ msg: 'boom', context: 'Ctx', err: { message: 'boom' } });
    expect(String((lines[0].err as { stack: string }).stack)).toContain('Error: boom');
    expect(lines[1]).toMatchObject({ instrument: 'BTC_USDT', state: 'live', context: 'Ingest' });
  });

  it('honours the level', () => {
    const { nest, lines } = capture('warn');
    nest.log('hidden', 'X');
    nest.debug('hidden', 'X');
    nest.warn('shown', 'X');
    expect(lines.map((line) => line.msg)).toEqual(['shown']);
  });

  it('never writes a credential: by field name or by registered value', () => {
    const { pino, nest, raw } = capture();
    registerSecret('Upstream-Pa55word');
    pino.info({ password: 'p1', headers: { authorization: 'Bearer t1' }, config: { token: 't2' } }, 'fields');
    nest.warn('login as trader with Upstream-Pa55word refused', 'Login');
    nest.error(new Error('connect to wss://x/WSGateway/?session_token=tok-123 failed'), 'Gateway');
    const text = raw.join('');
    for (const secret of ['p1"', 'Bearer t1', 't2"', 'Upstream-Pa55word', 'tok-123']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });
});
