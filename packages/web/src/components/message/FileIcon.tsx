import { fileKind } from './file-kind';

/** A file's sheet icon: coloured by kind, with its extension written on it. */
export function FileIcon({ ext, size = 44 }: { ext: string; size?: number }) {
  const kind = fileKind(ext);
  const label = (ext || '?').slice(0, 4).toUpperCase();
  return (
    <span
      className={`file-icon file-icon-${kind}`}
      style={{ width: Math.round(size * 0.82), height: size, fontSize: Math.round(size * 0.24) }}
      aria-hidden="true"
    >
      <span className="file-icon-fold" />
      <span className="file-icon-label">{label}</span>
    </span>
  );
}
