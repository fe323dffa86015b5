/**
 * A call that undoes another sends what that call sent. etcd's
 * `role/revoke {role, key, range_end}` sent the role but no key: its `key`
 * has no description and proto3 requires nothing, so it revoked nothing
 * the earlier `role/grant {name, perm: {key, range_end}}` had granted (412
 * "permission is not granted to the role"). What is undone is named by
 * the values the doing call sent; the document says which call that is by
 * the pair of names alone: one path whose last segment, or function name,
 * is the other's with the inverse verb (`grant`/`revoke`, `add`/`remove`,
 * `attach`/`detach`, `X`/`unX`, `X`/`deX`: `subscribeFeed`/`unsubscribeFeed`,
 * `/role/grant`/`/role/revoke`), and the same property name, at any depth of
 * the body the doing step sent (`perm.key` for `key`).
 *
 * Only a property the undoing step does not send yet is given a value, and
 * only one the document leaves open (no `enum`, `const` or `default`); a
 * value made anew each time it is read (`${RANDOM…}`) is no value to copy,
 * and a name found at two places with two values says nothing.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { YMap, YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import type { OpenApiOperation } from "./operations.ts";
import { bodySchema } from "./own_names.ts";
import { properties } from "./schema_properties.ts";

// A verb and the one it undoes; `unX` and `deX` undo `X` (checked against the document's paths).
const UNDOES: Record<string, string> = {
  revoke: "grant",
  remove: "add",
  detach: "attach",
  disconnect: "connect",
  leave: "join",
};

/** The bodies each flow's steps sent, by operation: filled as the flow's steps are made. */
const sentOf = new WeakMap<object, Map<OpenApiOperation, BodyFill["body"]>>();

/**
 * The body an earlier step of the flow whose steps are `stepOf` sent for `op`, as
 * {@linkcode fillUndone} kept it (matched_write.ts reads a create's).
 *
 * @example
 * ```ts
 * import { sentBody } from "./undo_values.ts";
 * if (sentBody(new Map(), { method: "POST", template: "/tags" } as never) !== undefined) throw new Error();
 * ```
 */
export function sentBody(
  stepOf: ReadonlyMap<OpenApiOperation, string>,
  op: OpenApiOperation,
): YNode | undefined {
  return sentOf.get(stepOf)?.get(op)?.fields.find(([k]) => k === "body")?.[1];
}

/**
 * The last segment of the call `template` undoes, each spelling its verb allows (`/role/revoke` →
 * `grant`; `unsubscribeFeed` → `subscribeFeed`); none when its first word is no undoing verb.
 *
 * @example
 * ```ts
 * import { undoneSegments } from "./undo_values.ts";
 * if (undoneSegments("/v3/auth/role/revoke").join() !== "grant") throw new Error();
 * if (!undoneSegments("/api/unsubscribeFeed").includes("subscribeFeed")) throw new Error();
 * if (!undoneSegments("/x/remove_member").includes("add_member")) throw new Error();
 * if (undoneSegments("/v3/auth/role/get").length !== 0) throw new Error();
 * ```
 */
export function undoneSegments(template: string): string[] {
  const last = template.split("/").filter((s) => s !== "").at(-1) ?? "";
  const verb = /^[a-z]+/.exec(last)?.[0] ?? "";
  const rest = last.slice(verb.length);
  const out: string[] = [];
  if (UNDOES[verb]) out.push(UNDOES[verb] + rest);
  for (const prefix of ["un", "de"]) {
    if (verb.startsWith(prefix) && verb.length > prefix.length + 2) {
      out.push(last.slice(prefix.length));
    }
  }
  return out;
}

function isYMap(node: YNode | undefined): node is YMap {
  return isNode(node) && (node as { kind?: unknown }).kind === "map";
}

/** Every scalar a sent body holds under `key`, at any depth (a few levels: bodies are small). */
function valuesAt(node: YNode, key: string, depth = 0, out: YNode[] = []): YNode[] {
  if (depth > 4) return out;
  if (Array.isArray(node)) { for (const item of node) valuesAt(item, key, depth + 1, out); }
  if (!isYMap(node)) return out;
  for (const [k, v] of node.entries) {
    if (k === key && (typeof v === "string" || typeof v === "number" || typeof v === "boolean")) {
      out.push(v);
    } else valuesAt(v, key, depth + 1, out);
  }
  return out;
}

/**
 * Fills the body of a step that undoes an earlier step of its flow with what that step sent (see
 * the module doc); and keeps this step's body, for a later step undoing it.
 *
 * @example
 * ```ts
 * import { fillUndone } from "./undo_values.ts";
 * const schema = (properties: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { properties } } } } });
 * const grant = { method: "POST", template: "/role/grant", node: schema({ perm: {} }) };
 * const revoke = { method: "POST", template: "/role/revoke", node: schema({ key: {} }) };
 * const stepOf = new Map([[grant, "grant"]]);
 * const perm = { kind: "map", entries: [["key", "a2V5"]] };
 * const sent = { fields: [["body", { kind: "map", entries: [["perm", perm]] }]] };
 * fillUndone({ doc: {} }, { op: grant, body: sent, guards: [], stepOf, capture: () => "" } as never);
 * const body = { fields: [["body", { kind: "map", entries: [] }]] };
 * fillUndone({ doc: {} }, { op: revoke, body, guards: [], stepOf, capture: () => "" } as never);
 * if (JSON.stringify(body.fields[0][1]) !== '{"kind":"map","entries":[["key","a2V5"]]}') throw new Error();
 * ```
 */
export function fillUndone(shared: { doc: unknown }, fill: BodyFill): void {
  const { op, body, stepOf } = fill;
  const sent = sentOf.get(stepOf) ?? new Map<OpenApiOperation, BodyFill["body"]>();
  sentOf.set(stepOf, sent);
  sent.set(op, body);
  const undone = undoneSegments(op.template);
  if (undone.length === 0) return;
  const parent = op.template.slice(0, op.template.lastIndexOf("/") + 1);
  const doer = [...stepOf.keys()].find((o) =>
    o !== op && o.method === op.method && undone.some((s) => o.template === parent + s)
  );
  const done = doer && sent.get(doer)?.fields.find(([k]) => k === "body")?.[1];
  const at = body.fields.findIndex(([k, v]) => k === "body" && isYMap(v));
  if (done === undefined || at < 0) return;
  const own = body.fields[at][1] as YMap;
  const entries = [...own.entries];
  for (const [name, p] of properties(shared.doc, bodySchema(shared.doc, op))) {
    if (entries.some(([k]) => k === name) || "enum" in p || "const" in p || "default" in p) {
      continue;
    }
    const values = new Set(valuesAt(done, name));
    const [value] = values;
    if (values.size !== 1 || (typeof value === "string" && value.includes("${RANDOM"))) continue;
    entries.push([name, value]);
  }
  if (entries.length !== own.entries.length) body.fields[at] = ["body", { ...own, entries }];
}
