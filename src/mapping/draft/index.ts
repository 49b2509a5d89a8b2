/** Drafting a pipeline from an unknown export's sample (`contact-import init`): pure functions. */
export { guessColumn, type ColumnGuess } from './guess.js';
export { draftPipeline, type DraftResult, type PipelineDraft } from './draft.js';
export { emitDraft } from './emit.js';
export type { InputSample } from './sample.js';
