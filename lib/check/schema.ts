/**
 * Schema checks: a response body against a JSON Schema (inline or a file)
 * or against an OpenAPI 3 document (the operation found by the request's
 * method and path, the response by its status), every violation listed by
 * its JSON pointer. The validator (ajv) is imported only when a run has
 * such a check, so other runs start as fast as before. It belongs to the
 * load layer: flows are prepared (schemas compiled, problems found) before
 * anything is sent.
 *
 * @module
 */
import { everyStep, type Flow, type SchemaCheck } from "../model/flow.ts";
import { show } from "./json_value.ts";
import {
  type GuardedTask,
  GuardError,
  MATCH_TIME_LIMIT_MS,
  prepareGuard,
  runGuarded,
} from "../_util/regex.ts";
import type { AssertionResult } from "../model/result.ts";

import type { Validate } from "../model/flow.ts";

type AjvLike = {
  compile(schema: unknown): unknown;
  addSchema(schema: unknown, key: string): unknown;
};

const MAX_LISTED = 10;

/**
 * Deepest nesting a schema check reads, in a JSON body and in a schema
 * itself: 1,000 levels. The validator recurses once or more per level, so a
 * body nested 10,000 deep against a recursive schema (a tree) exhausted the
 * stack.
 *
 * @example
 * ```ts
 * import { MAX_SCHEMA_DEPTH } from "./schema.ts";
 * if (MAX_SCHEMA_DEPTH !== 1000) throw new Error();
 * ```
 */
export const MAX_SCHEMA_DEPTH = 1000;

const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false };

/**
 * How long compiling one schema (or an OpenAPI document's response schema)
 * may take, on the helper thread: 2 s. The validator's compile time grows
 * with the schema (14 s for one of 100,000 subschemas), and on the calling
 * thread it ignored SIGINT for as long.
 *
 * @example
 * ```ts
 * import { SCHEMA_COMPILE_LIMIT_MS } from "./schema.ts";
 * if (SCHEMA_COMPILE_LIMIT_MS !== 2000) throw new Error();
 * ```
 */
export const SCHEMA_COMPILE_LIMIT_MS = 2000;

let task: GuardedTask | undefined;

/**
 * Compiles every schema check of the flows (importing the validator only
 * when there is one); returns the problem of each schema that cannot be
 * compiled, nests too deeply, or refers to itself without descending into
 * the value, with its position. Compiling runs on the helper thread, at
 * most {@linkcode SCHEMA_COMPILE_LIMIT_MS} per schema, and stops once
 * `signal` is aborted. The checks then validate on the helper
 * thread of lib/_util/regex.ts, under its time limit: a `pattern` (or
 * `patternProperties`, `propertyNames`) that backtracks, or any other costly
 * work a body can cause, is stopped there.
 *
 * @example
 * ```ts
 * import { prepareSchemas } from "./schema.ts";
 * if ((await prepareSchemas([])).length !== 0) throw new Error();
 * ```
 */
export async function prepareSchemas(
  flows: readonly Flow[],
  signal?: AbortSignal,
): Promise<{ check: SchemaCheck; message: string }[]> {
  const checks = [...everyStep(flows)]
    .flatMap(({ checks }) => checks.flatMap((c) => c.schemas ?? []))
    .filter((c) => c.kind === "schema" ? !c.validate : !c.ajv);
  if (checks.length === 0) return [];
  // Imported here too, so the module is at hand (and in a compiled binary) for the helper thread.
  await Promise.all([import("ajv/dist/2020.js"), prepareGuard()]);
  task ??= {
    name: "schema",
    source: SCHEMA_SOURCE,
    imports: { ajv: import.meta.resolve("ajv/dist/2020.js") },
  };
  const problems: { check: SchemaCheck; message: string }[] = [];
  for (const check of checks) {
    // A signal is seen between two compiles (each blocks this thread up to its limit), and
    // ends the loading: the run it interrupts sends nothing.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal?.aborted) break;
    const document = check.kind === "schema" ? check.schema : check.document;
    const problem = schemaProblem(document, check.kind);
    if (problem) {
      problems.push({ check, message: problem });
      continue;
    }
    // Compiled (an OpenAPI document: added) on the helper thread for its problems, before
    // anything is sent, under the limit; the thread keeps it for the checks.
    let key = keys.get(check);
    if (key === undefined) keys.set(check, key = `s${nextKey++}`);
    const failed = compileGuarded(
      check.kind === "schema"
        ? { key, kind: "schema", schema: check.schema }
        : { key, kind: "openapi", document: check.document },
    );
    if (failed) {
      problems.push({ check, message: failed.message });
      continue;
    }
    if (check.kind === "schema") check.validate = guardedValidator(check, undefined);
    else check.ajv = { prepared: true };
  }
  return problems;
}

/**
 * The validator task, run on the helper thread: each schema (or OpenAPI
 * document) compiled once, when a check first needs it (`load`), then each
 * body validated, every violation listed. Running out of stack is a
 * result: `{overflow: true}`.
 */
const SCHEMA_SOURCE = `
const { Ajv2020 } = libs.ajv.default && libs.ajv.default.Ajv2020 ? libs.ajv.default : libs.ajv;
const documents = new Map();
const validators = new Map();
${openApi30.toString()}
function load({ key, kind, schema, document, ref }) {
  if (kind === "schema") {
    validators.set(key, new Ajv2020(${JSON.stringify(AJV_OPTIONS)}).compile(schema));
    return;
  }
  let ajv = documents.get(key);
  if (!ajv) {
    ajv = new Ajv2020(${JSON.stringify(AJV_OPTIONS)});
    ajv.addSchema(openApi30(document), "openapi");
    documents.set(key, ajv);
  }
  if (ref !== undefined) validators.set(key + " " + ref, ajv.compile({ $ref: ref }));
}
return (input) => {
  if (input.load) return load(input.load);
  const validate = validators.get(input.ref === undefined ? input.key : input.key + " " + input.ref);
  if (!validate) return { need: true };
  try {
    if (validate(input.value)) return [];
  } catch (error) {
    if (error instanceof RangeError) return { overflow: true };
    throw error;
  }
  return (validate.errors || []).map((e) => ({
    at: e.instancePath,
    message: e.message ?? "is invalid",
  }));
};
`;

/** Each check's number, by which the helper thread knows its compiled schema. */
const keys = new WeakMap<SchemaCheck, string>();
let nextKey = 0;

/**
 * A validator on the helper thread: the schema is sent the first time the
 * thread lacks it (at start, or after a timeout restarted it), and compiled
 * there under {@linkcode SCHEMA_COMPILE_LIMIT_MS}, not the check's limit. Throws
 * {@linkcode GuardError} when validating does not finish in time or fails.
 */
function guardedValidator(check: SchemaCheck, ref: string | undefined): Validate {
  let key = keys.get(check);
  if (key === undefined) keys.set(check, key = `s${nextKey++}`);
  const load = check.kind === "schema"
    ? { key, kind: "schema", schema: check.schema }
    : { key, kind: "openapi", document: check.document, ref };
  // A schema that did not compile in time will not next time: later checks of it, in this
  // step or another that names the same file, fail at once.
  // (An OpenAPI document is a file; a schema may be inline, and compiled at load anyway.)
  const same = check.kind === "openapi" ? `${check.file}\n${check.source}\n${ref}` : key;
  return (value) => {
    const known = compileFailures.get(same);
    if (known) throw known;
    let got = runGuarded(task!, { key, ref, value });
    if (typeof got === "object" && got !== null && "need" in got) {
      const failed = compileGuarded(load);
      if (failed) {
        compileFailures.set(same, failed);
        throw failed;
      }
      got = runGuarded(task!, { key, ref, value });
    }
    if (typeof got === "object" && got !== null && "overflow" in got) {
      throw new GuardError(
        "check-failed",
        "the validator ran out of stack (the schema recurses too deeply for this body)",
      );
    }
    return got as ReturnType<Validate>;
  };
}

/** Schemas (by flow file, source and OpenAPI reference) that did not compile. */
const compileFailures = new Map<string, GuardError>();

/**
 * Compiles a schema on the helper thread within {@linkcode SCHEMA_COMPILE_LIMIT_MS}; what
 * went wrong, as a `check-failed` error with a sentence, or undefined.
 */
function compileGuarded(load: Record<string, unknown>): GuardError | undefined {
  try {
    runGuarded(task!, { load }, SCHEMA_COMPILE_LIMIT_MS);
    return undefined;
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    const limit = `${SCHEMA_COMPILE_LIMIT_MS / 1000} s`;
    return new GuardError(
      "check-failed",
      error.code === "check-timeout"
        ? `the schema did not compile within ${limit} (it is too large: check a part of the ` +
          "body against the part of the schema that describes it)"
        : error.message === "it ran out of stack"
        ? "the schema did not compile: its $ref chains or nesting go too deep for the validator"
        : error.message,
    );
  }
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema's `type: [T, "null"]`, so
 * one validator serves 3.0 and 3.1 documents. Self-contained: the helper
 * thread runs its source too.
 */
function openApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApi30);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = openApi30(v);
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

/** Whether a value nests deeper than {@linkcode MAX_SCHEMA_DEPTH}, found without recursion. */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_SCHEMA_DEPTH) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Responses whose schema check ran out of time: the next checks on them are not tried. */
const spent = new WeakSet<object>();

/**
 * Evaluates a schema check on a response (the JSON body); `requestUrl` and
 * `method` find the OpenAPI operation.
 */
export function checkSchema(
  check: SchemaCheck,
  response: {
    status: number;
    json: { ok: true; value: unknown } | { ok: false };
    spilled?: { reason: string };
  },
  method: string,
  requestUrl: string,
  phase: AssertionResult["phase"],
): AssertionResult {
  const base = {
    phase,
    path: "$.json",
    operator: check.kind,
    expected: check.source,
    line: check.line,
    column: check.column,
  };
  const json = response.json;
  const fail = (message: string, actual: unknown = null): AssertionResult => ({
    ...base,
    actual,
    found: json.ok,
    passed: false,
    message: `$.json: ${message}`,
  });
  if (response.spilled) return fail(response.spilled.reason);
  if (!json.ok) return fail("the response body is not JSON, so it cannot match a schema");
  if (check.kind === "openapi" && !check.ajv) {
    return fail("the schema was not compiled (run flows with runFlows or the CLI)");
  }
  let validate: Validate | undefined = check.kind === "schema" ? check.validate : undefined;
  let what = check.source;
  if (check.kind === "openapi") {
    const found = operationSchema(check, method, requestUrl, response.status);
    if ("missing" in found) return fail(found.missing);
    validate = found.validate;
    what = `${check.source} (${found.where})`;
  }
  if (!validate) return fail("the schema was not compiled (run flows with runFlows or the CLI)");
  if (tooDeep(json.value)) {
    return fail(
      `the body is nested deeper than ${
        MAX_SCHEMA_DEPTH.toLocaleString("en-US")
      } levels, the limit for a schema check`,
    );
  }
  const limit = `${MATCH_TIME_LIMIT_MS / 1000} s`;
  if (spent.has(response)) {
    return fail(
      `not checked: an earlier schema check of the same body did not finish within ${limit}`,
    );
  }
  let violations: ReturnType<Validate>;
  try {
    violations = validate(json.value);
  } catch (error) {
    if (!(error instanceof GuardError)) throw error;
    if (error.code === "check-failed") {
      return fail(`checking it against ${what} failed: ${error.message}`);
    }
    spent.add(response);
    return fail(
      `checking it against ${what} did not finish within ${limit} (a pattern with nested ` +
        "quantifiers such as (a+)+ can take exponential time)",
    );
  }
  if (violations.length === 0) {
    return { ...base, actual: null, found: true, passed: true, message: `$.json matches ${what}` };
  }
  const listed = violations.slice(0, MAX_LISTED).map((v) => `${v.at || "/"} ${v.message}`);
  const more = violations.length > MAX_LISTED ? `; and ${violations.length - MAX_LISTED} more` : "";
  return fail(
    `${violations.length} violation${violations.length === 1 ? "" : "s"} of ${what}: ${
      listed.join("; ")
    }${more}`,
    violations,
  );
}

/** The response schema of the OpenAPI operation for a request and a status. */
function operationSchema(
  check: Extract<SchemaCheck, { kind: "openapi" }>,
  method: string,
  requestUrl: string,
  status: number,
): { validate: Validate; where: string } | { missing: string } {
  // The document is the user's (or the API vendor's) JSON: every member is read as what it
  // may be, own members only, so a null path item or a "constructor" method is "no operation".
  const doc = check.document as Node;
  const member = (node: unknown, key: string): unknown =>
    isNode(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  const servers = member(doc, "servers");
  const path = requestPath(requestUrl, Array.isArray(servers) ? servers : undefined);
  const paths = isNode(member(doc, "paths")) ? member(doc, "paths") as Node : {};
  const match = Object.keys(paths)
    .map((template) => ({ template, score: pathScore(template, path) }))
    .filter((m) => m.score >= 0)
    .sort((a, b) => b.score - a.score)[0];
  const operation = match && member(paths[match.template], method.toLowerCase());
  if (!match || !isNode(operation)) {
    return { missing: `${check.source} has no operation for ${method} ${path}` };
  }
  const responses = isNode(operation.responses) ? operation.responses : {};
  const code = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, "default"]
    .find((c) => Object.hasOwn(responses, c));
  if (!code) {
    return {
      missing:
        `${check.source} documents no response ${status} for ${method} ${match.template} (it has ${
          show(Object.keys(responses))
        })`,
    };
  }
  const pointer = ["paths", match.template, method.toLowerCase(), "responses", code];
  let response = responses[code];
  const target = member(response, "$ref");
  if (typeof target === "string" && target.startsWith("#/")) {
    const parts = target.slice(2).split("/").map(unescape);
    response = parts.reduce<unknown>((node, p) => member(node, p), check.document);
    pointer.splice(0, pointer.length, ...parts);
  }
  const content = member(response, "content");
  const type = Object.keys(isNode(content) ? content : {}).find((t) =>
    /json/i.test(t) && isNode(member(content, t))
  );
  if (!type) {
    return {
      missing: `${check.source} gives no JSON body for ${method} ${match.template} ${code}`,
    };
  }
  pointer.push("content", type, "schema");
  const ref = `openapi#/${
    pointer.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")
  }`;
  const cache = check.compiled ??= new Map();
  let validate = cache.get(ref);
  if (!validate) cache.set(ref, validate = guardedValidator(check, ref));
  return { validate, where: `${method.toUpperCase()} ${match.template} ${code}` };
}

function unescape(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The request's path, without the base path of the document's first server. */
function requestPath(url: string, servers: unknown[] | undefined): string {
  const path = new URL(url).pathname;
  for (const server of servers ?? []) {
    let base = "";
    try {
      const url = isNode(server) && typeof server.url === "string" ? server.url : "";
      base = new URL(url, "http://x").pathname.replace(/\/$/, "");
    } catch {
      continue;
    }
    if (base && path.startsWith(`${base}/`)) return path.slice(base.length);
  }
  return path;
}

/** How well a path template matches a path: -1 for no match, more for more literal segments. */
function pathScore(template: string, path: string): number {
  const t = template.split("/");
  const p = path.split("/");
  if (t.length !== p.length) return -1;
  let score = 0;
  for (let i = 0; i < t.length; i++) {
    if (/^\{[^}]+\}$/.test(t[i])) {
      if (p[i] === "") return -1;
    } else if (t[i] === p[i]) score++;
    else return -1;
  }
  return score;
}

/** Keywords whose subschemas apply to the same value: a cycle through them never ends. */
const IN_PLACE = ["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"];
/** Keywords whose subschemas apply to parts of the value (or are only definitions). */
const DESCENDING = [
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$defs",
  "definitions",
];
const REFERENCES = ["$ref", "$dynamicRef", "$recursiveRef"];
const MAPS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);
const ROOT = "file:///flowrun/schema.json";

type Node = Record<string, unknown>;

/**
 * Why a schema, or an OpenAPI document's schemas, cannot be used although
 * the validator compiles them: nesting deeper than
 * {@linkcode MAX_SCHEMA_DEPTH}, or a schema that refers to itself without
 * descending into the value (`{"$ref": "#"}`, a `$ref` cycle through
 * `allOf`), which recurses until the stack runs out on any value. A
 * recursive schema that descends (a tree whose `child` property is the node
 * again) is fine. Found without recursion.
 */
function schemaProblem(document: unknown, kind: SchemaCheck["kind"]): string | undefined {
  const where = new Map<Node, { pointer: string; base: string }>();
  const ids = new Map<string, Node>();
  const anchors = new Map<string, Node>();
  const roots: Node[] = [];
  const stack: [unknown, string, string, number, string | undefined][] = [
    [document, "#", ROOT, 0, undefined],
  ];
  if (isNode(document)) ids.set(ROOT, document);
  while (stack.length > 0) {
    const [node, pointer, parentBase, depth, key] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_SCHEMA_DEPTH) {
      return `it nests deeper than ${MAX_SCHEMA_DEPTH.toLocaleString("en-US")} levels`;
    }
    let base = parentBase;
    if (!Array.isArray(node)) {
      const n = node as Node;
      if (typeof n.$id === "string") {
        try {
          const url = new URL(n.$id, parentBase);
          url.hash = "";
          base = url.href;
          ids.set(base, n);
        } catch { /* an $id that is no URL: ajv reports it */ }
      }
      for (const anchor of [n.$anchor, n.$dynamicAnchor]) {
        if (typeof anchor === "string") anchors.set(`${base}#${anchor}`, n);
      }
      where.set(n, { pointer, base });
      if (kind === "openapi" && key === "schema") roots.push(n);
    }
    for (const [k, v] of Object.entries(node)) {
      if (kind === "openapi" && (k === "example" || k === "examples")) continue;
      const segment = k.replaceAll("~", "~0").replaceAll("/", "~1");
      stack.push([v, `${pointer}/${segment}`, base, depth + 1, k]);
    }
  }
  if (kind === "schema" && isNode(document)) roots.push(document);
  const schemas = (document as Node | undefined)?.components as Node | undefined;
  if (kind === "openapi" && isNode(schemas?.schemas)) {
    for (const s of Object.values(schemas.schemas)) if (isNode(s)) roots.push(s);
  }
  const resolve = (ref: string, from: Node): Node | undefined => {
    let url: URL;
    try {
      url = new URL(ref, where.get(from)?.base ?? ROOT);
    } catch {
      return undefined;
    }
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    const resource = ids.get(url.href);
    if (!resource || fragment === "") return resource;
    if (!fragment.startsWith("/")) return anchors.get(`${url.href}#${fragment}`);
    let node: unknown = resource;
    for (const part of fragment.slice(1).split("/")) {
      const name = part.replaceAll("~1", "/").replaceAll("~0", "~");
      if (node === null || typeof node !== "object" || !Object.hasOwn(node, name)) return undefined;
      node = (node as Node)[name];
    }
    return isNode(node) ? node : undefined;
  };
  // Every schema reachable from the roots, with the schemas each applies to the same value.
  const inPlace = new Map<Node, Node[]>();
  const queue = [...roots];
  while (queue.length > 0) {
    const schema = queue.pop()!;
    if (inPlace.has(schema)) continue;
    const same: Node[] = [];
    inPlace.set(schema, same);
    for (const keyword of REFERENCES) {
      const ref = schema[keyword];
      const target = typeof ref === "string" ? resolve(ref, schema) : undefined;
      if (target) same.push(target);
    }
    for (const keyword of IN_PLACE) same.push(...subschemas(schema[keyword], MAPS.has(keyword)));
    queue.push(...same);
    for (const keyword of DESCENDING) queue.push(...subschemas(schema[keyword], MAPS.has(keyword)));
  }
  const cycle = findCycle(inPlace);
  if (!cycle) return undefined;
  const path = cycle.map((n) => where.get(n)?.pointer ?? "?").join(" → ");
  return `the schema at ${path} refers to itself without descending into the value, so ` +
    "checking any value would never end; make the reference go through a property or an item";
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The schemas a keyword holds: one, a list, or a map of them (`properties`). */
function subschemas(value: unknown, map: boolean): Node[] {
  if (Array.isArray(value)) return value.filter(isNode);
  if (!isNode(value)) return [];
  return map ? Object.values(value).filter(isNode) : [value];
}

/** A cycle in the graph (its nodes, the first repeated at the end), found depth first without recursion. */
function findCycle(edges: Map<Node, Node[]>): Node[] | undefined {
  const state = new Map<Node, 1 | 2>(); // 1 on the current path, 2 done
  for (const start of edges.keys()) {
    if (state.has(start)) continue;
    const path: Node[] = [start];
    const next: number[] = [0];
    state.set(start, 1);
    while (path.length > 0) {
      const node = path[path.length - 1];
      const out = edges.get(node) ?? [];
      const i = next[next.length - 1]++;
      if (i >= out.length) {
        state.set(node, 2);
        path.pop();
        next.pop();
        continue;
      }
      const to = out[i];
      if (state.get(to) === 1) return [...path.slice(path.indexOf(to)), to];
      if (!state.has(to)) {
        state.set(to, 1);
        path.push(to);
        next.push(0);
      }
    }
  }
  return undefined;
}
