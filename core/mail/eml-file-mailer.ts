import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { ValidationError } from '../errors.js';
import type { MailMessage, Mailer } from '../ports/mailer.js';

export interface EmlFileMailerSettings {
  /** Folder the `.eml` files go to; created on the first send. */
  directory: string;
  /** From header, e.g. `Avatar service <noreply@example.com>`. */
  from: string;
  /** Time of the Date header and the file name; the system clock by default. */
  clock?: Clock;
}

/**
 * Mail as `.eml` files (RFC 5322, one message per file) in a folder, for machines without a mail
 * server: any mail client opens them, and a script can pick them up (docs/webhooks.md, E-mail).
 * Each file is written under a temporary name and renamed into place, so a reader never sees half
 * a message. The message is built by nodemailer's MailComposer, loaded on the first send only.
 */
export class EmlFileMailer implements Mailer {
  readonly #directory: string;
  readonly #from: string;
  readonly #clock: Clock;

  constructor(settings: EmlFileMailerSettings) {
    refuseLineBreaks('from', settings.from);
    this.#directory = settings.directory;
    this.#from = settings.from;
    this.#clock = settings.clock ?? systemClock;
  }

  async send(message: MailMessage): Promise<void> {
    refuseLineBreaks('to', message.to);
    refuseLineBreaks('subject', message.subject);
    const now = new Date(this.#clock.now());
    const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
    const raw = await new MailComposer({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      date: now,
      messageId: `<${randomBytes(16).toString('hex')}@avatar-service>`,
      textEncoding: 'B',
      encoding: 'quoted-printable',
      newline: 'win',
    })
      .compile()
      .build();
    await mkdir(this.#directory, { recursive: true });
    const path = join(this.#directory, `${now.toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`);
    const temporary = `${path}.tmp`;
    try {
      await writeFile(temporary, raw, { flag: 'wx' });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {}
}

/** A CR or LF in a header value would start a header of the caller's choosing (say, Bcc). */
function refuseLineBreaks(field: string, value: string): void {
  if (/[\r\n]/.test(value)) throw new ValidationError(field, `The ${field} of an e-mail must not contain a line break`);
}
