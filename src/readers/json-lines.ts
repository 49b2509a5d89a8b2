const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/**
 * The line (1-based, as an editor counts: LF, CR or CR LF) where each element of a top-level JSON
 * array starts: the line of an object's `{`. The JSON tokenizer gives no positions, so the same
 * text goes through this small scanner first; for valid JSON both see the same elements in order.
 */
export class JsonElementLines {
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private afterCr = false;
  private expectElement = false;
  private starts: number[] = [];
  private head = 0;

  scan(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (c === CR) {
        this.line++;
        this.afterCr = true;
        continue;
      }
      if (c === LF) {
        if (!this.afterCr) this.line++;
        this.afterCr = false;
        continue;
      }
      this.afterCr = false;
      if (c === 32 || c === 9) continue;
      if (this.expectElement && this.depth === 1 && c !== CLOSE_ARRAY) this.starts.push(this.line);
      this.expectElement = false;
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        this.depth++;
        if (this.depth === 1) this.expectElement = true;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) this.depth--;
      else if (c === COMMA && this.depth === 1) this.expectElement = true;
    }
  }

  /**
   * The last line of the element just assembled, at the latest: the line before the next element
   * seen (its own when that starts on it), else the line the scanner reached, which only
   * whitespace, a comma or the closing bracket separates from the element's end.
   */
  endOfLast(line: number): number {
    const next = this.starts[this.head];
    return next === undefined ? this.line : Math.max(line, next - 1);
  }

  /** The line of the next element, in order (the current line if the scanner saw none). */
  next(): number {
    const line = this.starts[this.head++] ?? this.line;
    if (this.head >= this.starts.length) {
      this.starts = [];
      this.head = 0;
    }
    return line;
  }
}
