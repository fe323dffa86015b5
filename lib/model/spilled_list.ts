/**
 * A list kept as JSON in a spill and read back when it is read: an array to
 * every reader (`Array.isArray`, indexing, `length`, iteration, the array
 * methods, `JSON.stringify`), whose items are parsed from the spill.
 *
 * A failed flow's kept steps wait so (`spillSteps` in `compact.ts`). They
 * were a getter on the flow's result, and redefining `steps` as a getter
 * turns the result into a dictionary: about 700 bytes a failed flow kept
 * to the end of the run, more than the steps it set aside. A data property
 * holding this list keeps the result's shape.
 *
 * @module
 */

/** The array a spilled list stands for, with what reads its JSON back. */
type Target = unknown[] & { read?: () => Uint8Array };

const decoder = new TextDecoder();

/**
 * The list read last, kept parsed until another is read: a reader asks for
 * the length and then each item, and each would parse the JSON again.
 */
let last: { target: Target; list: unknown[] } | undefined;

function parsed(target: Target): unknown[] {
  if (last?.target !== target) {
    last = { target, list: JSON.parse(decoder.decode(target.read!())) as unknown[] };
  }
  return last.list;
}

/** Every read goes to the parsed list; a write changes the parsed copy only, as reading afresh would. */
const HANDLER: ProxyHandler<Target> = {
  get: (target, key) => Reflect.get(parsed(target), key),
  has: (target, key) => Reflect.has(parsed(target), key),
  ownKeys: (target) => Reflect.ownKeys(parsed(target)),
  getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(parsed(target), key),
  set: (target, key, value) => Reflect.set(parsed(target), key, value),
  deleteProperty: (target, key) => Reflect.deleteProperty(parsed(target), key),
  defineProperty: (target, key, descriptor) =>
    Reflect.defineProperty(parsed(target), key, descriptor),
};

/**
 * The list whose JSON `read` gives back, read again when it is read (the
 * last one read stays parsed until another is).
 *
 * @example
 * ```ts
 * import { spilledList } from "./spilled_list.ts";
 * const bytes = new TextEncoder().encode('[{"n":1},{"n":2}]');
 * const list = spilledList<{ n: number }>(() => bytes);
 * if (!Array.isArray(list) || list.length !== 2 || list.map((i) => i.n).join() !== "1,2") throw new Error();
 * if (JSON.stringify(list) !== '[{"n":1},{"n":2}]' || [...list][1].n !== 2) throw new Error();
 * ```
 */
export function spilledList<T>(read: () => Uint8Array): T[] {
  const target: Target = [];
  target.read = read;
  return new Proxy(target, HANDLER) as T[];
}
