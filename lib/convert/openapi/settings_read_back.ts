/**
 * An update of a settings resource, a PUT or PATCH of a path with no
 * parameter beside a GET of the same path (one resource, read and written
 * whole), sends what that GET answered where the document gives no value:
 *
 * - documenting no body at all, the whole answer. Homebridge UI's
 *   `PUT /api/server/port` takes `{port}` (a NestJS `@Body() body` typed
 *   `Object`, which `@nestjs/swagger` leaves out of the document) and
 *   answered 500 to nothing; its `GET /api/server/port` answers `{port}`.
 * - of a JSON object body, each required text member the document states
 *   no value for (no enum, const, example, default, format or pattern),
 *   the read's member of that name, when the read's answer is undescribed
 *   or describes it: a value the server holds is one it takes, a made-up
 *   word is none (its `PUT /api/server/mdns-advertiser` `{advertiser:
 *   string}` takes only `avahi`, `resolved`, `ciao` or `bonjour-hap`,
 *   which the document does not list: 400 for `advertiser-<random>`).
 *
 * A read whose every documented answer is a text, number or boolean (Sails'
 * `GET /account/logout`, `oneOf` two messages, beside a `PUT` and a `PATCH`
 * of the same action) holds no settings: its path's writes are sent as
 * documented, not skipped when the read's answer is no JSON to capture.
 * An item (a path with a parameter) or a collection (a path with items
 * under it, or whose read takes a query) keeps its made-up values: its
 * update is the run's own change; so does a member the document gives a
 * value for anywhere (its body's example). A read documenting no content (only 204 or
 * 205) gives nothing to send back, nor does a read that failed (its answer
 * is an error). Such a write runs after the read in its flow, and runs only
 * when the read succeeded and answered what it sends.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { type YMap, ymap, type YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import { capturePath } from "./capture_source.ts";
import { deref } from "./examples.ts";
import { jsonSchema, propertiesOf, successes } from "./responses.ts";
import { responseSchemas } from "./response_paths.ts";
import { documentPath } from "./fixed_segment.ts";

const UPDATES = new Set(["PUT", "PATCH"]);
/**
 * A capture of the read's answer `path`, taken only when the read succeeded: a read that failed
 * answers its error (`{"message": "no such file"}`), which is no setting to send back, so the
 * write's guard skips it, saying why (Homebridge UI's Docker start-up script: GET 500, and the
 * PUT sent the error).
 */
const answered = (path: string) =>
  ymap([["path", path], ["when", ymap([["path", "$.status"], ["lt", 300]])]]);

/** What states a text's value: the server then takes what the document says. */
const STATED = ["enum", "const", "example", "examples", "default", "format", "pattern"];

/**
 * The GET of a settings update's path (see the module doc), when it answers
 * content: one resource, no collection (no items under the path, no query
 * to page or filter the read by).
 */
function settingsRead(
  doc: unknown,
  op: { method: string; template: string; path?: string },
): Node | undefined {
  const paths = isNode(doc) ? doc.paths : undefined;
  if (!UPDATES.has(op.method) || op.template.includes("{") || !isNode(paths)) return undefined;
  const base = documentPath(op).replace(/\/$/, "");
  if (Object.keys(paths).some((p) => p.startsWith(`${base}/{`))) return undefined;
  const item = paths[documentPath(op)];
  const get = isNode(item) && isNode(item.get) ? item.get : undefined;
  const params = [get?.parameters, isNode(item) ? item.parameters : undefined]
    .flatMap((list) => Array.isArray(list) ? list : []);
  if (!get || params.some((p) => inOf(doc, p) === "query")) return undefined;
  const { statuses } = successes(undefined, get);
  if (statuses.length > 0 && statuses.every((s) => s === 204 || s === 205)) return undefined;
  return answersScalar(doc, get) ? undefined : get;
}

const SCALARS = new Set(["string", "number", "integer", "boolean"]);

/**
 * Whether every answer the read documents is a text, number or boolean (each branch of a
 * `oneOf`/`anyOf` too): a message (Sails' `GET /account/logout`, "successfully logged
 * out"), no resource a write sends back. An undescribed answer may be one.
 */
function answersScalar(doc: unknown, get: Node): boolean {
  const schemas = successes(doc, get).responses.map((r) => jsonSchema(doc, r))
    .filter((s) => s !== undefined);
  const scalar = (s: unknown): boolean => {
    const node = deref(doc, s);
    if (!isNode(node)) return false;
    const branches = [node.oneOf, node.anyOf].find(Array.isArray);
    if (branches) return branches.length > 0 && branches.every(scalar);
    return typeof node.type === "string" && SCALARS.has(node.type);
  };
  return schemas.length > 0 && schemas.every(scalar);
}

/** Whether a body value is one the run made up (`name-${RANDOM.HEX_8}`, a type's name): no stated one. */
function madeUp(value: YNode): boolean {
  return value === "string" ||
    (typeof value === "string" && /^[^$]*\$\{RANDOM\.HEX_8\}$/.test(value));
}

/**
 * Whether `op` is a settings update (see the module doc) the document
 * gives no body, no query, header or form parameter: it sends back its
 * path's read whole.
 *
 * @example
 * ```ts
 * import { readsBackWhole } from "./settings_read_back.ts";
 * const doc = { paths: { "/port": { get: {}, put: {} }, "/pets/{id}": { get: {}, put: {} } } };
 * if (!readsBackWhole({ method: "PUT", template: "/port", node: {} }, doc)) throw new Error();
 * if (readsBackWhole({ method: "PUT", template: "/pets/{id}", node: {} }, doc)) throw new Error();
 * ```
 */
export function readsBackWhole(
  op: { method: string; template: string; path?: string; node: Node },
  doc: unknown,
): boolean {
  if (op.node.requestBody !== undefined || !settingsRead(doc, op)) return false;
  const params = Array.isArray(op.node.parameters) ? op.node.parameters : [];
  return !params.some((p) => inOf(doc, p) !== "path");
}

/**
 * Fills a settings update's body from its path's read, a step of the flow
 * before it: the whole answer when the document gives no body, else each
 * required text member it states no value for (see the module doc).
 *
 * @example
 * ```ts
 * import { fillSettingsReadBack } from "./settings_read_back.ts";
 * import { ymap } from "../yaml_out.ts";
 * const put = { method: "PUT", template: "/mdns", node: { requestBody: { content: { "application/json": {
 *   schema: { type: "object", required: ["advertiser"], properties: { advertiser: { type: "string" } } } } } } } };
 * const get = { method: "GET", template: "/mdns", node: {} };
 * const doc = { paths: { "/mdns": { get: get.node, put: put.node } } };
 * const fill = { op: put, body: { fields: [["body", ymap([["advertiser", "advertiser-${RANDOM.HEX_8}"]])]] }, guards: [],
 *   stepOf: new Map([[get, "read_mdns"]]), capture: (s: string, k: string) => `\${steps.${s}.capture.${k}}` };
 * fillSettingsReadBack({ doc }, fill as never);
 * if (JSON.stringify(fill.body.fields[0][1]).indexOf("${steps.read_mdns.capture.advertiser}") < 0) throw new Error();
 * ```
 */
export function fillSettingsReadBack(shared: { doc: unknown }, fill: BodyFill): void {
  const { op, body, stepOf } = fill;
  const doc = shared.doc;
  const get = settingsRead(doc, op);
  const read = get && [...stepOf].find(([o]) => o.method === "GET" && o.template === op.template);
  if (!read) return;
  if (readsBackWhole(op, doc)) {
    if (body.fields.some(([key]) => key === "body")) return;
    const value = fill.capture(read[1], "current", answered("$.json"));
    fill.guards.push(value);
    body.fields.push(["body", value]);
    return;
  }
  const sent = body.fields.find(([key]) => key === "body")?.[1];
  if (!isYMap(sent)) return;
  const schema = jsonBodySchema(doc, op.node);
  const answers = read[0].node ? responseSchemas(doc, read[0]) : [];
  for (const member of unstated(doc, schema)) {
    const entry = sent.entries.find(([key]) => key === member);
    if (!entry || !madeUp(entry[1])) continue;
    const described = answers.some((s) => propertiesOf(doc, s).has(member));
    if (answers.length > 0 && !described) continue;
    const value = fill.capture(read[1], member, answered(capturePath([member])));
    fill.guards.push(value);
    entry[1] = value;
  }
}

/** Where a parameter (or its `$ref`) goes: `query`, `path`, … */
function inOf(doc: unknown, param: unknown): unknown {
  const p = deref(doc, param);
  return isNode(p) ? p.in : undefined;
}

/** The JSON body schema of an operation, its `$ref`s read. */
function jsonBodySchema(doc: unknown, node: Node): Node | undefined {
  const body = deref(doc, node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /json/i.test(t));
  const media = type === undefined ? undefined : content[type];
  const schema = isNode(media) ? deref(doc, media.schema) : undefined;
  return isNode(schema) ? schema : undefined;
}

/** The required text members of an object schema whose value it does not state. */
function unstated(doc: unknown, schema: Node | undefined): string[] {
  if (!schema || !isNode(schema.properties) || !Array.isArray(schema.required)) return [];
  const props = schema.properties;
  return schema.required.filter((name): name is string => {
    const member = typeof name === "string" ? deref(doc, props[name]) : undefined;
    return isNode(member) && member.type === "string" && !STATED.some((k) => k in member);
  });
}

/** Whether a body node is a map (its members are filled in place). */
function isYMap(node: YNode | undefined): node is YMap {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}
