import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { fastifyCompilers } from '../src/lib/lazy';

it('loads Fastify’s JSON-schema compilers when a route first asks for them, and they validate and serialize', async () => {
  const app = Fastify({ schemaController: { compilersFactory: fastifyCompilers } });
  app.post(
    '/echo',
    {
      schema: {
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    },
    async (req) => ({ n: (req.body as { n: number }).n, hidden: 'left out by the response schema' }),
  );
  const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 7 } });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ n: 7 });
  const bad = await app.inject({ method: 'POST', url: '/echo', payload: { n: 'seven' } });
  expect(bad.statusCode).toBe(400);
  await app.close();
});
