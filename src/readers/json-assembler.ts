import type { Token } from './json-tokens.js';
import { MAX_JSON_DEPTH, MAX_RECORD_CHARS } from './limits.js';

type Container = unknown[] | Record<string, unknown>;

/** One element of the top-level array: its value, or why it was not kept. */
export type AssembledElement = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Builds the elements of a top-level JSON array from tokens, one at a time, with bounds: an element
 * nested deeper than MAX_JSON_DEPTH or larger than MAX_RECORD_CHARS is dropped (its tokens are
 * still consumed, nothing of it is kept) and reported with the reason.
 */
export class ElementAssembler {
  private containers: Container[] = [];
  private keys: Array<string | undefined> = [];
  private key: string | undefined;
  private text: string[] = [];
  private size = 0;
  /** Open containers of the current element while it is being skipped. */
  private skipDepth = 0;
  private skipReason: string | undefined;

  /** Consumes one token inside the top-level array; returns an element once one is complete. */
  push(token: Token): AssembledElement | undefined {
    if (this.skipReason !== undefined) return this.skip(token);
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        if (this.containers.length >= MAX_JSON_DEPTH) {
          this.startSkipping(`it is nested deeper than ${MAX_JSON_DEPTH} levels`);
          this.skipDepth = this.containers.length + 1;
          this.containers = [];
          this.keys = [];
          return undefined;
        }
        this.grow(1);
        this.keys.push(this.key);
        this.key = undefined;
        this.containers.push(token.name === 'startObject' ? {} : []);
        return this.checkSize();
      case 'endObject':
      case 'endArray': {
        const done = this.containers.pop()!;
        this.key = this.keys.pop();
        return this.add(done);
      }
      case 'startKey':
      case 'startString':
      case 'startNumber':
        this.text = [];
        return undefined;
      case 'stringChunk':
      case 'numberChunk':
        this.text.push(token.value);
        this.grow(token.value.length);
        return this.checkSize();
      case 'endKey':
        this.key = this.takeText();
        return undefined;
      case 'endString':
        return this.add(this.takeText());
      case 'endNumber':
        return this.add(Number(this.takeText()));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return this.add(token.value);
      default:
        return undefined;
    }
  }

  private takeText(): string {
    const value = this.text.length === 1 ? this.text[0]! : this.text.join('');
    this.text = [];
    return value;
  }

  private grow(amount: number): void {
    this.size += amount;
  }

  private checkSize(): AssembledElement | undefined {
    if (this.size <= MAX_RECORD_CHARS) return undefined;
    this.startSkipping(`it is larger than ${MAX_RECORD_CHARS} characters`);
    this.skipDepth = this.containers.length;
    this.containers = [];
    this.keys = [];
    return undefined;
  }

  private startSkipping(reason: string): void {
    this.skipReason = reason;
    this.text = [];
    this.key = undefined;
  }

  private skip(token: Token): AssembledElement | undefined {
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        this.skipDepth++;
        return undefined;
      case 'endObject':
      case 'endArray':
        this.skipDepth--;
        return this.skipDepth === 0 ? this.finishSkip() : undefined;
      case 'endString':
      case 'endNumber':
        return this.skipDepth === 0 ? this.finishSkip() : undefined;
      default:
        return undefined;
    }
  }

  private finishSkip(): AssembledElement {
    const reason = this.skipReason ?? 'it was dropped';
    this.skipReason = undefined;
    this.size = 0;
    return { ok: false, reason };
  }

  private add(value: unknown): AssembledElement | undefined {
    const parent = this.containers[this.containers.length - 1];
    if (parent === undefined) {
      this.size = 0;
      return { ok: true, value };
    }
    if (Array.isArray(parent)) parent.push(value);
    else if (this.key === '__proto__') {
      Object.defineProperty(parent, this.key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else parent[this.key ?? ''] = value;
    this.key = undefined;
    this.grow(1);
    return undefined;
  }
}
