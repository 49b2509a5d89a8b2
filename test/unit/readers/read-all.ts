import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSource } from '../../../src/readers/index.js';
import type {
  Dialect,
  OpenedSource,
  SourceItem,
  SourceProblem,
  SourceRow,
} from '../../../src/readers/types.js';

export const TESTDATA = resolve(import.meta.dirname, '../../../../shared/testdata');

export interface ReadResult {
  source: OpenedSource;
  items: SourceItem[];
  rows: SourceRow[];
  problems: SourceProblem[];
}

export async function readAll(
  path: string,
  dialect: Dialect = {},
  options: Parameters<typeof openSource>[2] = {},
): Promise<ReadResult> {
  const source = await openSource(path, dialect, options);
  const items: SourceItem[] = [];
  for await (const item of source.items) items.push(item.kind === 'row' ? asRead(item) : item);
  return {
    source,
    items,
    rows: items.filter((item): item is SourceRow => item.kind === 'row'),
    problems: items.filter((item): item is SourceProblem => item.kind === 'problem'),
  };
}

/**
 * A row as its consumer reads it: where it came from, its values (a CSV row builds them from its
 * cells when first read) and its text. The cells a CSV row also carries are tested on their own.
 */
const asRead = ({ kind, file, row, line, values, raw, warnings }: SourceRow): SourceRow => ({
  kind,
  file,
  row,
  line,
  values,
  raw,
  ...(warnings ? { warnings } : {}),
});

/** A temporary folder for generated inputs, removed by `cleanup`. */
export function tempFiles(): {
  write(name: string, content: string | Buffer): string;
  dir: string;
  cleanup(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'sources-test-'));
  return {
    dir,
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
