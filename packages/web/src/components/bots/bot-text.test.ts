import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, deliveryStatusText, exampleBotCommand, lastAnswer, webhookStateText } from './bot-text';

/** A t() that answers the key and its values, to see which text was asked for. */
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;

describe('bot texts', () => {
  it('names a webhook’s state, with the failures in a row that turned it off', () => {
    expect(webhookStateText({ webhook_state: 'off', failures: 0 }, t)).toBe('bots.stateOff');
    expect(webhookStateText({ webhook_state: 'on', failures: 3 }, t)).toBe('bots.stateOn');
    expect(webhookStateText({ webhook_state: 'disabled', failures: 10 }, t)).toBe('bots.stateDisabled {"count":10}');
  });

  it('tells a delivery not tried yet from one tried and waiting for its next try', () => {
    expect(deliveryStatusText({ status: 'pending', attempts: 0 }, t)).toBe('bots.pending');
    expect(deliveryStatusText({ status: 'pending', attempts: 1 }, t)).toBe('bots.retrying');
    expect(deliveryStatusText({ status: 'delivered', attempts: 2 }, t)).toBe('bots.delivered');
    expect(deliveryStatusText({ status: 'failed', attempts: 6 }, t)).toBe('bots.failed');
  });

  it('says what the webhook last answered, or why it could not be reached', () => {
    expect(lastAnswer({ last_status: 0, last_error: '' }, t)).toBe('');
    expect(lastAnswer({ last_status: 200, last_error: '' }, t)).toBe('HTTP 200');
    expect(lastAnswer({ last_status: 500, last_error: 'status' }, t)).toBe('HTTP 500');
    expect(lastAnswer({ last_status: 503, last_error: 'disabled' }, t)).toBe('HTTP 503 · bots.error.disabled');
    expect(lastAnswer({ last_status: 0, last_error: 'unreachable' }, t)).toBe('bots.error.unreachable');
  });

  it('writes the example bot’s command with the server, the token and the secret', () => {
    expect(exampleBotCommand('https://im.example.org', { token: 'spt_abc', webhook_secret: 'whsec_c2VjcmV0' })).toBe(
      'SPARROW_URL=https://im.example.org \\\nSPARROW_BOT_TOKEN=spt_abc \\\n' +
        'SPARROW_WEBHOOK_SECRET=whsec_c2VjcmV0 \\\nHOST=0.0.0.0 PORT=8787 npm run example:bot',
    );
  });

  it('takes an empty webhook (none) or an http(s) address, and leaves the rest to the server', () => {
    expect(checkWebhookUrl('')).toBeNull();
    expect(checkWebhookUrl('  ')).toBeNull();
    expect(checkWebhookUrl('https://bot.example.org/hook')).toBeNull();
    expect(checkWebhookUrl('http://127.0.0.1:8787/')).toBeNull();
    expect(checkWebhookUrl('https://10.0.0.1/x')).toBeNull();
    expect(checkWebhookUrl('bot.example.org/hook')).toEqual({ key: 'bots.webhookInvalid' });
    expect(checkWebhookUrl('ftp://bot.example.org/')).toEqual({ key: 'bots.webhookInvalid' });
    expect(checkWebhookUrl(`https://a.example/${'x'.repeat(2048)}`)).toMatchObject({ key: 'bots.webhookTooLong' });
  });
});
