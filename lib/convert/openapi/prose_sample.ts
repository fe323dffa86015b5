/**
 * A value the document gives only in words: a text property without an
 * `example` whose description quotes one after "e.g.", "for example" or
 * "such as" (PowerDNS's zone `name`: `Name of the zone (e.g.
 * “example.com.”) MUST have a trailing dot`). It is the document's own
 * example of the form the server wants; "string" broke that form (422: not
 * canonical). A sample the schema's `pattern` or lengths refuse is not one;
 * one of bytes (`format: byte`) is sent base64, as JSON carries bytes.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { patternRegExp, tameTest } from "./pattern.ts";

/** A quoted text after the words that introduce an example, in any of the usual quotes. */
const SAMPLE =
  /\b(?:e\.\s?g\.|for example|for instance|such as)[,:]?\s*(?:“([^”\n]{1,200})”|"([^"\n]{1,200})"|`([^`\n]{1,200})`)/i;

/**
 * The sample a string schema's description quotes, if any (see the module).
 *
 * @example
 * ```ts
 * import { proseSample } from "./prose_sample.ts";
 * const name = { type: "string", description: "Name of the zone (e.g. “example.com.”) MUST have a trailing dot" };
 * if (proseSample(name) !== "example.com.") throw new Error();
 * if (proseSample({ type: "string", description: "The name" }) !== undefined) throw new Error();
 * if (proseSample({ type: "string", maxLength: 3, description: "e.g. `long text`" }) !== undefined) throw new Error();
 * if (proseSample({ type: "string", format: "byte", description: 'e.g. "aa"' }) !== "YWE=") throw new Error();
 * ```
 */
export function proseSample(s: Node): string | undefined {
  if (typeof s.description !== "string" || Object.hasOwn(s, "example")) return undefined;
  const m = SAMPLE.exec(s.description);
  const sample = m?.[1] ?? m?.[2] ?? m?.[3];
  if (sample === undefined || sample.trim() === "") return undefined;
  // Bytes go as base64 in JSON: etcd's range_end "aa" was refused ("illegal base64 data").
  if (s.format === "byte") return btoa(String.fromCharCode(...new TextEncoder().encode(sample)));
  return fits(s, sample) ? sample : undefined;
}

/** Words that introduce the values a text takes: "Must be", "one of", "Possible values are:". */
const LISTED_AFTER =
  /\b(?:must be(?: one of)?|is one of|one of|can be(?: one of)?|(?:possible|valid|allowed) values(?: are| include)?)\s*:?\s*/gi;

/** A listed value: quoted in any of the usual quotes, or bare in capitals (`REPLACE`). */
const LISTED =
  /^(?:“([^”\n]{1,60})”|"([^"\n]{1,60})"|`([^`\n]{1,60})`|'([^'\n]{1,60})'|([A-Z][A-Z0-9_]*[A-Z0-9]))(?=\s*,|\s+or\b)/;

/** A description made only of two or more single words joined by commas and a last "or". */
const ONLY_VALUES = /^([a-z][a-z0-9_-]*)(?:\s*,\s*[a-z][a-z0-9_-]*)*,?\s+or\s+[a-z][a-z0-9_-]*\.?$/;

/**
 * The first of the values a text schema's description lists in words, two
 * at least ("Must be REPLACE or DELETE", "one of “all”, “zone”"): PowerDNS's
 * RRSet `changetype` "Must be REPLACE or DELETE" was sent `string` (422). A
 * bare value counts only in capitals ("must be positive or zero" lists
 * none); one the schema's `pattern` or lengths refuse is not one. Only for
 * a value that is made anyway: unlike a sample, such words do not make an
 * optional property sent.
 *
 * @example
 * ```ts
 * import { listedValue } from "./prose_sample.ts";
 * if (listedValue({ type: "string", description: "Must be REPLACE or DELETE." }) !== "REPLACE") throw new Error();
 * if (listedValue({ type: "string", description: "Type, one of “all”, “zone”" }) !== "all") throw new Error();
 * if (listedValue({ type: "string", description: "Must be positive or zero" }) !== undefined) throw new Error();
 * if (listedValue({ type: "string", description: "Must be ACTIVE." }) !== undefined) throw new Error();
 * if (listedValue({ type: "string", description: "item or kategori" }) !== "item") throw new Error();
 * if (listedValue({ type: "string", description: "Name of the item or category" })) throw new Error();
 * ```
 */
export function listedValue(s: Node): string | undefined {
  if (typeof s.description !== "string" || Object.hasOwn(s, "example")) return undefined;
  for (const lead of s.description.matchAll(LISTED_AFTER)) {
    const m = LISTED.exec(s.description.slice(lead.index + lead[0].length));
    const value = m ? m.slice(1).find((v) => v !== undefined) : undefined;
    if (value !== undefined && fits(s, value)) return value;
  }
  // A description that is the values and nothing else ("item or kategori"): bare words count.
  const only = ONLY_VALUES.exec(s.description.trim())?.[1];
  return only !== undefined && fits(s, only) ? only : undefined;
}

/** Whether `sample` is within a string schema's lengths and matches its pattern. */
function fits(s: Node, sample: string): boolean {
  if (typeof s.maxLength === "number" && sample.length > s.maxLength) return false;
  if (typeof s.minLength === "number" && sample.length < s.minLength) return false;
  if (typeof s.pattern !== "string") return true;
  const re = patternRegExp(s.pattern);
  return !(re && tameTest(re, s.pattern, sample) === false);
}

/**
 * Whether the document shows a value for a property: its `example`, an
 * `examples` list, or a sample in its description.
 *
 * @example
 * ```ts
 * import { showsValue } from "./prose_sample.ts";
 * if (!showsValue({ type: "string", example: "rex" })) throw new Error();
 * if (!showsValue({ type: "string", description: "e.g. “www.example.org.”" })) throw new Error();
 * if (showsValue({ type: "string" })) throw new Error();
 * ```
 */
export function showsValue(p: unknown): boolean {
  if (!isNode(p)) return false;
  if (Object.hasOwn(p, "example")) return true;
  if (Array.isArray(p.examples) && p.examples.length > 0) return true;
  return (p.type === "string" || p.type === undefined) && proseSample(p) !== undefined;
}
