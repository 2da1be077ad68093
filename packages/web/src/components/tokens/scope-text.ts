import type { TokenScope } from '@sparrow/protocol';
import type { TFunction } from 'i18next';

/** Each scope's name and what it lets a token do, by its i18n key (the token page and the console). */
export const SCOPE_KEYS = {
  'messages:read': { title: 'tokens.scopeRead', note: 'tokens.scopeReadNote' },
  'messages:send': { title: 'tokens.scopeSend', note: 'tokens.scopeSendNote' },
  'groups:manage': { title: 'tokens.scopeGroups', note: 'tokens.scopeGroupsNote' },
  admin: { title: 'tokens.scopeAdmin', note: 'tokens.scopeAdminNote' },
} as const satisfies Record<TokenScope, { title: string; note: string }>;

/** A token's scopes as a line: 读取消息 · 发送消息. */
export function scopesLabel(scopes: readonly TokenScope[], t: TFunction): string {
  return scopes.map((s) => t(SCOPE_KEYS[s].title)).join(' · ');
}
