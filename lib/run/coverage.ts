/**
 * OpenAPI coverage, collected while a run goes: each response's method, URL
 * path and status is kept once (distinct triples, bounded), and matched
 * against the documents when the run ends — so a document that an
 * `openapi:` check names only late in the run still counts every request.
 *
 * @module
 */
import {
  byCount,
  coverageShare as share,
  type OpenApiCoverage,
  type OperationCoverage,
  UNMATCHED_KEPT,
} from "../model/coverage.ts";
import { MAX_COVERAGE_REQUESTS } from "../model/limits.ts";
import {
  basePaths,
  matchOperation,
  operationsOf,
  responseKey,
} from "../check/openapi_operations.ts";

/** A document coverage is reported for: its name in reports, and its parsed JSON. */
export interface CoverageDocument {
  /** The path shown in reports. */
  source: string;
  /** The parsed OpenAPI document. */
  document: unknown;
}

/**
 * Collects the responses of a run and reports its coverage of OpenAPI
 * documents.
 *
 * @example
 * ```ts
 * import { CoverageCollector } from "./coverage.ts";
 * const doc = { paths: { "/items": { get: { responses: { "200": {} } }, post: { responses: { "201": {} } } } } };
 * const coverage = new CoverageCollector([{ source: "api.yaml", document: doc }]);
 * coverage.record("GET", "http://x.test/items?page=2", 200);
 * coverage.record("GET", "http://x.test/health", 200);
 * const [report] = coverage.result((text) => text);
 * if (report.operations.exercised !== 1 || report.operations.percent !== 50) throw new Error();
 * if (report.unmatched[0].path !== "/health") throw new Error();
 * ```
 */
export class CoverageCollector {
  #documents: CoverageDocument[];
  #min: number | undefined;
  #seen = new Map<string, number>();
  #dropped = 0;

  /**
   * `documents`: those named by `--openapi` (paths as given); the `openapi:`
   * checks of the run add theirs as they run. `min`: `--coverage-min`.
   */
  constructor(documents: readonly CoverageDocument[] = [], min?: number) {
    this.#documents = documents
      .filter((d, i) =>
        documents.findIndex((o) => canonical(o.document) === canonical(d.document)) === i
      )
      .map((d) => ({ ...d, source: normalize(d.source) }));
    this.#min = min;
  }

  /**
   * Adds the document of an `openapi:` check (its path is relative to the
   * flow file), once: the same file named from two folders is one document.
   */
  addCheck(check: { source: string; document: unknown; file: string }): void {
    const { document } = check;
    if (this.#documents.some((d) => d.document === document)) return;
    const source = check.source.startsWith("/")
      ? normalize(check.source)
      : normalize(`${check.file.replace(/[^/]*$/, "")}${check.source}`);
    if (this.#documents.some((d) => d.source === source)) return;
    // One file reached by two spellings a path cannot tell apart (`a/openapi.yml` given to
    // --openapi, `../x/a/openapi.yml` in a flow run from `x/`) is parsed twice: the same
    // content is the same document, one coverage line.
    const text = canonical(document);
    if (this.#documents.some((d) => canonical(d.document) === text)) return;
    this.#documents.push({ source, document });
  }

  /** Notes one response: its method, URL (the query is not kept) and status. */
  record(method: string, url: string, status: number): void {
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return;
    }
    const key = `${method.toUpperCase()} ${status} ${path}`;
    const count = this.#seen.get(key);
    if (count !== undefined) this.#seen.set(key, count + 1);
    else if (this.#seen.size < MAX_COVERAGE_REQUESTS) this.#seen.set(key, 1);
    else this.#dropped++;
  }

  /** The coverage of each document; `redact` masks the paths of unmatched requests. */
  result(redact: (text: string) => string): OpenApiCoverage[] {
    const seen = [...this.#seen].map(([key, count]) => {
      const [method, status, ...path] = key.split(" ");
      return { method, status: Number(status), path: path.join(" "), count };
    });
    return this.#documents.map((d) => ({
      ...coverageOf(d, seen, redact, this.#min),
      ...(this.#dropped > 0 ? { requests_omitted: this.#dropped } : {}),
    }));
  }
}

/** One response the run saw, with how often. */
interface Seen {
  method: string;
  status: number;
  path: string;
  count: number;
}

/** The coverage of one document by the responses seen. */
function coverageOf(
  { source, document }: CoverageDocument,
  seen: readonly Seen[],
  redact: (text: string) => string,
  min: number | undefined,
): OpenApiCoverage {
  const items = new Map<string, OperationCoverage>();
  for (const op of operationsOf(document)) {
    items.set(`${op.method} ${op.template}`, {
      method: op.method,
      path: op.template,
      exercised: false,
      responses: op.statuses.map((status) => ({ status, exercised: false })),
      undocumented: [],
    });
  }
  const unmatched = new Map<string, Seen>();
  for (const s of seen) {
    // The origin does not matter: tests reach the API at another host than the document's.
    const found = matchOperation(document, s.method, `http://x${s.path}`);
    const item = "template" in found ? items.get(`${s.method} ${found.template}`) : undefined;
    if (item) markSeen(item, s.status);
    else if (underBase(document, s.path)) addUnmatched(unmatched, s);
  }
  const list = [...items.values()];
  for (const item of list) item.undocumented.sort((a, b) => a - b);
  const responses = list.flatMap((i) => i.responses);
  const ranked = [...unmatched.values()].sort(byCount);
  return {
    document: source,
    operations: share(list.length, list.filter((i) => i.exercised).length),
    responses: share(responses.length, responses.filter((r) => r.exercised).length),
    ...(min === undefined ? {} : { min }),
    items: list,
    unmatched: ranked.slice(0, UNMATCHED_KEPT).map((u) => ({
      method: u.method,
      path: redact(u.path),
      count: u.count,
    })),
    ...(ranked.length > UNMATCHED_KEPT
      ? { unmatched_omitted: ranked.length - UNMATCHED_KEPT }
      : {}),
  };
}

/** A response of an operation: exercised, and its documented response key too if any. */
function markSeen(item: OperationCoverage, status: number): void {
  item.exercised = true;
  const key = responseKey(item.responses.map((r) => r.status), status);
  const documented = item.responses.find((r) => r.status === key);
  if (documented) documented.exercised = true;
  else if (!item.undocumented.includes(status)) item.undocumented.push(status);
}

/** Merges requests that differ only in status into one unmatched entry. */
function addUnmatched(unmatched: Map<string, Seen>, s: Seen): void {
  const key = `${s.method} ${s.path}`;
  const known = unmatched.get(key);
  if (known) known.count += s.count;
  else unmatched.set(key, { ...s });
}

/**
 * Whether a path is under a server base path of the document (any path
 * when the document's servers have none), so requests to a login provider
 * or another API are not listed as the document's gaps.
 */
function underBase(document: unknown, path: string): boolean {
  const bases = basePaths(document);
  return bases.length === 0 || bases.includes("") || bases.some((b) => path.startsWith(`${b}/`));
}

/** A slash-separated path without `.` and `..` segments (kept at the start of a relative path). */
/** Each document's JSON text, made once: a run's checks name few documents, often. */
const canonicalText = new WeakMap<object, string>();

function canonical(document: unknown): string {
  if (typeof document !== "object" || document === null) return JSON.stringify(document);
  let text = canonicalText.get(document);
  if (text === undefined) canonicalText.set(document, text = JSON.stringify(document));
  return text;
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.replaceAll("\\", "/").split("/")) {
    if (part === "." || (part === "" && out.length > 0)) continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(part);
  }
  return out.join("/") || ".";
}
