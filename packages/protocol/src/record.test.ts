import { describe, expect, it } from 'vitest';
import { recordLines, recordTitle, recordTitleOf } from './api/forward';
import { translate } from './messages/index';

const zh = (key: Parameters<typeof translate>[1], params?: Record<string, string>) => translate('zh-Hans', key, params);
const en = (key: Parameters<typeof translate>[1], params?: Record<string, string>) => translate('en', key, params);

describe('merged records (合并转发)', () => {
  it('titles a private chat by both names, a group as WeChat does, my notes by my name', () => {
    expect(recordTitle({ source: 'private', names: ['张三', '李四'] }, zh)).toBe('张三和李四的聊天记录');
    expect(recordTitle({ source: 'private', names: ['Ann', 'Bo'] }, en)).toBe('Chat history of Ann and Bo');
    expect(recordTitle({ source: 'group', names: [] }, zh)).toBe('群聊的聊天记录');
    expect(recordTitle({ source: 'self', names: ['张三'] }, zh)).toBe('张三的聊天记录');
    expect(recordTitle({ source: 'mixed', names: [] }, zh)).toBe('聊天记录');
  });

  it('words stored facts for a reader, and keeps a stored title it cannot read again', () => {
    expect(recordTitleOf({ source: 'group', names: [], title: '群聊的聊天记录' }, en)).toBe('Group chat history');
    expect(recordTitleOf({ title: 'kept as sent' }, en)).toBe('kept as sent');
    expect(recordTitleOf({ source: 'private', names: ['only one'] }, en)).toBe('Chat history');
  });

  it("words a card's lines for the reader from its heads, else keeps the stored lines", () => {
    const heads = [
      { name: '张三', type: 'text', content: '明天  见\n好', extends: {} },
      { name: '李四', type: 'image', content: '', extends: {} },
      { name: '李四', type: 'file', content: '', extends: { name: 'plan.pdf' } },
      { name: '张三', type: 'record', content: '', extends: {} },
    ];
    expect(recordLines(heads, [], en)).toEqual([
      '张三: 明天 见 好',
      '李四: [Photo]',
      '李四: [File] plan.pdf',
      '张三: [Chat history]',
    ]);
    expect(recordLines(undefined, ['as stored'], en)).toEqual(['as stored']);
    expect(recordLines([{ nope: 1 }], [], en)).toEqual([]);
  });
});
