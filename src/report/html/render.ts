import { createHash } from 'node:crypto';
import { BROWSER_SCRIPT } from './browser-script.js';
import { chartLibrary } from './chart-library.js';
import { pageData } from './page-data.js';
import type { ReportModel } from './model.js';
import { html, trusted } from './safe-html.js';
import { codeForScript, jsonForScript } from './script-embedding.js';
import { STYLES } from './styles.js';
import { activitySection } from './sections/activity.js';
import { candidatesSection } from './sections/candidates.js';
import { changesSection } from './sections/changes.js';
import { errorSection, headerSection } from './sections/header.js';
import { inputsSection } from './sections/inputs.js';
import { issuesSection } from './sections/issues.js';
import { outcomeSection } from './sections/outcome.js';

/** A CSP source allowing exactly this inline script, and no other. */
const scriptHash = (code: string): string => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

/** The two inline scripts of every page, and the CSP sources allowing exactly them: made once. */
let pageScripts: { library: string; script: string; sources: string } | undefined;
const scriptsOfPage = (): { library: string; script: string; sources: string } => {
  if (pageScripts) return pageScripts;
  const library = chartLibrary();
  const script = codeForScript(BROWSER_SCRIPT);
  return (pageScripts = { library, script, sources: `${scriptHash(library)} ${scriptHash(script)}` });
};

/**
 * report.html for a run or an undo: one self-contained file (styles, Chart.js, data and script
 * inline), every input value escaped. Its Content-Security-Policy is the second wall: no request
 * may leave the page, and only the two scripts written here, by hash, may run, so even a value
 * that got past escaping could not run or fetch anything. Its size depends on the model's bounded
 * parts, never on the number of records.
 */
export const renderHtmlReport = (model: ReportModel): string => {
  const { library, script, sources } = scriptsOfPage();
  const csp =
    `default-src 'none'; script-src ${sources}; ` +
    "style-src 'unsafe-inline'; img-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'";
  const title = `${model.kind === 'undo' ? 'Undo' : model.dryRun ? 'Dry run' : 'Import'} report ${model.runId}`;
  // prettier-ignore: it would format the scripts' text as code, and their hashes must match it byte for byte.
  // prettier-ignore
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="contact-import">
<title>${title}</title>
<style>${trusted(STYLES)}</style>
</head>
<body data-kind="${model.kind}" data-charts="pending">
${headerSection(model)}
<main>
${errorSection(model)}
${outcomeSection(model)}
${changesSection(model)}
${model.kind === 'run' ? candidatesSection(model) : html``}
${issuesSection(model.issues)}
${model.kind === 'run' ? inputsSection(model) : html``}
${activitySection(model)}
<footer>Written by contact-import. This page is self-contained: it works offline and sends nothing. The numbers are those of report.json beside it.</footer>
</main>
<script type="application/json" id="report-data">${trusted(jsonForScript(pageData(model)))}</script>
<script>${trusted(library)}</script>
<script>${trusted(script)}</script>
</body>
</html>
`;
  return page.text;
};
