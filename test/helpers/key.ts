/** The one API key of every test panel: tests search all output for it. */
export const API_KEY = 'test-key-7f3a9c2e-SECRET';
