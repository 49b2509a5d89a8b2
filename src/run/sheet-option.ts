import { ImportError } from '../core/errors/index.js';
import type { Pipeline } from '../mapping/index.js';
import { detectFormat } from '../readers/index.js';

const isWorkbook = (path: string, pipeline: Pipeline): boolean => {
  try {
    return (pipeline.dialect.format ?? detectFormat(path)) === 'xlsx';
  } catch {
    return false;
  }
};

/**
 * The pipeline reading `sheet` of its workbook inputs. The sheet is part of the dialect, so the
 * rerun shortcut tells a run of another sheet of the same file from a rerun. A sheet named for
 * inputs none of which is a workbook is a mistake, not something to ignore.
 */
export const withSheet = (
  pipeline: Pipeline,
  sheet: string | undefined,
  inputs: readonly string[],
): Pipeline => {
  if (sheet === undefined) return pipeline;
  if (!inputs.some((input) => isWorkbook(input, pipeline))) {
    throw new ImportError(
      'config_invalid',
      `option sheet: "${sheet}" names a worksheet, but no input is an Excel workbook (.xlsx); leave it out for ${inputs.join(', ')}.`,
      { field: 'sheet' },
    );
  }
  return { ...pipeline, dialect: { ...pipeline.dialect, sheet } };
};
