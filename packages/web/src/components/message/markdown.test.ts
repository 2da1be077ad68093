import { describe, expect, it } from 'vitest';
import { markdownHtml } from './markdown';

describe("a robot's markdown (群机器人)", () => {
  it('renders emphasis and links, each link opening apart', () => {
    const html = markdownHtml('**构建成功** [详情](https://example.com/build/1)');
    expect(html).toContain('<strong>构建成功</strong>');
    expect(html).toContain('<a href="https://example.com/build/1" target="_blank" rel="noopener noreferrer">详情</a>');
  });

  it('makes links of bare addresses and breaks of single newlines', () => {
    const html = markdownHtml('第一行\nhttps://example.com/a');
    expect(html).toContain('第一行<br>');
    expect(html).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">');
  });

  it('escapes HTML and refuses links outside http, https, mailto and tel', () => {
    const html = markdownHtml('<img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](data:text/html,hi)');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    expect(html).not.toMatch(/href="(?:javascript|data):/);
  });

  it('shows no pictures, and headings as bold lines outside the page outline', () => {
    const html = markdownHtml('# 标题\n![图](https://example.com/a.png)');
    expect(html).toContain('<p class="md-heading md-h1">标题</p>');
    expect(html).not.toMatch(/<h1|<img/);
  });
});
