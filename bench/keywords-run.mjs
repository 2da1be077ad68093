// The send path with and without keyword rules, in one process (run by keywords.mjs under tsx).
// Two servers on SQLite, one with a 10 000-word replace list, one with none; sendMessage's server
// time on each (app.inject: the route loop, drafting with the keyword screen, the store, the
// fan-out, the JSON), the same text sent to both in turns, KEYWORDS_ROUNDS (2 000) times. The
// texts are a chat's usual lines (12–80 characters, Chinese with some Latin), one in ten holding a
// word of the list. Then the matcher alone: ns per character on texts of 100 and 2 000 characters.
//
//   node --import tsx bench/keywords-run.mjs
import { randomUUID } from 'node:crypto';
import { KeywordMatcher } from '../packages/server/src/modules/keywords/matcher.ts';
import { BENCH_SETTINGS, cleanup, fmt, percentile, seed, table, tmpDir, verdict } from './lib.mjs';
import { inProcessApp } from './in-process.mjs';

const WORDS = 10_000;
const ROUNDS = Number(process.env.KEYWORDS_ROUNDS ?? 2000);
const WARMUP = 200;

/** A deterministic stream of numbers in [0, 1). */
let state = 42;
const rand = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const pick = (s) => s[Math.floor(rand() * s.length)];
/** 3 000 Chinese characters (U+4E00 on): a list's words are rare pairs and triples of them, as in a chat. */
const HAN = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + i * 7)).join('');
const LATIN = 'abcdefghijklmnopqrstuvwxyz';

function word(i) {
  if (i % 10 === 0) return `${pick(LATIN)}${pick(LATIN)}${pick(LATIN)}${pick(LATIN)}${pick(LATIN)}`;
  let w = '';
  const n = 2 + Math.floor(rand() * 3);
  for (let j = 0; j < n; j++) w += pick(HAN);
  // One in twenty is a pattern: two parts within a few characters.
  return i % 20 === 1 ? `${w.slice(0, 1)}*${w.slice(1)}` : w;
}
const words = [...new Set(Array.from({ length: WORDS * 1.2 }, (_, i) => word(i)))].slice(0, WORDS);

function line(i) {
  const n = 12 + Math.floor(rand() * 68);
  let t = '';
  for (let j = 0; j < n; j++) t += rand() < 0.1 ? pick(LATIN) : pick(HAN);
  return i % 10 === 0 ? `${t.slice(0, 6)}${words[i % words.length].replace('*', '')}${t.slice(6)}` : t;
}

/** A server of its own data folder, with three friends seeded. */
async function server(name) {
  const dataDir = tmpDir(name);
  const users = await seed({ dataDir, users: 3, settings: BENCH_SETTINGS, friends: 2 });
  const built = await inProcessApp({ dataDir });
  return { ...built, users };
}

async function send(srv, content) {
  const [alice, bob] = srv.users;
  const res = await srv.app.inject({
    method: 'POST',
    url: '/enterprise/im/sendMessage',
    headers: { 'content-type': 'application/json', authorization: alice.token },
    payload: JSON.stringify({ id: randomUUID(), toContactId: bob.id, type: 'text', content }),
  });
  const json = res.json();
  if (json.code !== 0 || !json.data.msg_id) throw new Error(`sendMessage: ${json.code} ${json.msg}`);
}

// Two servers in this process, sent to in turns so that both meet the same machine: one without
// keyword lists, one with the 10 000 words of a replace list.
const plain = await server('keywords-off');
const listed = await server('keywords-on');
const list = await listed.services.keywordAdmin.createList({ name: 'bench', action: 'replace' });
const added = await listed.services.keywordAdmin.addWords({ list_id: list.id, words: words.join('\n') });
if (added.added !== WORDS || listed.ctx.keywords.size !== WORDS) throw new Error(`${added.added} words added`);

const times = { off: [], on: [] };
for (let i = 0; i < WARMUP + ROUNDS; i++) {
  const content = line(i);
  for (const [name, srv] of i % 2
    ? [
        ['on', listed],
        ['off', plain],
      ]
    : [
        ['off', plain],
        ['on', listed],
      ]) {
    const t0 = performance.now();
    await send(srv, content);
    if (i >= WARMUP) times[name].push(performance.now() - t0);
  }
}
let starred = 0;
for (let i = 0; i < 100; i++) if (listed.ctx.keywords.screen(line(i)).action === 'replace') starred++;

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const p = (xs, q) => percentile(xs, q / 100);
table([
  ['sendMessage, ms', 'mean', 'p50', 'p99'],
  ['no keyword list', fmt(mean(times.off), 3), fmt(p(times.off, 50), 3), fmt(p(times.off, 99), 3)],
  [`${WORDS} words on`, fmt(mean(times.on), 3), fmt(p(times.on, 50), 3), fmt(p(times.on, 99), 3)],
]);
const addedUs = (p(times.on, 50) - p(times.off, 50)) * 1000;
const addedMeanUs = (mean(times.on) - mean(times.off)) * 1000;
console.log(
  `with/without p50: ${fmt(p(times.on, 50) / p(times.off, 50))}×; added per send: p50 ${fmt(addedUs, 0)} µs, mean ${fmt(addedMeanUs, 0)} µs (${ROUNDS} sends each; ${starred} of 100 lines hold a word)`,
);

// The matcher alone.
const matcher = new KeywordMatcher(words.map((w) => ({ word: w, action: 'replace' })));
const t0 = performance.now();
new KeywordMatcher(words.map((w) => ({ word: w, action: 'replace' })));
const buildMs = performance.now() - t0;
const rows = [['matcher alone', 'ns/char', 'µs/text']];
for (const size of [100, 2000]) {
  const texts = Array.from({ length: 50 }, (_, i) => {
    let t = '';
    while (t.length < size) t += line(i);
    return t.slice(0, size);
  });
  for (const t of texts) matcher.screen(t);
  const rounds = size === 100 ? 200 : 20;
  const s0 = performance.now();
  for (let r = 0; r < rounds; r++) for (const t of texts) matcher.screen(t);
  const us = ((performance.now() - s0) * 1000) / (rounds * texts.length);
  rows.push([`${size} characters`, fmt((us * 1000) / size, 0), fmt(us, 1)]);
}
table(rows);
console.log(
  `building the matcher of ${WORDS} words: ${fmt(buildMs, 0)} ms (on start and after each change of the lists)`,
);
verdict(addedUs < 1000, `keywords: a ${WORDS}-word list adds ${fmt(addedUs, 0)} µs to a send's p50 (goal < 1000 µs)`);
await plain.app.close();
await listed.app.close();
await cleanup();
process.exit(0);
