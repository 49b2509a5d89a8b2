import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The library never changes its host process: no environment read, no exit, no signal handler, no
 * V8 flag, no priority, no global redefined. The command line (src/cli/) owns those and passes what
 * it decided into the library (src/run/host-controls.ts).
 */
const SRC = resolve(import.meta.dirname, '../../src');

const HOST_CHANGES: readonly [string, RegExp][] = [
  ['reads the environment', /\bprocess\.env\b/],
  ['ends the process', /\bprocess\.(exit|exitCode|abort)\b/],
  ['handles process events', /\bprocess\.(on|once|off|addListener|prependListener|removeAllListeners)\(/],
  ['sets a V8 flag', /\bsetFlagsFromString\b/],
  ['changes a priority', /\bsetPriority\(/],
  ['changes the working folder or umask', /\bprocess\.(chdir|umask)\(/],
  ['changes a global', /\b(?:Object|Reflect)\.(?:defineProperty|deleteProperty)\(\s*globalThis\b/],
];

const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe('the library leaves its host process as it found it', () => {
  it('has no environment read, exit, signal handler, V8 flag or priority outside src/cli', () => {
    const found: string[] = [];
    for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.startsWith(`cli/`)) continue;
      const code = withoutComments(readFileSync(join(SRC, file), 'utf8'));
      for (const [what, pattern] of HOST_CHANGES) {
        if (pattern.test(code)) found.push(`${file}: ${what}`);
      }
    }
    expect(found).toEqual([]);
  });
});
