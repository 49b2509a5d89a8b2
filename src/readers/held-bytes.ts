import { countLineBreaks } from './line-breaks.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * The bytes of a stream from some offset on, as the chunks that came in, addressed by absolute
 * offset: what a reader keeps so it can go back to the start of a record. Line breaks are found
 * with Buffer.indexOf (native), remembering the next LF and CR of the last chunk looked at, so a
 * record costs two short scans rather than a pass in JavaScript.
 */
export class HeldBytes {
  private readonly parts: Buffer[] = [];
  /** Absolute offset of parts[0]. */
  private start = 0;
  end = 0;
  /** The chunk the line-break cache is for, and the next LF / CR at or after `cachedFrom` in it. */
  private cachedPart: Buffer | undefined;
  private cachedFrom = 0;
  private nextLf = 0;
  private nextCr = 0;

  push(chunk: Buffer): void {
    this.parts.push(chunk);
    this.end += chunk.length;
  }

  /** Lets go of whole chunks that end at or before `offset`. */
  dropBefore(offset: number): void {
    while (this.parts.length > 0 && this.start + this.parts[0]!.length <= offset) {
      this.start += this.parts.shift()!.length;
    }
  }

  /** Calls `fn` with each held chunk (as a view) from `from` on. */
  forEachFrom(from: number, fn: (piece: Buffer, end: number) => boolean): void {
    let offset = this.start;
    for (const part of this.parts) {
      const end = offset + part.length;
      if (end > from && !fn(from > offset ? part.subarray(from - offset) : part, end)) return;
      offset = end;
    }
  }

  /** The chunk holding all of [from, to) and its absolute offset, when one does. */
  partOf(from: number, to: number): { part: Buffer; offset: number } | undefined {
    let offset = this.start;
    for (const part of this.parts) {
      const end = offset + part.length;
      if (from >= offset && to <= end) return { part, offset };
      if (end > from) return undefined;
      offset = end;
    }
    return undefined;
  }

  /** Held bytes [from, to) as one buffer (a view when they lie in one chunk). */
  slice(from: number, to: number): Buffer {
    const one = this.partOf(from, to);
    if (one) return one.part.subarray(from - one.offset, to - one.offset);
    const pieces: Buffer[] = [];
    this.forEachFrom(from, (piece, end) => {
      pieces.push(end > to ? piece.subarray(0, piece.length - (end - to)) : piece);
      return end < to;
    });
    return Buffer.concat(pieces);
  }

  text(from: number, to: number): string {
    const one = this.partOf(from, to);
    if (one) return one.part.toString('utf8', from - one.offset, to - one.offset);
    return this.slice(from, to).toString('utf8');
  }

  byteAt(offset: number): number | undefined {
    const one = this.partOf(offset, offset + 1);
    return one ? one.part[offset - one.offset] : undefined;
  }

  /** Line breaks in [from, to); CR LF counts once. */
  lineBreaks(from: number, to: number): number {
    if (from >= to) return 0;
    const one = this.partOf(from, to);
    if (!one) return countLineBreaks(this.slice(from, to), 0, to - from);
    return this.lineBreaksIn(one.part, from - one.offset, to - one.offset);
  }

  /** Line breaks in [local, stop) of a held chunk; CR LF counts once. */
  lineBreaksIn(part: Buffer, local: number, stop: number): number {
    if (this.cachedPart !== part || this.cachedFrom > local) {
      this.cachedPart = part;
      this.nextLf = -1;
      this.nextCr = -1;
    }
    this.cachedFrom = local;
    // A cached position before `local` is stale; -1 means "none left in this chunk" once looked.
    if (this.nextLf !== part.length && this.nextLf < local) this.nextLf = indexOr(part, LF, local);
    if (this.nextCr !== part.length && this.nextCr < local) this.nextCr = indexOr(part, CR, local);
    if (this.nextLf >= stop && this.nextCr >= stop) return 0;
    return countLineBreaks(part, local, stop);
  }
}

const indexOr = (part: Buffer, byte: number, from: number): number => {
  const at = part.indexOf(byte, from);
  return at === -1 ? part.length : at;
};
