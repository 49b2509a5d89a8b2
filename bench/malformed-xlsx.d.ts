/** The malformed workbook kinds of malformed-xlsx.js, each a ZIP package inflating to about `mb` MB. */
export const MALFORMED: Record<
  'text' | 'between' | 'attribute' | 'comment' | 'nested' | 'styles',
  (mb: number) => Buffer
>;
/** `validate` of `path` in a child process of its own: exit code, peak RSS in MB, first stderr line. */
export const measure: (path: string, cwd: string) => { code: number | null; peakMb: number; line: string };
