import {
  CLIENT_HEADER,
  ROUTE_SCOPES,
  routeAliases,
  routes,
  type RouteInput,
  type RouteName,
  type RouteResponses,
} from '@sparrow/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { AppError, noSession } from '../errors';
import type { ServerConfig } from '../config';
import type { Limits } from '../lib/limits';
import type { Session, SessionService } from '../modules/auth/session';
import { allowedBeforeTwoStepSetup, needsTwoStepSetup } from '../modules/auth/two-step-policy';
import type { ConfigService } from '../modules/system';
import { languageStated, localeOf, type Ok, successEnvelope, validationError } from './envelope';
import { sessionSockets } from '../realtime/hub';
import { discardStaged, UploadGate } from './uploads';

/** What a handler is given: the validated body, the session (on non-public routes), the request. */
export interface HandlerContext<N extends RouteName> {
  body: RouteInput<N>;
  session: N extends PublicRoute ? Session | null : Session;
  req: FastifyRequest;
  reply: FastifyReply;
}

type PublicRoute = {
  [N in RouteName]: (typeof routes)[N]['public'] extends true ? N : never;
}[RouteName];

export type Handler<N extends RouteName> = (
  ctx: HandlerContext<N>,
) => Promise<RouteResponses[N] | Ok<RouteResponses[N]>>;

export type Handlers = { [N in RouteName]?: Handler<N> };

/**
 * What a user whose password an admin set may still do before choosing their own: change it, sign
 * out, and read their own record (the public calls, such as getSystemInfo, stay open to them too).
 */
export const BEFORE_PASSWORD_CHANGE: ReadonlySet<RouteName> = new Set(['editPassword', 'logout', 'checkuser']);

/** What the route loop uses of the process: the uploads' limits, the sessions and the rate limits. */
export interface RouteParts {
  env: Pick<ServerConfig, 'resources'>;
  sessions: Pick<SessionService, 'caller' | 'rememberLanguage'>;
  limits: Pick<Limits, 'anyCall' | 'manageCall'>;
  config: Pick<ConfigService, 'get'>;
}

/**
 * Registers every route of the protocol's route table. Each reads as a checklist: body within the
 * route's limit (before it is read) → rate limit → session → upload place → validate → one call
 * into the service. Refuses to start when a route has no handler.
 */
export function registerRoutes(app: FastifyInstance, ctx: RouteParts, handlers: Handlers): void {
  const names = Object.keys(routes) as RouteName[];
  const missing = names.filter((n) => !handlers[n]);
  if (missing.length) throw new Error(`routes without a handler: ${missing.join(', ')}`);
  const { uploadsPerUser, uploadsInFlight } = ctx.env.resources;
  const uploads = new UploadGate({ perUser: uploadsPerUser, inFlight: uploadsInFlight });

  for (const name of names) {
    const def = routes[name];
    const handler = handlers[name] as Handler<RouteName>;
    const paths = [def.path, ...(routeAliases[name] ?? [])];
    for (const url of paths) {
      app.post(url, { bodyLimit: def.bodyLimit }, async (req, reply) => {
        const caller = await ctx.sessions.caller(req.headers.authorization);
        // A personal access token is nobody on a public route: a code sent to its user's account is theirs to ask for.
        const session = caller?.token && def.public ? null : caller;
        if (session && !session.token) callers.set(req, session.id);
        await ctx.limits.anyCall(session ? `u:${session.userId}` : `ip:${req.ip}`);
        if (!def.public && !session) throw noSession();
        // A personal access token reaches the routes its scopes name, and no other.
        if (!def.public && session?.token) {
          const scope = ROUTE_SCOPES[name];
          if (scope === undefined || !session.token.scopes.includes(scope)) throw new AppError('TokenScope');
        }
        if (!def.public && session?.user.must_change_password && !BEFORE_PASSWORD_CHANGE.has(name)) {
          throw new AppError('PasswordChangeRequired');
        }
        if (
          !def.public &&
          session &&
          !session.user.must_change_password &&
          needsTwoStepSetup(session.user, ctx.config.get().account.twoStepRequired) &&
          !allowedBeforeTwoStepSetup(name)
        ) {
          throw new AppError('TwoStepSetupRequired');
        }
        if (def.admin) {
          if (session?.user.role !== 1) throw new AppError('Forbidden');
          await ctx.limits.manageCall(session.userId);
        }
        // A script's language is its own: the user's stays as their devices set it.
        if (session && !session.token && languageStated(req))
          await ctx.sessions.rememberLanguage(session, localeOf(req));
        // Multipart fields arrive with the file stream; those handlers validate them with the same schema.
        let body: unknown = {};
        if (!def.multipart) {
          body = parseBody(name, req.body ?? {}, req);
        }
        // An upload's place is held, and its temporary files kept, until its answer is decided.
        const leave = def.multipart && session ? uploads.enter(session.userId) : undefined;
        try {
          const result = await handler({
            body: body as RouteInput<RouteName>,
            session: session as Session,
            req,
            reply,
          });
          return successEnvelope(req, result);
        } finally {
          if (leave) {
            leave();
            await discardStaged(req);
          }
        }
      });
    }
  }
}

/**
 * The first field of a validated body that holds U+0000 anywhere in it (keys included). PostgreSQL
 * text cannot store that character (the statement fails: a 500) and no person types one, so it is
 * refused as an invalid field on every database alike.
 */
/**
 * A route's body as its schema reads it, refused with the envelope of the first bad field (a text
 * holding U+0000 included): the one check of every body, sent as JSON or form or inside an upload
 * (uploadFile's `message`).
 */
export function parseBody<N extends RouteName>(name: N, raw: unknown, req: FastifyRequest): RouteInput<N> {
  const parsed = routes[name].body.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, localeOf(req), raw);
  const nul = fieldWithNul(parsed.data);
  if (nul !== null) {
    const issue = { code: 'custom' as const, path: [nul], message: 'nul', input: undefined };
    throw validationError(new z.ZodError([issue]), localeOf(req), raw);
  }
  return parsed.data as RouteInput<N>;
}

function fieldWithNul(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  for (const [key, value] of Object.entries(body)) if (hasNul(value, 0)) return key;
  return null;
}

// Handlers read a level or two into a body; deeper values are only ever stored as escaped JSON.
const NUL_DEPTH = 32;

function hasNul(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null || depth > NUL_DEPTH) return false;
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || hasNul(v, depth + 1)) return true;
  return false;
}

/** The session of each request that came with one, for `socketOf`. */
const callers = new WeakMap<FastifyRequest, number>();

/** Whether the call comes from Sparrow's own client, which names itself in CLIENT_HEADER; Raingad 6.x clients do not. */
export function fromSparrowClient(req: FastifyRequest): boolean {
  return req.headers[CLIENT_HEADER.toLowerCase()] !== undefined;
}

/**
 * The caller's socket (the `clientId` header), so that pushes the call causes skip it. A caller that
 * names none (Raingad clients send no `clientId`) is the socket its session joined over HTTP
 * bindUid, as those clients do, so its own call never comes back to it as something new.
 */
export function socketOf(req: FastifyRequest): string | undefined {
  const v = req.headers.clientid;
  const named = (Array.isArray(v) ? v[0] : v) || undefined;
  const session = callers.get(req);
  return named ?? (session === undefined ? undefined : sessionSockets(session));
}
