/** The old name of ./dist.ts, kept while test/e2e/crash.test.ts imports it. */
export * from './dist.js';
