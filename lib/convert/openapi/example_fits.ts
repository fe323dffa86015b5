/**
 * Whether a value the document gives (a schema's `example`, `default`, one
 * of its `examples`) validates against that schema, so that a value its own
 * schema refuses is not sent: GererMesAffaires writes
 * `Home: {type: boolean, example: "yes"}`, and a body holding "yes" broke
 * the document's own schema. Reads what a generated value must meet: type
 * (3.0's `nullable`, 2.0's `x-nullable`, 3.1's type lists), `const`, `enum`,
 * `pattern`, lengths, bounds (3.0's boolean exclusives and 3.1's numbers),
 * `multipleOf`, item counts, an array's items, an object's required and
 * given properties, `allOf`, `oneOf`/`anyOf` (one branch), within a depth.
 * A keyword it cannot judge (an untestable pattern, a schema too deep)
 * admits the value: the document's word stands where nothing refutes it.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { patternRegExp, tameTest } from "./pattern.ts";
import { readAsTyped } from "./example_text.ts";
import { firstChoice } from "./example_choices.ts";
import { isBlankForm } from "./blank_example.ts";

/** How deep into an example's objects and arrays its schema is followed. */
const MAX_FIT_DEPTH = 8;

/**
 * The document's own value for schema `s`, if it gives one that fits: its
 * `example`, `default` or one of its `examples` that validates against it
 * (the first such), as written or read as the type the schema asks
 * (`example_text.ts`: `5146486846` for a text is "5146486846") or the
 * first of the choices it lists (`example_choices.ts`: `asc|desc` is
 * "asc"), else its `const` or `enum`'s first.
 *
 * @example
 * ```ts
 * import { givenValue } from "./example_fits.ts";
 * const same = (n: unknown) => n;
 * const got = givenValue({ type: "integer", example: "12,17", default: 2 }, same);
 * if (!got.found || got.value !== 2) throw new Error(JSON.stringify(got));
 * if (givenValue({ type: "integer", example: "10" }, same).value !== 10) throw new Error();
 * if (givenValue({ type: "string", example: 5146486846 }, same).value !== "5146486846") {
 *   throw new Error();
 * }
 * if (givenValue({ type: "boolean", example: "yes" }, same).found) throw new Error();
 * if (givenValue({ type: "string", example: "asc|desc" }, same).value !== "asc") throw new Error();
 * ```
 */
export function givenValue(
  s: Node,
  deref: (node: unknown) => unknown,
): { found: boolean; value?: unknown } {
  const examples = Array.isArray(s.examples) ? s.examples : [];
  const offered = [
    ...["example", "default"].filter((key) => Object.hasOwn(s, key)).map((key) => s[key]),
    ...examples,
  ];
  for (const value of offered) {
    // An object of empty values is a form to fill, not a value (blank_example.ts).
    if (isBlankForm(value)) continue;
    // An example listing choices (`asc|desc`) gives its first, where that fits (example_choices.ts).
    const choice = firstChoice(value);
    if (choice !== undefined && exampleFits(choice, s, deref)) {
      return { found: true, value: choice };
    }
    if (exampleFits(value, s, deref)) return { found: true, value };
    // A scalar of the other JSON type (5146486846 for a text): its reading, where that fits.
    const read = readAsTyped(value, s);
    if (read !== undefined && exampleFits(read, s, deref)) return { found: true, value: read };
  }
  if (Object.hasOwn(s, "const")) return { found: true, value: s.const };
  const listed = Array.isArray(s.enum) ? s.enum : [];
  return listed.length > 0 ? { found: true, value: listed[0] } : { found: false };
}

/**
 * Whether `value` validates against schema `s`; `deref` resolves a `$ref`.
 *
 * @example
 * ```ts
 * import { exampleFits } from "./example_fits.ts";
 * const same = (n: unknown) => n;
 * if (exampleFits("yes", { type: "boolean" }, same)) throw new Error();
 * if (!exampleFits(null, { type: "string", nullable: true }, same)) throw new Error();
 * if (exampleFits("c", { type: "string", enum: ["a", "b"] }, same)) throw new Error();
 * if (!exampleFits({ n: 2 }, { type: "object", properties: { n: { type: "integer" } } }, same)) {
 *   throw new Error();
 * }
 * ```
 */
export function exampleFits(
  value: unknown,
  s: unknown,
  deref: (node: unknown) => unknown,
  depth = 0,
): boolean {
  const schema = deref(s);
  if (!isNode(schema) || depth > MAX_FIT_DEPTH) return true;
  if (Object.hasOwn(schema, "const") && !same(value, schema.const)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(value, e))) return false;
  if (value === null) return nullable(schema);
  const inner = (v: unknown, n: unknown) => exampleFits(v, n, deref, depth + 1);
  if (!typeFits(value, schema) || !partsFit(value, schema, inner)) return false;
  if (typeof value === "string") return stringFits(value, schema);
  if (typeof value === "number") return numberFits(value, schema);
  if (Array.isArray(value)) return arrayFits(value, schema, inner);
  return !isNode(value) || objectFits(value, schema, inner);
}

/** Whether the value fits every `allOf` part and one `oneOf`/`anyOf` branch. */
function partsFit(value: unknown, s: Node, inner: (v: unknown, n: unknown) => boolean): boolean {
  if (Array.isArray(s.allOf) && !s.allOf.every((part) => inner(value, part))) return false;
  const choices = Array.isArray(s.oneOf) ? s.oneOf : s.anyOf;
  return !Array.isArray(choices) || choices.some((c) => inner(value, c));
}

/** JSON equality, for `const` and `enum`. */
function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function types(s: Node): string[] {
  return Array.isArray(s.type) ? s.type : typeof s.type === "string" ? [s.type] : [];
}

function nullable(s: Node): boolean {
  const listed = types(s);
  return listed.length === 0 || listed.includes("null") || s.nullable === true ||
    s["x-nullable"] === true;
}

function typeFits(value: unknown, s: Node): boolean {
  const listed = types(s);
  return listed.length === 0 || listed.some((type) => {
    switch (type) {
      case "integer":
        return Number.isInteger(value);
      case "number":
        return typeof value === "number";
      case "array":
        return Array.isArray(value);
      case "object":
        return isNode(value);
      default:
        return typeof value === type;
    }
  });
}

function stringFits(value: string, s: Node): boolean {
  const length = [...value].length;
  if (typeof s.minLength === "number" && length < s.minLength) return false;
  if (typeof s.maxLength === "number" && length > s.maxLength) return false;
  if (typeof s.pattern !== "string") return true;
  const re = patternRegExp(s.pattern);
  return re === undefined || tameTest(re, s.pattern, value) !== false;
}

function numberFits(value: number, s: Node): boolean {
  const bound = (key: string, base: string) =>
    typeof s[key] === "number" ? s[key] as number : s[key] === true ? s[base] : undefined;
  const low = bound("exclusiveMinimum", "minimum");
  const high = bound("exclusiveMaximum", "maximum");
  if (typeof s.minimum === "number" && value < s.minimum) return false;
  if (typeof s.maximum === "number" && value > s.maximum) return false;
  if (typeof low === "number" && value <= low) return false;
  if (typeof high === "number" && value >= high) return false;
  return typeof s.multipleOf !== "number" || s.multipleOf <= 0 ||
    Number.isInteger(Number((value / s.multipleOf).toPrecision(12)));
}

function arrayFits(value: unknown[], s: Node, inner: (v: unknown, n: unknown) => boolean): boolean {
  if (typeof s.minItems === "number" && value.length < s.minItems) return false;
  if (typeof s.maxItems === "number" && value.length > s.maxItems) return false;
  return s.items === undefined || value.every((item) => inner(item, s.items));
}

function objectFits(value: Node, s: Node, inner: (v: unknown, n: unknown) => boolean): boolean {
  const required = Array.isArray(s.required) ? s.required : [];
  if (required.some((name) => typeof name === "string" && !Object.hasOwn(value, name))) {
    return false;
  }
  const properties = isNode(s.properties) ? s.properties : {};
  return Object.keys(value).every((name) =>
    !Object.hasOwn(properties, name) || inner(value[name], properties[name])
  );
}
