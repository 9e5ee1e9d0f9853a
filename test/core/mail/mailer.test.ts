import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerOptions } from 'smtp-server';
import { ManualClock } from '../../../core/clock.js';
import { EmlFileMailer } from '../../../core/mail/eml-file-mailer.js';
import { SmtpMailer } from '../../../core/mail/smtp-mailer.js';
import type { MailMessage, Mailer } from '../../../core/ports/mailer.js';
import { freePort } from '../../support/processes.js';

/**
 * One conformance suite for the Mailer port, run against every implementation: `.eml` files in a
 * folder, and SMTP against a real SMTP server (smtp-server) on 127.0.0.1, with and without AUTH.
 * What arrives is parsed here, minimally, the way a mail client would read it.
 */

const FROM = 'Avatar service <noreply@avatar.example>';
const root = await mkdtemp(join(tmpdir(), 'avatar-mail-'));
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(root, { recursive: true, force: true });
});

// ---- A tiny RFC 5322 / MIME reader -------------------------------------------------------------

interface Parsed {
  /** Unfolded headers, names lower-cased, encoded words still encoded. */
  headers: Map<string, string>;
  /** The body, transfer-decoded, with the line breaks of the text (LF). */
  text: string;
}

function parseMessage(raw: Buffer): Parsed {
  const source = raw.toString('latin1');
  const split = source.indexOf('\r\n\r\n');
  assert.notEqual(split, -1, 'headers end at an empty line (CRLF CRLF)');
  assert.doesNotMatch(source.replace(/\r\n/g, ''), /[\r\n]/, 'every line ends with CRLF');
  for (const line of source.split('\r\n')) assert.ok(line.length <= 998, 'no line is over 998 octets');
  const headers = new Map<string, string>();
  for (const line of source.slice(0, split).replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':');
    assert.ok(colon > 0, `a header line: ${line}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    assert.ok(!headers.has(name), `one ${name} header`);
    headers.set(name, line.slice(colon + 1).trim());
  }
  // The line break that ends the last line belongs to the message, not to the text.
  const body = source.slice(split + 4).replace(/\r\n$/, '');
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  assert.match(headers.get('content-type') ?? '', /^text\/plain;\s*charset="?utf-8"?$/i);
  const bytes =
    encoding === 'quoted-printable' ? decodeQuotedPrintable(body)
    : encoding === 'base64' ? Buffer.from(body, 'base64')
    : Buffer.from(body, 'latin1');
  return { headers, text: bytes.toString('utf8').replace(/\r\n/g, '\n') };
}

function decodeQuotedPrintable(body: string): Buffer {
  const unwrapped = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i++) {
    const hex = unwrapped[i] === '=' ? unwrapped.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(unwrapped.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047: runs of UTF-8 encoded words (the space between them is not text) become text. */
function decodeWords(value: string): string {
  const word = /=\?utf-8\?([bq])\?([^?]*)\?=/gi;
  return value.replace(/=\?utf-8\?[bq]\?[^?]*\?=(?:\s+=\?utf-8\?[bq]\?[^?]*\?=)*/gi, (run) => {
    const parts = [...run.matchAll(word)].map(([, kind, text]) =>
      kind!.toLowerCase() === 'b' ? Buffer.from(text!, 'base64') : decodeQuotedPrintable(text!.replace(/_/g, ' ')),
    );
    return Buffer.concat(parts).toString('utf8');
  });
}

// ---- The implementations under test ------------------------------------------------------------

interface Delivered {
  raw: Buffer;
  /** RCPT TO addresses, where the engine has an envelope (SMTP). */
  envelopeTo?: string[];
}

interface Harness {
  mailer: Mailer;
  /** Everything delivered so far, oldest first. */
  delivered(): Promise<Delivered[]>;
}

let cases = 0;

async function emlHarness(): Promise<Harness & { directory: string; clock: ManualClock }> {
  const directory = join(root, `case-${cases++}`, 'outbox');
  const clock = new ManualClock(Date.UTC(2026, 4, 17, 9, 30, 15, 250));
  const mailer = new EmlFileMailer({ directory, from: FROM, clock });
  cleanups.push(() => mailer.close());
  const delivered = async () => {
    if (!existsSync(directory)) return [];
    const names = (await readdir(directory)).sort();
    return Promise.all(names.map(async (name) => ({ raw: await readFile(join(directory, name)) })));
  };
  return { mailer, delivered, directory, clock };
}

interface SmtpOptions {
  auth?: { user: string; pass: string };
}

async function startSmtpServer(options: SmtpOptions = {}): Promise<{ port: number; messages: Delivered[] }> {
  const messages: Delivered[] = [];
  const settings: SMTPServerOptions = {
    authOptional: !options.auth,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({ raw: Buffer.concat(chunks), envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address) });
        callback();
      });
    },
  };
  if (options.auth) {
    const { user, pass } = options.auth;
    settings.onAuth = (auth, _session, callback) =>
      auth.username === user && auth.password === pass ? callback(null, { user }) : callback(new Error('Invalid username or password'));
  }
  const server = new SMTPServer(settings);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as AddressInfo).port, messages };
}

async function smtpHarness(options: SmtpOptions = {}): Promise<Harness> {
  const { port, messages } = await startSmtpServer(options);
  const credentials = options.auth ? `${options.auth.user}:${options.auth.pass}@` : '';
  const mailer = new SmtpMailer({ url: `smtp://${credentials}127.0.0.1:${port}`, from: FROM });
  cleanups.push(() => mailer.close());
  return { mailer, delivered: async () => [...messages] };
}


// ---- The conformance suite ---------------------------------------------------------------------

const longLine = `Last error: ${'HTTP 503 Service Unavailable from https://hooks.example.com/avatar '.repeat(4)}— réessayez plus tard, 再試行してください.`;
const notice: MailMessage = {
  to: 'owner@example.com',
  subject: 'Webhook wh_123 is failing — ✓',
  text: [
    'Hello,',
    '',
    'Your webhook wh_123 failed 5 times in a row.',
    longLine,
    'Trailing space and tab stay: \t',
    'A line of = signs: ==== and a dot line follows',
    '.',
    'Grüße, the avatar service 🙂',
  ].join('\n'),
};

function mailerConformance(name: string, open: () => Promise<Harness>): void {
  describe(`Mailer conformance: ${name}`, () => {
    it('delivers one RFC 5322 message whose headers and text read back as sent', async () => {
      assert.ok(longLine.length > 200);
      const { mailer, delivered } = await open();
      await mailer.send(notice);
      const all = await delivered();
      assert.equal(all.length, 1);
      const { headers, text } = parseMessage(all[0]!.raw);
      assert.equal(headers.get('to'), 'owner@example.com');
      assert.equal(decodeWords(headers.get('from')!), FROM);
      assert.equal(decodeWords(headers.get('subject')!), notice.subject);
      assert.match(headers.get('subject')!, /^=\?UTF-8\?B\?/, 'a non-ASCII subject is an encoded word');
      assert.equal(text, notice.text);
      assert.match(headers.get('date')!, /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
      assert.ok(Number.isFinite(Date.parse(headers.get('date')!)));
      assert.match(headers.get('message-id')!, /^<[0-9a-f]{16,}@avatar-service>$/);
      assert.equal(headers.get('mime-version'), '1.0');
      if (all[0]!.envelopeTo) assert.deepEqual(all[0]!.envelopeTo, ['owner@example.com']);
    });

    it('sends messages one after another, each with its own Message-ID; plain ASCII stays plain', async () => {
      const { mailer, delivered } = await open();
      await mailer.send({ to: 'a@example.com', subject: 'Webhook wh_1 is failing', text: 'First.' });
      await mailer.send({ to: 'b@example.com', subject: 'Webhook wh_2 is failing', text: 'Second.' });
      const parsed = (await delivered()).map(({ raw }) => parseMessage(raw));
      assert.deepEqual(
        parsed.map(({ headers, text }) => [headers.get('to'), headers.get('subject'), text]).sort(),
        [
          ['a@example.com', 'Webhook wh_1 is failing', 'First.'],
          ['b@example.com', 'Webhook wh_2 is failing', 'Second.'],
        ],
      );
      assert.notEqual(parsed[0]!.headers.get('message-id'), parsed[1]!.headers.get('message-id'));
    });

    it('refuses a line break in To or Subject (header injection) and delivers nothing', async () => {
      const { mailer, delivered } = await open();
      for (const bad of [
        { ...notice, subject: 'hi\r\nBcc: evil@example.com' },
        { ...notice, subject: 'hi\nBcc: evil@example.com' },
        { ...notice, to: 'owner@example.com\r\nBcc: evil@example.com' },
        { ...notice, to: 'owner@example.com\rBcc: evil@example.com' },
      ]) {
        await assert.rejects(mailer.send(bad), (error: Error) => error instanceof Error && /line break/.test(error.message));
      }
      assert.deepEqual(await delivered(), []);
    });

    it('closes, also before any send, and more than once', async () => {
      const { mailer } = await open();
      await mailer.close();
      await mailer.close();
    });
  });
}

mailerConformance('EmlFileMailer', emlHarness);
mailerConformance('SmtpMailer', () => smtpHarness());
mailerConformance('SmtpMailer with AUTH', () => smtpHarness({ auth: { user: 'user', pass: 'secret' } }));

// ---- What only one implementation does ---------------------------------------------------------

describe('EmlFileMailer', () => {
  it('creates its folder on the first send and writes one .eml file per message, no .tmp left', async () => {
    const { mailer, directory, clock } = await emlHarness();
    assert.equal(existsSync(directory), false, 'nothing is created before a send');
    await mailer.send(notice);
    clock.advance(1000);
    await mailer.send(notice);
    const names = (await readdir(directory)).sort();
    assert.equal(names.length, 2);
    assert.match(names[0]!, /^2026-05-17T09-30-15\.250Z-[0-9a-f]{8}\.eml$/);
    assert.match(names[1]!, /^2026-05-17T09-30-16\.250Z-[0-9a-f]{8}\.eml$/);
    assert.ok(names.every((name) => !name.includes(':') && !name.endsWith('.tmp')));
    const { headers } = parseMessage(await readFile(join(directory, names[0]!)));
    assert.equal(headers.get('date'), 'Sun, 17 May 2026 09:30:15 +0000', 'the Date comes from the clock');
  });

  it('rejects when the folder cannot be created, leaving nothing behind', async () => {
    const parent = join(root, `case-${cases++}`);
    await writeFile(parent, 'a file, not a folder');
    const mailer = new EmlFileMailer({ directory: join(parent, 'outbox'), from: FROM });
    await assert.rejects(mailer.send(notice), { code: 'ENOTDIR' });
  });

  it('refuses a line break in its From', () => {
    assert.throws(() => new EmlFileMailer({ directory: root, from: 'a@example.com\r\nBcc: evil@example.com' }), /line break/);
  });
});

describe('SmtpMailer', () => {
  it('rejects when the SMTP server is down', async () => {
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: FROM });
    cleanups.push(() => mailer.close());
    await assert.rejects(mailer.send(notice), (error: Error & { code?: string }) => error instanceof Error && /ECONNREFUSED|ECONNECTION/.test(`${error.code} ${error.message}`));
  });

  it('rejects wrong credentials, and delivers nothing', async () => {
    const { port, messages } = await startSmtpServer({ auth: { user: 'user', pass: 'secret' } });
    const mailer = new SmtpMailer({ url: `smtp://user:wrong@127.0.0.1:${port}`, from: FROM });
    cleanups.push(() => mailer.close());
    await assert.rejects(mailer.send(notice), (error: Error & { code?: string }) => error.code === 'EAUTH');
    assert.deepEqual(messages, []);
  });

  it('sends nothing when the server demands AUTH and the url has no credentials', async () => {
    const { port, messages } = await startSmtpServer({ auth: { user: 'user', pass: 'secret' } });
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: FROM });
    cleanups.push(() => mailer.close());
    await assert.rejects(mailer.send(notice));
    assert.deepEqual(messages, []);
  });

  it('refuses a url that is not smtp:// or smtps://, without echoing it', () => {
    for (const url of ['http://user:hunter2@mail.example.com', 'not a url hunter2', '']) {
      assert.throws(
        () => new SmtpMailer({ url, from: FROM }),
        (error: Error) => /smtp:\/\//.test(error.message) && !error.message.includes('hunter2'),
      );
    }
    assert.doesNotThrow(() => new SmtpMailer({ url: 'smtps://mail.example.com:465', from: FROM }));
  });
});
