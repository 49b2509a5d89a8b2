/** How a parsed JSON value is named in messages: "is an array; expected an object". */
export const describeJsonValue = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? 'a string'
        : `a ${typeof value}`;
