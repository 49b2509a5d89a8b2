import { describe, expect, it } from 'vitest';
import { codeForScript, jsonForScript } from '../../../../src/report/html/script-embedding.js';

describe('jsonForScript', () => {
  const hostile = {
    name: '</script><script>alert(1)</script>',
    comment: '<!-- <script>',
    separators: 'a\u2028b\u2029c',
    amp: '&lt;',
  };

  it('holds no character that could end or confuse a <script> element', () => {
    const text = jsonForScript(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
  });

  it('parses back to the same value', () => {
    expect(JSON.parse(jsonForScript(hostile))).toEqual(hostile);
  });
});

describe('codeForScript', () => {
  it('breaks every </script and <!-- without changing what a string or regex means', () => {
    const code = `var a = "</script>"; var b = /<\\/SCRIPT>/; var c = '<!--';`;
    const safe = codeForScript(code);
    expect(safe).not.toMatch(/<\/script/i);
    expect(safe).not.toContain('<!--');
    const run = (source: string) => new Function(`${source}; return [a, b.source, c];`)() as unknown[];
    expect(run(safe)).toEqual(run(code));
  });
});
