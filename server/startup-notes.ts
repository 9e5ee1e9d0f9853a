import type { ServerConfig } from './config.js';

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** Warnings about a configuration that starts but is probably not what the operator meant. */
export function startupNotes(config: ServerConfig): string[] {
  const notes: string[] = [];
  if (/^https?:\/\/(?:0\.0\.0\.0|\[::\])[:/]/.test(config.publicUrl)) {
    notes.push(`Note: PUBLIC_URL is ${config.publicUrl}; set it to the address browsers use (audio and model URLs are built from it).`);
  }
  if (config.devBootstrap && !LOOPBACK.test(config.host)) {
    notes.push(
      `Warning: DEV_BOOTSTRAP is on and HOST is ${config.host}: anyone who reaches this server can open demo sessions, on your configured AI and speech vendors. Set NODE_ENV=production (or DEV_BOOTSTRAP=false) for a server others can reach.`,
    );
  }
  if (config.allowInsecureWebhooks && !LOOPBACK.test(config.host)) {
    notes.push(
      `Warning: ALLOW_INSECURE_WEBHOOKS is on and HOST is ${config.host}: anyone with an API key can make this server POST to its own network (loopback, private addresses, cloud metadata). Set NODE_ENV=production (or ALLOW_INSECURE_WEBHOOKS=false) for a server others can reach.`,
    );
  }
  return notes;
}
