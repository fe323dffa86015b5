/**
 * A value for a schema: the document's own (`example`, `default`, `examples`, `const`, `enum`'s
 * first) when it validates against the schema (`example_fits.ts`), else one generated from the
 * schema: its type and format (uuid, date-time, email, …), within its minimum, maximum and
 * lengths, matching its `pattern` (`pattern.ts`), a value or kind the document gives in words
 * (`prose_sample.ts`, `named_kind.ts`), an address a property's name asks for (`link_named.ts`),
 * an object's required properties only (optional ones too down to a depth asked for; an array's
 * `required` beside object `items` is theirs: `array_required.ts`), the object parts of an
 * `allOf` merged first, a map with one entry (`map_entry.ts`). Bounded in depth and size (a
 * recursive or exploding schema stops); `$ref`s are local (bundle's).
 *
 * @module
 */
import { isNode, member, type Node } from "../../check/openapi_operations.ts";
import { MAX_ALLOF_NESTING, MAX_EXAMPLE_DEPTH, MAX_EXAMPLE_NODES } from "./limits.ts";
import { collectionNouns, plainNoun } from "./collection_nouns.ts";
import { isRelation } from "./relation_member.ts";
import { fromPattern, patternRegExp, tameTest } from "./pattern.ts";
import { listedValue, proseSample, showsValue } from "./prose_sample.ts";
import { mapEntry } from "./map_entry.ts";
import { sentItemList } from "./shown_items.ts";
import { arrayItems } from "./array_required.ts";
import { describedElsewhere } from "./described_elsewhere.ts";
import { namedKind, sentUnlisted } from "./named_kind.ts";
import { namedLink } from "./link_named.ts";
import { numberValue } from "./number_value.ts";
import { arrayOf } from "./unique_items.ts";
import { givenValue } from "./example_fits.ts";
import { deref } from "./deref.ts";
import { requiresForeignPath } from "./foreign_refs.ts";
import { table } from "../table.ts";
import { textFormat } from "./said_base64.ts";

export { deref };

/** Whether the value goes in a request (read-only properties left out) or comes in a response. */
export type Direction = "request" | "response";

/** The value made for a `date-time` text that gives none (a window's is the run's: `time_window.ts`). */
export const DATE_TIME_SAMPLE = "2024-01-01T00:00:00Z";

/** The value made for a `date` text that gives none (a request body's is the run's: `time_window.ts`). */
export const DATE_SAMPLE = "2024-01-01";

const FORMATS = table<string>({
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  "date-time": DATE_TIME_SAMPLE,
  date: DATE_SAMPLE,
  time: "12:00:00",
  email: "user@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  byte: "c3RyaW5n",
  password: "password",
  // A number written as text (drf-spectacular's `DecimalField`): a number's text, which its
  // digits' pattern still checks; that pattern's shortest text, "", is no number.
  decimal: "1",
  number: "1",
  float: "1",
  double: "1",
});

/** Generates values for schemas of one document. */
export class ExampleMaker {
  #left = MAX_EXAMPLE_NODES;

  /**
   * `optionalDepth`: objects made above this depth get the properties
   * their schema does not require too (0, the default: required only, the
   * smallest valid value); a mock answering as a server asks for 1, so a
   * create's response holds the id its schema declares. `exemplified`: a
   * JSON request body's objects get the optional properties the document
   * gives an example of too (see {@linkcode ExampleMaker.withExamples}).
   */
  constructor(
    readonly doc: unknown,
    readonly direction: Direction = "request",
    readonly optionalDepth = 0,
    readonly exemplified = false,
    /** The values made from a description's sample (`prose_sample.ts`): a form, not a name that exists. */
    readonly samples: Set<string> = new Set(),
  ) {}

  /**
   * A maker for a JSON request body: its objects hold the optional
   * properties the document gives an example of, as the body its own docs
   * show (Swagger UI's example value); a server may need one of several
   * none is required (Unleash's user: `username` or `email`). Left out: a
   * switch (a boolean: `archived: true`), a deprecated property, one named
   * for a collection the paths address items of (`project`: it names one
   * that must exist), a relation (`oneOf` an id and the related item:
   * relation_member.ts). Not for forms: an OAuth token form's examples are
   * every grant's fields at once.
   *
   * @example
   * ```ts
   * import { ExampleMaker } from "./examples.ts";
   * const schema = { type: "object", required: ["role"], properties: {
   *   role: { type: "integer" }, email: { type: "string", example: "a@example.com" },
   *   archived: { type: "boolean", example: true }, note: { type: "string" } } };
   * const got = new ExampleMaker({}).withExamples().make(schema) as Record<string, unknown>;
   * if (got.email !== "a@example.com" || "archived" in got || "note" in got) throw new Error();
   * ```
   */
  withExamples(): ExampleMaker {
    return new ExampleMaker(this.doc, this.direction, this.optionalDepth, true, this.samples);
  }

  /**
   * A value for a schema; undefined when none can be made (a broken
   * `$ref`, the bounds reached, a schema that says nothing).
   *
   * @example
   * ```ts
   * import { ExampleMaker } from "./examples.ts";
   * const schema = { type: "object", required: ["id", "at", "n"], properties: {
   *   id: { type: "string", format: "uuid", readOnly: true }, at: { type: "string", format: "date-time" },
   *   n: { type: "integer", minimum: 5 }, note: { type: "string" } } };
   * const got = new ExampleMaker({}).make(schema) as Record<string, unknown>;
   * if (got.id !== undefined || got.at !== "2024-01-01T00:00:00Z" || got.n !== 5 || "note" in got) throw new Error();
   * ```
   */
  make(schema: unknown, depth = 0): unknown {
    const s = deref(this.doc, schema);
    if (!isNode(s) || this.#left-- <= 0) return undefined;
    if (depth > MAX_EXAMPLE_DEPTH) return this.#bounded(s);
    const given = givenValue(s, (n) => deref(this.doc, n));
    if (given.found) return given.value;
    if (Array.isArray(s.allOf)) {
      const merged = this.#merged(s);
      return merged ? this.#object(merged, depth) : this.#allOf(s.allOf, depth);
    }
    const choice = this.#choice(s);
    if (choice === undefined) return this.#typed(s, depth);
    const value = this.#branch(choice, depth + 1);
    const tag = discriminated(s, choice);
    if (tag && isNode(value)) value[tag.property] = tag.value;
    return value;
  }

  /**
   * A `oneOf`/`anyOf` branch's value, with the properties that tell it from
   * the others even when not required: those whose schema allows one value
   * (`const`, a one-item `enum`). Adyen's terminal actions require nothing,
   * so `{}` matched all six branches and broke the `oneOf`.
   */
  #branch(choice: unknown, depth: number): unknown {
    const value = this.make(choice, depth);
    const s = deref(this.doc, choice);
    if (!isNode(value) || !isNode(s) || !isNode(s.properties)) return value;
    for (const [name, property] of Object.entries(s.properties)) {
      if (Object.hasOwn(value, name)) continue;
      const p = deref(this.doc, property);
      if (!isNode(p)) continue;
      if (Object.hasOwn(p, "const")) value[name] = p.const;
      else if (Array.isArray(p.enum) && p.enum.length === 1) value[name] = p.enum[0];
    }
    return value;
  }

  /**
   * Past the depth bound, a value that goes no deeper: the document's own,
   * null where the schema allows it, an empty list, a scalar; none for an
   * object. A required property of a deep object is null rather than left
   * out where its schema says it may be (Discord's messages nest users in
   * snapshots in messages: their `oneOf: [null, …]` ids were dropped, and the
   * object broke its `required`).
   */
  #bounded(s: Node): unknown {
    const given = givenValue(s, (n) => deref(this.doc, n));
    if (given.found) return given.value;
    if (this.#allowsNull(s)) return null;
    const type = typeOf(s);
    if (type === "array") return typeof s.minItems === "number" && s.minItems > 0 ? undefined : [];
    return type === "object" ? undefined : this.#typed(s, MAX_EXAMPLE_DEPTH);
  }

  /** Whether null is a value of the schema: `nullable`, a type list with null, a null branch. */
  #allowsNull(s: Node): boolean {
    if (s.nullable === true || s.type === "null") return true;
    if (Array.isArray(s.type) && s.type.includes("null")) return true;
    const choices = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : [];
    return choices.some((c) => {
      const branch = deref(this.doc, c);
      return isNode(branch) && (branch.type === "null" ||
        (Array.isArray(branch.type) && branch.type.includes("null")));
    });
  }

  /** The `oneOf` or `anyOf` branch a value takes: the first not null nor needing another API's item. */
  #choice(s: Node): unknown {
    const choices = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : [];
    const live = choices.filter((c) => typeOf(deref(this.doc, c)) !== "null");
    return live.find((c) => !requiresForeignPath(this.doc, c)) ?? live[0] ?? choices[0];
  }

  #typed(s: Node, depth: number): unknown {
    switch (typeOf(s)) {
      case "object":
        return this.#object(s, depth);
      case "array":
        return this.#array(s, depth);
      case "string": {
        const sample = proseSample(s);
        if (sample !== undefined) this.samples.add(sample);
        return sample ?? listedValue(s) ?? stringValue(s);
      }
      case "integer":
      case "number":
        return numberValue(s);
      case "boolean":
        return true;
      case "null":
        return null;
    }
    return undefined;
  }

  /**
   * An `allOf` with an object part as one object schema: the properties
   * and required names of every part (and of a part's `oneOf` branch) and
   * of the schema beside it, because a
   * part may require what another declares (Box's documents do); none when
   * no part is an object.
   */
  #merged(s: Node): Node | undefined {
    const merged: Node = { type: "object", properties: Object.create(null), required: [] };
    return this.#collect(s, 0, merged, new Set()) ? merged : undefined;
  }

  /**
   * Adds a schema's and its `allOf` parts' properties and required names; whether one is an object.
   * Parts nest no data, so they do not count against the depth bound (20 nested allOfs lost their
   * required properties); each part is read once, so a part naming itself ends.
   */
  #collect(node: unknown, level: number, into: Node, seen: Set<unknown>): boolean {
    const s = deref(this.doc, node);
    if (!isNode(s) || seen.has(s) || level > MAX_ALLOF_NESTING) return false;
    seen.add(s);
    let object = typeOf(s) === "object";
    const properties = into.properties as Node;
    for (const [name, property] of Object.entries(isNode(s.properties) ? s.properties : {})) {
      if (!Object.hasOwn(properties, name)) properties[name] = property;
    }
    for (const name of Array.isArray(s.required) ? s.required : []) {
      if (!(into.required as unknown[]).includes(name)) (into.required as unknown[]).push(name);
    }
    // A part's oneOf branch is part of the object too (Box: allOf [{type: object, oneOf: [File, …]}]).
    const choice = this.#choice(s);
    for (const part of [...(Array.isArray(s.allOf) ? s.allOf : []), ...(choice ? [choice] : [])]) {
      if (this.#collect(part, level + 1, into, seen)) object = true;
    }
    return object;
  }

  #allOf(parts: unknown[], depth: number): unknown {
    let merged: unknown;
    for (const part of parts) {
      const value = this.make(part, depth + 1);
      if (isNode(value) && (merged === undefined || isNode(merged))) {
        merged = { ...(merged as Node | undefined), ...value };
      } else if (value !== undefined && merged === undefined) merged = value;
    }
    return merged;
  }

  #object(s: Node, depth: number): Node {
    const out: Node = {};
    const properties = isNode(s.properties) ? s.properties : {};
    const required = Array.isArray(s.required) ? s.required : [];
    const names = depth < this.optionalDepth
      ? [...required, ...Object.keys(properties)]
      : [...required, ...this.#exemplified(properties, !Array.isArray(s.required))];
    for (const name of names) {
      if (typeof name !== "string" || Object.hasOwn(out, name)) continue;
      const property = this.#member(properties, name);
      if (this.direction === "request" && member(property, "readOnly") === true) continue;
      if (this.direction === "response" && member(property, "writeOnly") === true) continue;
      const kind = this.#named(name, property);
      const value = property === undefined ? "string" : kind ?? this.make(property, depth + 1);
      if (value !== undefined) out[name] = value;
    }
    return this.#mapOr(s, out, depth);
  }

  /**
   * A member's description: its own, else, for a required name a request's object does not
   * describe, the document's description of that name elsewhere (described_elsewhere.ts).
   */
  #member(properties: Node, name: string): unknown {
    const own = deref(this.doc, member(properties, name));
    return own ?? (this.direction === "request" ? describedElsewhere(this.doc, name) : undefined);
  }

  /** A request property's value its name and words give: a kind the document names, an address. */
  #named(name: string, property: unknown): unknown {
    if (this.direction !== "request") return undefined;
    return namedKind(this.doc, name, property) ??
      namedLink(name, property, (n) => deref(this.doc, n));
  }

  /** A request's object that holds nothing: a map's one entry (`map_entry.ts`), else as it is. */
  #mapOr(s: Node, out: Node, depth: number): Node {
    if (Object.keys(out).length > 0 || this.direction !== "request") return out;
    return mapEntry(s, (entry) => this.make(entry, depth + 1)) ?? out;
  }

  /** The optional properties of a JSON request body's object (see {@linkcode withExamples}); with no
   * `required` at all (`unsaid`), an `enum` or a named kind too: PowerDNS's zone needs its `kind`. */
  #exemplified(properties: Node, unsaid: boolean): string[] {
    if (!this.exemplified || this.direction !== "request") return [];
    const nouns = collectionNouns(this.doc);
    const resolve = (n: unknown) => deref(this.doc, n);
    return Object.keys(properties).filter((name) => {
      const p = resolve(properties[name]);
      // A list of a collection's items is sent, their ids the create's (body_links.ts).
      const shownItems = sentItemList(name, p, unsaid, nouns, resolve);
      if (nouns.has(plainNoun(name)) && !shownItems) return false;
      // An id or the related item: the example names an item that must exist (relation_member.ts).
      if (isRelation(this.doc, p)) return false;
      // A switch (`archived: true`) changes what the request does; left out, the server's default.
      return isNode(p) && p.deprecated !== true && typeOf(p) !== "boolean" &&
        (showsValue(p) || shownItems || (unsaid && sentUnlisted(this.doc, name, p)));
    });
  }

  #array(s: Node, depth: number): unknown[] {
    if (s.maxItems === 0) return [];
    const items = arrayItems(s, (n) => deref(this.doc, n));
    const item = this.make(items, depth + 1);
    if (item === undefined) return [];
    const count = Math.min(Math.max(typeof s.minItems === "number" ? s.minItems : 1, 1), 3);
    return arrayOf(s, isNode(items) ? items : {}, count, item);
  }
}

/**
 * The discriminator's property and the value naming the chosen branch: its
 * name in the `mapping`, else the last part of its `$ref` (the schema's
 * name, as the specification says); none without a discriminator.
 */
function discriminated(
  s: Node,
  choice: unknown,
): { property: string; value: string } | undefined {
  const d = isNode(s.discriminator) ? s.discriminator : undefined;
  const ref = member(choice, "$ref");
  if (typeof d?.propertyName !== "string" || typeof ref !== "string") return undefined;
  const mapping = isNode(d.mapping) ? d.mapping : {};
  const name = ref.slice(ref.lastIndexOf("/") + 1);
  // A mapping's value is a $ref or a schema's name.
  const named = Object.keys(mapping).find((k) => mapping[k] === ref || mapping[k] === name);
  return { property: d.propertyName, value: named ?? name };
}

/** A schema's type (3.1 may list several: the first that is not null); guessed from its keys. */
function typeOf(s: unknown): string | undefined {
  if (!isNode(s)) return undefined;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") ?? s.type[0] : s.type;
  if (typeof type === "string") return type;
  if (isNode(s.properties) || Array.isArray(s.required)) return "object";
  if (s.items !== undefined) return "array";
  return undefined;
}

function stringValue(s: Node): string {
  const format = FORMATS[textFormat(s) ?? ""];
  let text = format ?? "string";
  const min = typeof s.minLength === "number" ? Math.min(s.minLength, 1_000) : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  if (text.length < min) text = text.padEnd(min, "x");
  if (text.length > max && format === undefined) text = text.slice(0, Math.max(max, 0));
  return typeof s.pattern === "string" ? matching(s.pattern, text, min, max) : text;
}

/**
 * The value when the pattern matches it, else the pattern's own shortest
 * text (padded to the least length when that still matches); the value
 * when the pattern cannot be read (Discord's ids, `^(0|[1-9][0-9]*)$`,
 * were sent as "string").
 */
function matching(pattern: string, text: string, min: number, max: number): string {
  const re = patternRegExp(pattern);
  // A pattern that may not be tried on the value (see tameTest) leaves it as it is.
  if (re === undefined || tameTest(re, pattern, text) !== false) return text;
  const made = fromPattern(pattern);
  if (made === undefined) return text;
  if (made.length < min) {
    const padded = made.padEnd(min, made.at(-1) ?? "x");
    if (padded.length <= max && tameTest(re, pattern, padded)) return padded;
  }
  return made;
}
