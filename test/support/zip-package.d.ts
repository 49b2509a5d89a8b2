/** One part of a ZIP package: its name and bytes, or deflated bytes standing for `size` bytes. */
export type ZipPart =
  { name: string; data: Buffer } | { name: string; deflated: Buffer; size: number; crc: number };

/** A ZIP package (deflate, no ZIP64) from parts. */
export const zipOf: (parts: ZipPart[]) => Buffer;

/** An XML part's bytes: the declaration, then `body`. */
export const xml: (body: string) => Buffer;
