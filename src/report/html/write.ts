import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import type { ReportModel } from './model.js';
import { renderHtmlReport } from './render.js';

/** report.html in `dir`, written under a temporary name then renamed like report.json; returns its path. */
export const writeHtmlReport = (dir: string, model: ReportModel): string => {
  const path = join(dir, 'report.html');
  writeFileAtomic(path, renderHtmlReport(model));
  return path;
};
