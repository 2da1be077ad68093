/** How a file looks in a bubble or a list: a coloured sheet with its kind. */
export type FileKind = 'pdf' | 'word' | 'excel' | 'ppt' | 'archive' | 'text' | 'image' | 'audio' | 'video' | 'other';

const KINDS: Record<Exclude<FileKind, 'other'>, readonly string[]> = {
  pdf: ['pdf'],
  word: ['doc', 'docx', 'rtf', 'odt', 'pages'],
  excel: ['xls', 'xlsx', 'csv', 'ods', 'numbers'],
  ppt: ['ppt', 'pptx', 'odp', 'key'],
  archive: ['zip', 'rar', '7z', 'gz', 'tar', 'bz2', 'xz'],
  text: ['txt', 'md', 'log', 'json', 'xml'],
  image: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'avif', 'heic', 'svg'],
  audio: ['mp3', 'wav', 'm4a', 'aac', 'ogg', 'amr', 'opus', 'flac'],
  video: ['mp4', 'mov', 'webm', 'mkv', 'avi', 'm4v'],
};

export function fileKind(ext: string): FileKind {
  const e = ext.toLowerCase().replace(/^\./, '');
  for (const [kind, exts] of Object.entries(KINDS) as Array<[FileKind, readonly string[]]>) {
    if (exts.includes(e)) return kind;
  }
  return 'other';
}

/** The file management filter (docs/protocol.md fileList `cate`) a kind belongs to. */
export const FILE_CATES = [
  { cate: 1, key: 'doc' },
  { cate: 2, key: 'image' },
  { cate: 3, key: 'audio' },
  { cate: 4, key: 'video' },
  { cate: 9, key: 'other' },
] as const;
