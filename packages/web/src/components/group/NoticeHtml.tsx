import { useMemo } from 'react';
import { safeNoticeHtml } from './notice';
import './group.css';

/** A group announcement as rich text. */
export function NoticeHtml({ html, className }: { html: string; className?: string }) {
  const safe = useMemo(() => safeNoticeHtml(html), [html]);
  return (
    <div className={`gm-notice-html${className ? ` ${className}` : ''}`} dangerouslySetInnerHTML={{ __html: safe }} />
  );
}
