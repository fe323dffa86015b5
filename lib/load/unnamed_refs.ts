/**
 * A local `$ref` whose pointer ends in an empty name
 * (`#/components/schemas/`) names no part of the document: it is what a
 * generator writes for a type it could not name (`@nestjs/swagger` for a
 * body typed `string[]` or a plain object, nine of them in Homebridge UI's
 * document). What it says is "a schema", not which one, so it is read as
 * a schema that says nothing (any value) rather than refusing the whole
 * document; a `$ref` to a missing part that has a name is a mistake the
 * user can fix: `convert openapi` leaves out each operation that reaches
 * one, naming it, and refuses a document whose every operation does. Read so both where `convert
 * openapi` reads the document and where an `openapi:` check compiles it.
 *
 * @module
 */
type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the local pointer (`/components/schemas/`) names a member of `root`. */
function names(root: unknown, pointer: string): boolean {
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isNode(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
  }
  return true;
}

/**
 * Removes from `document` (in place) each local `$ref` whose last name is
 * empty and that points to nothing, leaving its siblings: a `$ref` alone
 * becomes `{}`, any value.
 *
 * @example
 * ```ts
 * import { dropUnnamedRefs } from "./unnamed_refs.ts";
 * const doc = { paths: { "/a": { put: { requestBody: { content: { "application/json": {
 *   schema: { type: "array", items: { $ref: "#/components/schemas/" } } } } } } } } };
 * dropUnnamedRefs(doc);
 * const schema = doc.paths["/a"].put.requestBody.content["application/json"].schema;
 * if (JSON.stringify(schema) !== '{"type":"array","items":{}}') throw new Error();
 * ```
 */
export function dropUnnamedRefs(document: unknown): void {
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isNode(node)) {
      const ref = node.$ref;
      if (typeof ref === "string" && /^#\/.*\/$/.test(ref)) {
        if (!names(document, ref.slice(1))) delete node.$ref;
      }
      stack.push(...Object.values(node));
    }
  }
}
