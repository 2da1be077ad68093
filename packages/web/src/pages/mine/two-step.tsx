import type { RecoveryCodes, TotpSetup, TwoStepStatus } from '@sparrow/protocol';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { Cell, CellGroup } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import { AppCodeField } from '../../components/AppCodeField';
import { Field, PasswordField } from '../../components/Field';
import { Page } from '../../components/Page';
import { codeDataUrl } from '../../components/qr/draw';
import { copyText } from '../../lib/clipboard';
import { saveFile } from '../../lib/save-file';
import { useForm } from '../../lib/use-form';
import { checkCode, checkRequired } from '../../lib/validation';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { restrictionLifted } from '../../session/account';
import { useSession } from '../../stores/session';
import './two-step.css';

/** Edge of the setup's QR code, px (drawn at twice that for sharp screens). */
const QR_PX = 200;

type View = { step: 'status' } | { step: 'scan'; setup: TotpSetup; qr: string } | { step: 'codes'; codes: string[] };

/**
 * 两步验证 (Settings → 账号与安全): turn on an authenticator app (QR code and the key to type,
 * then a code), see the recovery codes once, make new ones, turn it off with the password and a code.
 * A user the server requires it of, who has none, is brought here and may use nothing else until done.
 */
export default function TwoStepPage() {
  const { t } = useTranslation();
  const back = useBackTo(paths.secure);
  const mustSetUp = useSession((s) => s.user?.two_step_setup === 1);
  const [status, setStatus] = useState<TwoStepStatus | null>(null);
  const [view, setView] = useState<View>({ step: 'status' });

  const refresh = useCallback(async () => setStatus(await api.twoStepStatus({}, { quiet: true })), []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const handleBegin = async () => {
    const setup = await api.totpBegin({}, { loading: true });
    setView({ step: 'scan', setup, qr: await codeDataUrl(setup.uri, QR_PX * 2) });
  };

  const handleEnabled = async (codes: RecoveryCodes) => {
    setView({ step: 'codes', codes: codes.codes });
    feedback.toast(t('twoStep.onDone'));
    if (mustSetUp) await restrictionLifted();
  };

  const handleDone = () => {
    setView({ step: 'status' });
    void refresh();
  };

  if (view.step === 'scan')
    return (
      <ScanStep
        setup={view.setup}
        qr={view.qr}
        onEnabled={handleEnabled}
        onCancel={() => setView({ step: 'status' })}
      />
    );
  if (view.step === 'codes') return <CodesStep codes={view.codes} onDone={handleDone} />;
  return (
    <Page title={t('twoStep.title')} onBack={mustSetUp ? undefined : back} back={!mustSetUp}>
      {mustSetUp && (
        <p className="form-note" role="alert">
          {t('twoStep.required')}
        </p>
      )}
      <p className="form-note">{t('twoStep.intro')}</p>
      <CellGroup>
        <Cell title={t('twoStep.title')} value={status ? (status.totp ? t('twoStep.on') : t('twoStep.off')) : ''} />
        {status?.totp && <Cell title={t('twoStep.recoveryLeft')} value={String(status.recoveryLeft)} />}
      </CellGroup>
      {status && !status.totp && (
        <div className="actions">
          <button type="button" className="button button-primary" onClick={() => void handleBegin()}>
            {t('twoStep.start')}
          </button>
        </div>
      )}
      {status?.totp && (
        <>
          <RenewForm onRenewed={(codes) => setView({ step: 'codes', codes: codes.codes })} />
          <TurnOffForm onOff={() => void refresh()} />
        </>
      )}
    </Page>
  );
}

function ScanStep({
  setup,
  qr,
  onEnabled,
  onCancel,
}: {
  setup: TotpSetup;
  qr: string;
  onEnabled: (codes: RecoveryCodes) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({ code: '' }, (v) => ({ code: checkCode(v.code) }));
  const handleSubmit = form.submit(async ({ code }) => {
    await onEnabled(await api.totpConfirm({ code: code.trim() }, { loading: true, quiet: true }));
  });
  return (
    <Page title={t('twoStep.start')} onBack={onCancel}>
      <p className="form-note">{t('twoStep.scan')}</p>
      <div className="two-step-qr">
        <img src={qr} width={QR_PX} height={QR_PX} alt={t('twoStep.qrAlt')} />
        <p className="form-note">{t('twoStep.manual')}</p>
        <code className="two-step-secret" aria-label={t('twoStep.secret')} data-testid="totp-secret">
          {setup.secret}
        </code>
      </div>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form">
          <AppCodeField name="code" {...form.bind('code')} />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy}>
            {t('twoStep.confirm')}
          </button>
        </div>
      </form>
    </Page>
  );
}

function CodesStep({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const handleCopy = async () => {
    if (await copyText(text)) feedback.toast(t('twoStep.copied'));
  };
  const handleDownload = () => {
    saveFile(new Blob([`${text}\n`], { type: 'text/plain' }), 'recovery-codes.txt');
  };
  return (
    <Page title={t('twoStep.codesTitle')} back={false}>
      <p className="form-note">{t('twoStep.codesIntro')}</p>
      <ul className="two-step-codes" aria-label={t('twoStep.codesTitle')}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="two-step-row-actions">
        <button type="button" className="button" onClick={() => void handleCopy()}>
          {t('twoStep.copy')}
        </button>
        <button type="button" className="button" onClick={handleDownload}>
          {t('twoStep.download')}
        </button>
      </div>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onDone}>
          {t('twoStep.saved')}
        </button>
      </div>
    </Page>
  );
}

function RenewForm({ onRenewed }: { onRenewed: (codes: RecoveryCodes) => void }) {
  const { t } = useTranslation();
  const form = useForm({ code: '' }, (v) => ({ code: checkCode(v.code) }));
  const handleSubmit = form.submit(async ({ code }) => {
    onRenewed(await api.recoveryCodesNew({ code: code.trim() }, { loading: true, quiet: true }));
  });
  return (
    <form onSubmit={(e) => void handleSubmit(e)} noValidate aria-labelledby="two-step-renew">
      <h3 className="two-step-heading" id="two-step-renew">
        {t('twoStep.renew')}
      </h3>
      <p className="form-note">{t('twoStep.renewHint')}</p>
      <div className="form">
        <AppCodeField name="renewCode" {...form.bind('code')} />
      </div>
      <div className="actions">
        <button type="submit" className="button" disabled={form.busy}>
          {t('twoStep.renewSubmit')}
        </button>
      </div>
    </form>
  );
}

function TurnOffForm({ onOff }: { onOff: () => void }) {
  const { t } = useTranslation();
  const form = useForm({ password: '', code: '' }, (v) => ({
    password: checkRequired(v.password, 'validation.originalPassword'),
    code: checkRequired(v.code, 'twoStep.recoveryInvalid'),
  }));
  const handleSubmit = form.submit(async ({ password, code }) => {
    await api.totpDisable({ password, code: code.trim() }, { loading: true, quiet: true });
    feedback.toast(t('twoStep.offDone'));
    form.reset();
    onOff();
  });
  return (
    <form onSubmit={(e) => void handleSubmit(e)} noValidate aria-labelledby="two-step-off">
      <h3 className="two-step-heading" id="two-step-off">
        {t('twoStep.turnOff')}
      </h3>
      <p className="form-note">{t('twoStep.turnOffHint')}</p>
      <div className="form">
        <PasswordField
          label={t('twoStep.password')}
          autoComplete="current-password"
          name="password"
          {...form.bind('password')}
        />
        <Field
          label={t('twoStep.codeOrRecovery')}
          autoComplete="one-time-code"
          autoCapitalize="off"
          name="offCode"
          {...form.bind('code')}
        />
      </div>
      <div className="actions">
        <button type="submit" className="button button-danger" disabled={form.busy}>
          {t('twoStep.turnOffSubmit')}
        </button>
      </div>
    </form>
  );
}
