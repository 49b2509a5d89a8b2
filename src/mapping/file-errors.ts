import { isMap, isScalar, type Document, type LineCounter, type Node } from 'yaml';
import type { z } from 'zod';
import { ImportError } from '../core/errors/index.js';
import { displayPath } from './display-path.js';

/**
 * Turns YAML syntax errors and zod issues into ImportErrors that name the file, the line and the
 * key (`pipelines/x.yaml:12: fields.emial: unknown key ...`), so a user can go straight to it.
 */

type PathKey = string | number;

export const keyPath = (keys: readonly PathKey[]): string =>
  keys.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${key}` : key),
    '',
  );

export const invalidPipeline = (file: string, line: number, key: string, message: string): ImportError =>
  new ImportError('pipeline_invalid', `${displayPath(file)}:${line}: ${key ? `${key}: ` : ''}${message}`, {
    file,
    line,
    key,
  });

/** The line of the node at `keys` (or of its nearest existing parent); of `unknownKey` itself when named. */
const lineOf = (doc: Document, lines: LineCounter, keys: readonly PathKey[], unknownKey?: string): number => {
  let node: unknown = doc.contents;
  let best: Node | undefined = (doc.contents as Node | null) ?? undefined;
  for (const key of keys) {
    const next = (node as { get?: (k: unknown, keepScalar: boolean) => unknown })?.get?.(key, true);
    if (next === undefined || next === null) break;
    node = next;
    if ((next as Node).range) best = next as Node;
  }
  if (unknownKey !== undefined && isMap(node)) {
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === unknownKey);
    const keyNode = pair?.key as Node | undefined;
    if (keyNode?.range) return lines.linePos(keyNode.range[0]).line;
  }
  return best?.range ? lines.linePos(best.range[0]).line : 1;
};

const editDistance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
};

/** The closest allowed key, when one is close enough to be the likely intent. */
const suggestion = (unknown: string, allowed: readonly string[]): string | undefined => {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    const distance = editDistance(unknown.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= Math.max(2, Math.floor(unknown.length / 3)) ? best : undefined;
};

/** The keys a strict object at `keys` allows, read from the schema, for "did you mean". */
const allowedKeys = (schema: z.ZodType, keys: readonly PathKey[]): string[] => {
  let current: unknown = schema;
  const unwrap = (s: unknown): unknown => {
    let out = s as { def?: { type?: string; innerType?: unknown; in?: unknown; element?: unknown } };
    while (out?.def && ['optional', 'default', 'prefault', 'nullable', 'pipe'].includes(out.def.type ?? '')) {
      out = (out.def.innerType ?? out.def.in) as typeof out;
    }
    return out;
  };
  for (const key of keys) {
    current = unwrap(current);
    const def = (current as { def?: { type?: string; element?: unknown; shape?: Record<string, unknown> } })
      .def;
    if (typeof key === 'number' && def?.type === 'array') current = def.element;
    else if (typeof key === 'string' && def?.shape) current = def.shape[key];
    else return [];
  }
  const shape = (unwrap(current) as { def?: { shape?: Record<string, unknown> } }).def?.shape;
  return shape ? Object.keys(shape) : [];
};

const describeValue = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
};

const valueAt = (data: unknown, keys: readonly PathKey[]): unknown =>
  keys.reduce<unknown>((value, key) => (value as Record<PathKey, unknown> | undefined)?.[key], data);

/** The first zod issue as an ImportError placed in the YAML source. */
export const schemaError = (
  file: string,
  doc: Document,
  lines: LineCounter,
  schema: z.ZodType,
  data: unknown,
  issue: z.core.$ZodIssue,
): ImportError => {
  const keys = issue.path.filter((k): k is PathKey => typeof k === 'string' || typeof k === 'number');
  if (issue.code === 'unrecognized_keys') {
    const unknown = issue.keys[0] ?? '';
    const hint = suggestion(unknown, allowedKeys(schema, keys));
    const allowed = allowedKeys(schema, keys);
    const listed =
      allowed.length <= 12
        ? allowed.join(', ')
        : `${allowed.slice(0, 12).join(', ')}, ... (see docs/pipelines.md)`;
    const message = `unknown key${hint ? ` (did you mean "${hint}"?)` : ''}; allowed here: ${listed}`;
    return invalidPipeline(file, lineOf(doc, lines, keys, unknown), keyPath([...keys, unknown]), message);
  }
  const got = describeValue(valueAt(data, keys));
  const message =
    issue.code === 'custom'
      ? issue.message
      : issue.code === 'invalid_type' || issue.code === 'invalid_union'
        ? `${issue.message.replace(/, received .*$/, '')}, got ${got}`
        : `${issue.message} (got ${got})`;
  return invalidPipeline(file, lineOf(doc, lines, keys), keyPath(keys), message);
};
