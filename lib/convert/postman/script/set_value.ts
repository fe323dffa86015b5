/**
 * What `pm.environment.set(name, value)` (and its other spellings) makes of
 * the value: a capture of a response part (a pick's first match), a value
 * known now, another variable, a made value, or joined text whose response
 * parts are captures of their own (`"Bearer " + json.token`). Undefined when
 * flowrun cannot express it.
 *
 * @module
 */
import { varName } from "../vars.ts";
import { cutSource } from "./cut.ts";
import type { Cond, Sym } from "./sym.ts";
import type { Translation } from "./translation.ts";

/** Where joined text names its own step, put in place when the flow binds the set. */
export const STEP = "\u0000step\u0000";

type SetOut = Pick<Translation, "captures" | "sets">;

/** Joined text: each response part a capture `<name>_partN` (kept while `name` is read). */
function joined(name: string, parts: Sym[], guarded: object): SetOut | undefined {
  const captures: Translation["captures"] = [];
  let text = "";
  for (const [i, p] of parts.entries()) {
    if (p.k === "lit") text += String(p.value).replaceAll("${", () => "$${");
    else if (p.k === "var") text += p.expr;
    else if (p.k === "path" || p.k === "cut" || (p.k === "pick" && !p.list)) {
      const part = `${name}_part${i + 1}`;
      const cut = p.k === "cut" ? cutSource(p) : undefined;
      if (p.k === "cut" && (!cut || cut.regex.includes("${"))) return undefined;
      const first = p.k === "pick" ? { first: true } : {};
      captures.push({ name: part, path: p.path, of: name, ...cut, ...first, ...guarded });
      text += `\${steps.${STEP}.capture.${varName(part)}}`;
    } else return undefined;
  }
  // Without a response part it is known before the request, as another variable's value is.
  return { captures, sets: [{ name, value: text, kind: captures.length > 0 ? "step" : "expr" }] };
}

/**
 * A response part's capture: a path, its length (`json.items.length`, the
 * count kept to compare a later answer with), or its text (`json.id.toString()`,
 * `String(json.id)`: Postman keeps the text, which `as: string` keeps too, so a
 * later path or quoted body member sends the same); none for another pseudo-path.
 */
function partOf(name: string, value: Sym & { k: "path" | "len" }, g: object): SetOut | undefined {
  const text = value.k === "path" && value.path.startsWith("text:");
  const path = text ? value.path.slice("text:".length) : value.path;
  if (path.includes(":")) return undefined;
  const as = value.k === "len" ? { as: "length" as const } : text ? { as: "string" as const } : {};
  return { captures: [{ name, path, ...as, ...g }], sets: [] };
}

/** `{ fixed: true }` for a made value a random draw in it was taken at its least. */
const fixed = (value: { fixed?: true }) => (value.fixed ? { fixed: true as const } : {});

/** A value made at run time, as the flow var's default; a moment or a Date itself is not one. */
function madeSet(name: string, value: Extract<Sym, { k: "gen" }>): SetOut | undefined {
  // Postman keeps the object, whose text is no ISO time: the set is named instead.
  return value.moment || value.date ? undefined : {
    captures: [],
    sets: [{ name, value: value.text, kind: "made", shares: value.shares, ...fixed(value) }],
  };
}

/**
 * A value known now; `null` too, which Postman keeps and sends as the text `null`. `from`: the
 * variables of the files it was worked out from, kept as the set's `derived`.
 */
function literalSet(name: string, value: unknown, from?: string[]): SetOut | undefined {
  const derived = from ? { derived: from } : {};
  return value === null || ["string", "number", "boolean"].includes(typeof value)
    ? { captures: [], sets: [{ name, value: String(value), kind: "text", ...derived }] }
    : undefined;
}

/**
 * The captures and sets of `set(name, value)`; `guarded` when an `if` on the
 * response decides whether it runs.
 *
 * @example
 * ```ts
 * import { setOf, STEP } from "./set_value.ts";
 * const out = setOf("auth", { k: "cat", parts: [{ k: "lit", value: "Bearer " }, { k: "path", path: "$.json.token" }] }, false);
 * if (out?.captures[0].path !== "$.json.token" || out.sets[0].value !== `Bearer \${steps.${STEP}.capture.auth_part2}`) {
 *   throw new Error(JSON.stringify(out));
 * }
 * ```
 */
export function setOf(
  name: string,
  value: Sym,
  guarded: boolean,
  when?: Cond[],
): SetOut | undefined {
  const g = guarded ? { guarded: true, ...(when ? { when } : {}) } : {};
  if (value.k === "path" || value.k === "len") return partOf(name, value, g);
  switch (value.k) {
    case "pick":
      return value.list
        ? undefined
        : { captures: [{ name, path: value.path, first: true, ...g }], sets: [] };
    case "lit":
      return literalSet(name, value.value, value.from);
    case "var":
      return { captures: [], sets: [{ name, value: value.expr, kind: "expr" }] };
    case "gen":
      return madeSet(name, value);
    case "cat":
      return joined(name, value.parts, g);
    case "cut":
      return cutSet(name, value, g);
  }
  return undefined;
}

/** A capture of the part a `cut` keeps of a header, the body or a JSON member's text. */
function cutSet(
  name: string,
  value: Extract<Sym, { k: "cut" }>,
  g: { guarded?: true; when?: Cond[] },
): SetOut | undefined {
  // A pattern is flow text too: one holding `${` would be read as an expression.
  const source = cutSource(value);
  if (!source || source.regex.includes("${")) return undefined;
  // `json.x.split(" ")` throws in Newman when the answer lacks `x`: the variable keeps
  // what it held, as a capture `when` the member exists keeps the earlier value.
  const member = source.header === undefined && value.path !== "$.body";
  const kept = member
    ? [...(g.when ?? []), { path: value.path, op: "exists", value: true }]
    : undefined;
  const cut = { name, path: value.path, ...source, ...g, ...(kept ? { when: kept } : {}) };
  return { captures: [cut as SetOut["captures"][number]], sets: [] };
}
