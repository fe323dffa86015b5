/**
 * Structural mutations a real export shows, for the converters' fuzz tests:
 * a key missing, null, a wrong type, an empty array or object, a duplicated
 * entry, a huge, unicode or control-character string, a number where a
 * string was. Seeded through the generator given, so a failure reproduces
 * from its seed; each mutation is described for the failure message.
 *
 * @module
 */

/** A place in a JSON value: the keys from the root. */
export type JsonPath = (string | number)[];

/** One mutation applied: what it did and where, for the failure message. */
export interface Mutation {
  /** e.g. `null at log.entries[3].request.url`. */
  what: string;
}

/** Strings a real export may hold where a short one was. */
export const ODD_STRINGS: readonly string[] = [
  "",
  "x".repeat(70_000),
  "Café ✓ 列表 🙂",
  "\u0000\u0001\u001b[31m\r\n\t",
  "\ud800",
  "\ufeff",
  "${ENV.X}",
  "{{v}}",
  "__proto__",
  "constructor",
  "-1e309",
  "a\nb: c\n- d",
];

/** Every place in `value` (the root excluded), breadth first, at most `limit`. */
export function places(value: unknown, limit = 20_000): JsonPath[] {
  const out: JsonPath[] = [];
  const queue: [unknown, JsonPath][] = [[value, []]];
  for (let i = 0; i < queue.length && out.length < limit; i++) {
    const [node, path] = queue[i];
    if (node === null || typeof node !== "object") continue;
    const keys = Array.isArray(node) ? node.map((_, k) => k) : Object.keys(node);
    for (const key of keys) {
      const child = [...path, key];
      out.push(child);
      queue.push([(node as Record<string | number, unknown>)[key], child]);
    }
  }
  return out;
}

/** `path` as `a.b[2].c`. */
export function shown(path: JsonPath): string {
  return path.map((k) => typeof k === "number" ? `[${k}]` : `.${k}`).join("").replace(/^\./, "");
}

function parentOf(root: unknown, path: JsonPath): Record<string | number, unknown> {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  return node;
}

/** What replaces a value: a wrong type, null, an empty container, an odd string. */
function replacement(old: unknown, next: () => number): [unknown, string] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  switch (Math.floor(next() * 8)) {
    case 0:
      return [null, "null"];
    case 1:
      return [[], "an empty array"];
    case 2:
      return [{}, "an empty object"];
    case 3:
      return [typeof old === "string" ? 12345 : "12345", "a wrong scalar type"];
    case 4:
      return [typeof old === "object" ? "text" : { value: old }, "a wrong container type"];
    case 5:
      return [true, "a boolean"];
    case 6:
      return [[old, old], "the value twice in an array"];
    default: {
      const s = pick(ODD_STRINGS);
      return [s, `the string ${JSON.stringify(s.slice(0, 20))}`];
    }
  }
}

/**
 * Mutates `root` in place at a random place: removes the key, duplicates an
 * array entry, or replaces the value (see {@linkcode replacement}).
 * `extra` adds mutations of the caller's own (a `$ref` to nothing, base64
 * that is not), given the parent and key; it returns their description, or
 * `undefined` when it does not apply there.
 */
export function mutateJson(
  root: unknown,
  next: () => number,
  extra?: (parent: Record<string | number, unknown>, key: string | number) => string | undefined,
): Mutation {
  const all = places(root);
  if (all.length === 0) return { what: "nothing to mutate" };
  const path = all[Math.floor(next() * all.length)];
  const parent = parentOf(root, path);
  const key = path[path.length - 1];
  const where = shown(path);
  const kind = Math.floor(next() * 4);
  if (kind === 0 && extra) {
    const what = extra(parent, key);
    if (what !== undefined) return { what: `${what} at ${where}` };
  }
  if (kind === 1) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return { what: `removed ${where}` };
  }
  if (kind === 2 && Array.isArray(parent)) {
    parent.splice(key as number, 0, structuredClone(parent[key]));
    return { what: `duplicated ${where}` };
  }
  const [value, what] = replacement(parent[key], next);
  parent[key] = value;
  return { what: `${what} at ${where}` };
}

/** The text cut at a random point: a file truncated by a full disk or a lost connection. */
export function truncated(text: string, next: () => number): [string, Mutation] {
  const at = Math.floor(next() * text.length);
  return [text.slice(0, at), { what: `truncated at ${at} of ${text.length}` }];
}
