/**
 * `assert` and `loop.until` blocks: the status check, header, cookie and
 * response-time checks, schema documents, and the `json`/`jsonpath` check
 * lists, each read by its own module; each operator's expected value is
 * validated by the model's operator table (expected.ts).
 *
 * @module
 */
import type { Node } from "yaml";
import { isSeq } from "./nodes.ts";
import type { Checks } from "../model/flow.ts";
import { addChecks } from "./check_list.ts";
import { durationChecks, namedChecks } from "./named_checks.ts";
import { loadSchemaCheck } from "./schema_document.ts";
import { loadStatus } from "./status_check.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import type { StatusRange } from "../kinds/mod.ts";

/** The keys of an `assert` or `loop.until` block. */
const ASSERT_KEYS = [
  "status",
  "headers",
  "cookies",
  "duration",
  "schema",
  "openapi",
  "json",
  "jsonpath",
];

/** `json` (paths rooted at the response, `$.json.id`) and `jsonpath` (at the body, `$.id`) lists. */
function addCheckLists(
  ctx: Loading,
  checks: Checks,
  map: Map<string, Entry>,
  what: string,
  owner: TemplateUse["owner"],
): void {
  for (const [key, root] of [["json", "response"], ["jsonpath", "body"]] as const) {
    const entry = map.get(key);
    if (!entry) continue;
    if (!isSeq(entry.value)) {
      ctx.problem(
        "wrong-type",
        `Expected "${key}" in ${what} to be a list of checks, got ${describe(entry.value)}.`,
        entry.value ?? entry.keyNode,
        `Write each check as a list item: "- {path: ${
          root === "response" ? "$.json.id" : "$.id"
        }, exists: true}".`,
      );
      continue;
    }
    addChecks(ctx, checks, entry.value.items, {
      root,
      what,
      owner,
      depth: 0,
      base: [],
      groups: [],
    });
  }
}

/**
 * An `assert` or `loop.until` block: `status`, then `json` (A) and `jsonpath` (B) checks.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {status: 200, headers: {x-id: abc}, jsonpath: [{path: $.id, exists: true}]}\n",
 *   "f.yaml",
 * );
 * const checks = flow?.steps[0].assert;
 * if (checks?.status?.expected[0] !== 200 || checks.paths.length !== 2) throw new Error();
 * ```
 */
export function loadChecks(
  ctx: Loading,
  node: Node | null,
  what: string,
  owner: TemplateUse["owner"],
  statuses?: StatusRange,
): Checks | undefined {
  const map = ctx.map(node, what, "assert", ASSERT_KEYS);
  if (!map) return undefined;
  const checks: Checks = { paths: [] };
  const status = map.get("status");
  if (status) checks.status = loadStatus(ctx, status, what, owner, statuses);
  // Spelling-neutral blocks: headers, cookies and the response time, in both spellings.
  for (const kind of ["headers", "cookies"] as const) {
    const entry = map.get(kind);
    if (entry) checks.paths.push(...namedChecks(ctx, entry, kind, what, owner));
  }
  const duration = map.get("duration");
  if (duration) checks.paths.push(...durationChecks(ctx, duration, what, owner));
  const schemas = [map.get("schema"), map.get("openapi")].flatMap((e) =>
    e ? loadSchemaCheck(ctx, e, what) : []
  );
  if (schemas.length > 0) checks.schemas = schemas;
  addCheckLists(ctx, checks, map, what, owner);
  return checks;
}
