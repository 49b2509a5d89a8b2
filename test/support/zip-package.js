// A ZIP package writer (deflate, no ZIP64) for tests and benches that build workbooks: well-formed
// ones and bombs, whose parts inflate far beyond their stored size. Plain JavaScript so that bench/
// scripts, which run without a TypeScript step, share it with the tests (types: zip-package.d.ts).
import { crc32, deflateRawSync } from 'node:zlib';

/** A ZIP package from parts: `{ name, data }`, or `{ name, deflated, size, crc }` standing for `size` bytes. */
export const zipOf = (parts) => {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const stored = 'data' in part ? deflateRawSync(part.data) : part.deflated;
    const size = 'data' in part ? part.data.length : part.size;
    const crc = 'data' in part ? crc32(part.data) : part.crc;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(stored.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    central.push(entry, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
};

/** An XML part's bytes: the declaration, then `body`. */
export const xml = (body) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
