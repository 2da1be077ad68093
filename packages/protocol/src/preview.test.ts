import { describe, expect, it } from 'vitest';
import { markdownWords, messagePreview, PREVIEW_MAX } from './preview';

const t = (key: string) => key;

describe('a robot’s markdown in a preview', () => {
  it('reads as its words: links without addresses, no emphasis, heading, quote or list marks', () => {
    expect(markdownWords('**构建成功** [查看详情](https://ci.example/42)')).toBe('构建成功 查看详情');
    expect(markdownWords('# 标题\n> 引用\n- 项目 *斜体* `code` ~~删除~~')).toBe('标题\n引用\n项目 斜体 code 删除');
    expect(markdownWords('[**发布说明 \\[v2\\]**](https://example.com/notes)\n新功能')).toBe('发布说明 [v2]\n新功能');
    expect(markdownWords('2*3*4 a_b_c')).toBe('2*3*4 a_b_c');
  });

  it('is a text’s preview only when the text is markdown', () => {
    const md = { type: 'text', content: '**好**\n[链接](https://x.example)', extends: { markdown: 1 } };
    expect(messagePreview(md, t)).toBe('好 链接');
    expect(messagePreview({ ...md, extends: {} }, t)).toBe('**好** [链接](https://x.example)');
  });

  it('reads a long line in bounded time', () => {
    for (const line of ['**a '.repeat(8000), '['.repeat(32_000), '[\\'.repeat(16_000)]) {
      const started = performance.now();
      const preview = messagePreview({ type: 'text', content: line, extends: { markdown: 1 } }, t);
      expect(preview.length).toBeLessThanOrEqual(PREVIEW_MAX);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});
