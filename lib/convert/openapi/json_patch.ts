/**
 * A JSON Patch body (RFC 6902: a list of `{op, path, value}`) that changes a
 * member the item it is sent to has. A document often shares one patch
 * schema between the PATCHes of several kinds of item, its example naming
 * one kind's member: Unleash's `{op: replace, path: /type, value:
 * kill-switch}` is a feature's, and the PATCH of a strategy sent `/type`,
 * which a strategy does not have (400 "does not allow additional
 * properties"). The item's members are those its PUT's body names, else
 * its read's answer (the same path's). A pointer naming one of them is
 * kept; another becomes a `replace` of the item's first text member that
 * is not read-only, deprecated, a key the path names it by, an identifier,
 * nor a credential (Otoroshi's LDAP module's first is `adminPassword`: a
 * patch would write a literal password), with the value made for that member; an `op` that is no
 * operation changing a member (none given: `string`) becomes `replace`.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { IDENTIFIER } from "./patch_body.ts";
import { secretEvidence } from "./body_secrets.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";

/** The operations a patch keeps: each changes a member without another pointer (`from`). */
const KEPT_OPS = new Set(["add", "replace", "remove"]);
const RFC_OPS = new Set([...KEPT_OPS, "copy", "move", "test"]);

/**
 * Whether a body of media `type` and `schema` is a JSON Patch: the media
 * type says so, or its schema is a list of objects with an `op` offering
 * RFC 6902's operations (an enum or an example) and a `path`.
 *
 * @example
 * ```ts
 * import { isJsonPatch } from "./json_patch.ts";
 * const items = { type: "object", properties: { op: { enum: ["add", "replace"] }, path: {} } };
 * if (!isJsonPatch({}, "application/json", { type: "array", items })) throw new Error();
 * if (!isJsonPatch({}, "application/json-patch+json", {})) throw new Error();
 * if (isJsonPatch({}, "application/json", { type: "array", items: { type: "string" } })) throw new Error();
 * ```
 */
export function isJsonPatch(doc: unknown, type: string, schema: unknown): boolean {
  if (/^application\/json-patch\+json\b/i.test(type)) return true;
  const s = deref(doc, schema);
  if (!isNode(s) || s.type !== "array") return false;
  const members = new Map(properties(doc, s.items));
  const op = members.get("op");
  if (!op || !members.has("path")) return false;
  const offered = [...Array.isArray(op.enum) ? op.enum : [], op.example];
  return offered.some((o) => typeof o === "string" && RFC_OPS.has(o));
}

/**
 * The members of the item at `template`: its PUT's JSON body's, else its GET's answer's.
 *
 * @example
 * ```ts
 * import { itemMembers } from "./json_patch.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const doc = { paths: { "/a/{id}": { get: { responses: { 200: json({ b: { type: "string" } }) } } } } };
 * if (itemMembers(doc, "/a/{id}").map(([n]) => n).join() !== "b") throw new Error();
 * ```
 */
export function itemMembers(doc: unknown, template: string): [string, Node][] {
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  const item = deref(doc, paths[template]);
  if (!isNode(item)) return [];
  const put = isNode(item.put) ? deref(doc, item.put.requestBody) : undefined;
  const putBody = isNode(put) ? jsonSchema(doc, put) : undefined;
  if (putBody !== undefined) return properties(doc, putBody);
  const read = isNode(item.get) ? successes(doc, item.get).responses : [];
  for (const response of read) {
    const members = properties(doc, jsonSchema(doc, response));
    if (members.length > 0) return members;
  }
  return [];
}

/**
 * `value`, a JSON Patch sent to the item of `members` (see the module),
 * each change naming a member the item has; as it is when the item's
 * members are unknown or none is text.
 *
 * @example
 * ```ts
 * import { onItemMembers } from "./json_patch.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const members: [string, Record<string, unknown>][] = [["id", { type: "string" }],
 *   ["title", { type: "string", example: "Beta" }]];
 * const sent = [{ op: "replace", path: "/type", value: "kill-switch" }];
 * const got = onItemMembers(new ExampleMaker({}), members, sent);
 * if (JSON.stringify(got) !== '[{"op":"replace","path":"/title","value":"Beta"}]') {
 *   throw new Error(JSON.stringify(got));
 * }
 * const kept = onItemMembers(new ExampleMaker({}), members, [{ op: "add", path: "/title/0" }]);
 * if (JSON.stringify(kept) !== '[{"op":"add","path":"/title/0"}]') throw new Error();
 * ```
 */
export function onItemMembers(
  maker: ExampleMaker,
  members: [string, Node][],
  value: unknown,
  keys: ReadonlySet<string> = new Set(),
): unknown {
  if (!Array.isArray(value) || members.length === 0) return value;
  const writable = members.filter(([, p]) => p.readOnly !== true);
  const names = new Set(writable.map(([n]) => n));
  // A credential, whatever its example says: the patch would write it literally.
  const secret = (p: Node) => secretEvidence(undefined, { ...p, example: undefined }) !== undefined;
  const texts = writable.filter(([n, p]) =>
    p.type === "string" && p.deprecated !== true && !keys.has(n) && !secret(p)
  );
  const [name, member] = texts.find(([n]) => !IDENTIFIER.test(n)) ?? [];
  return value.map((change) => {
    if (!isNode(change) || typeof change.path !== "string") return change;
    const op = typeof change.op === "string" && KEPT_OPS.has(change.op) ? change.op : "replace";
    const first = decodePointer(change.path.split("/")[1] ?? "");
    if (names.has(first)) return { ...change, op };
    if (name === undefined) return change;
    return {
      op: "replace",
      path: `/${encodePointer(name)}`,
      value: maker.make(member) ?? "string",
    };
  });
}

/**
 * `value` as {@linkcode onItemMembers} sends it when the body (`type`,
 * `schema`) is a JSON Patch ({@linkcode isJsonPatch}), else as it is.
 *
 * @example
 * ```ts
 * import { jsonPatchOnItem } from "./json_patch.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const at = { type: "application/json-patch+json", schema: {}, members: [["title", { type: "string" }]] as [string, Record<string, unknown>][] };
 * const got = jsonPatchOnItem({}, new ExampleMaker({}), at, [{ op: "replace", path: "/type" }]);
 * if (JSON.stringify(got) !== '[{"op":"replace","path":"/title","value":"string"}]') throw new Error(JSON.stringify(got));
 * const plain = { ...at, type: "application/json" };
 * if (jsonPatchOnItem({}, new ExampleMaker({}), plain, 7) !== 7) throw new Error();
 * ```
 */
export function jsonPatchOnItem(
  doc: unknown,
  maker: ExampleMaker,
  at: { type: string; schema: unknown; members: [string, Node][]; keys?: ReadonlySet<string> },
  value: unknown,
): unknown {
  return isJsonPatch(doc, at.type, at.schema)
    ? onItemMembers(maker, at.members, value, at.keys)
    : value;
}

/** A JSON Pointer's reference token read (RFC 6901: `~1` is `/`, `~0` is `~`). */
function decodePointer(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

function encodePointer(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
