/**
 * Outgoing e-mail (webhook failure notices). Engines: SMTP, or `.eml` files in a folder for
 * machines without a mail server (docs/webhooks.md, E-mail).
 */
export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text body. */
  text: string;
}

export interface Mailer {
  /** Sends one message; rejects when it could not be handed over (the caller decides whether to retry). */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
