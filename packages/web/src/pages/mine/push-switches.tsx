import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { SwitchCell } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import { disablePush, enablePush, pushEnabled } from '../../session/push';

/**
 * The settings' Web Push switches: notifications while the app is closed (the browser asks for
 * the permission only when this is turned on) and whether they show the sender and the message,
 * a choice kept on the server, which words the pushes.
 */
export function PushSwitches() {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(false);
  const [preview, setPreview] = useState(true);

  useEffect(() => {
    let live = true;
    void pushEnabled().then(async (on) => {
      if (!live || !on) return;
      setEnabled(true);
      const key = await api.pushKey({}, { silent: true }).catch(() => null);
      if (live && key) setPreview(key.preview === 1);
    });
    return () => {
      live = false;
    };
  }, []);

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
    const key = await api.pushKey({}, { silent: true }).catch(() => null);
    if (key) setPreview(key.preview === 1);
  };

  const choosePreview = async (on: boolean) => {
    setPreview(on);
    const saved = await api.pushSetting({ preview: on ? 1 : 0 }).catch(() => null);
    if (!saved) setPreview(!on);
  };

  return (
    <>
      <SwitchCell title={t('setting.push')} checked={enabled} onChange={(on) => void toggle(on)} />
      {enabled && (
        <SwitchCell title={t('setting.pushPreview')} checked={preview} onChange={(on) => void choosePreview(on)} />
      )}
    </>
  );
}
