import {
  dateFromSerial,
  format,
  getFormatDateInfo,
  isDateFormat,
  isTextFormat,
  type FormatDateInfo,
} from 'numfmt';
import { unescapeOoxml } from './xml-stream.js';
import type { WorkbookModel } from './xlsx-parts.js';

/** One cell as the sheet's XML holds it: its type (`t`), style index (`s`), `<v>` and inline text. */
export interface RawCell {
  type: string | undefined;
  style: number;
  value: string;
  inline: string;
}

/** How a number in a given format is shown: plain digits, a date, or through the format. */
type Display = { kind: 'plain' } | { kind: 'date'; info: FormatDateInfo } | { kind: 'format' };

/**
 * General (and text) numbers as typed, without Excel's narrow-column exponent (4.42079E+11): a
 * phone stored as a number keeps its digits. Excel holds 15 significant digits, so no more are shown.
 */
const PLAIN = new Intl.NumberFormat('en-US', { useGrouping: false, maximumSignificantDigits: 15 });

const LOCALE = 'en-US';
const SERIAL_1904_OFFSET = 1462;

const pad = (n: number): string => String(n).padStart(2, '0');

export const plainNumber = (n: number): string => (n === 0 ? '0' : PLAIN.format(n));

const displays = new Map<string, Display>();

const displayOf = (pattern: string): Display => {
  let display = displays.get(pattern);
  if (display) return display;
  if (pattern === '' || pattern.toLowerCase() === 'general' || isTextFormat(pattern))
    display = { kind: 'plain' };
  else {
    try {
      display = isDateFormat(pattern)
        ? { kind: 'date', info: getFormatDateInfo(pattern) }
        : { kind: 'format' };
    } catch {
      display = { kind: 'plain' };
    }
  }
  displays.set(pattern, display);
  return display;
};

const formatted = (pattern: string, n: number): string => {
  try {
    // Padding (`_)`) and fill (`* `) make spaces around the value: layout, not data.
    return format(pattern, n, { locale: LOCALE }).trim();
  } catch {
    return plainNumber(n);
  }
};

/**
 * A date cell as an ISO 8601 date the normalizer reads (`YYYY-MM-DD`, with `THH:MM` when the
 * format shows a time); a format without a year shows a year-less date (`--MM-DD`). A format
 * that is not a calendar date (a time, a month and year) is shown as the format shows it.
 */
const isoDate = (serial: number, pattern: string, info: FormatDateInfo, date1904: boolean): string => {
  const shifted = date1904 ? serial + SERIAL_1904_OFFSET : serial;
  if (!(info.month && info.day) || serial < 0) return formatted(pattern, shifted);
  const [year, month, day, hours, minutes, seconds] = dateFromSerial(shifted);
  if (!info.year) return `--${pad(month)}-${pad(day)}`;
  const date = `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
  if (!(info.hours || info.minutes || info.seconds)) return date;
  return `${date}T${pad(hours)}:${pad(minutes)}${info.seconds ? `:${pad(seconds)}` : ''}`;
};

const showNumber = (text: string, pattern: string, date1904: boolean): string => {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) return text;
  const display = displayOf(pattern);
  if (display.kind === 'plain') return plainNumber(n);
  if (display.kind === 'date') return isoDate(n, pattern, display.info, date1904);
  return formatted(pattern, n);
};

/** A cell of type `d` holds an ISO 8601 date already; a date-only format keeps its date part. */
const showIsoCell = (text: string, pattern: string): string => {
  const display = displayOf(pattern);
  const dateOnly =
    display.kind !== 'date' || !(display.info.hours || display.info.minutes || display.info.seconds);
  return dateOnly && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
};

/** The cell's text as the sheet shows it (a formula's last computed value), dates as ISO dates. */
export function showCell(cell: RawCell, workbook: WorkbookModel): string {
  const pattern = workbook.styleFormats[cell.style] ?? 'General';
  switch (cell.type) {
    case 's':
      return workbook.sharedStrings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return unescapeOoxml(cell.inline);
    case 'str':
      return unescapeOoxml(cell.value);
    case 'b':
      return cell.value === '' ? '' : Number(cell.value) !== 0 ? 'TRUE' : 'FALSE';
    case 'e':
      return cell.value;
    case 'd':
      return showIsoCell(cell.value, pattern);
    default:
      return showNumber(cell.value, pattern, workbook.date1904);
  }
}
