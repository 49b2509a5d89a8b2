/** Drafting a pipeline from an unknown export (`contact-import init`). */
import { draftPipeline } from './draft.js';
import { emitDraft } from './emit.js';
import { sampleInput } from './sample.js';

export { guessColumn, type ColumnGuess } from './guess.js';
export { draftPipeline, type DraftResult, type PipelineDraft } from './draft.js';
export { emitDraft } from './emit.js';
export { sampleInput, type InputSample } from './sample.js';

/** The drafted pipeline YAML for one input, read from its header and first records. */
export const draftPipelineYaml = async (path: string): Promise<string> =>
  emitDraft(draftPipeline(path, await sampleInput(path)));
