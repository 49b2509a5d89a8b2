/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * SafeHtml: escaping is the default, so a value from an input file cannot become markup by
 * someone forgetting to escape it.
 */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside an element and inside a quoted attribute value. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const render = (value: HtmlValue): string => {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
};

/**
 * The tag of every template of the page. A template's own text stays ASCII (a character beyond
 * it comes in as a value, format.ts): esbuild cannot escape a tagged template's text as it does
 * other strings, and one such character makes V8 hold the whole bundled file's source at two
 * bytes a character.
 */
export const html = (strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml => {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i += 1) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
};

/** Markup this module produced itself (the inline script and style); never input text. */
export const trusted = (text: string): SafeHtml => new SafeHtml(text);
