import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as protocol from '@sparrow/protocol';
import {
  BOT_DELIVERY_TIMEOUT_MS,
  BOT_FAILURES_MAX,
  BOT_RETRY_DELAYS_MS,
  BotEventSchema,
  Codes,
  ErrorCodes,
  ROBOT_BODY_MAX,
  ROBOT_MESSAGES_PER_MINUTE,
  ROBOT_WEBHOOK_PATH,
  RobotErrcodes,
  ROUTE_SCOPES,
  routeAliases,
  routes,
  TOKEN_PREFIX,
  TOKEN_SCOPES,
  SparrowRobotBody,
  WeComRobotBody,
  type RouteName,
} from '@sparrow/protocol';
import type * as TS from 'typescript';
import * as z from 'zod';
import { BEFORE_PASSWORD_CHANGE } from '../../http/route';

type Json = Record<string, unknown>;

/** The doc comments of the protocol's sources, read with the TypeScript parser. */
interface Docs {
  /** An exported constant's comment, by its name. */
  exports: Map<string, string>;
  /** The comments on an exported schema's fields, by the export's name, then the field's path ("a.b"). */
  fields: Map<string, Map<string, string>>;
  /** Each route's entry in the route table: its comment and the name of its body schema. */
  routes: Map<string, { doc: string | undefined; body: string | undefined }>;
  /** RouteResponses: what each route answers in `data`, as a type, and its comment. */
  responses: Map<string, { doc: string | undefined; type: TS.TypeNode }>;
}

const protocolSrc = path.dirname(createRequire(import.meta.url).resolve('@sparrow/protocol'));

function readDocs(ts: typeof TS): Docs {
  const docs: Docs = { exports: new Map(), fields: new Map(), routes: new Map(), responses: new Map() };
  const files = ['routes.ts', ...fs.readdirSync(path.join(protocolSrc, 'api')).map((f) => path.join('api', f))];
  for (const file of files.filter((f) => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(protocolSrc, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const commentOf = (node: TS.Node): string | undefined => {
      const parts = ts
        .getJSDocCommentsAndTags(node)
        .filter(ts.isJSDoc)
        .map((d) => ts.getTextOfJSDocComment(d.comment))
        .filter((c): c is string => Boolean(c));
      return parts.length ? parts.join('\n') : undefined;
    };
    const fieldsOf = (node: TS.Node, prefix: string, into: Map<string, string>): void => {
      if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
        const name = prefix + node.name.text;
        const doc = commentOf(node);
        if (doc) into.set(name, doc);
        ts.forEachChild(node.initializer, (child) => fieldsOf(child, `${name}.`, into));
        return;
      }
      ts.forEachChild(node, (child) => fieldsOf(child, prefix, into));
    };
    for (const statement of source.statements) {
      if (ts.isVariableStatement(statement)) {
        for (const decl of statement.declarationList.declarations) {
          if (!ts.isIdentifier(decl.name) || !decl.initializer) continue;
          const name = decl.name.text;
          const doc = commentOf(decl);
          if (doc) docs.exports.set(name, doc);
          if (name === 'routes') readRouteTable(ts, decl.initializer, commentOf, docs);
          else {
            const fields = new Map<string, string>();
            fieldsOf(decl.initializer, '', fields);
            if (fields.size) docs.fields.set(name, fields);
          }
        }
      } else if (ts.isInterfaceDeclaration(statement) && statement.name.text === 'RouteResponses') {
        for (const member of statement.members) {
          if (ts.isPropertySignature(member) && ts.isIdentifier(member.name) && member.type)
            docs.responses.set(member.name.text, { doc: commentOf(member), type: member.type });
        }
      }
    }
  }
  return docs;
}

function readRouteTable(
  ts: typeof TS,
  init: TS.Expression,
  commentOf: (node: TS.Node) => string | undefined,
  docs: Docs,
): void {
  const table = ts.isAsExpression(init) ? init.expression : init;
  if (!ts.isObjectLiteralExpression(table)) return;
  for (const entry of table.properties) {
    if (!ts.isPropertyAssignment(entry) || !ts.isIdentifier(entry.name)) continue;
    const call = routeCall(ts, entry.initializer);
    const schema = call?.arguments[1];
    docs.routes.set(entry.name.text, {
      doc: commentOf(entry),
      body: schema && ts.isIdentifier(schema) ? schema.text : undefined,
    });
  }
}

/**
 * The `route(path, Body, …)` call of a table entry (or `manage`, `upload`: a path, then the body),
 * also when a wrapper such as `carrying(units, route(…))` holds it.
 */
function routeCall(ts: typeof TS, node: TS.Expression): TS.CallExpression | undefined {
  if (!ts.isCallExpression(node)) return undefined;
  const [path] = node.arguments;
  if (path && ts.isStringLiteral(path)) return node;
  const inner = node.arguments.find((arg) => ts.isCallExpression(arg));
  return inner ? routeCall(ts, inner) : undefined;
}

/** A zod schema as JSON Schema, the doc comments of the exports it is made of as descriptions. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', described: Map<unknown, string>): Json {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const doc = described.get(zodSchema);
      if (doc && jsonSchema.description === undefined) jsonSchema.description = doc;
    },
  }) as Json;
  delete json.$schema;
  return json;
}

/** Sets the field comments on an object schema's properties, copying each so that no shared part changes. */
function describeFields(json: Json, fields: Map<string, string> | undefined, prefix = ''): void {
  const props = json.properties as Record<string, Json> | undefined;
  if (!fields || !props) return;
  for (const [name, prop] of Object.entries(props)) {
    const copy = { ...prop };
    const doc = fields.get(prefix + name);
    if (doc) copy.description = doc;
    describeFields(copy, fields, `${prefix}${name}.`);
    props[name] = copy;
  }
}

/** The `data` of an answer, from its type in RouteResponses: entities by their zod schema (`<Name>Schema`). */
function dataSchema(ts: typeof TS, type: TS.TypeNode, entity: (name: string) => Json | undefined): Json {
  if (ts.isArrayTypeNode(type)) return { type: 'array', items: dataSchema(ts, type.elementType, entity) };
  if (ts.isUnionTypeNode(type)) return { anyOf: type.types.map((t) => dataSchema(ts, t, entity)) };
  if (ts.isParenthesizedTypeNode(type)) return dataSchema(ts, type.type, entity);
  if (ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword) return { type: 'null' };
  if (type.kind === ts.SyntaxKind.StringKeyword) return { type: 'string' };
  if (type.kind === ts.SyntaxKind.NumberKeyword) return { type: 'number' };
  if (type.kind === ts.SyntaxKind.BooleanKeyword) return { type: 'boolean' };
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
    const name = type.typeName.text;
    return entity(name) ?? { type: 'object', description: `${name} (packages/protocol)` };
  }
  return { description: type.getText() };
}

const ENVELOPE: Json = {
  type: 'object',
  description:
    "Every answer (docs/protocol.md §1). `code` 0 is success; any other is an error whose `msg` is in the caller's language (Accept-Language). HTTP status is 200 but for 429 (too many), 500 (server error) and 503 (unavailable).",
  properties: {
    code: {
      type: 'integer',
      enum: [...new Set(Object.values(Codes))],
      description: Object.entries(Codes)
        .map(([name, code]) => `${code}: ${name}`)
        .join('; '),
    },
    msg: { type: 'string' },
    data: { description: 'The answer; on a validation error `{fields}`, the names of the bad fields' },
    count: { type: 'integer', description: 'For lists: how many in all (see each route)' },
    page: { type: 'integer' },
  },
  required: ['code', 'msg', 'data'],
};

const ERROR_NAMES: Json = {
  type: 'string',
  description: `The named errors and the envelope code each answers with: ${Object.entries(ErrorCodes)
    .map(([name, code]) => `${name} ${code}`)
    .join(', ')}.`,
  enum: Object.keys(ErrorCodes),
};

/** Said first in the description of each administration call (docs/protocol.md §8). */
const ADMIN_ONLY =
  'Administrators only: the session must belong to a user whose role is admin; anyone else is answered 403 Forbidden. Admin calls have their own rate limit.';

/** The tag of a route: its area in the path (`/enterprise/im/…` → im, `/common/Pub/…` → pub; paths ignore case). */
const tagOf = (p: string) => (p.split('/')[2] ?? 'other').toLowerCase();

/**
 * A group robot's webhook (docs/protocol.md §10), outside the route table: its key in the query, a
 * body in WeCom's shape or Sparrow's, and WeCom's answer rather than the envelope.
 */
function robotWebhook(described: Map<unknown, string>): Json {
  const codes = Object.entries(RobotErrcodes)
    .map(([name, code]) => `${code} ${name}`)
    .join('; ');
  return {
    operationId: 'robotWebhook',
    tags: ['robot'],
    summary: 'Posts a message into a group as one of its robots (群机器人)',
    description: [
      'The URL a group robot is given (`groupRobotAdd`, `groupRobotReset`): its key is the secret; no session or token is sent. The body is WeCom group-robot JSON (`msgtype` text, markdown, image, news) or Sparrow’s own (`type` text, markdown, image, with `at` user ids and an `id` that makes a retry post once).',
      `At most ${ROBOT_MESSAGES_PER_MINUTE} posts a minute per robot; the body at most ${ROBOT_BODY_MAX} bytes.`,
    ].join('\n\n'),
    parameters: [{ name: 'key', in: 'query', required: true, schema: { type: 'string' } }],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            oneOf: [schemaOf(WeComRobotBody, 'input', described), schemaOf(SparrowRobotBody, 'input', described)],
          },
        },
      },
    },
    responses: {
      '200': {
        description: `Always 200: \`errcode\` 0 and \`errmsg\` "ok", or an error (${codes}), \`errmsg\` in the caller's language.`,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                errcode: { type: 'integer', enum: Object.values(RobotErrcodes) },
                errmsg: { type: 'string' },
              },
              required: ['errcode', 'errmsg'],
            },
          },
        },
      },
    },
    security: [],
  };
}

/** A bot's outgoing webhook: the event Sparrow POSTs, signed with the Standard Webhooks scheme. */
function botWebhook(described: Map<unknown, string>): Json {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return {
    operationId: 'botMessage',
    tags: ['bot'],
    summary: 'A message sent to a bot, or naming it in a group, POSTed to the bot’s webhook',
    description: `Signed with the Standard Webhooks scheme and the bot's \`whsec_…\` secret. Any 2xx within ${BOT_DELIVERY_TIMEOUT_MS / 1000} s delivers it; anything else is tried again after ${BOT_RETRY_DELAYS_MS.map((ms) => `${ms / 1000} s`).join(', ')}, then given up; ${BOT_FAILURES_MAX} failures in a row turn the webhook off.`,
    parameters: [
      header('webhook-id', 'The event’s id (`msg_<msg_id>`), the same for every try'),
      header('webhook-timestamp', 'When this try was sent, seconds since 1970'),
      header('webhook-signature', '`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` with the secret'),
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: schemaOf(BotEventSchema, 'output', described) } },
    },
    responses: { '200': { description: 'Any 2xx: delivered' } },
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP API: every route of the protocol's route table (and its
 * aliases), its body as JSON Schema from the zod schema the server validates with, its answer in
 * the envelope, the codes an answer may carry, with the protocol's doc comments as descriptions.
 */
export async function buildOpenApi(version: string): Promise<Json> {
  const ts = (await import('typescript')).default;
  const docs = readDocs(ts);
  const exported = Object.entries(protocol) as Array<[string, unknown]>;
  const described = new Map<unknown, string>();
  for (const [name, value] of exported) {
    const doc = docs.exports.get(name);
    if (doc && value instanceof z.ZodType) described.set(value, doc);
  }
  const components: Record<string, Json> = { Envelope: ENVELOPE, ErrorName: ERROR_NAMES };
  const entity = (name: string): Json | undefined => {
    const schema = (protocol as Record<string, unknown>)[`${name}Schema`];
    if (!(schema instanceof z.ZodType)) return undefined;
    if (!components[name]) {
      components[name] = schemaOf(schema, 'output', described);
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  const paths: Record<string, Json> = {};
  for (const name of Object.keys(routes) as RouteName[]) {
    const def = routes[name];
    const entry = docs.routes.get(name);
    const bodyName = entry?.body;
    const body = schemaOf(def.body, 'input', described);
    describeFields(body, bodyName ? docs.fields.get(bodyName) : undefined);
    const bodyDoc = bodyName ? docs.exports.get(bodyName) : undefined;
    const answer = docs.responses.get(name);
    const data = answer ? dataSchema(ts, answer.type, entity) : {};
    const content = def.multipart
      ? {
          'multipart/form-data': {
            schema: {
              ...body,
              type: 'object',
              properties: {
                ...(body.properties as Json | undefined),
                file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file' },
              },
              required: [...((body.required as string[] | undefined) ?? []), 'file'],
            },
          },
        }
      : { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } };
    const errors = ['400 Validation (`data.fields` names the bad fields)', '403/404 not allowed or not found'];
    if (!def.public) {
      errors.unshift('-1 no session: sign in again');
      if (!BEFORE_PASSWORD_CHANGE.has(name))
        errors.push('403 PasswordChangeRequired while an admin-set password is unchanged');
    }
    if (def.admin) errors.push('403 Forbidden to anyone whose role is not admin');
    const scope = ROUTE_SCOPES[name];
    if (!def.public) errors.push('403 TokenScope to a personal access token without the scope');
    const tokenNote = def.public
      ? undefined
      : scope
        ? `A personal access token needs the \`${scope}\` scope.`
        : 'No personal access token may call this: a session only.';
    const operation: Json = {
      operationId: name,
      tags: [tagOf(def.path)],
      summary: entry?.doc?.split('\n')[0] ?? name,
      description: [def.admin && ADMIN_ONLY, entry?.doc, bodyDoc, answer?.doc && `Answers: ${answer.doc}`, tokenNote]
        .filter(Boolean)
        .join('\n\n'),
      requestBody: { required: true, content },
      responses: {
        '200': {
          description: `The envelope: \`code\` 0 and \`data\`, or an error code (${errors.join('; ')}).`,
          content: {
            'application/json': {
              schema: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { properties: { data } }] },
            },
          },
        },
        '429': { $ref: '#/components/responses/TooMany' },
        '500': { $ref: '#/components/responses/ServerError' },
        '503': { $ref: '#/components/responses/Unavailable' },
      },
      ...(def.public ? { security: [] } : { security: [{ session: [] }, ...(scope ? [{ token: [scope] }] : [])] }),
      ...(def.admin ? { 'x-admin': true } : {}),
      ...(scope ? { 'x-token-scope': scope } : {}),
    };
    // A path segment `:name` (the scan paths) is an OpenAPI path parameter `{name}`.
    const params = [...def.path.matchAll(/:([A-Za-z]+)/g)].map(([, param]) => ({
      name: param,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (params.length) operation.parameters = params;
    for (const url of [def.path, ...(routeAliases[name] ?? [])]) {
      paths[url.replace(/:([A-Za-z]+)/g, '{$1}')] = {
        post: url === def.path ? operation : { ...operation, operationId: `${name}Alias` },
      };
    }
  }

  paths[ROBOT_WEBHOOK_PATH] = { post: robotWebhook(described) };
  // What Sparrow itself POSTs: a bot's outgoing webhook (docs/protocol.md §11).
  const webhooks = { botMessage: { post: botWebhook(described) } };

  const errorAnswer = (description: string): Json => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sparrow IM',
      version,
      description:
        'The HTTP API of a Sparrow server. Every call is a POST with a JSON (or form-encoded) body and answers the envelope. Pushes arrive over the WebSocket (docs/protocol.md §4), not described here.',
    },
    paths,
    webhooks,
    components: {
      schemas: components,
      responses: {
        TooMany: errorAnswer('A rate limit refused the call (code 429); `msg` says how many seconds to wait'),
        ServerError: errorAnswer('An unexpected error (code 502); `msg` names the request id for the logs'),
        Unavailable: errorAnswer('A part of the server is out of service for now (code 503), e.g. full upload storage'),
      },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The `authToken` of login (with or without `Bearer `)',
        },
        token: {
          type: 'http',
          scheme: 'bearer',
          description: `A personal access token (\`${TOKEN_PREFIX}…\`, made in Settings → 开发者) as \`Authorization: Bearer …\`: each operation names the scope it needs (\`x-token-scope\`; one of ${TOKEN_SCOPES.join(', ')}); one that names none takes a session only`,
        },
      },
    },
    security: [{ session: [] }],
  };
}
