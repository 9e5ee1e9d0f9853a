import { randomBytes } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import { ValidationError } from '../errors.js';
import type { MailMessage, Mailer } from '../ports/mailer.js';

export interface SmtpMailerSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465` (TLS). */
  url: string;
  /** From header, e.g. `Avatar service <noreply@example.com>`. */
  from: string;
}

/**
 * Mail through an SMTP server (docs/webhooks.md, E-mail). nodemailer is imported on the first
 * send, so an install that never sends mail never loads it; its transport is then reused.
 * Timeouts are short so a dead server fails a send in seconds rather than minutes, and
 * certificates are always checked.
 */
export class SmtpMailer implements Mailer {
  readonly #url: string;
  readonly #from: string;
  #transport: Promise<Transporter> | undefined;

  constructor(settings: SmtpMailerSettings) {
    let protocol: string | undefined;
    try {
      protocol = new URL(settings.url).protocol;
    } catch {
      // The URL may hold a password: name the rule, not the value.
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new ValidationError('url', 'The SMTP url must look like smtp://user:pass@host:587 or smtps://host:465');
    refuseLineBreaks('from', settings.from);
    this.#url = settings.url;
    this.#from = settings.from;
  }

  async send(message: MailMessage): Promise<void> {
    refuseLineBreaks('to', message.to);
    refuseLineBreaks('subject', message.subject);
    this.#transport ??= this.#open();
    const transport = await this.#transport;
    await transport.sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      messageId: `<${randomBytes(16).toString('hex')}@avatar-service>`,
      textEncoding: 'B',
      encoding: 'quoted-printable',
      newline: 'win',
    });
  }

  async close(): Promise<void> {
    const transport = this.#transport;
    this.#transport = undefined;
    (await transport?.catch(() => undefined))?.close();
  }

  async #open(): Promise<Transporter> {
    try {
      const { createTransport } = await import('nodemailer');
      return createTransport({
        url: this.#url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
        tls: { rejectUnauthorized: true },
      });
    } catch (error) {
      this.#transport = undefined;
      throw error;
    }
  }
}

/** A CR or LF in a header value would start a header of the caller's choosing (say, Bcc). */
function refuseLineBreaks(field: string, value: string): void {
  if (/[\r\n]/.test(value)) throw new ValidationError(field, `The ${field} of an e-mail must not contain a line break`);
}
