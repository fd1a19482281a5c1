import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ once for the tests that run the CLI as a process.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
  },
});
