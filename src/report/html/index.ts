export * from './model.js';
export { renderHtmlReport } from './render.js';
export { writeHtmlReport } from './write.js';
export { issueSummary, runModel, type RunHtmlExtras } from './run-model.js';
export { runInvariant } from './sections/outcome.js';
