/** Pipeline files: schema, loading, and the column -> field mapping of one row. */
export type { Pipeline, PipelineSummary } from './pipeline.js';
export { BUILTIN_DIR, listPipelines, loadPipeline } from './load.js';
export { parsePipeline } from './parse-pipeline.js';
export { createRowMapper, type RowMapper } from './row-mapper.js';
export { MAPPABLE_FIELDS, pipelineFileSchema, type PipelineFile } from './schema.js';
export { fieldsInHeader, unusedColumns, type UnusedColumns } from './header-check.js';
