import path from 'node:path';

/** The file as a user would type it: relative to the working directory when it is below it. */
export const displayPath = (file: string): string => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};
