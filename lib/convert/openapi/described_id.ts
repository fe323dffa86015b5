/**
 * Whether a create's answer describes a property as what uniquely
 * identifies the item it made: Twilio's `sid`, "the unique string that we
 * created to identify the Workspace resource", which
 * `/v1/Workspaces/{WorkspaceSid}/…` takes (`WorkspaceSid` is the
 * workspace's `sid`). Read from the description, not from the property's
 * name (evidence over names: `account_sid` is named as an id too, but is
 * "the SID of the Account that created" it).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { properties } from "./schema_properties.ts";
import { plainName, requestRequires, requiredAtTop } from "./required_props.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";

/**
 * Whether the property of plain name `name` of a create's answer is the
 * item's handle: every success answer requires it, the request requires it
 * (the client names the item), or the answer describes it as uniquely
 * identifying the item ({@linkcode describedAsId}).
 *
 * @example
 * ```ts
 * import { handleEvidence } from "./described_id.ts";
 * import { operationsOf } from "./operations.ts";
 * const answer = { required: ["name"], properties: { name: { type: "string" } } };
 * const created = { "201": { content: { "application/json": { schema: answer } } } };
 * const [create] = operationsOf({ paths: { "/features": { post: { responses: created } } } });
 * if (!handleEvidence({}, create, "name") || handleEvidence({}, create, "sid")) throw new Error();
 * ```
 */
export function handleEvidence(doc: unknown, producer: OpenApiOperation, name: string): boolean {
  const answers = successes(doc, producer.node).responses.map((r) => jsonSchema(doc, r))
    .filter((s) => s !== undefined);
  return requiredAtTop(doc, answers, name) || requestRequires(doc, producer, name) ||
    describedAsId(doc, answers, name);
}

/**
 * Whether one of `schemas` (a create's success answers) has a top-level
 * property of plain name `name`, a text or an integer, described as
 * uniquely identifying the item.
 *
 * @example
 * ```ts
 * import { describedAsId } from "./described_id.ts";
 * const workspace = { properties: {
 *   account_sid: { type: "string", description: "The SID of the Account that created it." },
 *   sid: { type: "string", description: "The unique string that we created to identify the Workspace." },
 * } };
 * if (!describedAsId({}, [workspace], "sid")) throw new Error();
 * if (describedAsId({}, [workspace], "accountsid")) throw new Error();
 * ```
 */
export function describedAsId(doc: unknown, schemas: unknown[], name: string): boolean {
  return schemas.some((schema) => describedIds(doc, schema).some((key) => plainName(key) === name));
}

/**
 * The top-level properties of `schema`, texts or integers, described as
 * uniquely identifying the item (also in French, `identifiant unique`: a
 * course project's comments), as the schema names them.
 *
 * @example
 * ```ts
 * import { describedIds } from "./described_id.ts";
 * const book = { properties: {
 *   book_id: { type: "integer", description: "The unique identifier of the book" },
 *   author_id: { type: "integer", description: "The author's identifier" },
 * } };
 * if (describedIds({}, book).join() !== "book_id") throw new Error();
 * ```
 */
export function describedIds(doc: unknown, schema: unknown): string[] {
  return properties(doc, schema).filter(([, node]) => {
    const p = deref(doc, node);
    return isNode(p) && [p.type].flat().some((t) => t === "string" || t === "integer") &&
      typeof p.description === "string" && /\bunique/i.test(p.description) &&
      /\bidentif(y|ies|ier|iant)\b/i.test(p.description);
  }).map(([key]) => key);
}
