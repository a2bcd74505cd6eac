import {
  CallHandler,
  Controller,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  NestInterceptor,
  Param,
  Post,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { Observable, tap } from 'rxjs';
import { ApiError } from './api-error';
import type { ApiReply, ApiRequest } from './api-http';
import { ApiExceptionFilter } from './api-exception.filter';
import { DirectHandlers, serveDirectly } from './direct-routes';

/** Marks what Nest's pipeline answered, so that a test can tell which way a request went. */
@Injectable()
class ViaNest implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(tap(() => context.switchToHttp().getResponse<FastifyReply>().header('x-via', 'nest')));
  }
}

@Controller()
@UseInterceptors(ViaNest)
class ThingController {
  @Get('/things/:id')
  thing(@Param('id') id: string, @Req() request: ApiRequest, @Res() reply: ApiReply): void {
    if (id === 'missing') throw ApiError.notFound('unknown_thing', 'no such thing');
    reply.header('x-query', JSON.stringify(request.query));
    reply.send({ id });
  }

  @Get('/later/:id')
  async later(@Param('id') id: string, @Res() reply: ApiReply): Promise<void> {
    await Promise.resolve();
    if (id === 'missing') throw ApiError.notFound('unknown_thing', 'no such thing');
    reply.send({ id });
  }

  @Post('/things/:id')
  create(@Param('id') id: string): { created: string } {
    return { created: id };
  }

  directHandlers(): DirectHandlers {
    const id = (request: ApiRequest): string => (request.params as { id: string }).id;
    return new Map([
      ['/things/:id', (request, reply) => this.thing(id(request), request, reply)],
      ['/later/:id', (request, reply) => this.later(id(request), reply)],
    ]);
  }
}

@Module({ controllers: [ThingController], providers: [ViaNest] })
class ThingModule {}

describe('serveDirectly', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ThingModule, new FastifyAdapter(), {
      logger: false,
    });
    app.useGlobalFilters(new ApiExceptionFilter());
    serveDirectly(app, app.get(ThingController).directHandlers());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  it('answers GET with the direct handler, past Nest pipeline', async () => {
    const response = await app.inject({ method: 'GET', url: '/things/a?x=1' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'a' });
    expect(response.headers['x-query']).toBe('{"x":"1"}');
    expect(response.headers['x-via']).toBeUndefined();
  });

  it('answers HEAD with the direct handler too, without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/things/a' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['x-via']).toBeUndefined();
  });

  it("sends a thrown or rejected error through Nest's exception filters", async () => {
    for (const url of ['/things/missing', '/later/missing']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ errors: [{ code: 'unknown_thing', message: 'no such thing' }] });
    }
    expect((await app.inject({ method: 'GET', url: '/later/b' })).json()).toEqual({ id: 'b' });
  });

  it('leaves other methods and empty parameters to Nest', async () => {
    const created = await app.inject({ method: 'POST', url: '/things/a' });
    expect(created.json()).toEqual({ created: 'a' });
    expect(created.headers['x-via']).toBe('nest');
    const empty = await app.inject({ method: 'GET', url: '/things/' });
    expect(empty.statusCode).toBe(404);
    expect(empty.json()).toEqual({ errors: [{ code: 'not_found', message: 'no such endpoint' }] });
  });
});
