import { useEffect, useMemo, useState, type ReactNode } from 'react';

type Render = (source: string) => string;

let loaded: Render | null = null;
let loading: Promise<Render> | null = null;

/** markdown-it arrives with the first markdown message, once for the page. */
function loadRenderer(): Promise<Render> {
  loading ??= import('./markdown').then(
    (m) => (loaded = m.renderMarkdown),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * A robot's markdown text (`extends.markdown` 1), rendered. Until the renderer is in (or when it
 * cannot be fetched) `fallback`, the source as plain text, shows: the message's text is its source
 * for copying, quoting and search alike.
 */
export function MarkdownText({ source, fallback }: { source: string; fallback: ReactNode }) {
  const [render, setRender] = useState<Render | null>(() => loaded);
  useEffect(() => {
    if (render) return;
    let live = true;
    loadRenderer().then(
      (r) => {
        if (live) setRender(() => r);
      },
      () => {
        // Offline before the chunk came: the source stays as text.
      },
    );
    return () => {
      live = false;
    };
  }, [render]);
  const html = useMemo(() => render?.(source), [render, source]);
  if (html === undefined) return fallback;
  return <div className="msg-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
