export * from './codes.js';
export * from './import-error.js';
