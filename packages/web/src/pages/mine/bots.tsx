import {
  BOT_DELIVERIES_SHOWN,
  BOT_FAILURES_MAX,
  BOT_TOKEN_SCOPES,
  BOT_WEBHOOK_URL_MAX,
  BOTS_PER_USER_MAX,
  type Bot,
  type BotCreated,
  type BotDelivery,
} from '@sparrow/protocol';
import { RightOutline } from 'antd-mobile-icons';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError } from '../../api';
import { Avatar } from '../../components/Avatar';
import { ActionCell, Cell, CellGroup } from '../../components/Cell';
import { DelayedSpinner } from '../../components/DelayedSpinner';
import { feedback } from '../../components/feedback';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { SecretBox } from '../../components/SecretBox';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import {
  checkWebhookUrl,
  DELIVERY_TAG,
  deliveryStatusText,
  exampleBotCommand,
  lastAnswer,
  STATE_TAG,
  webhookStateText,
} from '../../components/bots/bot-text';
import { useBotDeliveries, useBots, withBot } from '../../components/bots/use-bots';
import { NameForm } from '../../components/robots/NameForm';
import { scopesLabel } from '../../components/tokens/scope-text';
import { formatDateTime } from '../../lib/relative-time';
import { useForm } from '../../lib/use-form';
import { useBackTo } from '../../nav/navigation';
import { chatPath, paths, withQuery } from '../../nav/paths';
import { contacts } from '../../stores/contacts';
import './bots.css';

type Bots = ReturnType<typeof useBots>;

/** The deliveries the log shows before 查看全部: the page's other parts stay in reach below it. */
const DELIVERIES_FIRST_SHOWN = 5;

/** A bot's page, or one of its sub-views (`edit=name`). */
const botPath = (bot: Pick<Bot, 'id'>, more: Record<string, string> = {}) =>
  withQuery(paths.bots, { bot: bot.id, ...more });

/** The contact list again: a bot made is my friend at once, a deleted one is gone, a renamed one renamed. */
const refreshContacts = () => void contacts.load().catch(() => undefined);

/** A webhook's state as a tag. */
function StateTag({ bot }: { bot: Bot }) {
  const { t } = useTranslation();
  return <span className={`tag bot-tag ${STATE_TAG[bot.webhook_state]}`}>{webhookStateText(bot, t)}</span>;
}

/** One bot of the list: picture, name, account and its webhook's state; a link to its page. */
function BotRow({ bot }: { bot: Bot }) {
  return (
    <li>
      <Link className="bot-row cell-action" to={botPath(bot)}>
        <Avatar src={bot.avatar} name={bot.name} alt="" size={44} />
        <span className="bot-text">
          <span className="bot-name">{bot.name}</span>
          <span className="bot-account">{bot.account}</span>
          <StateTag bot={bot} />
        </span>
        <RightOutline className="cell-arrow" aria-hidden="true" />
      </Link>
    </li>
  );
}

/** 机器人: my bots, and making one. */
function BotList({ bots }: { bots: Bots }) {
  const { t } = useTranslation();
  const back = useBackTo(paths.setting);
  const navigate = useNavigate();
  const { data: list, status } = bots;
  const full = (list?.length ?? 0) >= BOTS_PER_USER_MAX;
  return (
    <Page title={t('routes.bots')} onBack={back}>
      <p className="form-note">{t('bots.intro')}</p>
      {status === 'error' && (
        <p className="form-note" role="alert">
          {t('bots.loadFailed')}
        </p>
      )}
      {!list && status === 'loading' && <DelayedSpinner />}
      {list && list.length === 0 && <p className="form-note">{t('bots.empty')}</p>}
      {list && list.length > 0 && (
        <ul className="cells bot-list" aria-label={t('bots.listLabel')}>
          {list.map((bot) => (
            <BotRow key={bot.id} bot={bot} />
          ))}
        </ul>
      )}
      {list && (
        <div className="actions">
          {full && <p className="form-note bot-full">{t('bots.full', { max: BOTS_PER_USER_MAX })}</p>}
          <button
            type="button"
            className="button button-primary"
            disabled={full}
            onClick={() => void navigate(withQuery(paths.bots, { add: 1 }))}
          >
            {t('bots.create')}
          </button>
        </div>
      )}
    </Page>
  );
}

/** A titled part of a bot's pages. */
function Part({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={`bot-part${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <h2 className="cell-group-title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The token (and the webhook's secret) a bot was just given, shown this once, with the command that
 * runs the example bot as it.
 */
function ShownOnce({ bot, reset, onDone }: { bot: BotCreated; reset: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const command = exampleBotCommand(location.origin, bot);
  return (
    <Page title={reset ? t('bots.resetDoneTitle') : t('bots.createdTitle')} back={false}>
      <p className="form-note">
        {reset ? t('bots.resetShownOnce', { name: bot.name }) : t('bots.shownOnce', { name: bot.name })}
      </p>
      <Part title={t('bots.token')}>
        <SecretBox value={bot.token} copyLabel={t('bots.copyToken')} className="bot-secret" />
      </Part>
      <Part title={t('bots.secret')}>
        <SecretBox value={bot.webhook_secret} copyLabel={t('bots.copySecret')} className="bot-secret" />
        <p className="form-note">{t('bots.secretLater')}</p>
      </Part>
      <Part title={t('bots.run')}>
        <p className="form-note">{t('bots.runIntro')}</p>
        <SecretBox value={command} copyLabel={t('bots.copyCommand')} command className="bot-usage" />
        <p className="form-note">{t('bots.runNote')}</p>
        <p className="form-note">{t('bots.runHttpNote')}</p>
      </Part>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onDone}>
          {t('bots.saved')}
        </button>
      </div>
    </Page>
  );
}

/** 新建机器人: a name; then its token shown once; then its page. */
function CreateBot({ bots }: { bots: Bots }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = useBackTo(paths.bots);
  const [created, setCreated] = useState<BotCreated | null>(null);
  if (created)
    return <ShownOnce bot={created} reset={false} onDone={() => void navigate(botPath(created), { replace: true })} />;
  const handleCreate = async (name: string) => {
    const bot = await api.botCreate({ name }, { loading: true, quiet: true });
    bots.setData((list) => withBot(list, bot));
    refreshContacts();
    setCreated(bot);
  };
  return (
    <NameForm
      title={t('bots.create')}
      label={t('bots.name')}
      initial=""
      submitText={t('bots.createSubmit')}
      note={t('bots.createNote')}
      onBack={back}
      onSubmit={handleCreate}
    />
  );
}

function RenameBot({ bot, bots }: { bot: Bot; bots: Bots }) {
  const { t } = useTranslation();
  const back = useBackTo(botPath(bot));
  const handleRename = async (name: string) => {
    // The webhook left out: a rename never turns a stopped webhook back on.
    const next = await api.botEdit({ bot_id: bot.id, name }, { loading: true, quiet: true });
    bots.setData((list) => withBot(list, next));
    refreshContacts();
    back();
  };
  return (
    <NameForm
      title={t('bots.editName')}
      label={t('bots.name')}
      initial={bot.name}
      submitText={t('common.save')}
      onBack={back}
      onSubmit={handleRename}
    />
  );
}

/**
 * 消息推送: the webhook's address (empty turns it off), its state, and why it stopped when it did.
 * The server's refusal of an address (WebhookRefused) shows under the field, not as a toast.
 */
function WebhookForm({ bot, onChanged }: { bot: Bot; onChanged: (bot: Bot) => void }) {
  const { t } = useTranslation();
  // Named as botEdit's field, so that the server's word on it (data.fields) lands under it.
  const form = useForm({ webhook_url: bot.webhook_url }, (v) => ({ webhook_url: checkWebhookUrl(v.webhook_url) }));
  const handleSubmit = form.submit(async (v) => {
    const webhook_url = v.webhook_url.trim();
    let next: Bot;
    try {
      next = await api.botEdit({ bot_id: bot.id, name: bot.name, webhook_url }, { silent: true });
    } catch (err) {
      // A field's error shows under it (useForm); any other is said here, as the request layer would.
      if (err instanceof ApiError && err.fields.length === 0 && err.message) feedback.toast(err.message);
      throw err;
    }
    onChanged(next);
    form.reset({ webhook_url: next.webhook_url });
    feedback.toast(webhook_url ? t('bots.webhookSaved') : t('bots.webhookCleared'));
  });
  return (
    <Part title={t('bots.push')}>
      <p className="bot-state">
        <span className="bot-state-label">{t('bots.state')}</span>
        <StateTag bot={bot} />
      </p>
      {bot.webhook_state === 'on' && bot.failures > 0 && (
        <p className="form-note">{t('bots.failing', { count: bot.failures, max: BOT_FAILURES_MAX })}</p>
      )}
      {bot.webhook_state === 'disabled' && (
        <p className="bot-alert" role="note">
          {t('bots.disabledNote', { count: bot.failures })}
        </p>
      )}
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form bot-webhook">
          <Field
            label={t('bots.webhook')}
            type="url"
            inputMode="url"
            name="webhook_url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            maxLength={BOT_WEBHOOK_URL_MAX}
            hint={t('bots.webhookHint')}
            {...form.bind('webhook_url')}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy}>
            {t('bots.webhookSave')}
          </button>
        </div>
      </form>
    </Part>
  );
}

/** One delivery of the log: its status, tries, the last answer and when. */
function DeliveryRow({ delivery: d }: { delivery: BotDelivery }) {
  const { t, i18n } = useTranslation();
  const when = (ms: number) => formatDateTime(ms, i18n.language);
  const answer = lastAnswer(d, t);
  return (
    <li className="bot-delivery">
      <span className="bot-delivery-head">
        <span className={`tag bot-tag ${DELIVERY_TAG[d.status]}`}>{deliveryStatusText(d, t)}</span>
        <span className="bot-delivery-time">{when(d.create_time)}</span>
      </span>
      <span className="bot-delivery-line">
        {t('bots.attempts', { count: d.attempts })}
        {answer && (
          <>
            {' · '}
            <span className="bot-delivery-answer">{answer}</span>
          </>
        )}
      </span>
      {d.status === 'pending' && d.next_at > 0 && (
        <span className="bot-delivery-line">{t('bots.nextAt', { time: when(d.next_at) })}</span>
      )}
      <span className="bot-delivery-id">{d.event_id}</span>
    </li>
  );
}

/** 投递记录: the newest deliveries, read again (with the bot's state) while one waits for a try and on 刷新. */
function DeliveryLog({ bot, bots }: { bot: Bot; bots: Bots }) {
  const { t } = useTranslation();
  const id = useId();
  const { data: log, status, refresh } = useBotDeliveries(bot.id, bots.reload);
  const [all, setAll] = useState(false);
  const shown = log && !all ? log.slice(0, DELIVERIES_FIRST_SHOWN) : log;
  return (
    <section className="bot-part" aria-labelledby={id}>
      <div className="bot-log-head">
        <h2 className="cell-group-title" id={id}>
          {t('bots.log')}
        </h2>
        <button type="button" className="small-button" disabled={status === 'loading'} onClick={() => void refresh()}>
          {t('bots.refresh')}
        </button>
      </div>
      {status === 'error' && (
        <p className="form-note" role="alert">
          {t('bots.loadFailed')}
        </p>
      )}
      {log && log.length === 0 && <p className="form-note">{t('bots.logEmpty')}</p>}
      {shown && shown.length > 0 && (
        <ul className="cells" aria-label={t('bots.log')}>
          {shown.map((d) => (
            <DeliveryRow key={d.id} delivery={d} />
          ))}
        </ul>
      )}
      {log && shown && log.length > shown.length && (
        <div className="bot-show-all">
          <button type="button" className="button button-default" onClick={() => setAll(true)}>
            {t('bots.showAll', { count: log.length })}
          </button>
        </div>
      )}
      <p className="form-note">{t('bots.logNote', { max: BOT_DELIVERIES_SHOWN })}</p>
    </section>
  );
}

/**
 * 机器人 → one bot: its name, a chat with it, the webhook with its state and secret, the delivery
 * log, a new token (shown once) and deleting it.
 */
function BotDetail({ bot, bots }: { bot: Bot; bots: Bots }) {
  const { t, i18n } = useTranslation();
  const back = useBackTo(paths.bots);
  const { busy, run } = useConfirmedAction();
  const [reset, setReset] = useState<BotCreated | null>(null);
  const changed = (next: Bot) => bots.setData((list) => withBot(list, next));

  const handleReset = () =>
    run(
      { title: t('bots.resetTitle'), content: t('bots.resetBody'), confirmText: t('bots.resetConfirm') },
      async () => {
        const next = await api.botReset({ bot_id: bot.id }, { loading: true, quiet: true });
        changed(next);
        setReset(next);
      },
    );
  const handleDelete = () =>
    run(
      {
        title: t('bots.removeTitle'),
        content: t('bots.removeBody', { name: bot.name }),
        confirmText: t('bots.removeConfirm'),
      },
      async () => {
        await api.botDelete({ bot_id: bot.id }, { loading: true, quiet: true });
        bots.setData((list) => (list ?? []).filter((b) => b.id !== bot.id));
        refreshContacts();
        feedback.toast(t('bots.removed'));
        back();
      },
    );

  if (reset) return <ShownOnce bot={reset} reset onDone={() => setReset(null)} />;
  return (
    <Page title={t('bots.detail')} onBack={back}>
      <div className="bot-head">
        <Avatar src={bot.avatar} name={bot.name} alt={t('bots.avatarOf', { name: bot.name })} size={56} />
        <span className="bot-text">
          <span className="bot-head-name">{bot.name}</span>
          <span className="bot-account">{t('bots.account', { account: bot.account })}</span>
          <span className="bot-account">
            {t('bots.created', { time: formatDateTime(bot.create_time, i18n.language) })}
          </span>
        </span>
      </div>
      <CellGroup>
        <Cell title={t('bots.name')} value={bot.name} to={botPath(bot, { edit: 'name' })} />
        <Cell title={t('bots.chat')} to={chatPath(String(bot.id))} />
      </CellGroup>
      <WebhookForm bot={bot} onChanged={changed} />
      <DeliveryLog bot={bot} bots={bots} />
      <Part title={t('bots.secret')}>
        <SecretBox value={bot.webhook_secret} copyLabel={t('bots.copySecret')} className="bot-secret" />
        <p className="form-note">{t('bots.secretNote')}</p>
      </Part>
      <Part title={t('bots.token')}>
        <p className="form-note bot-token-note">{t('bots.tokenNote', { scopes: scopesLabel(BOT_TOKEN_SCOPES, t) })}</p>
        <ul className="cells">
          <ActionCell disabled={busy} onClick={() => void handleReset()}>
            {t('bots.reset')}
          </ActionCell>
        </ul>
      </Part>
      <ul className="cells bot-danger-zone">
        <ActionCell danger disabled={busy} onClick={() => void handleDelete()}>
          {t('bots.remove')}
        </ActionCell>
      </ul>
    </Page>
  );
}

/** A bot the list does not have (deleted, or not mine), or the list that could not be read. */
function BotMissing({ bots }: { bots: Bots }) {
  const { t } = useTranslation();
  const back = useBackTo(paths.bots);
  return (
    <Page title={t('bots.detail')} onBack={back}>
      {bots.status === 'error' ? (
        <div className="actions">
          <p className="form-note">{t('bots.loadFailed')}</p>
          <button type="button" className="button" onClick={() => void bots.reload()}>
            {t('common.retry')}
          </button>
        </div>
      ) : (
        <p className="form-note">{t('bots.notFound')}</p>
      )}
    </Page>
  );
}

/**
 * 机器人 (`/pages/mine/bots`, Settings → 开发者, docs/protocol.md §11): my bot accounts, each my
 * friend, with its own token and an outgoing webhook; by `add`, `bot` and `edit` making one, one
 * bot's page and renaming it. A token is shown once, when made or reset, and never kept.
 */
export default function BotsPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const bots = useBots();
  const botId = Number(params.get('bot'));
  if (params.get('add') === '1') return <CreateBot bots={bots} />;
  if (botId > 0) {
    const bot = bots.data?.find((b) => b.id === botId);
    if (bot && params.get('edit') === 'name') return <RenameBot bot={bot} bots={bots} />;
    if (bot) return <BotDetail key={bot.id} bot={bot} bots={bots} />;
    if (bots.status !== 'loading') return <BotMissing bots={bots} />;
    return (
      <Page title={t('bots.detail')}>
        <DelayedSpinner />
      </Page>
    );
  }
  return <BotList bots={bots} />;
}
