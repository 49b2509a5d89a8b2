import { createRequire } from 'node:module';
import type Iconv from 'iconv-lite';

let loaded: typeof Iconv | undefined;

/**
 * iconv-lite, required the first time an input needs another encoding than UTF-8. Required, not
 * imported: the bundled CLI would otherwise carry its code-page tables into every start, and most
 * inputs are UTF-8.
 */
export const iconv = (): typeof Iconv =>
  (loaded ??= createRequire(import.meta.url)('iconv-lite') as typeof Iconv);
