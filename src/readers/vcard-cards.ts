import { INVALID_MARK, showInvalid } from './decode.js';
import { splitLines } from './lines.js';

/** One content line of a card after unfolding, with the file line it starts on (1-based). */
export interface ContentLine {
  text: string;
  line: number;
}

/** Why a card cannot be read at all; the reader yields it as a problem. */
export interface CardFault {
  code: 'row_unparseable' | 'invalid_encoding';
  message: string;
}

/** One BEGIN:VCARD ... END:VCARD block as found in the file. */
export interface RawCard {
  /** 1-based position of the card in its file. */
  index: number;
  /** File line of its BEGIN:VCARD. */
  line: number;
  /** Its content lines between BEGIN and END, unfolded. */
  lines: ContentLine[];
  /** Its text as written, BEGIN to END, line breaks included (for rejected.vcf). */
  raw: string;
  fault?: CardFault;
}

export interface SplitOptions {
  /** A card larger than this is not held: it becomes a fault and its text is dropped. */
  maxCardChars: number;
  /** True once the decoder met bytes invalid in the file's encoding (they read as INVALID_MARK). */
  invalidSeen: () => boolean;
  encoding: string;
}

const BEGIN = /^\s*BEGIN\s*:\s*VCARD\s*$/i;
const END = /^\s*END\s*:\s*VCARD\s*$/i;
/** A vCard 2.1 quoted-printable value: a line ending in `=` goes on at the start of the next line. */
const QUOTED_PRINTABLE = /;\s*(?:ENCODING\s*=\s*)?QUOTED-PRINTABLE\s*[;:]/i;

const isQuotedPrintable = (text: string): boolean => {
  const colon = text.indexOf(':');
  return QUOTED_PRINTABLE.test(colon === -1 ? text : text.slice(0, colon + 1));
};

/**
 * A content line being unfolded, held as its pieces: appending to one string and asking whether
 * it ends in `=` each time would copy the whole value again at every physical line of a long
 * quoted-printable value (a photo), quadratic in its size.
 */
class PendingLine {
  /** Every piece but the first is non-empty, so the last one tells how the line ends. */
  private readonly pieces: string[];
  /** True when the line so far ends in `=`: a quoted-printable soft line break. */
  private softBreak: boolean;

  constructor(
    text: string,
    readonly line: number,
  ) {
    this.pieces = [text];
    this.softBreak = text.endsWith('=');
  }

  endsWithSoftBreak(): boolean {
    return this.softBreak;
  }

  /** Drops the `=` that ends it so far, then adds `text`. */
  joinSoftBreak(text: string): void {
    const { pieces } = this;
    const last = pieces.length - 1;
    const trimmed = pieces[last]!.slice(0, -1);
    if (trimmed === '' && last > 0) pieces.pop();
    else pieces[last] = trimmed;
    this.softBreak = pieces[pieces.length - 1]!.endsWith('=');
    this.append(text);
  }

  append(text: string): void {
    if (text === '') return;
    this.pieces.push(text);
    this.softBreak = text.endsWith('=');
  }

  toContentLine(): ContentLine {
    return { text: this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join(''), line: this.line };
  }
}

/** The card being read: its lines so far and the logical line still open for folding. */
class OpenCard {
  readonly lines: ContentLine[] = [];
  private readonly rawParts: string[] = [];
  private rawLength = 0;
  private pending: PendingLine | undefined;
  private pendingQuotedPrintable = false;
  fault: CardFault | undefined;
  /** True once the card is too large to hold: its text is no longer kept. */
  private dropped = false;

  constructor(
    readonly index: number,
    readonly line: number,
    private readonly options: SplitOptions,
  ) {}

  /** Adds one physical line (without its break); `raw` is how it was written, break included. */
  add(text: string, raw: string, lineNumber: number): void {
    if (this.dropped) return;
    this.rawLength += raw.length;
    if (this.rawLength > this.options.maxCardChars) {
      this.drop(`is longer than ${this.options.maxCardChars} characters; it was not read`);
      return;
    }
    this.rawParts.push(raw);
    if (this.options.invalidSeen() && text.includes(INVALID_MARK)) {
      this.fault ??= {
        code: 'invalid_encoding',
        message: `holds bytes that are not valid ${this.options.encoding} (line ${lineNumber})`,
      };
    }
    this.unfold(text, lineNumber);
  }

  /** A line too long to hold makes the whole card unreadable. */
  tooLong(limit: number): void {
    this.drop(`has a line longer than ${limit} bytes; it was not read`);
  }

  /** The card cannot be read; its text is kept for the rejected file. */
  fail(message: string): void {
    this.fault = { code: 'row_unparseable', message };
  }

  addRaw(raw: string): void {
    if (!this.dropped) this.rawParts.push(raw);
  }

  private drop(message: string): void {
    this.fail(message);
    this.dropped = true;
    this.rawParts.length = 0;
    this.lines.length = 0;
    this.pending = undefined;
  }

  finish(): RawCard {
    this.flush();
    const raw = this.rawParts.join('');
    const card: RawCard = {
      index: this.index,
      line: this.line,
      lines: this.lines,
      raw: this.fault?.code === 'invalid_encoding' ? showInvalid(raw) : raw,
    };
    if (this.fault) card.fault = this.fault;
    return card;
  }

  private unfold(text: string, lineNumber: number): void {
    const pending = this.pending;
    if (pending && this.pendingQuotedPrintable && pending.endsWithSoftBreak()) {
      pending.joinSoftBreak(text);
      return;
    }
    if (pending && (text.startsWith(' ') || text.startsWith('\t'))) {
      pending.append(text.slice(1));
      return;
    }
    this.flush();
    if (text.trim() === '') return;
    this.pending = new PendingLine(text, lineNumber);
    this.pendingQuotedPrintable = isQuotedPrintable(text);
  }

  private flush(): void {
    if (this.pending) this.lines.push(this.pending.toContentLine());
    this.pending = undefined;
  }
}

/** Physical lines of decoded text: LF, CRLF, CR CR LF and lone CR all end a line. */
async function* physicalLines(
  chunks: AsyncIterator<Buffer>,
  maxBytes: number,
): AsyncGenerator<{ text: string; raw: string } | { tooLong: true }> {
  for await (const line of splitLines(chunks, maxBytes)) {
    if (line.tooLong) {
      yield { tooLong: true };
      continue;
    }
    const whole = line.text.toString('utf8');
    const body = whole.replace(/\r+$/, '');
    const breakText = whole.slice(body.length) + '\n';
    if (!body.includes('\r')) {
      yield { text: body, raw: whole + '\n' };
      continue;
    }
    // Old Mac files end lines with CR alone.
    const pieces = body.split(/\r+/);
    for (const [i, piece] of pieces.entries()) {
      yield { text: piece, raw: piece + (i === pieces.length - 1 ? breakText : '\r') };
    }
  }
}

/**
 * Splits a vCard file into cards as the bytes arrive, holding one card at a time. Lines are
 * unfolded (a line starting with a space or tab continues the one before; a vCard 2.1
 * quoted-printable line ending in `=` continues on the next line). Text outside cards is skipped.
 * A card cut short (another BEGIN:VCARD, or the end of the file, before its END:VCARD) is yielded
 * with a fault.
 */
export async function* splitCards(
  chunks: AsyncIterator<Buffer>,
  options: SplitOptions,
): AsyncGenerator<RawCard> {
  let lineNumber = 0;
  let index = 0;
  let card: OpenCard | undefined;
  for await (const piece of physicalLines(chunks, options.maxCardChars)) {
    lineNumber++;
    if ('tooLong' in piece) {
      card?.tooLong(options.maxCardChars);
      continue;
    }
    if (BEGIN.test(piece.text)) {
      if (card) {
        card.fail(`has no END:VCARD before the next BEGIN:VCARD on line ${lineNumber}`);
        yield card.finish();
      }
      card = new OpenCard(++index, lineNumber, options);
      card.addRaw(piece.raw);
    } else if (card && END.test(piece.text)) {
      card.addRaw(piece.raw);
      yield card.finish();
      card = undefined;
    } else {
      card?.add(piece.text, piece.raw, lineNumber);
    }
  }
  if (card) {
    card.fail('has no END:VCARD before the end of the file');
    yield card.finish();
  }
}
