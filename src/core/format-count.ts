/**
 * A number as `toLocaleString('en-US')` writes it (`12,345`), for the counts the summary, the
 * reports and the progress line show. A whole number is grouped here: the first toLocaleString of
 * a process loads ICU's locale data, a good part of a short run's CPU, for what is a comma every
 * three digits. Anything else (a fraction, -0, a number past 2^53) is toLocaleString's.
 */
export const formatCount = (value: number): string => {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${grouped}` : grouped;
};
