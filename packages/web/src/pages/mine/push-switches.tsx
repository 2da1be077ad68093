import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { SwitchCell } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import {
  desktopPermission,
  disableDesktop,
  enableDesktop,
  notificationPreview,
  rememberPreview,
} from '../../session/notifications';
import { disablePush, enablePush, pushEnabled } from '../../session/push';
import { useSettings } from '../../stores/settings';

/**
 * The settings' notification switches: 桌面通知 (the open page notifies while hidden), Web Push
 * (notifications while the app is closed) — the browser asks for the permission only when one is
 * turned on, and a denial is said under the switch — and whether both show the sender and the
 * message, a choice kept on the server, which words the pushes.
 */
export function PushSwitches() {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(false);
  const [preview, setPreview] = useState(true);
  const desktopChosen = useSettings((s) => s.desktopNotify);
  const [permission, setPermission] = useState(desktopPermission);
  const desktop = desktopChosen && permission === 'granted';
  const asksPreview = enabled || desktop;

  useEffect(() => {
    let live = true;
    void pushEnabled().then((on) => {
      if (live && on) setEnabled(true);
    });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!asksPreview) return;
    let live = true;
    void notificationPreview().then((on) => {
      if (live) setPreview(on);
    });
    return () => {
      live = false;
    };
  }, [asksPreview]);

  const toggleDesktop = async (on: boolean) => {
    if (!on) {
      disableDesktop();
      return;
    }
    const refused = await enableDesktop().catch(() => 'unsupported' as const);
    setPermission(desktopPermission());
    if (refused) feedback.toast(t(refused === 'denied' ? 'setting.pushDenied' : 'setting.pushUnsupported'));
  };

  const toggle = async (on: boolean) => {
    if (!on) {
      setEnabled(false);
      await disablePush().catch(() => undefined);
      return;
    }
    const refused = await enablePush().catch(() => 'unsupported' as const);
    if (refused) {
      feedback.toast(t(refused === 'denied' ? 'setting.pushDenied' : 'setting.pushUnsupported'));
      return;
    }
    setEnabled(true);
  };

  // The choice applies to this page's notifications at once, and is taken back if the server refuses it.
  const choosePreview = async (on: boolean) => {
    setPreview(on);
    rememberPreview(on);
    const saved = await api.pushSetting({ preview: on ? 1 : 0 }).catch(() => null);
    if (saved) return;
    setPreview(!on);
    rememberPreview(!on);
  };

  return (
    <>
      <SwitchCell
        title={t('setting.desktop')}
        checked={desktop}
        onChange={(on) => void toggleDesktop(on)}
        note={
          permission === 'denied'
            ? t('setting.pushDenied')
            : permission === 'unsupported'
              ? t('setting.pushUnsupported')
              : undefined
        }
      />
      <SwitchCell title={t('setting.push')} checked={enabled} onChange={(on) => void toggle(on)} />
      {asksPreview && (
        <SwitchCell title={t('setting.pushPreview')} checked={preview} onChange={(on) => void choosePreview(on)} />
      )}
    </>
  );
}
