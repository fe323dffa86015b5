/**
 * A query id of an RPC-shaped document (`rpc_verbs.ts`) that nothing else
 * names, read from an answer holding an id it abbreviates: Etherpad's
 * `getPadID` takes `roID`, a read-only id, which no create answers and no
 * create names; `getReadOnlyID` answers `data.readOnlyID`, and `ro` is the
 * initials of its words before the `ID` (read, only). So `roID` is that
 * answer's capture, the call copied into the flows that read it, as any
 * producer is. Only initials of two words or more: one letter (`pID`)
 * could stand for too much, and an id of the parameter's very name is
 * the producers' own rule (`producers.ts`). A call of the same method is
 * preferred, so GET and POST twins each read their own.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import { nameWords } from "./named_thing.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { jsonSchema, successes } from "./responses.ts";
import { isRpcDocument } from "./rpc_verbs.ts";
import { findProperty } from "./schema_properties.ts";

/** Whether property `name` is an id whose words before `ID` have the initials `letters`. */
function abbreviated(name: string, letters: string): boolean {
  const words = nameWords(name);
  if (words.at(-1) !== "id" || words.length < 3) return false;
  return words.slice(0, -1).map((w) => w[0]).join("") === letters;
}

/** The path of the id `letters` abbreviates in `producer`'s 2xx answers, if one holds it. */
function heldBy(doc: Node, producer: OpenApiOperation, letters: string): string[] | undefined {
  for (const response of successes(doc, producer.node).responses) {
    const schema = jsonSchema(doc, response);
    if (schema === undefined) continue;
    const path = findProperty(doc, schema, (name) => abbreviated(name, letters));
    if (path) return path;
  }
  return undefined;
}

/**
 * For a document's operations, the links of an operation's query ids that
 * `found` has no producer of, read from an answer holding an id they
 * abbreviate (see the module); none in a REST-shaped document.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { abbreviatedIdLinks } from "./abbreviated_ids.ts";
 * const answer = { "200": { content: { "application/json": { schema: { properties: {
 *   data: { properties: { readOnlyID: { type: "string" } } } } } } } } };
 * const doc = { paths: {
 *   "/createPad": { post: {} },
 *   "/getReadOnlyID": { post: { responses: answer } },
 *   "/getPadID": { post: { parameters: [{ name: "roID", in: "query" }] } },
 * } };
 * const ops = operationsOf(doc);
 * const link = abbreviatedIdLinks(doc, ops)(ops[2], [])[0];
 * if (link.producer !== ops[1] || link.path.join(".") !== "data.readOnlyID") throw new Error();
 * ```
 */
export function abbreviatedIdLinks(
  doc: Node,
  ops: OpenApiOperation[],
): (op: OpenApiOperation, found: ParamLink[]) => ParamLink[] {
  if (!isRpcDocument(ops.map((o) => o.template))) return () => [];
  // Each abbreviation's holders, searched once: a document's answers are read once per letters.
  const holders = new Map<string, { producer: OpenApiOperation; path: string[] }[]>();
  const holdersOf = (letters: string) => {
    const known = holders.get(letters);
    if (known) return known;
    const found = ops.flatMap((producer) => {
      const path = heldBy(doc, producer, letters);
      return path ? [{ producer, path }] : [];
    });
    holders.set(letters, found);
    return found;
  };
  return (op, found) =>
    op.params.flatMap((p): ParamLink[] => {
      const param = String(p.name);
      const letters = plainName(param).replace(/id$/, "");
      if (p.in !== "query" || letters.length < 2 || letters === plainName(param)) return [];
      if (found.some((l) => l.param === param)) return [];
      const holding = holdersOf(letters).filter((h) => h.producer.template !== op.template);
      const chosen = holding.find((h) => h.producer.method === op.method) ?? holding[0];
      return chosen ? [{ param, ...chosen, from: "property" }] : [];
    });
}
