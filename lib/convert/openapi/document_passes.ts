/**
 * The rewrites a document goes through before its operations are read, in
 * order: members given as plain values where schemas belong read as their
 * type (`valued_members.ts`), hapi-swagger's own keys as the JSON Schema keywords they mean
 * (`joi_rules.ts`), members a schema's own example shows otherwise than
 * declared read by the example's shape (`exampled_shape.ts`), a create
 * under an item documented with its parent's body given its collection's
 * (`parent_body.ts`), requirements read from
 * words (`read_security.ts`), and deletes of many that select by a body
 * (`many_delete.ts`). One place, so every later stage reads the same
 * document.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { withJoiRules } from "./joi_rules.ts";
import { withValuedMembers } from "./valued_members.ts";
import { withExampledShapes } from "./exampled_shape.ts";
import { withParentBodies } from "./parent_body.ts";
import { readSecurity } from "./read_security.ts";
import { selectedDeletes } from "./many_delete.ts";

/**
 * The document as the converter reads it, and the deletes of many whose selection it reads
 * (`selectedDeletes`'s `read`).
 *
 * @example
 * ```ts
 * import { passedDocument } from "./document_passes.ts";
 * const doc = { openapi: "3.0.3", info: { title: "x" }, paths: { "/a": { get: { responses: {} } } } };
 * const { document, read } = passedDocument(doc);
 * if (!("/a" in (document.paths as object)) || read.length !== 0) throw new Error();
 * ```
 */
export function passedDocument(doc: Node): { document: Node; read: string[] } {
  return selectedDeletes(
    readSecurity(withParentBodies(withExampledShapes(withJoiRules(withValuedMembers(doc))))),
  );
}
