// Browser tests (test/widget/**) in Debian's Chromium with SwiftShader WebGL.
// Run: npx web-test-runner --config web-test-runner.config.mjs
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter } from '@web/test-runner';
import { summaryReporter } from './test/support/wtr-summary-reporter.mjs';

const CHROMIUM_ARGS = [
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

export default {
  files: 'test/widget/**/*.test.ts',
  nodeResolve: true,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' })],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS },
    }),
  ],
  testFramework: { config: { timeout: 60000 } },
  reporters: [defaultReporter(), summaryReporter()],
};
