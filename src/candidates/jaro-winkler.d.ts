declare module 'jaro-winkler' {
  /** Jaro-Winkler similarity, 1 for equal strings, 0 for nothing in common. */
  export default function distance(a: string, b: string, options?: { caseSensitive?: boolean }): number;
}
