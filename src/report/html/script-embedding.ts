/**
 * Text placed inside a <script> element. The HTML parser ends a script at the first `</script`
 * whatever the JavaScript around it means, and `<!--` changes how it looks for that end, so
 * neither may appear; U+2028 and U+2029 are escaped too, for engines that treat them as line ends.
 */

/** JSON for `<script type="application/json">`: every `<`, `>` and `&` as a \u escape. */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * Library code for an inline <script>. In valid JavaScript, `</script` and `<!--` can only stand
 * inside a string, template or regular expression, where `<\/` and `\x3C!--` mean the same.
 */
export const codeForScript = (code: string): string =>
  code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '\\x3C!--');
