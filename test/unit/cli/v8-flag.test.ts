import { describe, expect, it } from 'vitest';
import { v8FlagGiven } from '../../../src/cli/v8-flag.js';

describe('v8FlagGiven', () => {
  it('finds a flag on the node command line, spelled with dashes or underscores', () => {
    expect(v8FlagGiven('heap-growing-percent', ['--heap-growing-percent=50'])).toBe(true);
    expect(v8FlagGiven('heap-growing-percent', ['--heap_growing_percent=50'])).toBe(true);
    expect(v8FlagGiven('wasm-tiering-budget', ['--wasm-tiering-budget', '100'])).toBe(true);
  });

  it('finds a flag among NODE_OPTIONS', () => {
    expect(v8FlagGiven('wasm-tiering-budget', [], '--max-old-space-size=512 --wasm_tiering_budget=9')).toBe(
      true,
    );
  });

  it('does not take another flag, or one that only starts with the name, for it', () => {
    expect(v8FlagGiven('heap-growing-percent', ['--max-old-space-size=512'], '--enable-source-maps')).toBe(
      false,
    );
    expect(v8FlagGiven('wasm-tiering-budget', ['--wasm-tiering-budget-extra=1'])).toBe(false);
    expect(v8FlagGiven('heap-growing-percent', [])).toBe(false);
  });
});
