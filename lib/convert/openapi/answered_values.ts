/**
 * A value an earlier step answered that a later request sends back under
 * the same name. The `refresh_token` a login answers
 * (`data.refresh_token`), which a refresh or a logout takes as a body
 * property of that name: the document's sample names no session of the
 * server's; the login's answer does. Where a step in between sends it and
 * answers one of the same name (a refresh rotates the token, the old one
 * then refused), the steps after it send the newer one. Only the login's
 * answer is read so: another create's answer under a body property's name
 * (a user's `email`) is a thing of its own, not one to send back. And the
 * one text a sibling call under a noun's path answers, taken as that
 * noun (a hash: sibling_answer.ts). A member named `token` the login's
 * answer does not hold by that name is sent its token (token_named.ts).
 * A member the answer's schema marks `writeOnly` is not one it holds.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import { capturePath } from "./capture_source.ts";
import { deref } from "./examples.ts";
import { echoesRequest } from "./echoed_answer.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";
import { findProperty, MAX_PROPERTY_DEPTH, properties } from "./schema_properties.ts";
import { siblingHolder } from "./sibling_answer.ts";
import { type NamedLogin, undescribedRefresh } from "./refresh_named.ts";
import { namedToken } from "./token_named.ts";

/**
 * Where an operation's 2xx JSON answer holds a value named `key` (a
 * wrapper deep). A member that holds others is no value to send back: a
 * login's `data` envelope is its tokens, not a body's text `data`
 * (Directus's `POST /files` was sent them).
 */
function answered(doc: unknown, op: OpenApiOperation, key: string): string[] | undefined {
  // An answer described only by what its request sends (echoed_answer.ts) shows no value of the
  // server's: drf-spectacular's `{email}` for a simplejwt login, which answers no `email`.
  if (echoesRequest(doc, op)) return undefined;
  // A write-only member is never in an answer: drf-spectacular gives simplejwt's one
  // `TokenObtainPair` both ways, its `username` and `password` write-only (a create taking
  // either was sent the login's, which the sign-in's captures never found).
  const value = (name: string, p: Node) =>
    name === key && p.writeOnly !== true && !holdsMembers(doc, p);
  for (const response of successes(doc, op.node).responses) {
    const path = findProperty(doc, jsonSchema(doc, response), value, MAX_PROPERTY_DEPTH);
    if (path) return path;
  }
  return undefined;
}

/** Whether a schema is an object or a list (its members, not one value). */
function holdsMembers(doc: unknown, p: Node): boolean {
  return p.type === "object" || p.type === "array" || isNode(p.items) ||
    properties(doc, p).length > 0;
}

/**
 * Fills the top-level body properties of `op` that the login's answer
 * holds under the same name with a capture of it, from the latest step
 * of `stepOf` (the flow's steps so far, in order, each operation's step
 * name) that is the login or sent the value back itself and answers it
 * anew; else, a property named for the noun `op` sits under, with the
 * one text a sibling step answered (`siblingHolder`). Each capture is
 * added to `guards` (the step runs only when it exists). `capture` names
 * a step's capture of a JSONPath.
 *
 * @example
 * ```ts
 * import { fillAnswered } from "./answered_values.ts";
 * import { operationsOf } from "./operations.ts";
 * import { ymap, type YNode } from "../yaml_out.ts";
 * const answer = { "200": { content: { "application/json": { schema: {
 *   properties: { data: { properties: { refresh_token: { type: "string" } } } } } } } } };
 * const doc = { paths: { "/login": { post: { responses: answer } }, "/refresh": { post: { responses: answer } } } };
 * const [login, refresh] = operationsOf(doc);
 * const body = { fields: [["body", ymap([["refresh_token", "eyJ..."]])]] as [string, YNode][] };
 * const guards: string[] = [];
 * fillAnswered({ doc, inferred: { login: { op: login } } }, { op: refresh, body, guards,
 *   stepOf: new Map([[login, "sign_in"]]),
 *   capture: (step, key, path) => `\${steps.${step}.capture.${key}} from ${path}` });
 * if (guards[0] !== "${steps.sign_in.capture.refresh_token} from $.json.data.refresh_token") {
 *   throw new Error(JSON.stringify(guards));
 * }
 * ```
 */
export function fillAnswered(
  shared: { doc: unknown; inferred: { login?: NamedLogin & { op: OpenApiOperation } } },
  fill: BodyFill,
): void {
  const { op, body, guards, stepOf, capture } = fill;
  const { doc } = shared;
  const login = shared.inferred.login?.op;
  const fromLogin = login !== undefined && op !== login && stepOf.has(login);
  const steps = [...stepOf.keys()];
  body.fields = body.fields.map(([field, value]): [string, YNode] => {
    if (field !== "body" || !isYMap(value)) return [field, value];
    const entries = value.entries.map(([key, sent]): [string, YNode] => {
      const holder = (fromLogin ? latestHolder(doc, login, steps, key) : undefined) ??
        siblingHolder(doc, op, steps, key);
      const named = fromLogin && !holder
        ? undescribedRefresh(shared.inferred.login!, key) ?? namedToken(shared.inferred.login!, key)
        : undefined;
      if (typeof sent === "object" && sent !== null || !holder && !named) return [key, sent];
      const got = holder
        ? capture(stepOf.get(holder.op)!, key, capturePath(holder.path))
        : capture(stepOf.get(login!)!, key, named!);
      guards.push(got);
      return [key, got];
    });
    return [field, { ...value, entries }];
  });
}

/**
 * The last of `steps`, from the login on, whose answer holds `key`: the
 * login, or a step after it whose own body takes `key` too (it sent the
 * login's value back and answers a newer one).
 */
function latestHolder(
  doc: unknown,
  login: OpenApiOperation,
  steps: OpenApiOperation[],
  key: string,
): { op: OpenApiOperation; path: string[] } | undefined {
  const first = answered(doc, login, key);
  if (first === undefined) return undefined;
  let found = { op: login, path: first };
  for (const step of steps.slice(steps.indexOf(login) + 1)) {
    const path = answered(doc, step, key);
    if (path && takes(doc, step, key)) found = { op: step, path };
  }
  return found;
}

/** Whether an operation's JSON request body has a top-level property `key`. */
function takes(doc: unknown, op: OpenApiOperation, key: string): boolean {
  const body = deref(doc, op.node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  return Object.entries(content).some(([type, media]) =>
    /json/i.test(type) && isNode(media) &&
    findProperty(doc, media.schema, (n) => n === key, 1) !== undefined
  );
}

function isYMap(node: YNode): node is Extract<YNode, { kind: "map" }> {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}
