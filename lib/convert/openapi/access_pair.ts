/**
 * A login's token written as RFC 6749's pair: `access` beside `refresh`
 * (simplejwt's `TokenObtainPair`, as drf-spectacular describes its answer).
 * Neither name reads as a token alone (`access` is a level of rights as
 * often), but the two side by side in a login's answer are its access and
 * refresh tokens.
 *
 * @module
 */
import { properties } from "./schema_properties.ts";

/** How deep an envelope (`{data: {access, refresh}}`) is looked into. */
const PAIR_DEPTH = 3;

/**
 * The path of `access` in the first object of `schema` (an envelope or two
 * deep) that holds both `access` and `refresh`.
 *
 * @example
 * ```ts
 * import { accessOfPair } from "./access_pair.ts";
 * const pair = { properties: { access: { type: "string" }, refresh: { type: "string" } } };
 * if (accessOfPair({}, pair)?.join() !== "access") throw new Error();
 * if (accessOfPair({}, { properties: { data: pair } })?.join() !== "data,access") throw new Error();
 * if (accessOfPair({}, { properties: { access: { type: "string" } } }) !== undefined) throw new Error();
 * ```
 */
export function accessOfPair(doc: unknown, schema: unknown): string[] | undefined {
  let level: [string[], unknown][] = [[[], schema]];
  for (let depth = 0; depth < PAIR_DEPTH && level.length > 0; depth++) {
    const next: [string[], unknown][] = [];
    for (const [path, node] of level) {
      const props = properties(doc, node);
      const names = props.map(([name]) => name);
      if (names.includes("access") && names.includes("refresh")) return [...path, "access"];
      for (const [name, prop] of props) next.push([[...path, name], prop]);
    }
    level = next;
  }
  return undefined;
}
