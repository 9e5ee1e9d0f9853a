import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../server/config.js';
import { startupNotes } from '../../server/startup-notes.js';

describe('startup notes', () => {
  const notesFor = (env: Record<string, string>) => startupNotes(loadConfig({ DATA_DIR: '/tmp/avatar-notes', JWT_SECRET: 'a-secret-long-enough-for-the-config-check', ...env }));

  it('says nothing for the defaults (loopback, development)', () => {
    assert.deepEqual(notesFor({}), []);
    assert.deepEqual(notesFor({ HOST: '::1' }), []);
  });

  it('warns that a reachable development server opens demo sessions to anyone', () => {
    const notes = notesFor({ HOST: '0.0.0.0', PUBLIC_URL: 'https://avatars.example.com', ALLOW_INSECURE_WEBHOOKS: 'false' });
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /^Warning: DEV_BOOTSTRAP is on and HOST is 0\.0\.0\.0: .*NODE_ENV=production/);
    assert.deepEqual(notesFor({ HOST: '0.0.0.0', PUBLIC_URL: 'https://avatars.example.com', NODE_ENV: 'production' }), []);
    assert.deepEqual(notesFor({ HOST: '0.0.0.0', PUBLIC_URL: 'https://avatars.example.com', DEV_BOOTSTRAP: 'false', ALLOW_INSECURE_WEBHOOKS: 'false' }), []);
  });

  it('warns that a reachable development server posts webhooks into its own network', () => {
    const notes = notesFor({ HOST: '0.0.0.0', PUBLIC_URL: 'https://avatars.example.com', DEV_BOOTSTRAP: 'false' });
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /^Warning: ALLOW_INSECURE_WEBHOOKS is on and HOST is 0\.0\.0\.0: .*cloud metadata/);
  });

  it('asks for PUBLIC_URL when it would be a wildcard address', () => {
    const notes = notesFor({ HOST: '0.0.0.0', DEV_BOOTSTRAP: 'false', ALLOW_INSECURE_WEBHOOKS: 'false' });
    assert.deepEqual(notes, ['Note: PUBLIC_URL is http://0.0.0.0:8080; set it to the address browsers use (audio and model URLs are built from it).']);
  });
});
