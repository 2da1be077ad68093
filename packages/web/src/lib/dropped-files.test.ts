import { describe, expect, it } from 'vitest';
import { VIDEO_MAX_S } from '@sparrow/protocol';
import { attachKind, carriesFiles, filesOf, givenVideoKind, namedFile, pastedFiles } from './dropped-files';

const file = (name: string, type: string) => new File(['x'], name, { type });

describe('attachKind', () => {
  it('sends pictures the chat shows as pictures, videos as videos, anything else as a file', () => {
    expect(attachKind(file('a.png', 'image/png'))).toBe('image');
    expect(attachKind(file('a.jpg', 'image/jpeg'))).toBe('image');
    expect(attachKind(file('a.mp4', 'video/mp4'))).toBe('video');
    expect(attachKind(file('a.svg', 'image/svg+xml'))).toBe('file');
    expect(attachKind(file('a.pdf', 'application/pdf'))).toBe('file');
    expect(attachKind(file('a', ''))).toBe('file');
  });
});

describe('givenVideoKind', () => {
  it('sends a dropped video longer than a video message may be as a file, as 文件 would', () => {
    expect(givenVideoKind(12)).toBe('video');
    expect(givenVideoKind(VIDEO_MAX_S)).toBe('video');
    expect(givenVideoKind(VIDEO_MAX_S + 30)).toBe('file');
    expect(givenVideoKind(600)).toBe('file');
    // A length the browser cannot read is the server's to judge.
    expect(givenVideoKind(null)).toBe('video');
  });
});

describe('filesOf', () => {
  it('keeps the files in their order', () => {
    const a = file('a.txt', 'text/plain');
    const b = file('b.png', 'image/png');
    expect(filesOf({ types: ['Files'], files: [a, b] })).toEqual([a, b]);
  });

  it('reads file items when the list of files is empty, skipping text items', () => {
    const a = file('a.png', 'image/png');
    const items = [
      { kind: 'string', getAsFile: () => null },
      { kind: 'file', getAsFile: () => a },
    ];
    expect(filesOf({ types: ['text/plain', 'Files'], files: [], items })).toEqual([a]);
  });

  it('finds nothing in a paste of text or no transfer at all', () => {
    expect(filesOf({ types: ['text/plain'], files: [], items: [{ kind: 'string', getAsFile: () => null }] })).toEqual(
      [],
    );
    expect(filesOf(null)).toEqual([]);
  });
});

describe('pastedFiles', () => {
  it('takes a pasted picture or file', () => {
    const a = file('shot.png', 'image/png');
    expect(pastedFiles({ types: ['Files'], files: [a] })).toEqual([a]);
    expect(pastedFiles({ types: ['text/html', 'Files'], files: [a] })).toEqual([a]);
  });

  it('leaves a paste with plain text to the box, even with a picture of it beside', () => {
    const a = file('cells.png', 'image/png');
    expect(pastedFiles({ types: ['text/plain', 'text/html', 'Files'], files: [a] })).toEqual([]);
    expect(pastedFiles(null)).toEqual([]);
  });
});

describe('carriesFiles', () => {
  it('tells a drag of files from a drag of text', () => {
    expect(carriesFiles({ types: ['Files'] })).toBe(true);
    expect(carriesFiles({ types: ['text/plain', 'text/uri-list'] })).toBe(false);
    expect(carriesFiles(null)).toBe(false);
  });
});

describe('namedFile', () => {
  const at = new Date(2026, 10, 29, 9, 5, 7);
  it('names a pasted picture by its time', () => {
    const named = namedFile(file('image.png', 'image/png'), at);
    expect(named.name).toBe('paste-20261129-090507.png');
    expect(named.type).toBe('image/png');
    expect(namedFile(file('', 'image/jpeg'), at).name).toBe('paste-20261129-090507.jpg');
  });

  it('keeps a real file name', () => {
    const f = file('report.pdf', 'application/pdf');
    expect(namedFile(f, at)).toBe(f);
  });
});
