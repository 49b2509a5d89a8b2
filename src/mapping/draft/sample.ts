import type { InputInfo } from '../../readers/types.js';

/** The head of an input: its columns in file order and up to `limit` values of each. */
export interface InputSample {
  info: InputInfo;
  columns: string[];
  values: Map<string, string[]>;
  /** Preamble lines before the header (a note some exports write first). */
  skipLines: number;
}
