import {
  TOKEN_DAYS,
  TOKEN_NAME_MAX,
  TOKEN_SCOPES,
  type AccessToken,
  type AccessTokenCreated,
  type TokenScope,
} from '@sparrow/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { CellGroup, OptionList, SwitchCell } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { SecretBox } from '../../components/SecretBox';
import { SCOPE_KEYS, scopesLabel } from '../../components/tokens/scope-text';
import { formatDateTime } from '../../lib/relative-time';
import { useLoaded } from '../../lib/use-loaded';
import { useForm } from '../../lib/use-form';
import { checkRequired } from '../../lib/validation';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { useSession } from '../../stores/session';
import './tokens.css';

/** One token of the list: name, scopes, its secret's first characters, dates, and revoking it. */
function TokenRow({ token, onRevoked }: { token: AccessToken; onRevoked: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const when = (ms: number) => formatDateTime(ms, i18n.language);
  const handleRevoke = async () => {
    const ok = await feedback.confirm({
      title: t('tokens.revokeTitle'),
      content: t('tokens.revokeBody', { name: token.name }),
      confirmText: t('tokens.revoke'),
      cancelText: t('tokens.cancel'),
      danger: true,
    });
    if (!ok) return;
    await api.tokenRevoke({ id: token.id }, { loading: true, quiet: true });
    feedback.toast(t('tokens.revoked'));
    await onRevoked();
  };
  return (
    <li className="token">
      <span className="token-text">
        <span className="token-name">{token.name}</span>
        <span className="token-hint">{`${token.hint}…`}</span>
        <span className="token-when">{scopesLabel(token.scopes, t)}</span>
        <span className="token-when">
          {t('tokens.created', { time: when(token.create_time) })}
          {' · '}
          {token.expires_at ? t('tokens.expires', { time: when(token.expires_at) }) : t('tokens.neverExpires')}
        </span>
        <span className="token-when">
          {token.last_used ? t('tokens.lastUsed', { time: when(token.last_used) }) : t('tokens.neverUsed')}
        </span>
      </span>
      <button
        type="button"
        className="small-button"
        aria-label={t('tokens.revokeLabel', { name: token.name })}
        onClick={() => void handleRevoke()}
      >
        {t('tokens.revoke')}
      </button>
    </li>
  );
}

/** A new token: its name, what it may do and how long it lives. */
function CreateForm({ onCreated, onCancel }: { onCreated: (t: AccessTokenCreated) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const isAdmin = useSession((s) => s.user?.role === 1);
  const [scopes, setScopes] = useState<TokenScope[]>(['messages:read']);
  const [days, setDays] = useState<(typeof TOKEN_DAYS)[number]>(30);
  const form = useForm({ name: '' }, (v) => ({ name: checkRequired(v.name, 'tokens.nameRequired') }));
  const offered = TOKEN_SCOPES.filter((s) => s !== 'admin' || isAdmin);
  const handleSubmit = form.submit(async ({ name }) => {
    onCreated(await api.tokenCreate({ name: name.trim(), scopes, days }, { loading: true, quiet: true }));
  });
  return (
    <Page title={t('tokens.create')} onBack={onCancel}>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form">
          <Field label={t('tokens.name')} maxLength={TOKEN_NAME_MAX} autoFocus name="name" {...form.bind('name')} />
        </div>
        <CellGroup title={t('tokens.scopes')}>
          {offered.map((scope) => (
            <SwitchCell
              key={scope}
              title={t(SCOPE_KEYS[scope].title)}
              note={t(SCOPE_KEYS[scope].note)}
              checked={scopes.includes(scope)}
              onChange={(on) =>
                setScopes((now) =>
                  on ? TOKEN_SCOPES.filter((s) => s === scope || now.includes(s)) : now.filter((s) => s !== scope),
                )
              }
            />
          ))}
        </CellGroup>
        <OptionList
          legend={t('tokens.expiry')}
          legendClassName="cell-group-title"
          name="days"
          options={TOKEN_DAYS}
          value={days}
          label={(d) => (d === 0 ? t('tokens.neverExpires') : t('tokens.days', { count: d }))}
          onChange={setDays}
        />
        {scopes.length === 0 && (
          <p className="form-note" role="alert">
            {t('tokens.scopeRequired')}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy || scopes.length === 0}>
            {t('tokens.createSubmit')}
          </button>
        </div>
      </form>
    </Page>
  );
}

/** The new token's secret, shown this once, to copy. */
function CreatedStep({ token, onDone }: { token: AccessTokenCreated; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Page title={t('tokens.createdTitle')} back={false}>
      <p className="form-note">{t('tokens.shownOnce', { name: token.name })}</p>
      <SecretBox value={token.token} copyLabel={t('tokens.copy')} className="token-secret" />
      <p className="form-note">{t('tokens.usage')}</p>
      <SecretBox
        value={`curl -X POST ${location.origin}/enterprise/im/getContacts \\\n  -H 'Authorization: Bearer ${token.token}' -d '{}'`}
        command
      />
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onDone}>
          {t('tokens.saved')}
        </button>
      </div>
    </Page>
  );
}

const listTokens = () => api.tokenList({}, { silent: true });

/**
 * 开发者 → 访问令牌 (Settings): my personal access tokens for scripts and tools, made with a name,
 * scopes and a lifetime and shown once, listed with their last use, revoked at once
 * (docs/protocol.md §9). The API document they work on is at /docs.
 */
export default function TokensPage() {
  const { t } = useTranslation();
  const back = useBackTo(paths.setting);
  const { data: list, status, reload: refresh } = useLoaded(listTokens);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<AccessTokenCreated | null>(null);

  if (created)
    return (
      <CreatedStep
        token={created}
        onDone={() => {
          setCreated(null);
          void refresh();
        }}
      />
    );
  if (creating)
    return (
      <CreateForm
        onCancel={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
        }}
      />
    );
  return (
    <Page title={t('routes.tokens')} onBack={back}>
      <p className="form-note">
        {t('tokens.intro')}{' '}
        <a href="/docs" target="_blank" rel="noreferrer">
          {t('tokens.docs')}
        </a>
      </p>
      {status === 'error' && (
        <p className="form-note" role="alert">
          {t('tokens.loadFailed')}
        </p>
      )}
      {list && list.length === 0 && <p className="form-note">{t('tokens.empty')}</p>}
      {list && list.length > 0 && (
        <ul className="cells" aria-label={t('routes.tokens')}>
          {list.map((token) => (
            <TokenRow key={token.id} token={token} onRevoked={refresh} />
          ))}
        </ul>
      )}
      <div className="actions">
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          {t('tokens.create')}
        </button>
      </div>
    </Page>
  );
}
