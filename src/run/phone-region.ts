import { ImportError, isImportError } from '../core/errors/index.js';
import type { Pipeline } from '../mapping/pipeline.js';
import { createRowMapper } from '../mapping/row-mapper.js';
import { guessRegion } from '../mapping/draft/region.js';
import { normalizePhone } from '../normalize/phones.js';
import { openSource } from '../readers/index.js';
import { isRegularFile } from './regular-file.js';

/**
 * Which region the numbers of a phone column are written for, when they fail under the run's:
 * `06 12 34 56 78` read under US is no number, under FR a mobile. Only a sample is parsed, and
 * only its failures are tried under other regions, so a run whose numbers pass costs one parse of
 * each sampled number and nothing more.
 */

/** Regions tried first for numbers without a country: where most exports come from. */
const LIKELY_REGIONS = [
  'US',
  'GB',
  'FR',
  'DE',
  'ES',
  'IT',
  'NL',
  'BE',
  'CH',
  'AT',
  'SE',
  'NO',
  'DK',
  'FI',
  'IE',
  'PT',
  'PL',
  'CA',
  'AU',
  'NZ',
  'IN',
  'BR',
  'MX',
  'JP',
  'CN',
  'SG',
  'ZA',
];

/** A column is checked when at least half of its sampled numbers fail under the region, and a few: one bad number is a typo. */
const FAILING_SHARE = 0.5;
const MIN_FAILURES = 5;
/** Failures tried under other regions: enough to tell, few enough to cost nothing. */
const TRIED_FAILURES = 20;
/** A region fits when it reads this share of the tried failures. */
const FITTING_SHARE = 0.8;

export interface RegionFinding {
  column: string;
  /** Non-empty numbers sampled, and how many of them failed under the region. */
  sampled: number;
  failed: number;
  /** The region under which the failures pass. */
  region: string;
}

const passes = (value: string, region: string | undefined): boolean => normalizePhone(value, region).ok;

/**
 * The region the column's failing numbers are written for, when at least half of `values` fail
 * under `region` and another region reads most of the failures; `emails` of the same records
 * (their country domains) hint at it first, as init's draft does.
 */
export const regionForColumn = (
  column: string,
  values: readonly string[],
  region: string | undefined,
  hints: { phones?: readonly string[]; emails?: readonly string[] } = {},
): RegionFinding | undefined => {
  const present = values.map((value) => value.trim()).filter((value) => value !== '');
  const failures = present.filter((value) => !passes(value, region));
  if (failures.length < MIN_FAILURES || failures.length < present.length * FAILING_SHARE) return undefined;
  const tried = failures.slice(0, TRIED_FAILURES);
  const hinted = guessRegion([...present, ...(hints.phones ?? [])], hints.emails ?? []).region;
  // With no region at all every number without +country fails, and some numbering plans read
  // almost any digits: only the country the file itself points to is named then.
  const likely = region === undefined ? [] : LIKELY_REGIONS;
  const candidates = [...new Set([...(hinted ? [hinted] : []), ...likely])].filter(
    (candidate) => candidate !== region?.toUpperCase(),
  );
  // The region reading the most failures; on a tie the hinted one, then the likelier (`06 12 34
  // 56 78` reads as French and as Dutch).
  let best: { region: string; read: number } | undefined;
  for (const candidate of candidates) {
    const read = tried.filter((value) => passes(value, candidate)).length;
    if (read > (best?.read ?? 0)) best = { region: candidate, read };
  }
  if (!best || best.read < tried.length * FITTING_SHARE) return undefined;
  return { column, sampled: present.length, failed: failures.length, region: best.region };
};

/** Records sampled from each input: the check reads this many and no more. */
const SAMPLED_RECORDS = 200;
/**
 * And no more of its bytes than this: records of megabytes each (a vCard with its photo, a row of a
 * huge cell, a line the reader refuses only at its 16 MB bound) would have the check read much of
 * the input once before the run reads it again.
 */
const SAMPLED_BYTES = 1024 * 1024;

interface ColumnSample {
  phones: Map<string, string[]>;
  emails: string[];
}

/**
 * The phone values of the first records of an input, by the column (field) they come from: the
 * records read whole within its first SAMPLED_BYTES, none more once `signal` aborts (the run it
 * precedes is stopping).
 */
const samplePhones = async (
  input: string,
  pipeline: Pipeline,
  signal: AbortSignal | undefined,
): Promise<ColumnSample> => {
  const enough = new AbortController();
  let bytes = 0;
  const source = await openSource(input, pipeline.dialect, {
    signal: signal ? AbortSignal.any([signal, enough.signal]) : enough.signal,
    onBytes: (count) => {
      bytes += count;
      if (bytes >= SAMPLED_BYTES) enough.abort();
    },
  });
  const sample: ColumnSample = { phones: new Map(), emails: [] };
  try {
    const mapper = createRowMapper(pipeline, source.header, source.info.path);
    let read = 0;
    for await (const item of source.items) {
      if (item.kind !== 'row') continue;
      const draft = mapper.map(item);
      for (const { field, value } of draft.phones) {
        if (typeof value !== 'string') continue;
        const values = sample.phones.get(field) ?? [];
        values.push(value);
        sample.phones.set(field, values);
      }
      for (const { value } of draft.emails) if (typeof value === 'string') sample.emails.push(value);
      if (++read >= SAMPLED_RECORDS) break;
    }
  } catch (error) {
    // Reading stopped at the sample's bound (or by the run's stop): the records before it are the sample.
    if (!enough.signal.aborted && !signal?.aborted) throw error;
  } finally {
    await source.close?.();
  }
  return sample;
};

/**
 * Stops a run (before anything is read in earnest or sent) whose input has a phone column written
 * for another country than the run's region: its numbers would all be dropped. Checked when the
 * region is the pipeline's default (or none); a `--region` given on purpose is the user's word.
 * An input the sample cannot read is left to the run, which reports it. Once `signal` aborts, no
 * more is sampled: the run it precedes ends as a stop without reading, so a signal during the
 * check is not held up by it.
 */
export const assertPhoneRegions = async (
  inputs: readonly string[],
  pipelines: readonly Pipeline[],
  region: string | undefined,
  signal?: AbortSignal,
): Promise<void> => {
  if (region !== undefined) return;
  for (const [index, input] of inputs.entries()) {
    if (signal?.aborted) return;
    const pipeline = pipelines[index]!;
    // Only a regular file can be read twice: a sample of stdin or a FIFO would take its records.
    if (input === '-' || pipeline.spec.phones.length === 0 || !isRegularFile(input)) continue;
    const sample = await samplePhones(input, pipeline, signal).catch((error: unknown) => {
      if (isImportError(error)) return undefined;
      throw error;
    });
    if (signal?.aborted) return;
    for (const [column, values] of sample?.phones ?? []) {
      const finding = regionForColumn(column, values, pipeline.region, {
        phones: [...sample!.phones].flatMap(([other, numbers]) => (other === column ? [] : numbers)),
        emails: sample!.emails,
      });
      if (finding) throw regionError(input, pipeline, finding);
    }
  }
};

const regionError = (input: string, pipeline: Pipeline, finding: RegionFinding): ImportError => {
  const under = pipeline.region
    ? `fail under region ${pipeline.region} (the default of pipeline ${pipeline.name})`
    : `have no +country code and pipeline ${pipeline.name} names no region`;
  return new ImportError(
    'phone_region',
    `${finding.failed} of the first ${finding.sampled} numbers in column ${finding.column} of ${input} ${under}, but read as numbers of ${finding.region}: run again with --region ${finding.region} (or set region: ${finding.region} in a pipeline file); nothing was sent`,
    { file: input, field: finding.column },
  );
};
