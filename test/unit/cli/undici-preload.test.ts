import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const original = Object.getOwnPropertyDescriptor(globalThis, 'Headers')!;

/** A stand-in for Node's lazy `Headers` global that counts its reads. */
let reads = 0;
const lazyGet = () => {
  reads++;
  return original.get ? original.get.call(globalThis) : original.value;
};

/** Node's global has a setter too (an assignment replaces the getter). */
const lazySet = () => {};
const lazyHeaders = { configurable: true, enumerable: false, get: lazyGet, set: lazySet };

beforeEach(() => {
  reads = 0;
  vi.resetModules();
  Object.defineProperty(globalThis, 'Headers', lazyHeaders);
});
afterEach(() => {
  vi.doUnmock('undici');
  Object.defineProperty(globalThis, 'Headers', original);
});

/** undici as a module that reads `globalThis.Headers` when it loads, as undici's cookie helpers do. */
const undiciReadingHeaders = (onLoad: (seen: unknown) => void = () => {}) =>
  vi.doMock('undici', () => {
    onLoad(globalThis.Headers);
    return { Agent: class {} };
  });

const preload = async () => (await import('../../../src/cli/undici-preload.js')).preloadUndici();

describe('preloadUndici', () => {
  it('loads undici with the Headers global hidden, and puts the getter back uncalled', async () => {
    let seen: unknown = 'not loaded';
    undiciReadingHeaders((value) => (seen = value));
    await preload();
    expect(seen).toBeUndefined();
    expect(reads).toBe(0);
    expect(Object.getOwnPropertyDescriptor(globalThis, 'Headers')).toEqual(lazyHeaders);
  });

  it('puts the getter back when the import fails', async () => {
    undiciReadingHeaders(() => {
      throw new Error('no undici');
    });
    await expect(preload()).rejects.toThrow();
    expect(Object.getOwnPropertyDescriptor(globalThis, 'Headers')).toEqual(lazyHeaders);
    expect(reads).toBe(0);
  });

  it('leaves a Headers that is already a plain value alone, and imports nothing', async () => {
    let loaded = false;
    undiciReadingHeaders(() => (loaded = true));
    Object.defineProperty(globalThis, 'Headers', {
      configurable: true,
      writable: true,
      value: 'read before',
    });
    await preload();
    expect(Object.getOwnPropertyDescriptor(globalThis, 'Headers')?.value).toBe('read before');
    expect(loaded).toBe(false);
  });
});
