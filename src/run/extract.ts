import { stat } from 'node:fs/promises';
import {
  createRowMapper,
  fieldsInHeader,
  unusedColumns,
  type Pipeline,
  type UnusedColumns,
} from '../mapping/index.js';
import { isImportError } from '../core/errors/index.js';
import { openSource } from '../readers/index.js';
import type { InputInfo, Issue, OpenedSource, SourceRow } from '../core/types.js';
import { NormalizeBatches } from './parallel/batches.js';
import { workersFor } from './parallel/normalize-pool.js';
import type { WorkerSetup } from './parallel/protocol.js';
import { batchSettler, type ExtractSinks } from './settle-batch.js';
import { PhoneDrops } from './phone-drops.js';
import type { RunOutputs } from './outputs.js';

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
  /** Normalize workers per input; default: by input size (see workersFor), 0 = in-thread. */
  workers?: number;
  /** `--max-body-bytes`: records too large for any request are rejected here (record-size.ts). */
  maxBodyBytes?: number;
  /** Run hook (run/hooks.ts): each normalize worker exits when its n-th batch arrives. */
  workerExitAt?: number;
  /**
   * A load runs on this thread meanwhile (load while reading): the workers, if any, normalize
   * every batch (this thread takes none itself), and the read loop gives way often, so answers
   * are taken as they come.
   */
  loadMeanwhile?: boolean;
  /**
   * Cores another process on this machine needs while the inputs are read (a local service that
   * loads meanwhile): the workers are counted from the cores left (workersFor).
   */
  coresTaken?: number;
  /** With loadMeanwhile: the workers' threads take a lower priority (HostControls). */
  lowerWorkerPriority?: boolean;
}

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
    await extractInput(options, ctx, { input, path, pipeline, source, progress });
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
  at: { input: number; path: string; pipeline: Pipeline; source: OpenedSource; progress: ByteProgress },
): Promise<void> => {
  const { input, path, pipeline, source, progress } = at;
  const { totals } = ctx;
  const setup = workerSetup(options, pipeline, ctx, source, input);
  ctx.outputs.registerInput(input, {
    path: setup.file,
    format: source.info.format,
    rawHeader: source.rawHeader,
    delimiter: source.info.delimiter,
  });
  // The input's header plan, once: its issues here, and this thread's rows are mapped with it
  // (a normalize worker, a thread of its own, builds its own from the setup).
  const mapper = createRowMapper(pipeline, source.header, setup.file, source.headerLine ?? 0);
  noteHeader(ctx.outputs, pipeline, source, mapper.headerIssues);
  if (source.header !== undefined) ctx.headerFields?.set(input, fieldsInHeader(pipeline, source.header));
  // Batches bounded by rows and size go to the workers in read order and are settled in that
  // order, a bounded number in flight: the same output as in-thread, memory flat whatever the
  // rows (parallel/batches.ts); a worker that dies is reported and its rows done here.
  const phoneDrops = new PhoneDrops(source.header);
  const batches = new NormalizeBatches(
    setup,
    workersFor(path, { requested: options.workers, coresTaken: options.coresTaken }),
    batchSettler(ctx, input, phoneDrops),
    (issue) => ctx.outputs.issues.add(issue),
    mapper,
  );
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
        const dispatched = batches.add(item);
        if (dispatched) await dispatched;
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
    await batches.finish();
  } finally {
    await batches.close();
    phoneDrops.finish(source.info);
  }
  if (!whole && options.signal?.aborted) ctx.stoppedAt ??= { file: setup.file, row: lastRow };
};

/** What a normalize worker (or this thread) needs to map and normalize the rows of one input. */
const workerSetup = (
  options: ExtractOptions,
  pipeline: Pipeline,
  ctx: ExtractSinks,
  source: OpenedSource,
  input: number,
): WorkerSetup => {
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
    ...(options.workerExitAt ? { exitAt: options.workerExitAt } : {}),
    ...(options.loadMeanwhile ? { background: true } : {}),
    ...(options.loadMeanwhile && options.lowerWorkerPriority ? { lowPriority: true } : {}),
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
