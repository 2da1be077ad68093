import { hasOwnPicture, PICTURES } from '@sparrow/protocol';
import { useState } from 'react';
import { useSettings } from '../stores/settings';

interface Props {
  src: string | null | undefined;
  /** The person's name: the alt text's subject and the fallback initial. */
  name: string;
  /** Accessible description; empty when the name is already next to the picture. */
  alt: string;
  size?: number;
}

/** Whether a picture is drawn: one of its own, or a robot's stand-in, which says what it is (群机器人). */
const drawn = (src: string | null | undefined): src is string => src === PICTURES.robot || hasOwnPicture(src);

/**
 * A profile photo, round when the circleAvatar setting is on, with the initial as fallback (also
 * for the server's stand-ins of people and groups, which say only that there is none).
 */
export function Avatar({ src, name, alt, size = 48 }: Props) {
  const circle = useSettings((s) => s.appSetting.circleAvatar);
  const [failed, setFailed] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  const className = `avatar${circle ? ' avatar-circle' : ''}`;
  if (drawn(src) && failed !== src) {
    return <img className={className} style={style} src={src} alt={alt} onError={() => setFailed(src)} />;
  }
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span
      className={`${className} avatar-fallback`}
      style={style}
      role={alt ? 'img' : undefined}
      aria-label={alt || undefined}
      aria-hidden={alt ? undefined : true}
    >
      {initial}
    </span>
  );
}
