// A web-test-runner reporter that writes {passed, failed} to $WTR_SUMMARY_FILE, so test/run.mjs
// can add browser tests to the closing "N passed, N failed" line.
import { writeFileSync } from 'node:fs';

function count(results, totals) {
  if (!results) return;
  for (const test of results.tests ?? []) {
    if (test.skipped) continue;
    if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const suite of results.suites ?? []) count(suite, totals);
}

export function summaryReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const file = process.env.WTR_SUMMARY_FILE;
      if (!file) return;
      const totals = { passed: 0, failed: 0 };
      for (const session of sessions) {
        count(session.testResults, totals);
        // A file that failed to load or threw outside a test counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed++;
      }
      writeFileSync(file, JSON.stringify(totals));
    },
  };
}
