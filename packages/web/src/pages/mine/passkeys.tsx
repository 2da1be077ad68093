import { deviceName, PASSKEY_NAME_MAX, type Passkey } from '@sparrow/protocol';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { Field, PasswordField } from '../../components/Field';
import { Page } from '../../components/Page';
import { Sheet } from '../../components/Sheet';
import { createPasskey, passkeysAvailable } from '../../lib/passkeys';
import { formatDateTime } from '../../lib/relative-time';
import { useForm } from '../../lib/use-form';
import { checkRequired } from '../../lib/validation';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { restrictionLifted } from '../../session/account';
import { useSession } from '../../stores/session';
import './passkeys.css';

/** What a new passkey is called unless its owner names it: this device ("Linux 上的 Chrome"). */
function devicePasskeyName(t: TFunction): string {
  const { browser, os } = deviceName(navigator.userAgent);
  if (browser && os) return t('passkeys.defaultName', { browser, os });
  return browser || os || t('passkeys.defaultNameUnknown');
}

/**
 * Asks the caller to prove it is them before a passkey is added or removed (a passkey is a way in
 * of its own): the current password, or what stands for it (`passkeys.proveHint`), handed to
 * `onProven`; a wrong one is shown on the field.
 */
function ProveSheet(props: {
  title: string;
  note?: string;
  submitText: string;
  danger?: boolean;
  onProven: (password: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({ password: '' }, (v) => ({
    password: checkRequired(v.password, 'validation.originalPassword'),
  }));
  const handleSubmit = form.submit(({ password }) => props.onProven(password));
  return createPortal(
    <Sheet title={props.title} onClose={props.onClose}>
      <form className="passkey-prove" onSubmit={(e) => void handleSubmit(e)} noValidate>
        {props.note && <p className="form-note">{props.note}</p>}
        <p className="form-note">{t('passkeys.proveHint')}</p>
        <div className="form">
          <PasswordField
            label={t('passkeys.password')}
            autoComplete="current-password"
            name="password"
            autoFocus
            {...form.bind('password')}
          />
        </div>
        <div className="actions">
          <button
            type="submit"
            className={props.danger ? 'button button-danger' : 'button button-primary'}
            disabled={form.busy}
          >
            {props.submitText}
          </button>
          <button type="button" className="button" onClick={props.onClose}>
            {t('passkeys.cancel')}
          </button>
        </div>
      </form>
    </Sheet>,
    document.body,
  );
}

/** One passkey of the list: its name, when it was added and last used, rename and remove. */
function PasskeyRow({ passkey, onChanged }: { passkey: Passkey; onChanged: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState(false);
  const when = (ms: number) => formatDateTime(ms, i18n.language);

  const handleSave = async () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    setBusy(true);
    try {
      await api.passkeyRename({ id: passkey.id, name: trimmed }, { quiet: true });
      setEditing(false);
      await onChanged();
    } finally {
      setBusy(false);
    }
  };

  const handleRemove = async (password: string) => {
    await api.passkeyRemove({ id: passkey.id, password }, { loading: true, quiet: true });
    setRemoving(false);
    feedback.toast(t('passkeys.removed'));
    await onChanged();
  };

  return (
    <li className="passkey">
      <span className="passkey-text">
        <span className="passkey-name">{passkey.name}</span>
        <span className="passkey-when">
          {t('passkeys.created', { time: when(passkey.create_time) })}
          {passkey.synced && ` · ${t('passkeys.synced')}`}
        </span>
        <span className="passkey-when">
          {passkey.last_used ? t('passkeys.lastUsed', { time: when(passkey.last_used) }) : t('passkeys.neverUsed')}
        </span>
      </span>
      {!editing && (
        <span className="passkey-actions">
          <button
            type="button"
            className="small-button"
            aria-label={t('passkeys.renameLabel', { name: passkey.name })}
            onClick={() => {
              setName(passkey.name);
              setEditing(true);
            }}
          >
            {t('passkeys.rename')}
          </button>
          <button
            type="button"
            className="small-button"
            aria-label={t('passkeys.removeLabel', { name: passkey.name })}
            onClick={() => setRemoving(true)}
          >
            {t('passkeys.remove')}
          </button>
        </span>
      )}
      {removing && (
        <ProveSheet
          title={t('passkeys.removeTitle')}
          note={t('passkeys.removeBody', { name: passkey.name })}
          submitText={t('passkeys.remove')}
          danger
          onProven={handleRemove}
          onClose={() => setRemoving(false)}
        />
      )}
      {editing && (
        <form
          className="passkey-rename"
          onSubmit={(e) => {
            e.preventDefault();
            void handleSave();
          }}
        >
          <Field label={t('passkeys.name')} value={name} onChange={setName} maxLength={PASSKEY_NAME_MAX} autoFocus />
          <span className="passkey-actions">
            <button type="submit" className="small-button" disabled={busy || !name.trim()}>
              {t('passkeys.save')}
            </button>
            <button type="button" className="small-button" onClick={() => setEditing(false)}>
              {t('passkeys.cancel')}
            </button>
          </span>
        </form>
      )}
    </li>
  );
}

/**
 * 通行密钥 (Settings → 账号与安全): my passkeys with when each was added and last used, adding one
 * made by this device's authenticator (named after the device unless renamed), renaming and
 * removing them. A user the server requires a second factor of may add one to satisfy it.
 */
export default function PasskeysPage() {
  const { t } = useTranslation();
  const back = useBackTo(paths.secure);
  const mustSetUp = useSession((s) => s.user?.two_step_setup === 1);
  const [list, setList] = useState<Passkey[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [adding, setAdding] = useState(false);
  const [proving, setProving] = useState(false);
  const available = passkeysAvailable();

  const refresh = useCallback(async () => {
    try {
      setList(await api.passkeyList({}, { silent: true }));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const handleAdd = async (password: string) => {
    const options = await api.passkeyRegisterOptions({ password }, { quiet: true });
    setProving(false);
    setAdding(true);
    try {
      let credential;
      try {
        credential = await createPasskey(options);
      } catch {
        feedback.toast(t('passkeys.cancelled'));
        return;
      }
      await api.passkeyRegister({ credential, name: devicePasskeyName(t) }, { loading: true, quiet: true });
      feedback.toast(t('passkeys.added'));
      await refresh();
      if (mustSetUp) await restrictionLifted();
    } finally {
      setAdding(false);
    }
  };

  return (
    <Page title={t('routes.passkeys')} onBack={back}>
      <p className="form-note">{available ? t('passkeys.intro') : t('passkeys.unsupported')}</p>
      {failed && (
        <p className="form-note" role="alert">
          {t('passkeys.loadFailed')}
        </p>
      )}
      {list && list.length === 0 && <p className="form-note">{t('passkeys.empty')}</p>}
      {list && list.length > 0 && (
        <ul className="cells" aria-label={t('routes.passkeys')}>
          {list.map((p) => (
            <PasskeyRow key={`${p.id}:${p.name}`} passkey={p} onChanged={refresh} />
          ))}
        </ul>
      )}
      {available && (
        <div className="actions">
          <button type="button" className="button button-primary" disabled={adding} onClick={() => setProving(true)}>
            {t('passkeys.add')}
          </button>
        </div>
      )}
      {proving && (
        <ProveSheet
          title={t('passkeys.add')}
          submitText={t('passkeys.continue')}
          onProven={handleAdd}
          onClose={() => setProving(false)}
        />
      )}
    </Page>
  );
}
