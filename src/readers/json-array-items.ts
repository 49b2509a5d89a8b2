import { ImportError } from '../core/errors/index.js';
import type { SourceItem } from './types.js';
import { INVALID_MARK, showInvalid } from './decode.js';
import { ElementAssembler, type AssembledElement } from './json-assembler.js';
import { describeJsonValue } from './json-kind.js';
import { JsonElementLines } from './json-lines.js';
import { createJsonTokenizer, type Token } from './json-tokens.js';
import { repairLoneSurrogates, warnOtherEncoding } from './read-warnings.js';
import type { TextSource } from './text-source.js';

/** Characters given to the tokenizer per call. */
const TOKENIZE_SLICE = 4096;

/**
 * The elements of a JSON array as items, from its text in pieces (row N is element N, 1-based):
 * the tokenizer's state, where in the array it is, and the row and line of the open element.
 */
export class JsonArrayItems {
  private readonly tokenizer = createJsonTokenizer();
  private readonly assembler = new ElementAssembler();
  private readonly lines = new JsonElementLines();
  private level: 'before' | 'inside' | 'after' = 'before';
  private row = 0;
  private line = 0;
  private elementOpen = false;

  constructor(
    private readonly file: string,
    private readonly text: Pick<TextSource, 'encoding' | 'transcoder'>,
  ) {}

  /**
   * The items a piece of text completes; `last` for the end of the input. The tokenizer throws away
   * the tokens of a write that fails, so text goes in small slices: an error then names the element
   * it is in, or one shortly before it.
   */
  *feed(chunk: string, last: boolean): Generator<SourceItem> {
    for (let start = 0; start < chunk.length || (last && start === 0); start += TOKENIZE_SLICE) {
      let tokens: Token[];
      try {
        const slice = chunk.slice(start, start + TOKENIZE_SLICE);
        this.lines.scan(slice);
        tokens = chunk.length > 0 ? this.tokenizer.write(slice) : [];
        if (last && start + TOKENIZE_SLICE >= chunk.length) tokens = tokens.concat(this.tokenizer.flush());
      } catch (error) {
        throw this.fail(error);
      }
      yield* this.consume(tokens);
    }
  }

  private *consume(tokens: Token[]): Generator<SourceItem> {
    for (const token of tokens) {
      if (this.level === 'before') {
        this.level = 'inside';
        continue;
      }
      if (this.level === 'after') continue;
      if (!this.elementOpen) {
        if (token.name === 'endArray') {
          this.level = 'after';
          continue;
        }
        this.elementOpen = true;
        this.row++;
        this.line = this.lines.next();
      }
      const element = this.assembler.push(token);
      if (element) {
        this.elementOpen = false;
        yield this.toItem(element);
      }
    }
  }

  private toItem(element: AssembledElement): SourceItem {
    const { file, row, line } = this;
    if (!element.ok)
      return this.problem(
        'row_unparseable',
        `Element ${row} of ${file} was not read: ${element.reason}.`,
        '',
      );
    const { value } = element;
    const raw = JSON.stringify(value);
    if (this.text.transcoder.invalidSeen && raw.includes(INVALID_MARK)) {
      const message = `Element ${row} of ${file} holds bytes that are not valid ${this.text.encoding}.`;
      return this.problem('invalid_encoding', message, showInvalid(raw));
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const message = `Element ${row} of ${file} is ${describeJsonValue(value)}; expected an object.`;
      return this.problem('row_unparseable', message, raw);
    }
    const item: SourceItem = { kind: 'row', file, row, line, values: value as Record<string, unknown>, raw };
    repairLoneSurrogates(item, this.text.transcoder, `Element ${row}`);
    return warnOtherEncoding(item, this.text.transcoder, `Element ${row}`, this.lines.endOfLast(line));
  }

  private problem(code: 'row_unparseable' | 'invalid_encoding', message: string, raw: string): SourceItem {
    return { kind: 'problem', file: this.file, row: this.row, line: this.line, code, message, raw };
  }

  private fail(error: unknown): ImportError {
    if (error instanceof ImportError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    const near = Math.max(this.row, 1);
    const where = this.level === 'after' ? 'after its array' : `at or shortly after element ${near}`;
    return new ImportError(
      'input_unreadable',
      `${this.file} is not valid JSON ${where}: ${reason}.`,
      { file: this.file, row: near },
      { cause: error },
    );
  }
}
