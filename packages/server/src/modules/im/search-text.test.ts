import { describe, expect, it } from 'vitest';
import {
  highlights,
  queryTerms,
  readerTokens,
  SEARCHED_TYPES,
  searchText,
  termQuery,
  whoTokens,
  wordTokens,
} from './search-text';

describe('searchText', () => {
  it('searches text, files, places, cards, merged records, chains and polls only', () => {
    expect([...SEARCHED_TYPES]).toEqual(['text', 'file', 'location', 'contact', 'record', 'chain', 'poll']);
  });

  it('keeps a text message content as it is, whatever its extends say', () => {
    expect(searchText('text', 'Hello 世界\nagain', '')).toBe('Hello 世界\nagain');
    expect(searchText('text', '[位置]', '{"name":"Somewhere"}')).toBe('[位置]');
    expect(searchText('text', '', '{}')).toBe('');
  });

  it.each([
    ['a file by its name', 'file', '{"name":"budget.xlsx","size":1024}', 'budget.xlsx'],
    [
      'a place by its name and address, a line each',
      'location',
      '{"name":"天安门","address":"北京市东城区","lat":39.9}',
      '天安门\n北京市东城区',
    ],
    ['a place with no name by its address', 'location', '{"address":"北京市东城区"}', '北京市东城区'],
    ['a place with no address by its name', 'location', '{"name":"天安门"}', '天安门'],
    ['a card by its display name', 'contact', '{"displayName":"Alice","name":"x"}', 'Alice'],
    [
      'a merged record by its title',
      'record',
      '{"title":"张三和李四的聊天记录","record_id":1}',
      '张三和李四的聊天记录',
    ],
    ['a poll by its question', 'poll', '{"question":"午饭吃什么","options":[{"text":"面","count":0}]}', '午饭吃什么'],
  ])('finds %s, not by its content', (_, type, ext, words) => {
    expect(searchText(type, type === 'file' ? 'content' : '[label]', ext)).toBe(words);
  });

  it('does not search the labels of places and cards', () => {
    expect(searchText('location', '[位置]', '{}')).toBe('');
    expect(searchText('contact', '[个人名片]', '{}')).toBe('');
    expect(searchText('location', '[位置]', '{"name":"西湖","address":"杭州"}')).not.toContain('位置');
    expect(searchText('contact', '[个人名片]', '{"displayName":"王五"}')).not.toContain('名片');
  });

  it('drops names that are missing, empty or not strings', () => {
    expect(searchText('file', 'x', '{"name":42}')).toBe('');
    expect(searchText('file', 'x', '{"name":null}')).toBe('');
    expect(searchText('file', 'x', '{"name":""}')).toBe('');
    expect(searchText('location', 'x', '{"name":["a"],"address":"B Street"}')).toBe('B Street');
    expect(searchText('contact', 'x', '{"displayName":{"first":"A"}}')).toBe('');
  });

  it('finds nothing in extends that are not a JSON object', () => {
    for (const ext of ['', 'not json', '[1,2]', 'null', '"name"', '{"name":']) {
      expect(searchText('file', 'report.pdf', ext), ext).toBe('');
    }
  });

  it('gives no words for the kinds that are not searched', () => {
    for (const type of ['image', 'voice', 'video', 'emoji', 'webrtc', 'event', 'TEXT', '']) {
      expect(searchText(type, 'hello', '{"name":"hello","displayName":"hello"}'), type).toBe('');
    }
  });
});

describe('wordTokens', () => {
  it.each<[string, string, string[]]>([
    ['words split on spaces and punctuation', 'Hello, world! 3.14 a_b-c', ['hello', 'world', '3', '14', 'a', 'b', 'c']],
    ['words of letters and digits together', 'iPhone15 A1b2', ['iphone15', 'a1b2']],
    ['words lower-cased', 'ΣΊΣΥΦΟΣ Привет İstanbul', ['σισυφος', 'привет', 'istanbul']],
    ['words without accents', 'Café naïve résumé', ['cafe', 'naive', 'resume']],
    ['words with a combining accent folded like a composed one', 'cafe\u0301', ['cafe']],
    ['words without width', 'ＣＡＦＥ ＡＢＣ１２３', ['cafe', 'abc123']],
    ['compatibility forms as their letters and digits', 'ﬁle x² 𝐀𝐁', ['file', 'x2', 'ab']],
    ['a run of Chinese as its pairs and its last character', '我想喝咖啡', ['我想', '想喝', '喝咖', '咖啡', '啡']],
    ['one Chinese character alone', '中', ['中']],
    ['two Chinese characters as one pair and the last', '咖啡', ['咖啡', '啡']],
    ['Chinese punctuation as a separator', '你好，世界。「再见」', ['你好', '好', '世界', '界', '再见', '见']],
    [
      'Japanese kana and marks shared with Chinese in a run',
      '東京タワー 時々',
      ['東京', '京タ', 'タワ', 'ワー', 'ー', '時々', '々'],
    ],
    ['half-width kana as full-width', 'ﾊﾟﾝ', ['パン', 'ン']],
    ['Korean as runs of pairs', '서울 시청', ['서울', '울', '시청', '청']],
    ['supplementary ideographs as Chinese', '𠮷野家', ['𠮷野', '野家', '家']],
    [
      'a word between Chinese as its own token',
      '新买的iPhone15手机壳',
      ['新买', '买的', '的', 'iphone15', '手机', '机壳', '壳'],
    ],
    ['full-width digits before Chinese as a word', '２０２４年', ['2024', '年']],
    ['lines and tabs as separators', '中文\nEnglish\tmix', ['中文', '文', 'english', 'mix']],
  ])('gives %s', (_, text, tokens) => {
    expect(wordTokens(text)).toEqual(tokens);
  });

  it('gives each token once, in the order it first occurs', () => {
    expect(wordTokens('ab AB Ab ab')).toEqual(['ab']);
    expect(wordTokens('好的 好的')).toEqual(['好的', '的']);
    expect(wordTokens('中文中文')).toEqual(['中文', '文中', '文']);
    expect(wordTokens('b a b')).toEqual(['b', 'a']);
  });

  it('gives no tokens for empty text, spaces, punctuation or emoji', () => {
    for (const text of ['', '   ', '\n\t', '!?,.;:…', '、。「」・〜', '🎉🎉', '👨‍👩‍👧', '🇨🇳', '❤️', '⌚']) {
      expect(wordTokens(text), text).toEqual([]);
    }
  });

  it('treats emoji as a separator between words', () => {
    expect(wordTokens('hello👍world')).toEqual(['hello', 'world']);
    expect(wordTokens('好的👍')).toEqual(['好的', '的']);
  });

  it('drops a mark that stands outside any word', () => {
    expect(wordTokens('中\u0301')).toEqual(['中']);
    expect(wordTokens('1️⃣')).toEqual(['1']);
  });

  it('keeps every token as a single word with no spaces, which the index splits on', () => {
    const tokens = wordTokens('Hello 世界 — naïve\u00a0café\u3000東京タワー 2024年');
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(token).toMatch(/^\S+$/u);
  });

  it('keeps a long word whole', () => {
    expect(wordTokens('a'.repeat(10_000))).toEqual(['a'.repeat(10_000)]);
  });

  it('gives each distinct token of a very long text once', () => {
    expect(wordTokens('word '.repeat(100_000))).toEqual(['word']);
    expect(wordTokens('我想喝咖啡'.repeat(10_000))).toEqual(['我想', '想喝', '喝咖', '咖啡', '啡我', '啡']);
  });
});

describe('termQuery', () => {
  it.each([
    ['a Latin word, as a prefix', 'Caf', { tokens: [{ token: 'caf', prefix: true }], recheck: false }],
    ['a word folded like the index', 'ＣＡＦÉ', { tokens: [{ token: 'cafe', prefix: true }], recheck: false }],
    [
      'one Chinese character, as the start of a pair',
      '咖',
      { tokens: [{ token: '咖', prefix: true }], recheck: false },
    ],
    ['a pair of Chinese characters, as itself', '咖啡', { tokens: [{ token: '咖啡', prefix: false }], recheck: false }],
    [
      'a longer run of Chinese, by all its pairs and checked again',
      '我想喝咖啡',
      {
        tokens: [
          { token: '我想', prefix: false },
          { token: '想喝', prefix: false },
          { token: '喝咖', prefix: false },
          { token: '咖啡', prefix: false },
        ],
        recheck: true,
      },
    ],
    [
      'a word and Chinese, checked again to stand together',
      'iPhone15手机',
      {
        tokens: [
          { token: 'iphone15', prefix: true },
          { token: '手机', prefix: false },
        ],
        recheck: true,
      },
    ],
    [
      'two words split by punctuation, checked again to stand together',
      'budget.txt',
      {
        tokens: [
          { token: 'budget', prefix: true },
          { token: 'txt', prefix: true },
        ],
        recheck: true,
      },
    ],
    [
      'a word with punctuation around it, not checked again',
      '¿qué?',
      { tokens: [{ token: 'que', prefix: true }], recheck: false },
    ],
  ])('finds %s', (_, term, query) => {
    expect(termQuery(term)).toEqual(query);
  });

  it('is undefined for a term with neither letters nor digits', () => {
    for (const term of ['', '!!!', '%_"\'', '👍', '🎉🎉', '。', '—']) expect(termQuery(term), term).toBeUndefined();
  });

  it('asks for tokens the index holds for a text with the term in it', () => {
    const text = '明天去东京タワー看看 Café-Bar iPhone15手机';
    const tokens = new Set(wordTokens(text));
    for (const term of ['东京', '东', 'タワー', 'café', 'CAF', 'bar', 'iphone', '手机', 'iPhone15手机']) {
      const query = termQuery(term)!;
      for (const { token, prefix } of query.tokens) {
        const held = prefix ? [...tokens].some((t) => t.startsWith(token)) : tokens.has(token);
        expect(held, `${term}: ${token}`).toBe(true);
      }
    }
  });
});

describe('whoTokens and readerTokens', () => {
  it('lets both sides of a private chat find its messages', () => {
    expect(whoTokens(0, 3, 9)).toEqual(['_u3', '_u9']);
  });

  it('lets only me find a message of my own chat', () => {
    expect(whoTokens(0, 7, 7)).toEqual(['_u7']);
  });

  it('lets the group find a group message, not its sender', () => {
    expect(whoTokens(1, 3, 42)).toEqual(['_g42']);
  });

  it('gives a reader their own token and one for each of their groups', () => {
    expect(readerTokens(5, [])).toEqual(['_u5']);
    expect(readerTokens(5, [1, 42])).toEqual(['_u5', '_g1', '_g42']);
  });

  it('gives a reader a token of every message they may find', () => {
    const reader = new Set(readerTokens(3, [42]));
    for (const who of [whoTokens(0, 3, 9), whoTokens(0, 9, 3), whoTokens(0, 3, 3), whoTokens(1, 9, 42)]) {
      expect(who.some((t) => reader.has(t))).toBe(true);
    }
    for (const who of [whoTokens(0, 8, 9), whoTokens(1, 3, 41)]) expect(who.some((t) => reader.has(t))).toBe(false);
  });
});

describe('queryTerms', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['   ', []],
    ['hello', ['hello']],
    ['  a  b ', ['a', 'b']],
    ['x\ty\nz', ['x', 'y', 'z']],
    ['\u3000咖啡\u3000手机', ['咖啡', '手机']],
    ['a b a', ['a', 'b']],
  ])('splits %j into %j', (keywords, terms) => {
    expect(queryTerms(keywords)).toEqual(terms);
  });

  it('keeps a word once, ignoring case, as it was first typed', () => {
    expect(queryTerms('Café CAFÉ café Bar')).toEqual(['Café', 'Bar']);
  });

  it('keeps punctuation and emoji inside a term', () => {
    expect(queryTerms('budget.txt 👍 "quoted"')).toEqual(['budget.txt', '👍', '"quoted"']);
  });
});

describe('highlights', () => {
  it('gives the UTF-16 offsets of every occurrence of a term, case ignored', () => {
    expect(highlights('Hello hello HELLO', ['hello'])).toEqual([
      [0, 5],
      [6, 11],
      [12, 17],
    ]);
    expect(highlights('ΣΑΣ σας', ['σας'])).toEqual([
      [0, 3],
      [4, 7],
    ]);
  });

  it('counts characters beyond the BMP as two UTF-16 units', () => {
    expect(highlights('😀a😀', ['a'])).toEqual([[2, 3]]);
    expect(highlights('𠮷野家', ['野家'])).toEqual([[2, 4]]);
  });

  it('sorts the spans of several terms by where they start', () => {
    expect(highlights('abc', ['c', 'a'])).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('merges spans that overlap, contain one another or touch', () => {
    expect(highlights('abcdef', ['abc', 'cde'])).toEqual([[0, 5]]);
    expect(highlights('abcdef', ['abc', 'b'])).toEqual([[0, 3]]);
    expect(highlights('abcdef', ['abc', 'def'])).toEqual([[0, 6]]);
    expect(highlights('咖啡咖啡', ['咖啡'])).toEqual([[0, 4]]);
  });

  it('looks for a term as it is, not as a regular expression', () => {
    expect(highlights('a.b a+b axb', ['.', 'a+b'])).toEqual([
      [1, 2],
      [4, 7],
    ]);
    expect(highlights('x(y)z a\\b', ['(y)', '\\'])).toEqual([
      [1, 4],
      [7, 8],
    ]);
    expect(highlights('price $5 ^_^ a|b [x] {2}', ['$5', '^_^', '|', '[x]', '{2}', '*'])).toEqual([
      [6, 8],
      [9, 12],
      [14, 15],
      [17, 20],
      [21, 24],
    ]);
  });

  it('gives nothing when no term occurs, or there are no terms', () => {
    expect(highlights('hello', ['bye'])).toEqual([]);
    expect(highlights('hello', [])).toEqual([]);
    expect(highlights('', ['hello'])).toEqual([]);
  });
});
