/**
 * A value found at a fixed index of a list (`data[90].meta.id`) is found
 * again by its neighbours: the sibling members that identify its element. A
 * fresh instance lists the same elements in another order (or fewer before
 * it), so a position finds another element. The conversion's own rule
 * (`stablePath`) names the element by one field no other element shares; a
 * schema listing often needs two (`collection` and `field`), which this adds.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { JsonPath, Source, Step } from "./model.ts";
import { unexpressible } from "./verify_express.ts";
import { drawnFromNumber, namesRow } from "./correlate/row_name.ts";

/** Fields of one element tried in pairs, at most (the first ones, in the recorded order). */
const MAX_FIELDS = 24;

type Filter = Extract<JsonPath[number], object>;

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f]/;

/**
 * Whether `value` under `key` can name an element (row_name.ts), without a
 * control character: not every JSONPath engine reads one.
 */
function canName(c: Correlator, key: string, value: unknown): value is string {
  return namesRow(c, key, value) && !CONTROL.test(key + value);
}

/** A made value shorter than this is not looked for inside another: it could be any word. */
const MIN_MADE = 8;

/**
 * `value` as a run sends it: a recorded value the flow makes fresh, whole or
 * inside it (an address built from a name the user typed), written as the
 * template sent instead. The live list holds the run's own name there.
 */
function asSent(c: Correlator, value: string): string {
  const whole = c.generated.get(value);
  if (whole !== undefined) return whole;
  const made = [...c.generated].filter(([recorded]) =>
    recorded.length >= MIN_MADE && value.includes(recorded)
  );
  // The longest first, so a made value inside another is not cut apart.
  made.sort((a, b) => b[0].length - a[0].length);
  return made.reduce((out, [recorded, template]) => out.split(recorded).join(template), value);
}

const matches = (e: unknown, f: Filter) =>
  [f, ...f.also ?? []].every((t) =>
    typeof e === "object" && e !== null && (e as Record<string, unknown>)[t.key] === t.value
  );

/** One field, else two together, that only `item` of `list` holds; the next segment aside. */
function neighbours(
  c: Correlator,
  list: unknown[],
  item: unknown,
  next: JsonPath[number],
): Filter | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return undefined;
  const id = (item as Record<string, unknown>)[next as string];
  const fields = Object.entries(item as Record<string, unknown>)
    .filter(([k, v]) => k !== next && canName(c, k, v) && !drawnFromNumber(id, v))
    .slice(0, MAX_FIELDS)
    .map(([key, value]) => ({ key, value: asSent(c, value as string) }));
  const raw = (f: { key: string }) => (item as Record<string, string>)[f.key];
  const unique = (f: Filter) =>
    list.filter((e) =>
      matches(e, {
        key: f.key,
        value: raw(f),
        also: f.also?.map((t) => ({ key: t.key, value: raw(t) })),
      })
    ).length === 1;
  for (const f of fields) if (unique(f)) return f;
  for (let i = 0; i < fields.length; i++) {
    for (let j = i + 1; j < fields.length; j++) {
      const pair = { ...fields[i], also: [fields[j]] };
      if (unique(pair)) return pair;
    }
  }
  return undefined;
}

/**
 * `path` into the recorded `json` with each list index that one or two
 * fields of the element tell apart replaced by a filter on them; filters
 * already in the path are followed.
 *
 * @example
 * ```ts
 * import { byNeighbours } from "./verify_neighbours.ts";
 * import { emptyCorrelator } from "./correlate/state.ts";
 * const c = emptyCorrelator("a", true);
 * const data = ["posts", "pages"].flatMap((collection) =>
 *   ["title", "body"].map((field) => ({ collection, field, meta: { id: `${collection}-${field}-9f3e` } }))
 * );
 * const path = byNeighbours(c, { data }, ["data", 3, "meta", "id"]);
 * if (JSON.stringify(path[1]) !== '{"key":"collection","value":"pages","also":[{"key":"field","value":"body"}]}') {
 *   throw new Error(JSON.stringify(path));
 * }
 * ```
 */
export function byNeighbours(c: Correlator, json: unknown, path: JsonPath): JsonPath {
  let node: unknown = json;
  return path.map((segment, i) => {
    const here = node;
    if (typeof segment === "object") {
      node = Array.isArray(here) ? here.find((e) => matches(e, segment)) : undefined;
      return segment;
    }
    node = (here as Record<string | number, unknown> | null)?.[segment];
    if (typeof segment !== "number" || !Array.isArray(here) || i === path.length - 1) {
      return segment;
    }
    return neighbours(c, here, node, path[i + 1]) ?? segment;
  });
}

/**
 * Rewrites each capture of `step` that finds its value by a list position
 * to find it by the element's neighbours; returns what it says of each. The
 * YAML and JSONPath engines must be loaded.
 *
 * @example
 * ```ts
 * import { captureByNeighbours } from "./verify_neighbours.ts";
 * import { emptyCorrelator } from "./correlate/state.ts";
 * import { yamlEngine } from "../load/yaml_engine.ts";
 * import { pathEngine } from "../expr/path_engine.ts";
 * await Promise.all([yamlEngine.load(), pathEngine.load()]); // the check loads a flow
 * const c = emptyCorrelator("a", true);
 * const data = [{ k: "a", f: "x", id: "i1-9f3e" }, { k: "a", f: "y", id: "i2-9f3e" }, { k: "b", f: "x", id: "i3-9f3e" }];
 * const source = { kind: "json" as const, path: ["data", 1, "id"] };
 * // deno-lint-ignore no-explicit-any
 * const step: any = { last: { json: { data } }, captures: [["id", source]], captureByPath: new Map([[JSON.stringify(source), "id"]]) };
 * const said = captureByNeighbours(c, step);
 * if (said.length !== 1 || !step.captureByPath.has(JSON.stringify(step.captures[0][1]))) throw new Error(said.join());
 * ```
 */
export function captureByNeighbours(c: Correlator, step: Step): string[] {
  const said: string[] = [];
  step.captures = step.captures.map(([name, source]): [string, Source] => {
    if (source.kind !== "json" || !source.path.some((p) => typeof p === "number")) {
      return [name, source];
    }
    const path = byNeighbours(c, step.last.json, source.path);
    if (JSON.stringify(path) === JSON.stringify(source.path)) return [name, source];
    const found: Source = { kind: "json", path };
    // A filter no flow can hold would cost the whole flow: the position is kept then.
    if (unexpressible(c.sp, found) !== undefined) return [name, source];
    step.captureByPath.delete(JSON.stringify(source));
    step.captureByPath.set(JSON.stringify(found), name);
    const fields = path.filter((p): p is Filter => typeof p === "object")
      .flatMap((f) => [f, ...f.also ?? []].map((t) => `"${t.key}"`));
    said.push(
      `captures "${name}" by its list element's ${fields.join(" and ")}, not by its position`,
    );
    return [name, found];
  });
  return said;
}
