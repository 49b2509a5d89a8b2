import { createRowMapper, type Pipeline } from '../mapping/index.js';
import { openSource } from '../sources/index.js';
import type { Totals } from '../report/run-report.js';
import type { InputInfo, Issue } from './types.js';
import { normalizeRecord } from './normalize-record.js';
import type { NormalizedRecord } from './record.js';
import type { RunOutputs } from './outputs.js';
import type { Staging } from './staging.js';
import type { References } from './references.js';

export interface ExtractOptions {
  pipeline: Pipeline;
  inputs: string[];
  region?: string;
  strict: boolean;
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
  onRecord?: (read: number) => void;
}

const BATCH = 500;

/**
 * source -> map -> normalize -> validate -> dedupe, for every input in turn. Every record read is
 * counted once and ends rejected (with its issues and its raw text in the rejected file) or staged
 * (new identity, or merged into an earlier one as a duplicate).
 */
export const extract = async (
  options: ExtractOptions,
  ctx: { outputs: RunOutputs; staging: Staging; totals: Totals; references: References },
): Promise<InputInfo[]> => {
  const { pipeline, strict } = options;
  const { outputs, staging, totals, references } = ctx;
  const region = options.region ?? pipeline.region;
  const infos: InputInfo[] = [];

  for (const [input, path] of options.inputs.entries()) {
    // Interrupted: stop reading; what was read is staged and accounted for by the load stage.
    if (options.signal?.aborted) break;
    const source = await openSource(path, pipeline.dialect, { signal: options.signal, stdin: options.stdin });
    const file = source.info.path;
    outputs.registerInput(input, {
      path: file,
      format: source.info.format,
      rawHeader: source.rawHeader,
      delimiter: source.info.delimiter,
    });
    const mapper = createRowMapper(pipeline, source.header, file);
    outputs.addIssues(mapper.headerIssues);
    for (const h of source.headerIssues ?? []) {
      // Row 0 is the header line: the problem is the file's, not a record's.
      outputs.issues.add({ file, row: 0, severity: 'warning', stage: 'read', field: h.name, value: h.renamed, code: h.code, message: h.message });
    }

    let batch: NormalizedRecord[] = [];
    const flush = () => {
      const results = staging.add(batch);
      results.forEach((result, i) => {
        const record = batch[i]!;
        references.collect(record);
        if (!result.duplicateOf) return;
        totals.duplicates += 1;
        outputs.issues.add(duplicateIssue(record, result.duplicateOf));
      });
      batch = [];
    };

    for await (const item of source.items) {
      totals.read += 1;
      if (item.kind === 'problem') {
        totals.rejected += 1;
        outputs.issues.add({
          file: item.file,
          row: item.row,
          severity: 'error',
          stage: 'read',
          field: '',
          value: item.raw,
          code: item.code,
          message: item.message,
        });
        outputs.reject(input, item.raw);
      } else {
        const draft = mapper.map(item);
        const outcome = normalizeRecord(draft, {
          file: item.file,
          row: item.row,
          raw: item.raw,
          input,
          region,
          dateFormat: pipeline.dateFormat,
          strict,
          constants: pipeline.constants,
        });
        outputs.addIssues(outcome.issues);
        if (outcome.ok) batch.push(outcome.record);
        else {
          totals.rejected += 1;
          outputs.reject(input, item.raw);
        }
        if (batch.length >= BATCH) flush();
      }
      if ((totals.read & 1023) === 0) {
        options.onRecord?.(totals.read);
        if (options.signal?.aborted) break;
      }
    }
    if (batch.length > 0) flush();
    options.onRecord?.(totals.read);
    infos.push({ ...source.info });
  }
  return infos;
};

const duplicateIssue = (record: NormalizedRecord, first: { file: string; row: number }): Issue => ({
  file: record.file,
  row: record.row,
  severity: 'warning',
  stage: 'dedupe',
  field: '',
  value: record.key.replace(/^[a-z]+:/, '').replaceAll('\u001f', ' | '),
  code: 'duplicate',
  message: `same identity as ${first.file === record.file ? '' : `${first.file} `}row ${first.row}; merged into it`,
});
