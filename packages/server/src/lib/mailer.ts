import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { isEmail } from '@sparrow/protocol';
import { onFirstUse } from './lazy';

/** nodemailer, for the first letter sent by SMTP. */
const loadNodemailer = onFirstUse<typeof nodemailer>('nodemailer');

export interface Letter {
  to: string;
  subject: string;
  text: string;
}

/** Delivers verification codes: by SMTP to email addresses when configured, else to the outbox. */
export class Mailer {
  private transport: Transporter | undefined;

  constructor(
    private readonly opts: { smtpUrl: string | undefined; outboxDir: string; from: string; log: FastifyBaseLogger },
  ) {}

  async deliver(letter: Letter): Promise<void> {
    if (this.opts.smtpUrl && isEmail(letter.to)) {
      this.transport ??= loadNodemailer().createTransport(this.opts.smtpUrl);
      await this.transport.sendMail({ from: this.opts.from, ...letter });
      return;
    }
    await fs.mkdir(this.opts.outboxDir, { recursive: true });
    const safe = letter.to.replace(/[^a-zA-Z0-9@.+_-]/g, '_');
    const file = path.join(this.opts.outboxDir, `${Date.now()}-${safe}.txt`);
    await fs.writeFile(file, `To: ${letter.to}\nSubject: ${letter.subject}\n\n${letter.text}\n`);
    this.opts.log.info({ to: letter.to, file }, 'message written to the outbox');
  }
}
