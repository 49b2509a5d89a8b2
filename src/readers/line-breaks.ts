const LF = 0x0a;
const CR = 0x0d;

/**
 * Line breaks as an editor counts them: LF, CR, or CR LF (one break). Readers number lines with
 * these so that a record's `line` is the line a user sees it on.
 */

/** Line breaks in bytes [from, to) (`to` past the end means the end). */
export const countLineBreaks = (bytes: Buffer, from: number, to: number): number => {
  const end = Math.min(to, bytes.length);
  let breaks = 0;
  for (let i = from; i < end; i++) {
    const byte = bytes[i]!;
    if (byte === LF) breaks++;
    else if (byte === CR) {
      breaks++;
      if (bytes[i + 1] === LF && i + 1 < end) i++;
    }
  }
  return breaks;
};
