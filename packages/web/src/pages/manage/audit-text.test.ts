import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AUDIT_ACTIONS, type AuditRow } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { actionText, auditWords } from './audit-text';
import type { ManageT } from './i18n';

/** The console's English texts with i18next's `{{name}}` filled in, as the page would show them. */
const en = JSON.parse(readFileSync(fileURLToPath(new URL('./locales/en.json', import.meta.url)), 'utf8')) as Record<
  string,
  unknown
>;
const t: ManageT = (key, params = {}) => {
  const text = key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], en);
  if (typeof text !== 'string') throw new Error(`no text for ${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));
};

const row = (over: Partial<AuditRow>): AuditRow => ({
  id: 1,
  admin_id: 7,
  admin_name: 'Root',
  action: 'userDisable',
  target: 'user:12',
  detail: '{}',
  ip: '203.0.113.9',
  create_time: 0,
  ...over,
});

describe('an audit row in words', () => {
  it('names every action the server writes', () => {
    for (const action of AUDIT_ACTIONS) expect(actionText(action, t)).not.toBe(action);
    // A newer server's action this client does not know is shown as it is, not as a key.
    expect(actionText('somethingNew', t)).toBe('somethingNew');
  });

  it('says who, what, to what and from where', () => {
    expect(auditWords(row({ detail: '{"account":"alice"}' }), t, 1)).toEqual({
      what: 'Disabled a user',
      target: 'User alice',
      change: '',
      who: 'Root',
      where: '203.0.113.9',
    });
    // The reader's own rows say so; the command line has no address.
    expect(auditWords(row({}), t, 7)).toMatchObject({ who: 'Root (you)', target: 'User #12' });
    expect(auditWords(row({ admin_id: 0, admin_name: '', ip: 'cli' }), t, 7)).toMatchObject({
      who: 'Server command line',
      where: 'On the server',
    });
  });

  it('tells each kind of target and change', () => {
    const words = (over: Partial<AuditRow>) => auditWords(row(over), t, 1);
    expect(
      words({ action: 'configSet', target: 'chatInfo.redoTime', detail: '{"from":120,"to":86400}' }),
    ).toMatchObject({ target: 'Setting chatInfo.redoTime', change: 'From 120 to 86400' });
    expect(words({ action: 'userRole', detail: '{"account":"bo","role":1}' })).toMatchObject({
      target: 'User bo',
      change: 'Made an administrator',
    });
    expect(words({ action: 'userRole', detail: '{"account":"bo","role":0}' }).change).toBe('Made a regular user');
    expect(words({ action: 'groupDisband', target: 'group-3', detail: '{"name":"Team"}' }).target).toBe('Group Team');
    expect(words({ action: 'groupOwner', target: 'group-3', detail: '{"from":4,"to":9}' })).toMatchObject({
      target: 'Group group-3',
      change: 'Owner: from user #4 to #9',
    });
    expect(words({ action: 'inviteCreate', target: 'invite:AB12', detail: '{"uses":3,"days":2}' })).toMatchObject({
      target: 'Invite code AB12',
      change: '3 uses, valid for 2 days',
    });
    expect(words({ action: 'noticePublish', target: 'notice:5', detail: '{"title":"Upgrade"}' }).target).toBe(
      'Announcement “Upgrade”',
    );
    expect(
      words({ action: 'departmentRename', target: 'department:2', detail: '{"from":"Ops","to":"Platform"}' }),
    ).toMatchObject({ target: 'Department Platform', change: 'From Ops to Platform' });
    expect(words({ action: 'userDepartment', detail: '{"account":"bo","from":2,"to":0}' }).change).toBe(
      'Out of any department',
    );
    // A long setting is cut short; a detail that is not JSON shows no change.
    const long = words({
      action: 'configSet',
      target: 'fileUpload.fileExt',
      detail: JSON.stringify({ from: [], to: Array(40).fill('png') }),
    });
    expect(long.change.length).toBeLessThan(100);
    expect(words({ detail: 'not json' })).toMatchObject({ target: 'User #12', change: '' });
  });

  it('names the report an action closed, and how long a mute lasts', () => {
    const words = (over: Partial<AuditRow>) => auditWords(row(over), t, 1);
    expect(words({ action: 'reportMute', target: 'report:5', detail: '{"kind":"user","minutes":60}' })).toMatchObject({
      what: 'Report: muted',
      target: 'Report #5',
      change: 'Muted for 60 minutes',
    });
    expect(words({ action: 'reportTakedown', target: 'report:6', detail: '{"kind":"message"}' })).toMatchObject({
      what: 'Report: content removed',
      target: 'Report #6',
      change: '',
    });
  });

  it('names a keyword list, the words an import added and what held an approved item', () => {
    const words = (over: Partial<AuditRow>) => auditWords(row(over), t, 1);
    expect(words({ action: 'keywordAdd', target: 'keywords:3', detail: '{"name":"Spam","count":120}' })).toMatchObject({
      what: 'Added keywords',
      target: 'Keyword list Spam',
      change: '120 words',
    });
    expect(
      words({ action: 'keywordListCreate', target: 'keywords:4', detail: '{"name":"Ads","action":"review"}' }),
    ).toMatchObject({ target: 'Keyword list Ads', change: 'Hold for review' });
    expect(
      words({ action: 'heldApprove', target: 'held:9', detail: '{"kind":"message","words":["a","b"]}' }),
    ).toMatchObject({
      what: 'Approved held content',
      target: 'Held item #9',
      change: 'Matched: a、b',
    });
  });
});
