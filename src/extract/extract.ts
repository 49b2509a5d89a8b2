import { stat } from 'node:fs/promises';
import { fieldsInHeader, unusedColumns, type UnusedColumns } from '../mapping/header-check.js';
import type { Pipeline } from '../mapping/pipeline.js';
import { createRowMapper } from '../mapping/row-mapper.js';
import { isImportError } from '../core/errors/index.js';
import { openSource } from '../readers/index.js';
import type { Issue } from '../core/types.js';
import type { InputInfo, OpenedSource, SourceItem, SourceRow } from '../readers/types.js';
import { createRowNormalizer, type NormalizeSetup, type PreparedOutcome } from './row-normalizer.js';
import { batchSettler, type ExtractSinks } from './settle-batch.js';
import { PhoneDrops } from './phone-drops.js';
import type { RunOutputs } from '../report/run-outputs.js';

export interface ExtractOptions {
  pipeline: Pipeline;
  /** The pipeline of each input, in input order, when they differ; absent: `pipeline` reads all. */
  pipelines?: readonly Pipeline[];
  inputs: string[];
  region?: string;
  strict: boolean;
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
  /** Every 1,024 records and at each input's end: records read, bytes read, and the inputs' size when known. */
  onRecord?: (read: number, bytes: number, totalBytes: number | undefined) => void;
  /** `--max-body-bytes`: records too large for any request are rejected here (record-size.ts). */
  maxBodyBytes?: number;
  /**
   * A load runs on this thread meanwhile (load while reading): the read loop gives way often, so
   * answers are taken as they come.
   */
  loadMeanwhile?: boolean;
}

/**
 * Rows per batch, at most: a batch is normalized, then staged in one transaction. Small, so a
 * batch's records and their JSON die young.
 */
const BATCH_ROWS = 100;
/** Characters of source text per batch, at most (the row that passes it ends the batch). */
const BATCH_CHARS = 1024 * 1024;

/** What the extract stage writes to (settle-batch.ts), and the inputs it opened. */
export interface ExtractContext extends ExtractSinks {
  /** Each input as soon as it is open, its counts live: a run stopped mid-input still lists it. */
  opened?: InputInfo[];
  /** Set when a stop ended reading early: the last row read (0: none) of the input it stopped in. */
  stoppedAt?: { file: string; row: number };
  /** Filled with the contact fields each input's header has a column for, by input index (sync). */
  headerFields?: Map<number, string[]>;
}

/** Bytes read so far, for progress: the inputs done, the one being read, and the total when known. */
interface ByteProgress {
  before: number;
  now: number;
  total: number | undefined;
}

/**
 * source -> map -> normalize -> validate -> dedupe, for every input in turn. Every record read is
 * counted once and ends rejected (with its issues and its raw text in the rejected file) or staged
 * (new identity, or merged into an earlier one as a duplicate).
 */
export const extract = async (options: ExtractOptions, ctx: ExtractContext): Promise<InputInfo[]> => {
  const { outputs, staging } = ctx;
  const infos = ctx.opened ?? [];
  outputs.readSourcesFrom((input, row) => staging.sourceOf({ input, row }));
  // Progress in bytes: the size of every plain-file input (none for stdin or a FIFO).
  const sizes = await Promise.all(options.inputs.map(fileSize));
  const progress: ByteProgress = {
    before: 0,
    now: 0,
    total: sizes.every((size) => size !== undefined)
      ? sizes.reduce<number>((sum, size) => sum + size!, 0)
      : undefined,
  };
  for (const [input, path] of options.inputs.entries()) {
    // Interrupted: stop reading; what was read is staged and accounted for by the load stage.
    if (options.signal?.aborted) {
      ctx.stoppedAt ??= { file: path, row: 0 };
      break;
    }
    const pipeline = options.pipelines?.[input] ?? options.pipeline;
    const source = await openSource(path, pipeline.dialect, {
      signal: options.signal,
      stdin: options.stdin,
      onBytes: (count) => (progress.now += count),
    }).catch((error: unknown) => stopIfInterrupted(error, options.signal));
    if (!source) break;
    source.info.readWhole = false;
    source.info.pipeline = pipeline.name;
    infos.push(source.info);
    await extractInput(options, ctx, { input, pipeline, source, progress });
    // A workbook counts no bytes as it goes: its whole size once it is read.
    progress.before += sizes[input] ?? progress.now;
    progress.now = 0;
    options.onRecord?.(ctx.totals.read, progress.before, progress.total);
  }
  return infos;
};

/** One open input: its header noted, its records read in batches, normalized and settled. */
const extractInput = async (
  options: ExtractOptions,
  ctx: ExtractContext,
  at: { input: number; pipeline: Pipeline; source: OpenedSource; progress: ByteProgress },
): Promise<void> => {
  const { input, pipeline, source, progress } = at;
  const { totals } = ctx;
  const setup = normalizeSetup(options, pipeline, ctx, source, input);
  ctx.outputs.registerInput(input, {
    path: setup.file,
    format: source.info.format,
    rawHeader: source.rawHeader,
    delimiter: source.info.delimiter,
  });
  // The input's header plan, once: its issues here, and every row is mapped with it.
  const mapper = createRowMapper(pipeline, source.header, setup.file, source.headerLine ?? 0);
  noteHeader(ctx.outputs, pipeline, source, mapper.headerIssues);
  if (source.header !== undefined) ctx.headerFields?.set(input, fieldsInHeader(pipeline, source.header));
  // Batches bounded by rows and size, normalized and settled in read order: memory flat whatever
  // the rows.
  const phoneDrops = new PhoneDrops(source.header);
  const normalize = createRowNormalizer(setup, mapper);
  const settle = batchSettler(ctx, input, phoneDrops);
  let batch: SourceItem[] = [];
  let batchChars = 0;
  const settleBatch = (): void => {
    const items = batch;
    batch = [];
    batchChars = 0;
    const outcomes: PreparedOutcome[] = [];
    for (const item of items) if (item.kind === 'row') outcomes.push(normalize(item));
    settle(items, outcomes);
  };
  const giveWay = options.loadMeanwhile === true;
  let stopped = false;
  let lastRow = 0;
  let whole = false;
  try {
    try {
      for await (const item of source.items) {
        totals.read += 1;
        if (item.kind === 'row' && item.warnings) noteReadWarnings(ctx.outputs, item);
        lastRow = item.row;
        batch.push(item);
        batchChars += item.raw.length;
        if (batch.length >= BATCH_ROWS || batchChars >= BATCH_CHARS) settleBatch();
        if ((totals.read & 1023) === 0) {
          options.onRecord?.(totals.read, progress.before + progress.now, progress.total);
          if (options.signal?.aborted) {
            stopped = true;
            break;
          }
        }
        // Rows already parsed are read without ever leaving this loop: answers to a load that
        // runs meanwhile (load while reading) would wait for the end of the file's chunk. Every
        // 32 rows, not 128: with 128 the service sat idle waiting for the next request
        // (bench/README.md).
        if (giveWay && (totals.read & 31) === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      source.info.readWhole = !stopped;
      whole = !options.signal?.aborted;
    } catch (error) {
      stopIfInterrupted(error, options.signal);
    }
    if (batch.length > 0) settleBatch();
  } finally {
    phoneDrops.finish(source.info);
  }
  if (!whole && options.signal?.aborted) ctx.stoppedAt ??= { file: setup.file, row: lastRow };
};

/** What mapping and normalizing the rows of one input needs. */
const normalizeSetup = (
  options: ExtractOptions,
  pipeline: Pipeline,
  ctx: ExtractSinks,
  source: OpenedSource,
  input: number,
): NormalizeSetup => {
  const { staging } = ctx;
  const region = options.region ?? pipeline.region;
  return {
    pipeline,
    header: source.header,
    file: source.info.path,
    input,
    strict: options.strict,
    ...(region ? { region } : {}),
    ...(staging.keysOnly ? { keysOnly: true } : {}),
    ...(ctx.candidates ? { candidates: true } : {}),
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
  };
};

/** What an input's header says: its unused columns, the mapping's issues, its renamed cells. */
const noteHeader = (
  outputs: RunOutputs,
  pipeline: Pipeline,
  source: OpenedSource,
  mappingIssues: Issue[],
): void => {
  const file = source.info.path;
  const headerLine = source.headerLine ?? 0;
  if (source.header !== undefined) noteUnusedColumns(source.info, unusedColumns(pipeline, source.header));
  outputs.addIssues(mappingIssues);
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
};

/** The warnings a reader attached to a row it read (a line in another encoding, a lone surrogate). */
const noteReadWarnings = (outputs: RunOutputs, row: SourceRow): void => {
  for (const warning of row.warnings ?? []) {
    outputs.issues.add({
      file: row.file,
      row: row.row,
      line: row.line,
      severity: 'warning',
      stage: 'read',
      field: warning.field ?? '',
      value: warning.value ?? '',
      code: warning.code,
      message: warning.message,
    });
  }
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

/** Said in the summary and report.json, never silent; absent when every column is read. */
const noteUnusedColumns = (info: InputInfo, unused: UnusedColumns): void => {
  info.unusedColumns = unused.columns;
  if (Object.keys(unused.nearest).length > 0) info.suggestedColumns = unused.nearest;
};
