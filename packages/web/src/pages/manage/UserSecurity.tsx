import type { ManagedUser, ManagedUserSecurity } from '@sparrow/protocol';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { placeLabel, viaLabel } from '../../components/devices/session-text';
import { feedback } from '../../components/feedback';
import { deviceLabel } from '../../components/qr/device';
import { scopesLabel } from '../../components/tokens/scope-text';
import type { ManageT } from './i18n';
import { formatTime } from './parts';
import './user-security.css';

/**
 * 登录与验证 of one user (the console's user page): their second factors, signed-in devices and
 * personal access tokens, each device to sign out and each token to revoke, and 重置两步验证 (which signs every device out too); every change audited.
 */
export function UserSecurity({ user, t, locale }: { user: ManagedUser; t: ManageT; locale: string }) {
  const { t: tApp } = useTranslation();
  const [state, setState] = useState<ManagedUserSecurity | null | 'failed'>(null);
  const name = user.realname || user.account;

  const load = useCallback(async () => {
    try {
      setState(await api.manageUserSecurity({ user_id: user.user_id }, { silent: true }));
    } catch {
      setState('failed');
    }
  }, [user.user_id]);

  useEffect(() => {
    void load();
  }, [load]);

  const act = async (confirm: string, run: () => Promise<unknown>) => {
    const sure = await feedback.confirm({
      content: confirm,
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
      danger: true,
    });
    if (!sure) return;
    try {
      await run();
      feedback.toast(t('common.done'));
    } catch {
      // The server's message was shown.
    }
    await load();
  };

  if (state === null) return <p className="manage-hint">{t('common.loading')}</p>;
  if (state === 'failed') return <p className="manage-hint">{t('security.loadFailed')}</p>;

  return (
    <section className="manage-security" aria-label={t('security.openFor', { name })}>
      <h3>{t('security.factors')}</h3>
      <p className="manage-row-sub">
        {[
          state.two_step ? t('security.twoStepOn') : t('security.twoStepOff'),
          state.totp && t('security.totp'),
          state.totp && t('security.recoveryLeft', { count: state.recovery_left }),
          state.passkeys > 0 && t('security.passkeys', { count: state.passkeys }),
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {state.two_step === 1 && (
        <button
          type="button"
          className="button button-danger"
          onClick={() =>
            void act(t('security.confirmReset', { name }), () =>
              api.manageTwoStepReset({ user_id: user.user_id }, { loading: true, quiet: true }),
            )
          }
        >
          {t('security.reset')}
        </button>
      )}
      <h3>{t('security.sessions')}</h3>
      {state.sessions.length === 0 ? (
        <p className="manage-hint">{t('security.noSessions')}</p>
      ) : (
        <ul className="manage-sessions">
          {state.sessions.map((s) => {
            const device = deviceLabel(s.device, tApp);
            return (
              <li key={s.session_id} className="manage-session">
                <div>
                  <p className="manage-row-title">{device}</p>
                  <p className="manage-row-sub">
                    {[
                      placeLabel(s, tApp),
                      t('security.address', { ip: s.ip }),
                      viaLabel(s.via, tApp),
                      t('security.lastActive', { time: formatTime(s.last_seen, locale) }),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                </div>
                <button
                  type="button"
                  className="button button-default"
                  aria-label={t('security.endSessionNamed', { device })}
                  onClick={() =>
                    void act(t('security.confirmEnd', { name, device }), () =>
                      api.manageSessionEnd(
                        { user_id: user.user_id, session_id: s.session_id },
                        { loading: true, quiet: true },
                      ),
                    )
                  }
                >
                  {t('security.endSession')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <h3>{t('security.tokens')}</h3>
      {state.tokens.length === 0 ? (
        <p className="manage-hint">{t('security.noTokens')}</p>
      ) : (
        <ul className="manage-sessions">
          {state.tokens.map((token) => (
            <li key={token.id} className="manage-session">
              <div>
                <p className="manage-row-title">{token.name}</p>
                <p className="manage-row-sub">
                  {[
                    `${token.hint}…`,
                    scopesLabel(token.scopes, tApp),
                    token.last_used
                      ? t('security.lastActive', { time: formatTime(token.last_used, locale) })
                      : t('security.tokenUnused'),
                  ].join(' · ')}
                </p>
              </div>
              <button
                type="button"
                className="button button-default"
                aria-label={t('security.revokeTokenNamed', { token: token.name })}
                onClick={() =>
                  void act(t('security.confirmRevoke', { name, token: token.name }), () =>
                    api.manageTokenRevoke({ user_id: user.user_id, id: token.id }, { loading: true, quiet: true }),
                  )
                }
              >
                {t('security.revokeToken')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
