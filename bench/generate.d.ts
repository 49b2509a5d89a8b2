/** Types of the bench's seeded export generator (generate.js), for tests that use it. */
export type ExportFormat = 'generic' | 'address-book-csv';
export declare const FORMATS: Record<ExportFormat, { header: string[] }>;
export declare const rng: (seed: number) => () => number;
export declare const generate: (options: {
  format?: ExportFormat;
  rows: number;
  seed?: number;
  out: string;
}) => Promise<{ rows: number; duplicates: number; bad: number }>;
