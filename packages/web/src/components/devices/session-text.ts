import type { DeviceSession } from '@sparrow/protocol';
import type { TFunction } from 'i18next';

/** Where a session signed in from, as the list says it: the place, 局域网, or '' (unknown, or not shown). */
export function placeLabel(session: Pick<DeviceSession, 'place' | 'lan'>, t: TFunction): string {
  return session.lan ? t('devices.lan') : session.place;
}

/** How a session signed in: 密码或验证码, 扫码登录, 通行密钥, 单点登录, 目录账号. */
export function viaLabel(via: DeviceSession['via'], t: TFunction): string {
  switch (via) {
    case 'qr':
      return t('devices.via.qr');
    case 'passkey':
      return t('devices.via.passkey');
    case 'oidc':
      return t('devices.via.oidc');
    case 'ldap':
      return t('devices.via.ldap');
    case '':
      return t('devices.via.password');
  }
}
