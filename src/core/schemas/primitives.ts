import { z } from 'zod';

/** A UUID of any version (the service issues v4; others' ids are still well-formed uuids). */
export const uuid = z.uuid({ version: undefined });
/** ISO 8601 / RFC 3339 timestamp with a zone (Z or an offset). */
export const dateTime = z.iso.datetime({ offset: true });
/** ISO 8601 calendar date, YYYY-MM-DD. */
export const date = z.iso.date();
/** Nullable free text. */
export const text = z.string().nullable();
/** A URI (any scheme the WHATWG URL parser accepts). */
export const uri = z.url();
/** An object whose inner fields docs/api-reference.md does not show. */
export const opaqueObject = z.record(z.string(), z.unknown());
