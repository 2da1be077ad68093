import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mailer } from '../src/lib/mailer';

/** A local SMTP server speaking just enough of RFC 5321 to take letters, which it keeps. */
function smtpServer() {
  const letters: string[] = [];
  const server = net.createServer((socket) => {
    let data: string | null = null;
    let buffer = '';
    socket.write('220 localhost ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += String(chunk);
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line === '.') {
            letters.push(data);
            data = null;
            socket.write('250 OK queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 localhost\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return { server, letters };
}

describe('Mailer', () => {
  const smtp = smtpServer();
  const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-outbox-'));
  let url = '';
  const log = { info: () => undefined } as never;

  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
    url = `smtp://127.0.0.1:${(smtp.server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => {
    smtp.server.close();
    fs.rmSync(outboxDir, { recursive: true, force: true });
  });

  it('sends a code to an email address by SMTP when a server is configured', async () => {
    const mailer = new Mailer({ smtpUrl: url, outboxDir, from: 'Sparrow <no-reply@sparrow.test>', log });
    await mailer.deliver({ to: 'ann@example.org', subject: 'Your code', text: 'Your code is 123456' });
    expect(smtp.letters).toHaveLength(1);
    expect(smtp.letters[0]).toMatch(/^To: ann@example\.org$/m);
    expect(smtp.letters[0]).toMatch(/^Subject: Your code$/m);
    expect(smtp.letters[0]).toContain('Your code is 123456');
    expect(fs.readdirSync(outboxDir)).toHaveLength(0);
  });

  it('writes to the outbox when no server is configured, or the address is not an email', async () => {
    await new Mailer({ smtpUrl: undefined, outboxDir, from: 'x@sparrow.test', log }).deliver({
      to: 'bob@example.org',
      subject: 'Code',
      text: '654321',
    });
    await new Mailer({ smtpUrl: url, outboxDir, from: 'x@sparrow.test', log }).deliver({
      to: '13800000000',
      subject: 'Code',
      text: '111111',
    });
    const files = fs.readdirSync(outboxDir).map((f) => fs.readFileSync(path.join(outboxDir, f), 'utf8'));
    expect(files.sort()).toEqual([
      expect.stringContaining('To: 13800000000'),
      expect.stringContaining('To: bob@example.org'),
    ]);
    expect(smtp.letters).toHaveLength(1);
  });
});
