import { openSource } from '../readers/index.js';
import { draftPipeline, emitDraft, type InputSample } from '../mapping/draft/index.js';

const MAX_PREAMBLE = 5;

/** Header width when `skipLines` lines are skipped; 0 when the input cannot be read that way. */
const headerWidth = async (path: string, skipLines: number): Promise<number> => {
  try {
    const opened = await openSource(path, { skipLines });
    await opened.close?.();
    return opened.header?.length ?? 0;
  } catch {
    return 0;
  }
};

/**
 * Lines before the real header of a CSV/TSV: the skip giving the widest header (a preamble note
 * reads as a one-column header); the smallest such skip when several tie.
 */
const preambleLines = async (path: string): Promise<number> => {
  if (path === '-' || !/\.(csv|tsv|txt)$/i.test(path)) return 0;
  let best = { skip: 0, width: await headerWidth(path, 0) };
  if (best.width > 2) return 0;
  for (let skip = 1; skip <= MAX_PREAMBLE; skip++) {
    const width = await headerWidth(path, skip);
    if (width > best.width) best = { skip, width };
  }
  return best.skip;
};

/** Columns the pipeline ignores by contract (rejected files carry them back). */
const IGNORED_COLUMNS = new Set(['import_row', 'import_error']);

const cellText = (value: unknown): string | undefined => {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
};

/**
 * Reads the header and up to `limit` records with the project's readers, so encoding, delimiter
 * and sheet are detected as a run would. JSON inputs have no header: their keys, in first-seen order.
 */
export const sampleInput = async (path: string, limit = 200): Promise<InputSample> => {
  const skipLines = await preambleLines(path);
  const opened = await openSource(path, skipLines > 0 ? { skipLines } : {});
  const columns: string[] = [...(opened.header ?? [])];
  const values = new Map<string, string[]>(columns.map((column) => [column, []]));
  let read = 0;
  try {
    for await (const item of opened.items) {
      if (item.kind !== 'row') continue;
      for (const [column, value] of Object.entries(item.values)) {
        if (!values.has(column)) {
          columns.push(column);
          values.set(column, []);
        }
        const text = cellText(value);
        if (text !== undefined) values.get(column)!.push(text);
      }
      if (++read >= limit) break;
    }
  } finally {
    await opened.close?.();
  }
  const kept = columns.filter((column) => !IGNORED_COLUMNS.has(column));
  return { info: opened.info, columns: kept, values, skipLines };
};

/** The drafted pipeline YAML for one input (`contact-import init`), read from its header and first records. */
export const draftPipelineYaml = async (path: string): Promise<string> =>
  emitDraft(draftPipeline(path, await sampleInput(path)));
