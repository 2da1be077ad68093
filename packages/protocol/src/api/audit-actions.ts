/**
 * The actions of the audit log (docs/protocol.md §8), apart from the console's schemas so that only the code
 * that names them (the admin service, the console's audit page) carries the list.
 */

/** What an audit row says was done: one name per kind of change an admin (or the command line) makes. */
export const AUDIT_ACTIONS = [
  'userCreate',
  'userDisable',
  'userEnable',
  'userRole',
  'userPassword',
  'userLogout',
  'userDepartment',
  'groupOwner',
  'groupDisband',
  'configSet',
  'inviteCreate',
  'inviteRevoke',
  'noticePublish',
  'noticeDel',
  'departmentCreate',
  'departmentRename',
  'departmentDel',
  'keywordListCreate',
  'keywordListUpdate',
  'keywordListDel',
  'keywordAdd',
  'keywordRemove',
  'heldApprove',
  'heldReject',
  'reportWarn',
  'reportTakedown',
  'reportMute',
  'reportDisable',
  'reportDissolve',
  'reportDismiss',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
