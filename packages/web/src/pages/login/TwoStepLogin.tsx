import type { LoginResult, TwoStepPending } from '@sparrow/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { AppCodeField } from '../../components/AppCodeField';
import { Field } from '../../components/Field';
import { useForm } from '../../lib/use-form';
import { checkCode } from '../../lib/validation';
import { storage } from '../../lib/storage';
import { PasskeyTwoStep } from './PasskeyLogin';
import '../mine/two-step.css';

const RECOVERY = /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/;

interface Props {
  /** What `login` answered: the ticket and how it may be answered. */
  challenge: TwoStepPending['two_step'];
  onSignedIn: (result: LoginResult) => void;
  /** Back to the first step (the ticket expired, or the user wants another account). */
  onRestart: () => void;
}

/** The sign-in's second step (两步验证): a code from the authenticator app, or a recovery code. */
export default function TwoStepLogin({ challenge, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const [byRecovery, setByRecovery] = useState(false);
  const form = useForm({ code: '' }, (v) => ({
    code: byRecovery
      ? RECOVERY.test(v.code.trim())
        ? null
        : { key: 'twoStep.recoveryInvalid' as const }
      : checkCode(v.code),
  }));

  const handleSubmit = form.submit(async ({ code }) => {
    const clientId = storage.get('client_id');
    const body = { ticket: challenge.ticket, code: code.trim(), ...(clientId ? { client_id: clientId } : {}) };
    onSignedIn(await api.loginTwoStep(body, { loading: true, quiet: true }));
  });

  const handleSwitch = () => {
    setByRecovery(!byRecovery);
    form.reset({ code: '' });
  };

  return (
    <form onSubmit={(e) => void handleSubmit(e)} noValidate aria-labelledby="two-step-heading">
      <h3 className="two-step-heading" id="two-step-heading">
        {t('twoStep.title')}
      </h3>
      <p className="form-note">{byRecovery ? t('twoStep.loginRecoveryIntro') : t('twoStep.loginIntro')}</p>
      <div className="form">
        {byRecovery ? (
          <Field
            key="recovery"
            label={t('twoStep.recoveryCode')}
            placeholder="xxxxx-xxxxx"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            name="recovery"
            {...form.bind('code')}
          />
        ) : (
          <AppCodeField key="totp" name="totp" autoFocus {...form.bind('code')} />
        )}
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={form.busy}>
          {t('twoStep.submit')}
        </button>
      </div>
      <div className="auth-switch">
        {challenge.methods.includes('passkey') && <PasskeyTwoStep ticket={challenge.ticket} onSignedIn={onSignedIn} />}
        {challenge.methods.includes('recovery') && (
          <button
            type="button"
            className="button button-link"
            // The field keeps its focus: leaving it empty would show its error and move this button under the pointer.
            onMouseDown={(e) => e.preventDefault()}
            onClick={handleSwitch}
          >
            {byRecovery ? t('twoStep.useApp') : t('twoStep.useRecovery')}
          </button>
        )}
        <button type="button" className="button button-link" onClick={onRestart}>
          {t('twoStep.restart')}
        </button>
      </div>
    </form>
  );
}
