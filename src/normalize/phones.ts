import {
  isSupportedCountry,
  parsePhoneNumberWithError,
  ParseError,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';
import { fail, ok, quote, type Normalized } from './result.js';

/** The phone fields of the contact write shape (`contact_phone_numbers[]`). */
export interface NormalizedPhone {
  /** International format, e.g. `+44 20 8366 1177`; an extension stays, as ` ext. 1234`. */
  phone_number: string;
  /** E.164, e.g. `+442083661177` (never an extension): the number's identity. */
  phone_number_sanitized: string;
  /**
   * ISO 3166 region the number belongs to (`GB`, or `JE` for a Jersey number written `+44`).
   * Absent for non-geographic numbers (`+870` Inmarsat, `+800` freephone), which have none.
   */
  country_code?: string;
}

export interface PhoneDefaults {
  /** ISO 3166 alpha-2 region for numbers written without `+` (the pipeline's or `--region`). */
  defaultRegion?: string;
  /** Calling code for numbers written without `+` when no region fits (e.g. `870`). */
  defaultCallingCode?: string;
}

type ParseOptions = { defaultCountry?: CountryCode; defaultCallingCode?: string };

/** Options objects are built once per region, not per number: parsing is the run's hot spot. */
const optionsByRegion = new Map<string, ParseOptions>();
const NO_DEFAULTS: ParseOptions = {};

function parseOptions(defaults: string | PhoneDefaults | undefined): ParseOptions {
  if (defaults === undefined) return NO_DEFAULTS;
  if (typeof defaults === 'string') {
    let options = optionsByRegion.get(defaults);
    if (options === undefined) {
      options = { defaultCountry: defaults.toUpperCase() as CountryCode };
      optionsByRegion.set(defaults, options);
    }
    return options;
  }
  const options: ParseOptions = {};
  if (defaults.defaultRegion !== undefined)
    options.defaultCountry = defaults.defaultRegion.toUpperCase() as CountryCode;
  if (defaults.defaultCallingCode !== undefined) options.defaultCallingCode = defaults.defaultCallingCode;
  return options;
}

/** Whether libphonenumber knows a region, so a pipeline's `region` can be checked before a run. */
export const isSupportedRegion = (region: string): boolean => isSupportedCountry(region.toUpperCase());

const PARSE_REASONS: Record<string, string> = {
  NOT_A_NUMBER: 'it does not look like a phone number',
  INVALID_COUNTRY: 'it has no +country code and no usable default region',
  TOO_SHORT: 'it is too short',
  TOO_LONG: 'it is too long',
  INVALID_LENGTH: 'it has a length no number of its country has',
};

function invalid(value: string, why: string): Normalized<NormalizedPhone> {
  return fail(
    'invalid_phone',
    `Phone ${quote(value)} is not valid: ${why}; expected a number with +country code or one of the default region.`,
  );
}

/**
 * Parses with libphonenumber-js (max metadata: precise validity by number range) and keeps only
 * numbers it reports valid. `defaultRegion` applies to numbers written without `+`; a string is
 * the region, an object can also give a default calling code. Text around the number ("Phone:")
 * is ignored, as the library does.
 */
export function normalizePhone(
  value: string,
  defaultRegion?: string | PhoneDefaults,
): Normalized<NormalizedPhone> {
  const options = parseOptions(defaultRegion);
  let parsed: PhoneNumber;
  try {
    parsed = parsePhoneNumberWithError(value, options);
  } catch (error) {
    if (error instanceof ParseError) {
      return invalid(value, PARSE_REASONS[error.message] ?? `the parser answered ${error.message}`);
    }
    throw error;
  }
  if (!parsed.isValid()) {
    const region = options.defaultCountry === undefined ? '' : ` (default region ${options.defaultCountry})`;
    return invalid(
      value,
      `${parsed.number} is not an assigned number in its country's numbering plan${region}`,
    );
  }
  const phone: NormalizedPhone = {
    phone_number: parsed.formatInternational(),
    phone_number_sanitized: parsed.number,
  };
  if (parsed.country !== undefined) phone.country_code = parsed.country;
  return ok(phone);
}
