export * from './codes.js';
export * from './import-error.js';
export * from './io-problem.js';
