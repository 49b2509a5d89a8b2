/** One line of an input, without its LF; `tooLong` lines were dropped unread beyond the limit. */
export type Line = { text: Buffer; tooLong: false } | { text: undefined; tooLong: true };

/**
 * Splits UTF-8 chunks into LF-terminated lines, holding at most `maxBytes` of one line: a longer
 * line is reported as `tooLong` and its bytes are discarded as they arrive.
 */
export async function* splitLines(chunks: AsyncIterator<Buffer>, maxBytes: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;

  const take = (piece: Buffer): Line => {
    if (tooLong || length + piece.length > maxBytes) {
      tooLong = false;
      parts = [];
      length = 0;
      return { text: undefined, tooLong: true };
    }
    const text = parts.length === 0 ? piece : Buffer.concat([...parts, piece]);
    parts = [];
    length = 0;
    return { text, tooLong: false };
  };

  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = next.value;
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      yield take(chunk.subarray(start, newline));
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (tooLong || rest.length === 0) continue;
    if (length + rest.length > maxBytes) {
      tooLong = true;
      parts = [];
      length = 0;
    } else {
      parts.push(rest);
      length += rest.length;
    }
  }
  if (tooLong || length > 0) yield take(Buffer.alloc(0));
}
