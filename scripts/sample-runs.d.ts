/** The runs `npm start` makes, in its order: a built-in pipeline, then its sample inputs. */
export const SAMPLE_RUNS: readonly (readonly [pipeline: string, ...inputs: string[]])[];
