/**
 * The pictures the server serves for what has none of its own (docs/protocol.md §1 "Old clients").
 * Raingad clients draw every avatar and icon URL they are sent, on a canvas too, where an empty
 * one throws; the original server always sent one. Sparrow's client shows a person's or a
 * group's initial instead of these (`hasOwnPicture`).
 */
export const PICTURES = {
  /** A person without an avatar of their own. */
  person: '/static/img/avatar.png',
  /** A group whose avatar has not been drawn yet. */
  group: '/static/img/group.png',
  /** The `system` and `admin_notice` pseudo-contacts. */
  notice: '/static/img/notice.png',
  /** A group robot without a picture of its own (群机器人). */
  robot: '/static/img/robot.png',
  /** My file transfer (`-1`). */
  files: '/static/img/files.png',
  /** The site's logo when the operator set none (`sysInfo.logo`). */
  logo: '/static/img/logo.png',
  /** The Moments entry of Discover (`compass.list`). */
  moments: '/static/img/moments.png',
} as const;

const STAND_INS: ReadonlySet<string> = new Set(Object.values(PICTURES));

/** Whether an avatar URL is a picture of its own, not empty and not one of the stand-ins above. */
export function hasOwnPicture(url: string | null | undefined): url is string {
  return typeof url === 'string' && url !== '' && !STAND_INS.has(url);
}
