import type { EventLine } from '@sparrow/protocol';
import i18next from 'i18next';
import { deviceLabel } from '../qr/device';
import { placeLabel } from './session-text';

type NewDeviceLine = Extract<EventLine, { event: 'signInNewDevice' }>;

/**
 * The toast of a sign-in from a new device (the `system` notice `signInNewDevice`): the device, where
 * and when, in this client's language and clock.
 */
export function newDeviceText(line: NewDeviceLine): string {
  const t = i18next.t.bind(i18next);
  const place = placeLabel(line, t);
  const time = new Intl.DateTimeFormat(i18next.language, { dateStyle: 'short', timeStyle: 'short' }).format(line.at);
  return t('devices.newDevice', {
    device: deviceLabel(line, t),
    place: place ? t('devices.newDevicePlace', { place }) : '',
    time,
  });
}
