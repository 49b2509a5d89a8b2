import { stat } from 'node:fs/promises';
import { createRowMapper, unusedColumns, type Pipeline, type UnusedColumns } from '../mapping/index.js';
import { isImportError } from '../core/errors/index.js';
import { openSource } from '../readers/index.js';
import type { ExtractCounts, InputInfo, Issue, SourceItem } from '../core/types.js';
import { NormalizeBatches } from './parallel/batches.js';
import { workersFor } from './parallel/normalize-pool.js';
import type { PreparedOutcome, RecordSummary, WorkerSetup } from './parallel/protocol.js';
import type { RunOutputs } from './outputs.js';
import type { StageEntry, Staging } from '../package/staging.js';
import type { References } from '../package/references.js';
import { recordNotLoaded } from '../core/consequence.js';

export interface ExtractOptions {
  pipeline: Pipeline;
  inputs: string[];
  region?: string;
  strict: boolean;
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
  /** Every 1,024 records and at each input's end: records read, bytes read, and the inputs' size when known. */
  onRecord?: (read: number, bytes: number, totalBytes: number | undefined) => void;
  /** Normalize workers per input; default: by input size (see workersFor), 0 = in-thread. */
  workers?: number;
  /** `--max-body-bytes`: records too large for any request are rejected here (record-size.ts). */
  maxBodyBytes?: number;
  /** Run hook (run/hooks.ts): each normalize worker exits when its n-th batch arrives. */
  workerExitAt?: number;
}

/**
 * source -> map -> normalize -> validate -> dedupe, for every input in turn. Every record read is
 * counted once and ends rejected (with its issues and its raw text in the rejected file) or staged
 * (new identity, or merged into an earlier one as a duplicate).
 */
export const extract = async (
  options: ExtractOptions,
  ctx: {
    outputs: RunOutputs;
    staging: Staging;
    /** The stage's own counts, returned in its result (run/stages.ts). */
    totals: ExtractCounts;
    references: References;
    /** Each input as soon as it is open, its counts live: a run stopped mid-input still lists it. */
    opened?: InputInfo[];
  },
): Promise<InputInfo[]> => {
  const { pipeline, strict } = options;
  const { outputs, staging, totals, references } = ctx;
  const region = options.region ?? pipeline.region;
  const infos = ctx.opened ?? [];
  // A record staged keeps its source text in the staging's side table only when a later stage
  // can still reject it (a keys-only dry run loads nothing); the rejected file reads it back.
  const keepSources = !staging.keysOnly;
  outputs.readSourcesFrom((input, row) => staging.sourceOf({ input, row }));
  // Progress in bytes: the size of every plain-file input (none for stdin or a FIFO).
  const sizes = await Promise.all(options.inputs.map(fileSize));
  const totalBytes = sizes.every((size) => size !== undefined)
    ? sizes.reduce<number>((sum, size) => sum + size!, 0)
    : undefined;
  let bytesBefore = 0;
  let bytesNow = 0;

  for (const [input, path] of options.inputs.entries()) {
    // Interrupted: stop reading; what was read is staged and accounted for by the load stage.
    if (options.signal?.aborted) break;
    const source = await openSource(path, pipeline.dialect, {
      signal: options.signal,
      stdin: options.stdin,
      onBytes: (count) => (bytesNow += count),
    }).catch((error: unknown) => stopIfInterrupted(error, options.signal));
    if (!source) break;
    const file = source.info.path;
    infos.push(source.info);
    outputs.registerInput(input, {
      path: file,
      format: source.info.format,
      rawHeader: source.rawHeader,
      delimiter: source.info.delimiter,
    });
    const setup: WorkerSetup = {
      pipeline,
      header: source.header,
      file,
      input,
      strict,
      ...(region ? { region } : {}),
      ...(staging.keysOnly ? { keysOnly: true } : {}),
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.workerExitAt ? { exitAt: options.workerExitAt } : {}),
    };
    const headerLine = source.headerLine ?? 0;
    // The input's header plan, once: its issues here, and this thread's rows are mapped with it
    // (a normalize worker, a thread of its own, builds its own from the setup).
    const mapper = createRowMapper(pipeline, source.header, file, headerLine);
    if (source.header !== undefined) noteUnusedColumns(source.info, unusedColumns(pipeline, source.header));
    outputs.addIssues(mapper.headerIssues);
    for (const h of source.headerIssues ?? []) {
      // Row 0 is the header line: the problem is the file's, not a record's.
      outputs.issues.add({
        file,
        row: 0,
        line: headerLine,
        severity: 'warning',
        stage: 'read',
        field: h.name,
        value: h.renamed,
        code: h.code,
        message: h.message,
      });
    }

    const settle = (items: SourceItem[], outcomes: PreparedOutcome[]) => {
      const staged: RecordSummary[] = [];
      const entries: StageEntry[] = [];
      let next = 0;
      for (const item of items) {
        if (item.kind === 'problem') {
          totals.rejected += 1;
          outputs.issues.add({
            file: item.file,
            row: item.row,
            line: item.line,
            severity: 'error',
            stage: 'read',
            field: '',
            value: item.raw,
            code: item.code,
            message: recordNotLoaded(item.message),
          });
          outputs.reject(input, { raw: item.raw, row: item.row, errors: [recordNotLoaded(item.message)] });
          continue;
        }
        const outcome = outcomes[next++]!;
        if (outcome.issues.length > 0) outputs.addIssues(outcome.issues);
        if (outcome.ok) {
          const { summary } = outcome;
          staged.push(summary);
          entries.push({
            file: summary.file,
            row: summary.row,
            line: summary.line,
            input,
            key: summary.key,
            json: outcome.json,
            raw: keepSources ? item.raw : '',
          });
        } else {
          totals.rejected += 1;
          const errors = outcome.issues.filter((issue) => issue.severity === 'error');
          outputs.reject(input, { raw: item.raw, row: item.row, errors: errors.map((e) => e.message) });
        }
      }
      if (staged.length === 0) return;
      const results = staging.add(entries);
      results.forEach((result, i) => {
        const record = staged[i]!;
        references.collect(record);
        if (!result.duplicateOf) return;
        totals.duplicates += 1;
        outputs.issues.add(duplicateIssue(record, result.duplicateOf));
      });
    };

    // Batches bounded by rows and size go to the workers in read order and are settled in that
    // order, a bounded number in flight: the same output as in-thread, memory flat whatever the
    // rows (parallel/batches.ts); a worker that dies is reported and its rows done here.
    const batches = new NormalizeBatches(
      setup,
      workersFor(path, options.workers),
      settle,
      (issue) => outputs.issues.add(issue),
      mapper,
    );
    try {
      try {
        for await (const item of source.items) {
          totals.read += 1;
          await batches.add(item);
          if ((totals.read & 1023) === 0) {
            options.onRecord?.(totals.read, bytesBefore + bytesNow, totalBytes);
            if (options.signal?.aborted) break;
          }
        }
      } catch (error) {
        stopIfInterrupted(error, options.signal);
      }
      await batches.finish();
    } finally {
      await batches.close();
    }
    // A workbook counts no bytes as it goes: its whole size once it is read.
    bytesBefore += sizes[input] ?? bytesNow;
    bytesNow = 0;
    options.onRecord?.(totals.read, bytesBefore, totalBytes);
  }
  return infos;
};

/** The size of a plain file; undefined for stdin, a FIFO or anything stat cannot tell. */
const fileSize = async (path: string): Promise<number | undefined> => {
  if (path === '-') return undefined;
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? info.size : undefined;
};

/**
 * A read given up because the run was stopped (Ctrl-C while stdin or a FIFO waits) ends reading
 * like a stop between records; any other error goes on.
 */
const stopIfInterrupted = (error: unknown, signal: AbortSignal | undefined): undefined => {
  if (signal?.aborted && isImportError(error) && error.code === 'interrupted') return undefined;
  throw error;
};

const duplicateIssue = (record: RecordSummary, first: { file: string; row: number }): Issue => ({
  file: record.file,
  row: record.row,
  line: record.line,
  severity: 'warning',
  stage: 'dedupe',
  field: '',
  value: record.key.replace(/^[a-z]+:/, '').replaceAll('\u001f', ' | '),
  code: 'duplicate',
  message: `same identity as ${first.file === record.file ? '' : `${first.file} `}row ${first.row}; merged into it`,
});

/** Said in the summary and report.json, never silent (issue 14.3); absent when every column is read. */
const noteUnusedColumns = (info: InputInfo, unused: UnusedColumns): void => {
  info.unusedColumns = unused.columns;
  if (Object.keys(unused.nearest).length > 0) info.suggestedColumns = unused.nearest;
};
