/**
 * Identity key -> its staged sequence number, in memory: a 32-bit fingerprint and the sequence
 * number a slot (8 bytes), open addressing, a quarter to half full, so 16 to 32 bytes an identity
 * (4 MB at 200,000) and no key text on the heap. The keys themselves stay on disk with
 * the staging; a fingerprint that matches is confirmed against the key held for that number, so
 * two keys sharing a fingerprint are told apart, never merged.
 *
 * Why not SQLite's own unique index: inserting random text keys into a B-tree larger than its page
 * cache was most of the staging's time; an append by sequence number and a lookup here cost a
 * fraction of it (bench/key-index.js). Both kinds of staging (records, or keys only) use it.
 */
export class KeyIndex {
  private fingerprints: Int32Array;
  private seqs: Int32Array;
  private count = 0;

  constructor(capacity = 1 << 14) {
    this.fingerprints = new Int32Array(capacity);
    this.seqs = new Int32Array(capacity);
  }

  /**
   * The sequence number of `key` when it is already held, else holds it as `seq` and answers
   * undefined. `keyOf(seq)` reads back the key staged under a number whose fingerprint matches.
   */
  claim(key: string, seq: number, keyOf: (seq: number) => string): number | undefined {
    const fingerprint = fingerprintOf(key);
    const mask = this.fingerprints.length - 1;
    let slot = slotOf(fingerprint, mask);
    for (;;) {
      const held = this.fingerprints[slot]!;
      if (held === 0) break;
      if (held === fingerprint && keyOf(this.seqs[slot]!) === key) return this.seqs[slot]!;
      slot = (slot + 1) & mask;
    }
    this.fingerprints[slot] = fingerprint;
    this.seqs[slot] = seq;
    this.count += 1;
    if (this.count * 2 > this.fingerprints.length) this.grow();
    return undefined;
  }

  private grow(): void {
    const { fingerprints, seqs } = this;
    this.fingerprints = new Int32Array(fingerprints.length * 2);
    this.seqs = new Int32Array(fingerprints.length * 2);
    const mask = this.fingerprints.length - 1;
    for (let i = 0; i < fingerprints.length; i++) {
      const fingerprint = fingerprints[i]!;
      if (fingerprint === 0) continue;
      let slot = slotOf(fingerprint, mask);
      while (this.fingerprints[slot] !== 0) slot = (slot + 1) & mask;
      this.fingerprints[slot] = fingerprint;
      this.seqs[slot] = seqs[i]!;
    }
  }
}

/** The first slot tried: the fingerprint's high bits folded into its low ones. */
const slotOf = (fingerprint: number, mask: number): number => (fingerprint ^ (fingerprint >>> 16)) & mask;

/** FNV-1a over the key's UTF-16 code units, never 0 (0 marks an empty slot). */
const fingerprintOf = (key: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash === 0 ? 1 : hash;
};
