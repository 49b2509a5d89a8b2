/**
 * undici, imported by the command line just before a run that sends, with Node's own `Headers`
 * global hidden while its modules load; the run's import of undici then finds it loaded.
 *
 * undici's cookie helpers read `globalThis.Headers` when their module loads, to accept Node's
 * Headers as well as undici's own. In Node that global is a getter which, the first time it is
 * read, loads and compiles the copy of undici built into Node itself: a large part of a short
 * run's start, for a global nothing in this process uses. Hidden, the helpers accept undici's
 * Headers alone, and nothing here calls them. The global is put back as it was, its getter not
 * called, when the import ends, whether it succeeded or not.
 *
 * The command line owns its process and has nothing else under way while this waits; the library
 * never touches a global, so an application embedding it loads undici as it always did.
 */
export const preloadUndici = async (): Promise<void> => {
  const headers = Object.getOwnPropertyDescriptor(globalThis, 'Headers');
  // Already read (then a plain value), or not Node's lazy global: nothing to spare.
  if (!headers?.get || !headers.configurable) return;
  Object.defineProperty(globalThis, 'Headers', {
    configurable: true,
    enumerable: headers.enumerable ?? false,
    writable: true,
    value: undefined,
  });
  try {
    await import('undici');
  } finally {
    Object.defineProperty(globalThis, 'Headers', headers);
  }
};
