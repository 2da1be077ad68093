import { AUDIT_ACTIONS, type AuditAction, type AuditRow } from '@sparrow/protocol';
import type { ManageT } from './i18n';

/** The words shown for an audit row's parts, from its action, target and detail. */
export interface AuditWords {
  /** What was done ("Disabled a user"). */
  what: string;
  /** What it was done to ("User alice"). */
  target: string;
  /** How it changed, when the row says ("From 120 to 86400"); '' otherwise. */
  change: string;
  /** Who did it ("Server command line" for admin_id 0). */
  who: string;
  /** Where from: the address, or "On the server" for the command line. */
  where: string;
}

const isAction = (action: string): action is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(action);

/** What an action is called in the reader's language; a name this client does not know, as it is. */
export function actionText(action: string, t: ManageT): string {
  return isAction(action) ? t(`actions.${action}`) : action;
}

function parseDetail(detail: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(detail);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A detail's value as a line of text, cut short: settings may hold long lists. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

function targetText(row: AuditRow, detail: Record<string, unknown>, t: ManageT): string {
  const [kind, ...rest] = row.target.split(':');
  const id = rest.join(':');
  if (kind === 'user' && id) return t('audit.targetUser', { name: str(detail.account) ?? `#${id}` });
  if (kind === 'invite' && id) return t('audit.targetInvite', { code: id });
  if (kind === 'report' && id) return t('audit.targetReport', { id });
  if (kind === 'keywords' && id) return t('audit.targetKeywords', { name: str(detail.name) ?? `#${id}` });
  if (kind === 'held' && id) return t('audit.targetHeld', { id });
  if (kind === 'notice' && id) return t('audit.targetNotice', { name: str(detail.title) ?? `#${id}` });
  if (kind === 'department' && id)
    return t('audit.targetDepartment', { name: str(detail.name) ?? str(detail.to) ?? `#${id}` });
  if (/^group-\d+$/.test(row.target)) return t('audit.targetGroup', { name: str(detail.name) ?? row.target });
  if (row.action === 'configSet') return t('audit.targetSetting', { key: row.target });
  return row.target;
}

function changeText(row: AuditRow, detail: Record<string, unknown>, t: ManageT): string {
  switch (row.action) {
    case 'userRole':
    case 'userCreate':
      return detail.role === 1 ? t('audit.roleAdmin') : row.action === 'userRole' ? t('audit.roleUser') : '';
    case 'inviteCreate':
      return typeof detail.uses === 'number' && typeof detail.days === 'number'
        ? t('audit.inviteTerms', { uses: detail.uses, days: detail.days })
        : '';
    case 'groupOwner':
      return 'from' in detail && 'to' in detail
        ? t('audit.ownerChange', { from: `#${shown(detail.from)}`, to: `#${shown(detail.to)}` })
        : '';
    case 'keywordAdd':
    case 'keywordRemove':
      return typeof detail.count === 'number' ? t('audit.wordCount', { count: detail.count }) : '';
    case 'keywordListCreate':
      return typeof detail.action === 'string' && ['refuse', 'replace', 'review'].includes(detail.action)
        ? t(`keywords.action.${detail.action as 'refuse' | 'replace' | 'review'}`)
        : '';
    case 'heldApprove':
    case 'heldReject':
      return Array.isArray(detail.words) ? t('audit.heldWords', { words: detail.words.map(String).join('、') }) : '';
    case 'reportMute':
      return typeof detail.minutes === 'number' ? t('audit.muteMinutes', { minutes: detail.minutes }) : '';
    case 'userDepartment':
      return 'to' in detail
        ? detail.to === 0
          ? t('audit.departmentNone')
          : t('audit.departmentTo', { id: `#${shown(detail.to)}` })
        : '';
    default:
      return 'from' in detail && 'to' in detail
        ? t('audit.change', { from: shown(detail.from), to: shown(detail.to) })
        : '';
  }
}

/** An audit row in words; `me` is the reader's own user id, so that their own rows say so. */
export function auditWords(row: AuditRow, t: ManageT, me: number): AuditWords {
  const detail = parseDetail(row.detail);
  const commandLine = row.admin_id === 0;
  const name = row.admin_name || `#${row.admin_id}`;
  return {
    what: actionText(row.action, t),
    target: targetText(row, detail, t),
    change: changeText(row, detail, t),
    who: commandLine ? t('dashboard.commandLine') : row.admin_id === me ? `${name}${t('users.you')}` : name,
    where: commandLine ? t('audit.onServer') : row.ip || t('audit.unknownAddress'),
  };
}
