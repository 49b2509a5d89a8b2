/**
 * How a header name is compared with a column a pipeline names: one rule for detection (which
 * built-in fits a header) and for the row mapper (which cell feeds which field), so whatever
 * detection accepts, the mapper maps.
 *
 * Relaxed: lowercase, BOM and surrounding spaces removed, runs of spaces and underscores as one
 * space. `EMAIL`, ` Email `, `first_name` and `First  Name` are `email`, `email`, `first name`,
 * `first name`.
 */
export const relaxedName = (name: string): string =>
  name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');
