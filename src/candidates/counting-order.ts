/**
 * `order` sorted stably by `keyOf` (numbers below `range`), by counting. Indexed loops: a typed
 * array's iterator allocates a result per element, and these run over every person.
 */
export const countingOrder = (order: Int32Array, keyOf: Int32Array, range: number): Int32Array => {
  const start = new Int32Array(range + 1);
  for (let k = 0; k < order.length; k++) start[keyOf[order[k]!]! + 1]!++;
  for (let k = 0; k < range; k++) start[k + 1]! += start[k]!;
  const sorted = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    sorted[start[keyOf[i]!]!++] = i;
  }
  return sorted;
};
