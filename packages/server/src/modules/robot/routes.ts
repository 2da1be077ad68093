import {
  type MessageKey,
  ROBOT_BODY_MAX,
  ROBOT_KEY_PREFIX,
  ROBOT_WEBHOOK_PATH,
  RobotErrcodes,
  RobotWebhookQuery,
  translate,
  type ErrorName,
  type Locale,
  type RobotAnswer,
  type RobotErrcode,
} from '@sparrow/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { localeOf } from '../../http/envelope';
import { publicBase } from '../../http/public-url';
import type { Handlers } from '../../http/route';
import type { Limits } from '../../lib/limits';
import { RobotRefusal } from './message';
import type { RobotService } from './service';

/** 群机器人: the group's robots, managed from the group's page (docs/protocol.md §10). */
export function robotRoutes(ctx: { env: ServerConfig }, robots: RobotService): Handlers {
  return {
    groupRobotList: ({ body, session, req }) => robots.list(session, body.group_id, publicBase(ctx.env, req)),
    groupRobotAdd: ({ body, session, req }) => robots.add(session, body, publicBase(ctx.env, req)),
    groupRobotEdit: ({ body, session, req }) => robots.edit(session, body, publicBase(ctx.env, req)),
    groupRobotReset: ({ body, session, req }) => robots.reset(session, body.robot_id, publicBase(ctx.env, req)),
    groupRobotRemove: async ({ body, session }) => {
      await robots.remove(session, body.robot_id);
      return null;
    },
    uploadRobotAvatar: ({ session, req }) => robots.avatar(session, req, publicBase(ctx.env, req)),
  };
}

/**
 * A robot's webhook, `POST /cgi-bin/webhook/send?key=…`: WeCom's path and answer, so that a script
 * written for WeCom's group robots posts here once its host is changed. Every answer is 200 with
 * `{errcode, errmsg}`, errmsg in the caller's language; the body is read up to ROBOT_BODY_MAX.
 */
export function registerRobotWebhook(
  app: FastifyInstance,
  ctx: { limits: Pick<Limits, 'anyCall'> },
  robots: RobotService,
): void {
  app.post(
    ROBOT_WEBHOOK_PATH,
    {
      bodyLimit: ROBOT_BODY_MAX,
      // Before the body is read: the caller's rate limit, and a key of a robot's shape.
      onRequest: async (req, reply) => {
        try {
          await ctx.limits.anyCall(`ip:${req.ip}`);
          const query = RobotWebhookQuery.safeParse(req.query);
          if (!query.success || !query.data.key.startsWith(ROBOT_KEY_PREFIX))
            throw new RobotRefusal(RobotErrcodes.invalidKey, 'robot.invalidKey');
        } catch (err) {
          return reply.header('cache-control', 'no-store').send(answerOf(err, localeOf(req), req.log));
        }
      },
      // A body too large, not JSON or of another type: answered as the webhook answers.
      errorHandler: (err, req, reply) => reply.code(200).send(answerOf(err, localeOf(req), req.log)),
    },
    async (req, reply) => {
      try {
        const { key } = RobotWebhookQuery.parse(req.query);
        await robots.post(key, req.body);
        return reply
          .header('cache-control', 'no-store')
          .send({ errcode: RobotErrcodes.ok, errmsg: 'ok' } satisfies RobotAnswer);
      } catch (err) {
        return reply.header('cache-control', 'no-store').send(answerOf(err, localeOf(req), req.log));
      }
    },
  );
}

/** The rules' refusals a robot's caller reads as the webhook's own. */
const BY_ERROR: Partial<Record<ErrorName, { errcode: RobotErrcode; key: MessageKey }>> = {
  FileTypeForbidden: { errcode: RobotErrcodes.invalidImage, key: 'robot.invalidImage' },
  ImageTooLarge: { errcode: RobotErrcodes.invalidImage, key: 'robot.invalidImage' },
  GroupDisbanded: { errcode: RobotErrcodes.invalidKey, key: 'robot.invalidKey' },
};

/** What a failed post answers: the refusal's code, a rule of sending's own words, or busy. */
function answerOf(err: unknown, locale: Locale, log: FastifyBaseLogger): RobotAnswer {
  if (err instanceof RobotRefusal) return { errcode: err.errcode, errmsg: translate(locale, err.key, err.params) };
  if (err instanceof AppError) {
    const as = BY_ERROR[err.name];
    if (as) return { errcode: as.errcode, errmsg: translate(locale, as.key) };
    const errmsg = translate(locale, `errors.${err.name}` as MessageKey, err.params);
    if (err.name === 'TooMany') return { errcode: RobotErrcodes.tooMany, errmsg };
    if (err.name === 'Validation' || err.name === 'BodyTooDeep')
      return { errcode: RobotErrcodes.invalidParameter, errmsg };
    return { errcode: RobotErrcodes.refused, errmsg };
  }
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('FST_'))
    return { errcode: RobotErrcodes.invalidParameter, errmsg: translate(locale, 'robot.invalidBody') };
  log.error({ err }, 'robot webhook failed');
  return { errcode: RobotErrcodes.busy, errmsg: translate(locale, 'robot.busy') };
}
