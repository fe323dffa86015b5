/**
 * A text its description calls a domain name ("The domain name to flush
 * from the cache", "the host name"), with no value of the document's: the
 * document's own sample of a domain name, in the form the document writes
 * one, else `example.com`. PowerDNS's cache flush sent `domain=string` (422
 * "DNS Name 'string' is not canonical"); its zone `name` quotes
 * `e.g. “example.com.”` with the trailing dot the server wants. The value is
 * a form, not a name that exists: made the run's own like a description's
 * sample (`ExampleMaker.samples`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { proseSample } from "./prose_sample.ts";

/** Words that say a text is a domain name. */
const DOMAIN_WORDS = /\b(?:domain|host)[ -]?names?\b|\bFQDN\b/i;

/** A dotted DNS name, with or without the root's trailing dot. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\.?$/i;

/** Nodes read at most when a document is searched for a sample (a large one stops there). */
const MAX_NODES = 200_000;

/** The value when nothing in the document shows a domain name. */
const FALLBACK = "example.com";

/**
 * The domain name to send for a text parameter (or its schema) the
 * description calls one (see the module); none for any other, or one with
 * a format, pattern or enum of its own.
 *
 * @example
 * ```ts
 * import { domainValue } from "./domain_names.ts";
 * const doc = { definitions: { Zone: { properties: { name: { type: "string",
 *   description: "Name of the zone (e.g. “example.com.”)" } } } } };
 * const p = { name: "domain", in: "query", description: "The domain name to flush" };
 * if (domainValue(doc, p, { type: "string" }) !== "example.com.") throw new Error();
 * if (domainValue({}, p, { type: "string" }) !== "example.com") throw new Error();
 * if (domainValue(doc, { name: "q", description: "Text" }, { type: "string" }) !== undefined) throw new Error();
 * ```
 */
export function domainValue(doc: unknown, p: Node, schema: unknown): string | undefined {
  const s = isNode(schema) ? schema : {};
  if (s.type !== undefined && s.type !== "string") return undefined;
  if (s.format !== undefined || s.pattern !== undefined || Array.isArray(s.enum)) return undefined;
  const said = [p.description, s.description].some((d) =>
    typeof d === "string" && DOMAIN_WORDS.test(d)
  );
  return said ? documentSample(doc) ?? FALLBACK : undefined;
}

/** Each document's first sample of a domain name, read once (null: none). */
const sampleOf = new WeakMap<Node, string | null>();

/** The first description's sample (`prose_sample.ts`) in the document that is a domain name. */
function documentSample(doc: unknown): string | undefined {
  if (!isNode(doc)) return undefined;
  const known = sampleOf.get(doc);
  if (known !== undefined) return known ?? undefined;
  let found: string | null = null;
  const queue: unknown[] = [doc];
  for (let read = 0; read < queue.length && read < MAX_NODES && found === null; read++) {
    const node = queue[read];
    if (Array.isArray(node)) queue.push(...node);
    if (!isNode(node)) continue;
    const sample = node.type === "string" ? proseSample(node) : undefined;
    if (sample !== undefined && DOMAIN.test(sample)) found = sample;
    for (const value of Object.values(node)) if (typeof value === "object") queue.push(value);
  }
  sampleOf.set(doc, found);
  return found ?? undefined;
}
