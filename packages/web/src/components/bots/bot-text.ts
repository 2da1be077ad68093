import {
  BOT_WEBHOOK_URL_MAX,
  type Bot,
  type BotCreated,
  type BotDelivery,
  type BotWebhookState,
} from '@sparrow/protocol';
import type { TFunction } from 'i18next';
import type { Problem } from '../../lib/validation';

/** The port the example bot (examples/echo-bot) listens on in the command the page shows. */
export const EXAMPLE_BOT_PORT = 8787;

/** A webhook's state as a tag says it: 未设置, 正常, 已停用（连续失败 N 次）. */
export function webhookStateText(bot: Pick<Bot, 'webhook_state' | 'failures'>, t: TFunction): string {
  switch (bot.webhook_state) {
    case 'off':
      return t('bots.stateOff');
    case 'on':
      return t('bots.stateOn');
    case 'disabled':
      return t('bots.stateDisabled', { count: bot.failures });
  }
}

/** The tag's look of each state (app/styles.css's, bots.css's). */
export const STATE_TAG: Record<BotWebhookState, string> = {
  off: 'tag-muted',
  on: 'tag-ok',
  disabled: 'bot-tag-off',
};

/** A delivery's status: 已送达, 等待投递 (not tried yet), 等待重试 (tried and failed), 投递失败 (given up). */
export function deliveryStatusText(d: Pick<BotDelivery, 'status' | 'attempts'>, t: TFunction): string {
  switch (d.status) {
    case 'delivered':
      return t('bots.delivered');
    case 'pending':
      return d.attempts > 0 ? t('bots.retrying') : t('bots.pending');
    case 'failed':
      return t('bots.failed');
  }
}

export const DELIVERY_TAG: Record<BotDelivery['status'], string> = {
  delivered: 'tag-ok',
  pending: 'bot-tag-wait',
  failed: 'bot-tag-off',
};

/**
 * What the webhook last answered (`HTTP 200`) and why the last try failed, or why the delivery was
 * given up, when the status does not say it (`HTTP 503 · 连续失败后已停用`, `无法连接`); '' before
 * the first try.
 */
export function lastAnswer(d: Pick<BotDelivery, 'last_status' | 'last_error'>, t: TFunction): string {
  const status = d.last_status ? `HTTP ${d.last_status}` : '';
  const why = d.last_error && d.last_error !== 'status' ? t(`bots.error.${d.last_error}`) : '';
  return [status, why].filter(Boolean).join(' · ');
}

/** The shell command that runs the example bot (`npm run example:bot`) as this bot, against `base`. */
export function exampleBotCommand(base: string, bot: Pick<BotCreated, 'token' | 'webhook_secret'>): string {
  return [
    `SPARROW_URL=${base}`,
    `SPARROW_BOT_TOKEN=${bot.token}`,
    `SPARROW_WEBHOOK_SECRET=${bot.webhook_secret}`,
    `HOST=0.0.0.0 PORT=${EXAMPLE_BOT_PORT} npm run example:bot`,
  ].join(' \\\n');
}

/**
 * A webhook URL as `botEdit` takes it: empty (no webhook), or an http(s) address with a host. The
 * server decides the rest (https only, no address inside its network) and says so as WebhookRefused.
 */
export function checkWebhookUrl(value: string): Problem {
  const v = value.trim();
  if (!v) return null;
  if (v.length > BOT_WEBHOOK_URL_MAX) return { key: 'bots.webhookTooLong', params: { max: BOT_WEBHOOK_URL_MAX } };
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return { key: 'bots.webhookInvalid' };
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname
    ? null
    : { key: 'bots.webhookInvalid' };
}
