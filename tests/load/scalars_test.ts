/** Integers and durations (lib/load/scalars.ts). */
import assert from "node:assert/strict";
import type { Node } from "yaml";
import { readDuration, readInteger } from "../../lib/load/scalars.ts";
import { scalarNode } from "../../lib/load/nodes.ts";

/** Reads `value` as the entry `k`, collecting problems. */
function read<T>(value: unknown, reader: (sink: { problem: () => void }, e: never) => T) {
  const problems: unknown[][] = [];
  const sink = { problem: (...args: unknown[]) => void problems.push(args) };
  const node = scalarNode(value, "PLAIN", String(value), [0, 1, 1]) as Node;
  const result = reader(sink as never, { key: "k", keyNode: node, value: node } as never);
  return { result, problems };
}

Deno.test("integers within bounds, with a hint for milliseconds written as a duration", () => {
  assert.equal(read(3, (s, e) => readInteger(s, e, '"k"', 1, 5)).result, 3);
  const high = read(9, (s, e) => readInteger(s, e, '"retry" of x', 1, 5));
  assert.deepEqual(high.problems[0].slice(0, 2), [
    "out-of-range",
    'Expected "retry" of x to be at most 5, got 9.',
  ]);
  const ms = read("2s", (s, e) => readInteger(s, e, '"sleep_ms"', 0));
  assert.equal(ms.problems[0][3], "Write milliseconds as a number: 2000.");
});

Deno.test("durations with units, bounded", () => {
  assert.equal(read("1.5s", (s, e) => readDuration(s, e, '"t"', 0, 5000)).result, 1500);
  assert.equal(read(250, (s, e) => readDuration(s, e, '"t"', 0, 5000)).result, 250);
  const long = read("2h", (s, e) => readDuration(s, e, '"t"', 0, 5000));
  assert.equal(long.problems[0][0], "out-of-range");
  assert.equal(
    read("soon", (s, e) => readDuration(s, e, '"t"', 0, 5000)).problems[0][0],
    "wrong-type",
  );
});
