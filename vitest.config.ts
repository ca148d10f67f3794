import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './test/support/summary-reporter.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', new SummaryReporter()],
    // A private TMPDIR per run; the run fails if a test leaves anything in it.
    globalSetup: ['test/support/temp-dir-guard.ts', 'test/support/native-helper-fresh.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Process-heavy suites (real hook processes, loopback servers) share two cores.
    pool: 'forks',
    typecheck: {
      enabled: true,
      include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
    },
  },
});
