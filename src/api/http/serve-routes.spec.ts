import { Controller, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiError } from './api-error';
import { ApiExceptionFilter } from './api-exception.filter';
import type { ApiRoute } from './api-route';
import { serveRoutes } from './serve-routes';

@Controller()
class ThingController {
  @Post('/things/:id')
  create(@Param('id') id: string): { created: string } {
    return { created: id };
  }
}

@Module({ controllers: [ThingController] })
class ThingModule {}

const id = (params: unknown): string => (params as { id: string }).id;

const ROUTES: readonly ApiRoute[] = [
  {
    path: '/things/:id',
    fastPath: false,
    handler: (request, reply) => {
      if (id(request.params) === 'missing') throw ApiError.notFound('unknown_thing', 'no such thing');
      reply.header('x-query', JSON.stringify(request.query));
      reply.send({ id: id(request.params) });
    },
  },
  {
    path: '/later/:id',
    fastPath: false,
    handler: async (request, reply) => {
      await Promise.resolve();
      if (id(request.params) === 'missing') throw ApiError.notFound('unknown_thing', 'no such thing');
      reply.send({ id: id(request.params) });
    },
  },
];

describe('serveRoutes', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ThingModule, new FastifyAdapter(), {
      logger: false,
    });
    app.useGlobalFilters(new ApiExceptionFilter());
    serveRoutes(app.getHttpAdapter().getInstance(), ROUTES);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  it('answers GET with the route handler', async () => {
    const response = await app.inject({ method: 'GET', url: '/things/a?x=1' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'a' });
    expect(response.headers['x-query']).toBe('{"x":"1"}');
  });

  it('answers HEAD with the route handler too, without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/things/a' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });

  it("sends a thrown or rejected error through Nest's exception filters", async () => {
    for (const url of ['/things/missing', '/later/missing']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ errors: [{ code: 'unknown_thing', message: 'no such thing' }] });
    }
    expect((await app.inject({ method: 'GET', url: '/later/b' })).json()).toEqual({ id: 'b' });
  });

  it("leaves other methods to Nest's routes, and answers an empty parameter with a 404", async () => {
    const created = await app.inject({ method: 'POST', url: '/things/a' });
    expect(created.json()).toEqual({ created: 'a' });
    const empty = await app.inject({ method: 'GET', url: '/things/' });
    expect(empty.statusCode).toBe(404);
    expect(empty.json()).toEqual({ errors: [{ code: 'not_found', message: 'no such endpoint' }] });
  });
});
