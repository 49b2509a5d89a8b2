import path from 'node:path';
import type { Dialect } from '../readers/types.js';
import type { Pipeline } from './pipeline.js';
import type { PipelineFile } from './schema.js';

/** A checked pipeline file as the run uses it. */
export const compilePipeline = (spec: PipelineFile, file: string): Pipeline => {
  const { source } = spec;
  const dialect: Dialect = {};
  if (source.format !== undefined) dialect.format = source.format;
  if (source.delimiter !== undefined) dialect.delimiter = source.delimiter;
  if (source.encoding !== 'auto') dialect.encoding = source.encoding;
  if (source.skip_lines > 0) dialect.skipLines = source.skip_lines;
  if (source.sheet !== undefined) dialect.sheet = source.sheet;

  const pipeline: Pipeline = {
    name: spec.name ?? path.basename(file, path.extname(file)),
    description: spec.description,
    file,
    dialect,
    constants: spec.constants,
    emptyValues: source.empty_values,
    required: spec.required,
    missingColumns: source.missing_columns,
    spec,
  };
  if (spec.region !== undefined) pipeline.region = spec.region;
  if (spec.date_format !== undefined) pipeline.dateFormat = spec.date_format;
  if (source.multi_value_separator !== undefined) pipeline.multiValueSeparator = source.multi_value_separator;
  if (spec.key !== undefined) pipeline.key = spec.key;
  return pipeline;
};
