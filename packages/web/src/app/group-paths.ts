/** The group pages of the product's route table (§2). */
export const groupPaths = {
  info: '/pages/message/group/info',
  members: '/pages/message/group/groupUser',
} as const;

/** A group page for a group id (`group-3`), with more query values when given. */
export function groupPath(page: keyof typeof groupPaths, groupId: string, more: Record<string, string> = {}): string {
  const q = new URLSearchParams({ id: groupId, ...more });
  return `${groupPaths[page]}?${q.toString()}`;
}
