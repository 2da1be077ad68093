import { describe, expect, it } from 'vitest';
import { foldText, KeywordMatcher, keywordProblem, type KeywordEntry } from './matcher';

const m = (...entries: Array<[string, KeywordEntry['action']]>) =>
  new KeywordMatcher(entries.map(([word, action]) => ({ word, action })));

describe('keyword matcher', () => {
  it('finds nothing with no words, and nothing in a clean text', () => {
    expect(m().screen('任何文字')).toEqual({ action: null, words: [], replaced: '任何文字' });
    expect(m(['赌博', 'refuse']).screen('今天天气很好')).toEqual({ action: null, words: [], replaced: '今天天气很好' });
  });

  it('stars a replace word, one * per character, emoji and all', () => {
    expect(m(['赌博', 'replace']).screen('不要赌博啊').replaced).toBe('不要**啊');
    expect(m(['🎰机', 'replace']).screen('玩🎰机了').replaced).toBe('玩**了');
  });

  it('takes the strongest action of the words found: refuse, then review, then replace', () => {
    const lists = m(['坏词', 'replace'], ['审核词', 'review'], ['禁词', 'refuse']);
    expect(lists.screen('坏词').action).toBe('replace');
    expect(lists.screen('坏词和审核词').action).toBe('review');
    expect(lists.screen('坏词和审核词和禁词').action).toBe('refuse');
    expect(lists.screen('坏词和审核词和禁词').words.sort()).toEqual(['坏词', '审核词', '禁词'].sort());
  });

  it('folds case and full-width letters, keeping the original text around the stars', () => {
    const lists = m(['BadWord', 'replace'], ['ｆｏｏ', 'replace']);
    expect(lists.screen('a ＢＡＤword here').replaced).toBe('a ******* here');
    expect(lists.screen('FOO!').replaced).toBe('***!');
    expect(foldText('ＡＢＣ　Ｄ')).toBe('abc d');
    expect(foldText('İx').length).toBe('İx'.length);
  });

  it('merges overlapping words into one starred run', () => {
    const lists = m(['abc', 'replace'], ['bcd', 'replace'], ['c', 'replace']);
    expect(lists.screen('xabcdy').replaced).toBe('x****y');
    expect(m(['he', 'replace'], ['she', 'replace'], ['hers', 'replace']).screen('ushers').replaced).toBe('u*****');
  });

  it('matches a pattern when its parts come in order within the gap', () => {
    const lists = m(['赌*博', 'refuse']);
    expect(lists.screen('赌博').action).toBe('refuse');
    expect(lists.screen('赌一把大博').action).toBe('refuse');
    expect(lists.screen('赌12345博').action).toBe('refuse');
    expect(lists.screen('赌123456博').action).toBeNull();
    expect(lists.screen('博赌').action).toBeNull();
    expect(m(['a*b*c', 'replace']).screen('xa1b22cx').replaced).toBe('x******x');
    // The first 赌 is too far from 博, the second is near enough.
    expect(m(['赌*博', 'replace']).screen('赌xxxxxxxx赌x博').replaced).toBe('赌xxxxxxxx***');
  });

  it('counts the gap in characters, not UTF-16 units', () => {
    expect(m(['a*b', 'refuse']).screen('a😀😀😀😀😀b').action).toBe('refuse');
    expect(m(['a*b', 'refuse']).screen('a😀😀😀😀😀😀b').action).toBeNull();
  });

  it('keeps a word once whatever lists name it, with each list’s action', () => {
    const lists = m(['重复', 'replace'], ['重复', 'review'], ['ＲＥＰ', 'replace'], ['rep', 'refuse']);
    expect(lists.size).toBe(2);
    const s = lists.screen('重复');
    expect(s).toEqual({ action: 'review', words: ['重复'], replaced: '**' });
    expect(lists.screen('Rep').action).toBe('refuse');
  });

  it('refuses words that cannot be patterns', () => {
    expect(keywordProblem('  ')).toBe('empty');
    expect(keywordProblem('*赌')).toBe('wildcard');
    expect(keywordProblem('赌**博')).toBe('wildcard');
    expect(keywordProblem('a*b*c*d*e')).toBe('parts');
    expect(keywordProblem('赌*博')).toBeNull();
    expect(m(['*x', 'refuse']).size).toBe(0);
  });
});
