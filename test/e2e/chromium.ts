import { createServer } from 'node:net';

/** The flags web-test-runner.config.mjs launches Debian's Chromium with (SwiftShader WebGL, autoplay). */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--autoplay-policy=no-user-gesture-required',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A free TCP port on 127.0.0.1 (the server builds its PUBLIC_URL from the port it is given). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
