import { ImportError } from '../../core/errors/index.js';
import { builtinNames } from '../../mapping/load.js';

export interface PipelineArgument {
  /** The pipeline named on the command line (built-in name or YAML path); undefined: detect it. */
  pipeline: string | undefined;
  inputs: string[];
}

const isYamlPath = (arg: string): boolean => /\.ya?ml$/i.test(arg);

/**
 * `run [pipeline] <input>...`: `--pipeline` names it outright; else the first positional is the
 * pipeline when it is a built-in name or a .yaml/.yml path, and otherwise every positional is an input.
 */
export const splitPipelineArgument = async (
  positionals: readonly string[],
  forced: string | undefined,
): Promise<PipelineArgument> => {
  const [first, ...rest] = positionals;
  let split: PipelineArgument = { pipeline: forced, inputs: [...positionals] };
  if (
    forced === undefined &&
    first !== undefined &&
    (isYamlPath(first) || (await builtinNames()).includes(first))
  )
    split = { pipeline: first, inputs: rest };
  if (split.inputs.length === 0)
    throw new ImportError(
      'usage',
      `no input after the pipeline ${split.pipeline ?? ''}; expected at least one input file (or - for stdin)`,
    );
  return split;
};
