import { guessColumn, type ColumnGuess } from './guess.js';
import type { InputSample } from './sample.js';
import { guessRegion, type RegionGuess } from './region.js';
import { guessDateFormat } from './values.js';

type ColumnRef = string | string[];

/** A contact point or group entry of the draft, with the column it came from. */
interface ListEntry {
  column: string;
  label?: string;
  separator?: string;
}

/** The pipeline drafted for one input, in the keys of src/mapping/schema.ts. */
export interface PipelineDraft {
  name: string;
  description: string;
  source: {
    format: string;
    delimiter?: string;
    encoding: string;
    sheet?: string;
    skip_lines?: number;
    empty_values?: string[];
  };
  /** Proposed when sampled numbers lack +country (region.ts says from what). */
  region?: string;
  date_format?: string;
  constants: { source: 'csv_import' };
  name_parts: Record<string, ColumnRef>;
  fields: Record<string, ColumnRef>;
  emails: ListEntry[];
  phones: ListEntry[];
  groups: ListEntry[];
}

/** The draft plus what the YAML comments say: why each column is mapped, and what is left. */
export interface DraftResult {
  pipeline: PipelineDraft;
  reasons: Map<string, string>;
  unmapped: { column: string; reason: string }[];
  /** Numbers without +country in the sample, and the region proposed for them. */
  region: RegionGuess;
}

const ENCODINGS = new Set(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252']);

/** A pipeline name from the input's file name: lowercase letters, digits and dashes. */
export const draftName = (path: string): string => {
  const base = (path.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  const slug = base
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'draft' : slug;
};

/** Placeholder dates mail clients write for "no date". */
const NO_DATE = /^0{1,2}\/0{1,2}\/0{2,4}$/;

const draftSource = ({ info, skipLines, values }: InputSample): PipelineDraft['source'] => ({
  format: info.format,
  ...(info.delimiter !== null && (info.format === 'csv' || info.format === 'tsv')
    ? { delimiter: info.delimiter }
    : {}),
  encoding: ENCODINGS.has(info.encoding) ? info.encoding : 'auto',
  ...(info.sheet !== undefined ? { sheet: info.sheet } : {}),
  ...(skipLines > 0 ? { skip_lines: skipLines } : {}),
  ...emptyValues(values),
});

const emptyValues = (values: Map<string, string[]>): { empty_values?: string[] } => {
  const placeholders = new Set(
    [...values.values()]
      .flat()
      .map((v) => v.trim())
      .filter((v) => NO_DATE.test(v)),
  );
  return placeholders.size > 0 ? { empty_values: [...placeholders].sort() } : {};
};

/** Adds a column to a scalar target: a second column becomes an alternative (the first non-empty wins). */
const addAlternative = (target: Record<string, ColumnRef>, key: string, column: string): void => {
  const existing = target[key];
  target[key] =
    existing === undefined ? column : [...(Array.isArray(existing) ? existing : [existing]), column];
};

/** Value-only guesses (a date column read as the birthday) give way to a column the header names. */
const byHeaderFirst = (a: ColumnGuess, b: ColumnGuess): number =>
  Number(a.mapped && a.reason.startsWith('values')) - Number(b.mapped && b.reason.startsWith('values'));

/** Drafts a pipeline from an input's sample: every column guessed, nothing read twice. */
export const draftPipeline = (path: string, sample: InputSample): DraftResult => {
  const pipeline: PipelineDraft = {
    name: draftName(path),
    description: `Drafted by contact-import init from ${path.split(/[\\/]/).pop() ?? path}`,
    source: draftSource(sample),
    constants: { source: 'csv_import' },
    name_parts: {},
    fields: {},
    emails: [],
    phones: [],
    groups: [],
  };
  const reasons = new Map<string, string>();
  const unmapped: DraftResult['unmapped'] = [];
  const guesses = sample.columns.map((column) => ({
    column,
    guess: guessColumn(column, sample.values.get(column) ?? []),
  }));
  const ordered = [...guesses].sort((a, b) => byHeaderFirst(a.guess, b.guess));
  for (const { column, guess } of ordered) {
    if (!guess.mapped) {
      unmapped.push({ column, reason: guess.reason });
      continue;
    }
    const { target } = guess;
    if (target.section === 'name_parts') addAlternative(pipeline.name_parts, target.key, column);
    else if (target.section === 'fields') {
      if (guess.reason.startsWith('values') && pipeline.fields[target.key] !== undefined) {
        unmapped.push({ column, reason: `${guess.reason}, but fields.${target.key} is already mapped` });
        continue;
      }
      addAlternative(pipeline.fields, target.key, column);
    } else {
      pipeline[target.section].push({
        column,
        ...(guess.label !== undefined ? { label: guess.label } : {}),
        ...(guess.separator !== undefined ? { separator: guess.separator } : {}),
      });
    }
    reasons.set(column, guess.reason);
  }
  const birthday = pipeline.fields.birthday;
  const dateColumns = birthday === undefined ? [] : Array.isArray(birthday) ? birthday : [birthday];
  const dateFormat = guessDateFormat(dateColumns.flatMap((column) => sample.values.get(column) ?? []));
  if (dateFormat !== undefined) pipeline.date_format = dateFormat;
  unmapped.sort((a, b) => sample.columns.indexOf(a.column) - sample.columns.indexOf(b.column));
  const cells = (entries: ListEntry[]) =>
    entries.flatMap(({ column, separator }) =>
      (sample.values.get(column) ?? [])
        .flatMap((cell) => (separator ? cell.split(separator) : [cell]))
        .filter((v) => v.trim() !== ''),
    );
  const region = guessRegion(cells(pipeline.phones), cells(pipeline.emails));
  if (region.region === undefined) return { pipeline, reasons, unmapped, region };
  // The region right after the source, where a reader looks for it.
  const { name, description, source, ...rest } = pipeline;
  return {
    pipeline: { name, description, source, region: region.region, ...rest },
    reasons,
    unmapped,
    region,
  };
};
