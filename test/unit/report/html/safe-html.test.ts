import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trusted } from '../../../../src/report/html/safe-html.js';

describe('html``', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const value = `<script>alert("x")</script> & 'quoted'`;
    const out = html`<td title="${value}">${value}</td>`.text;
    expect(out).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</td>',
    );
  });

  it('inserts nested html`` and trusted() as they are, arrays joined, nothing for null, undefined, false', () => {
    const items = ['<a>', 'b'].map((v) => html`<li>${v}</li>`);
    // Called through another name: prettier reformats templates tagged `html`, whitespace included.
    const markup = html;
    expect(markup`<ul>${items}</ul>${null}${undefined}${false}${0}${trusted('<br>')}`.text).toBe(
      '<ul><li>&lt;a&gt;</li><li>b</li></ul>0<br>',
    );
  });

  it('escapes a string that merely looks like markup the code made', () => {
    const fake = { text: '<b>x</b>', toString: () => '<b>x</b>' };
    expect(html`${fake as unknown as string}`.text).toBe('&lt;b&gt;x&lt;/b&gt;');
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });
});
