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
import { everyStep, type Flow, type SchemaCheck } from "./flow.ts";
import { show } from "./json_value.ts";
import type { AssertionResult } from "./result.ts";

import type { Validate } from "./flow.ts";

type AjvLike = {
  compile(schema: unknown): ((data: unknown) => boolean) & {
    errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
  };
  addSchema(schema: unknown, key: string): unknown;
};

const MAX_LISTED = 10;

/**
 * Compiles every schema check of the flows (importing the validator only
 * when there is one); returns the problem of each schema that cannot be
 * compiled, with its position.
 *
 * @example
 * ```ts
 * import { prepareSchemas } from "./schema_check.ts";
 * if ((await prepareSchemas([])).length !== 0) throw new Error();
 * ```
 */
export async function prepareSchemas(
  flows: readonly Flow[],
): Promise<{ check: SchemaCheck; message: string }[]> {
  const checks = [...everyStep(flows)]
    .flatMap(({ checks }) => checks.flatMap((c) => c.schemas ?? []))
    .filter((c) => c.kind === "schema" ? !c.validate : !c.ajv);
  if (checks.length === 0) return [];
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const problems: { check: SchemaCheck; message: string }[] = [];
  for (const check of checks) {
    try {
      const ajv = new Ajv2020({
        allErrors: true,
        strict: false,
        validateFormats: false,
      }) as unknown as AjvLike;
      if (check.kind === "schema") check.validate = validator(ajv.compile(check.schema));
      else {
        ajv.addSchema(openApi30(check.document), "openapi");
        check.ajv = ajv;
      }
    } catch (error) {
      problems.push({ check, message: (error as Error).message });
    }
  }
  return problems;
}

function validator(compiled: ReturnType<AjvLike["compile"]>): Validate {
  return (value) =>
    compiled(value) ? [] : (compiled.errors ?? []).map((e) => ({
      at: e.instancePath,
      message: e.message ?? "is invalid",
    }));
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema's `type: [T, "null"]`, so
 * one validator serves 3.0 and 3.1 documents.
 */
function openApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApi30);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = openApi30(v);
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

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
  let validate: Validate | undefined = check.kind === "schema" ? check.validate : undefined;
  let what = check.source;
  if (check.kind === "openapi") {
    const found = operationSchema(check, method, requestUrl, response.status);
    if ("missing" in found) return fail(found.missing);
    validate = found.validate;
    what = `${check.source} (${found.where})`;
  }
  if (!validate) return fail("the schema was not compiled (run flows with runFlows or the CLI)");
  const violations = validate(json.value);
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
  const doc = check.document as {
    servers?: { url?: string }[];
    paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  };
  const path = requestPath(requestUrl, doc.servers);
  const match = Object.keys(doc.paths ?? {})
    .map((template) => ({ template, score: pathScore(template, path) }))
    .filter((m) => m.score >= 0)
    .sort((a, b) => b.score - a.score)[0];
  const operation = match && doc.paths![match.template][method.toLowerCase()];
  if (!match || !operation) {
    return { missing: `${check.source} has no operation for ${method} ${path}` };
  }
  const responses = operation.responses ?? {};
  const code = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, "default"]
    .find((c) => c in responses);
  if (!code) {
    return {
      missing:
        `${check.source} documents no response ${status} for ${method} ${match.template} (it has ${
          show(Object.keys(responses))
        })`,
    };
  }
  const pointer = ["paths", match.template, method.toLowerCase(), "responses", code];
  let response = responses[code] as { $ref?: string; content?: Record<string, unknown> };
  if (response.$ref?.startsWith("#/")) {
    const parts = response.$ref.slice(2).split("/").map(unescape);
    response = parts.reduce<unknown>(
      (node, p) => (node as Record<string, unknown> | undefined)?.[p],
      check.document,
    ) as typeof response;
    pointer.splice(0, pointer.length, ...parts);
  }
  const type = Object.keys(response?.content ?? {}).find((t) => /json/i.test(t));
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
  if (!validate) {
    const ajv = check.ajv as AjvLike;
    validate = validator(ajv.compile({ $ref: ref }));
    cache.set(ref, validate);
  }
  return { validate, where: `${method.toUpperCase()} ${match.template} ${code}` };
}

function unescape(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The request's path, without the base path of the document's first server. */
function requestPath(url: string, servers: { url?: string }[] | undefined): string {
  const path = new URL(url).pathname;
  for (const server of servers ?? []) {
    let base = "";
    try {
      base = new URL(server.url ?? "", "http://x").pathname.replace(/\/$/, "");
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
