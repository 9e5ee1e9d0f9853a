/**
 * Runs every benchmark in turn, each in its own process, and prints their JSON results.
 * `npm run bench` builds first; `npm run bench -- sse` runs only the benchmarks whose file name
 * contains `sse`. Method and recorded results: bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const benches = readdirSync(here)
  // The soak runs ten minutes on its own: `npm run soak`.
  .filter((file) => file.endsWith('.js') && file !== 'run.js' && file !== 'soak.js')
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();

let failed = 0;
for (const file of benches) {
  console.log(`\n## ${file.replace(/\.js$/, '')}`);
  const result = spawnSync(process.execPath, [join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.log(`${file} exited with ${result.status ?? result.signal}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
