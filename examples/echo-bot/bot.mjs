/**
 * An example Sparrow bot (docs/protocol.md §11): a webhook receiver that answers each message its
 * bot is sent, or named in, through the API with the bot's token.
 *
 *   SPARROW_URL=http://localhost:8000 SPARROW_BOT_TOKEN=spt_… SPARROW_WEBHOOK_SECRET=whsec_… \
 *     HOST=0.0.0.0 PORT=8787 npm run example:bot
 *
 * (HOST=0.0.0.0: any address of this machine; the default, 127.0.0.1, this machine only.) Then set
 * the bot's webhook to http://<this machine>:8787/ on its page (Settings → 开发者 →
 * 机器人). Every delivery's Standard Webhooks signature is checked before anything is done with it.
 *
 * What it answers: `/help`; `/remind <seconds> <text>`, which it posts back once the seconds have
 * passed (kept in memory, a few per sender); anything else, repeated. In a group it names the sender.
 */
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

/** The largest delivery read, bytes. */
const BODY_MAX = 1024 * 1024;
/** The longest reminder, seconds. */
const REMIND_MAX_S = 24 * 3600;
/** Reminders waiting at once, per sender and in all: they live in this process's memory only. */
const REMINDERS_PER_SENDER = 5;
const REMINDERS_MAX = 200;

const env = (name, fallback) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === '') {
    console.error(`echo bot: ${name} is not set (see examples/echo-bot/README.md)`);
    process.exit(2);
  }
  return value;
};

const base = env('SPARROW_URL').replace(/\/+$/, '');
const token = env('SPARROW_BOT_TOKEN');
const webhook = new Webhook(env('SPARROW_WEBHOOK_SECRET'));
const port = Number(env('PORT', '8787'));
const host = env('HOST', '127.0.0.1');

/** Calls a route of the Sparrow API as the bot; answers `data`, throws on an error envelope. */
async function call(path, body) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const envelope = await res.json();
  if (envelope.code !== 0) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/**
 * Sends a text where the event says to answer; `id` makes a delivery tried again answer once
 * (the server stores one message per id and sender).
 */
function reply(event, id, content) {
  const { reply_to, is_group, message } = event.data;
  const at = is_group ? [message.from.id] : [];
  const text = is_group ? `@${message.from.name} ${content}` : content;
  return call('/enterprise/im/sendMessage', { id, toContactId: reply_to, type: 'text', content: text, at });
}

/** The bot's own name, read once with its token: a group's text names it as `@<name>`. */
const me = await call('/common/Pub/checkuser', {});
const mention = `@${me.realname}`;

/** Reminders waiting, per sender. */
const waiting = new Map();

/** What the bot says to a message: its answer now, and a reminder later. */
function answerTo(message) {
  if (message.type !== 'text') return { now: `收到一条 ${message.type} 消息` };
  // In a group the text names the bot: what is left is what was said to it.
  const said = message.content.split(mention).join(' ').trim();
  if (said === '/help' || said === '帮助') return { now: '我会重复你说的话。/remind <秒数> <内容>：到时提醒你。' };
  const remind = /^\/remind\s+(\d{1,6})\s+(.+)$/s.exec(said);
  if (remind) {
    const seconds = Math.min(Number(remind[1]), REMIND_MAX_S);
    return { now: `好的，${seconds} 秒后提醒你`, later: { seconds, text: `⏰ ${remind[2]}` } };
  }
  return { now: said || message.content };
}

async function handle(event, eventId) {
  if (event.type !== 'message') return;
  const { reply_to, is_group, message } = event.data;
  // Read, as a person who answers would have: its sender sees 已读. An answer does not wait on it.
  call('/enterprise/im/setMsgIsRead', { toContactId: reply_to, is_group, msg_id: message.msg_id }).catch((err) =>
    console.error('echo bot: read mark failed:', err.message),
  );
  const answer = answerTo(message);
  const sender = message.from.id;
  const held = waiting.get(sender) ?? 0;
  const total = [...waiting.values()].reduce((a, b) => a + b, 0);
  if (answer.later && (held >= REMINDERS_PER_SENDER || total >= REMINDERS_MAX)) {
    await reply(event, `echo-${eventId}`, `提醒太多了：每人最多 ${REMINDERS_PER_SENDER} 个`);
    return;
  }
  await reply(event, `echo-${eventId}`, answer.now);
  if (answer.later) {
    const { seconds, text } = answer.later;
    waiting.set(sender, held + 1);
    // Kept in memory only: a restart forgets what is waiting.
    setTimeout(() => {
      waiting.set(sender, (waiting.get(sender) ?? 1) - 1);
      if (!waiting.get(sender)) waiting.delete(sender);
      reply(event, `remind-${eventId}`, text).catch((err) => console.error('echo bot: reminder failed:', err.message));
    }, seconds * 1000).unref();
  }
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > BODY_MAX) {
      res.writeHead(413).end();
      req.destroy();
    } else chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > BODY_MAX) return;
    const body = Buffer.concat(chunks).toString('utf8');
    let event;
    try {
      event = webhook.verify(body, req.headers);
    } catch {
      res.writeHead(401).end('bad signature');
      return;
    }
    // Answered at once: the server waits for no reply, and tries again only what it could not deliver.
    res.writeHead(204).end();
    handle(event, String(req.headers['webhook-id'])).catch((err) => console.error('echo bot:', err.message));
  });
});

server.listen(port, host, () => {
  const { port: bound } = server.address();
  console.log(`echo bot listening on http://${host}:${bound}/`);
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
