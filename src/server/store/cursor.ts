import { ServiceError } from '../envelope.js';

/**
 * Paging cursors are opaque to clients: the creation sequence number of the last item returned,
 * base64url-encoded with a tag so a cursor from elsewhere is refused rather than misread.
 */
const PREFIX = 'c1:';

export const encodeCursor = (seq: number): string =>
  Buffer.from(`${PREFIX}${seq}`, 'utf8').toString('base64url');

/** The sequence number after which the next page starts; 0 without a cursor. */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const seq = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(seq) || seq < 0) {
    throw new ServiceError(
      400,
      'invalid_query',
      `The cursor '${cursor.slice(0, 64)}' is not one this service issued.`,
      [{ path: 'cursor', message: 'Expected a cursor from a previous page of the same search.' }],
    );
  }
  return seq;
}

/** Given `take + 1` rows, the page and the cursor for the next one (undefined on the last page). */
export function page<T extends { seq: number }>(
  rows: T[],
  take: number,
): { items: T[]; nextCursor?: string } {
  if (rows.length <= take) return { items: rows };
  const items = rows.slice(0, take);
  const last = items[items.length - 1];
  return last ? { items, nextCursor: encodeCursor(last.seq) } : { items };
}
