import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { negotiateLocale, translate, type Locale, type MessageKey } from '@sparrow/protocol';
import type { ZipArchive } from 'archiver';
import { loadArchiver } from '../../lib/lazy';
import { parseJson } from '../../lib/text';
import type { Storage } from '../../storage/storage';
import type { UserRow } from '../user';
import type { ExportRepo } from './export-repo';

/** What writing an archive reports: the share of the work done, 0–1. */
export type OnProgress = (share: number) => Promise<void>;

type SentRow = Awaited<ReturnType<ExportRepo['sentPage']>>[number];
type SentFile = Awaited<ReturnType<ExportRepo['sentFiles']>>[number];

/** `&`, `<`, `>`, quotes: text placed in the page as text, never as markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A stored file's name inside the archive. */
const fileName = (f: { id: number; ext: string }) => `files/${f.id}.${f.ext.replace(/[^a-z0-9]/gi, '') || 'bin'}`;

const chatType = (t: number) => (t === 1 ? 'group' : t === 0 ? 'private' : 'self');

/** A sent message as the archive keeps it: its chat, type, text, facts, file and time. */
function sentMessage(m: SentRow) {
  return {
    msg_id: m.id,
    chat: { type: chatType(m.chat_type), id: m.to_id, name: m.group_name ?? m.peer_name ?? '' },
    type: m.type,
    content: m.content,
    extends: parseJson(m.extends),
    file: m.file_id ? fileName({ id: m.file_id, ext: m.file_ext ?? '' }) : null,
    create_time: m.create_time,
  };
}

/**
 * Writes the archive of a user's data into `storage`: JSON files of their profile, friends,
 * groups, sent messages, moments and favourites, an `index.html` showing the same (text escaped,
 * no script), and the files they sent, each read from the store as a stream. It is stored under a
 * key of its own (`Storage.putPrivate`), never served under `/storage`. Messages and files are
 * read page by page and the archive is staged to a temporary file as it is made, so nothing of it
 * is held whole in memory. Answers the stored key and size.
 */
export async function writeArchive(
  repo: ExportRepo,
  storage: Storage,
  user: UserRow,
  now: number,
  onProgress: OnProgress,
): Promise<{ key: string; size: number }> {
  const { ZipArchive } = await loadArchiver();
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const staging = storage.stage(zip);
  // Whatever fails first stops both sides: the archive's writer and the staging reading it.
  staging.catch(() => zip.abort());
  const locale = negotiateLocale(user.language || undefined);
  const counts = await repo.sentCounts(user.id);
  const total = 4 + counts.messages * 2 + counts.files;
  let done = 0;
  const step = async (n: number) => {
    done += n;
    await onProgress(Math.min(1, done / Math.max(1, total)));
  };

  const profile = {
    user_id: user.id,
    account: user.account,
    realname: user.realname,
    email: user.email,
    phone: user.phone,
    sex: user.sex,
    motto: user.motto,
    avatar: user.avatar,
    language: user.language,
    create_time: user.create_time,
  };
  const friends = await repo.friends(user.id);
  const groups = await repo.groups(user.id);
  const moments = await repo.moments(user.id);
  const momentsJson = moments.posts.map((p) => ({
    ...p,
    location: parseJson(p.location),
    images: moments.images.filter((i) => i.post_id === p.id).map((i) => fileName({ id: i.file_id, ext: i.ext })),
    comments: moments.comments.filter((c) => c.post_id === p.id),
  }));
  const favourites = (await repo.favourites(user.id)).map((f) => ({ ...f, body: parseJson(f.body) }));

  try {
    await add(zip, JSON.stringify(profile, null, 2), 'profile.json');
    await add(zip, JSON.stringify(friends, null, 2), 'contacts.json');
    await add(zip, JSON.stringify(groups, null, 2), 'groups.json');
    await add(zip, JSON.stringify(momentsJson, null, 2), 'moments.json');
    await add(zip, JSON.stringify(favourites, null, 2), 'favorites.json');
    await step(4);
    await add(zip, Readable.from(messagesJson(repo, user.id, step)), 'messages.json');
    await add(
      zip,
      Readable.from(indexHtml(repo, { user, locale, now, friends, groups, moments: momentsJson, favourites }, step)),
      'index.html',
    );
    const written = new Set<number>();
    for await (const file of sentFiles(repo, user.id)) {
      const opened = file.storage_key ? await storage.open(file.storage_key) : null;
      if (opened) await add(zip, opened.stream, fileName(file));
      written.add(file.id);
      await step(1);
    }
    for (const image of moments.images) {
      if (written.has(image.file_id)) continue;
      written.add(image.file_id);
      const opened = image.storage_key ? await storage.open(image.storage_key) : null;
      if (opened) await add(zip, opened.stream, fileName({ id: image.file_id, ext: image.ext }));
    }
    await zip.finalize();
  } catch (err) {
    zip.abort();
    await staging.then((f) => fs.rm(f.path, { force: true })).catch(() => undefined);
    throw err;
  }
  const staged = await staging;
  try {
    // A key of its own: removing the archive later never removes an upload of the same bytes.
    const key = await storage.putPrivate(staged, 'zip');
    return { key, size: staged.size };
  } finally {
    await fs.rm(staged.path, { force: true }).catch(() => undefined);
  }
}

/** Adds one entry and waits until the archive has taken it, so that only one file is open at a time. */
function add(zip: ZipArchive, source: Readable | string, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('error', onError);
      zip.off('close', onClose);
    };
    const onEntry = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the archive closed before its entries were written'));
    };
    zip.on('entry', onEntry);
    zip.on('error', onError);
    zip.on('close', onClose);
    zip.append(source, { name, date: new Date(0) });
  });
}

/** messages.json, page by page: a JSON array of the messages the user sent. */
async function* messagesJson(repo: ExportRepo, userId: number, step: (n: number) => Promise<void>) {
  yield '[';
  let after = 0;
  let first = true;
  for (;;) {
    const page = await repo.sentPage(userId, after);
    for (const m of page) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(sentMessage(m))}`;
      first = false;
    }
    if (page.length) await step(page.length);
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
  }
  yield '\n]\n';
}

async function* sentFiles(repo: ExportRepo, userId: number): AsyncGenerator<SentFile> {
  let after = 0;
  for (;;) {
    const page = await repo.sentFiles(userId, after);
    if (page.length === 0) return;
    yield* page;
    after = page[page.length - 1]!.id;
  }
}

interface PageFacts {
  user: UserRow;
  locale: Locale;
  now: number;
  friends: Awaited<ReturnType<ExportRepo['friends']>>;
  groups: Awaited<ReturnType<ExportRepo['groups']>>;
  moments: Array<{
    content: string;
    create_time: number;
    images: string[];
    comments: Array<{ realname: string; content: string; create_time: number }>;
  }>;
  favourites: Array<{ type: string; body: Record<string, unknown>; create_time: number }>;
}

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/**
 * index.html: the archive read in a browser. Every text is escaped; the page holds no script and
 * forbids any (its own Content-Security-Policy), and links only to the files beside it.
 */
async function* indexHtml(repo: ExportRepo, f: PageFacts, step: (n: number) => Promise<void>) {
  const say = (key: MessageKey, params?: Record<string, string>) => escapeHtml(translate(f.locale, key, params));
  const e = escapeHtml;
  yield `<!doctype html>
<html lang="${e(f.locale)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' files/; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${say('export.title', { name: f.user.realname })}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:860px;margin:0 auto;padding:16px;color:#222}
h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #eee;padding:4px 8px;text-align:left;vertical-align:top}.t{color:#666;white-space:nowrap}
img{max-width:160px;max-height:160px}</style></head><body>
<h1>${say('export.title', { name: f.user.realname })}</h1>
<p class="t">${say('export.generated', { time: time(f.now) })}</p>
<h2>${say('export.profile')}</h2><table>
<tr><th>ID</th><td>${f.user.id}</td></tr>
<tr><th>${say('field.account')}</th><td>${e(f.user.account)}</td></tr>
<tr><th>${say('field.realname')}</th><td>${e(f.user.realname)}</td></tr>
<tr><th>${say('field.email')}</th><td>${e(f.user.email)}</td></tr>
<tr><th>${say('field.phone')}</th><td>${e(f.user.phone)}</td></tr>
<tr><th>${say('field.motto')}</th><td>${e(f.user.motto)}</td></tr>
</table>
<h2>${say('export.contacts')}</h2><table>
${f.friends.map((p) => `<tr><td>${e(p.nickname || p.realname)}</td><td>${e(p.account)}</td><td class="t">${time(p.create_time)}</td></tr>`).join('\n')}
</table>
<h2>${say('export.groups')}</h2><table>
${f.groups.map((g) => `<tr><td>${e(g.name)}</td><td class="t">${time(g.join_time)}</td></tr>`).join('\n')}
</table>
<h2>${say('export.moments')}</h2>
${f.moments
  .map(
    (p) =>
      `<article><p class="t">${time(p.create_time)}</p><p>${e(p.content)}</p>${p.images
        .map((src) => `<a href="${e(src)}">${e(src)}</a> `)
        .join('')}${
        p.comments.length
          ? `<ul>${p.comments.map((c) => `<li>${e(c.realname)}: ${e(c.content)}</li>`).join('')}</ul>`
          : ''
      }</article>`,
  )
  .join('\n')}
<h2>${say('export.favorites')}</h2><table>
${f.favourites
  .map(
    (v) =>
      `<tr><td class="t">${time(v.create_time)}</td><td>${e(v.type)}</td><td>${e(typeof v.body.content === 'string' ? v.body.content : '')}</td></tr>`,
  )
  .join('\n')}
</table>
<h2>${say('export.messages')}</h2><table>
`;
  let after = 0;
  for (;;) {
    const page = await repo.sentPage(f.user.id, after);
    if (page.length === 0) break;
    let rows = '';
    for (const m of page) {
      const shown = sentMessage(m);
      const body = shown.file ? `<a href="${e(shown.file)}">${e(m.content)}</a>` : e(m.content);
      rows += `<tr><td class="t">${time(m.create_time)}</td><td>${e(shown.chat.name)}</td><td>${e(m.type)}</td><td>${body}</td></tr>\n`;
    }
    yield rows;
    await step(page.length);
    after = page[page.length - 1]!.id;
  }
  yield '</table>\n</body></html>\n';
}
