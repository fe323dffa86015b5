/**
 * A bundled OpenAPI document → flow files: one per tag (an operation's first), in the order the
 * document's `tags` list them, then as they first appear; untagged operations in one flow named for
 * the API, or, when there are more than 50, one per first path segment. Each flow's steps in
 * `stepOrder`, with a copy of every operation of another flow its steps read from
 * (`prerequisites.ts`), producers first. Deterministic: the same document gives the same bytes.
 *
 * @module
 */
import { assertCheckable } from "./checkable.ts";
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";
import { methodProblem } from "../../load/request.ts";
import { UsageError } from "../../model/errors.ts";
import { snake, UniqueNames } from "../names.ts";
import { AuthSchemes, type EnvVar } from "./auth.ts";
import { deref } from "./examples.ts";
import { FlowBuilder, type Placeholder, type Shared } from "./flow.ts";
import { loginOf, sessionLines } from "./session_login.ts";
import { answerJwtLines } from "./session_token.ts";
import { ownAccountHint } from "./login_account.ts";
import { withOwnAccount } from "./own_account.ts";
import { withOwnRead } from "./own_read.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";
import { type Inferred, withPrerequisites } from "./prerequisites.ts";
import { capturePath, inferredLinks, type ParamLink } from "./producers.ts";
import { matchPath, searchPath } from "./capture_source.ts";
import { ownResources, stopsServer } from "./stops.ts";
import { readSecurity } from "./read_security.ts";
import { keptBasePath } from "./paths_hold_base.ts";
import { ownItems } from "./second_producer.ts";
import { ambiguousOps, type LeftOut, leftOut, leftOutLines } from "./left_out.ts";

/** A file to write, relative to the output folder. */
export interface OutFile {
  path: string;
  text: string;
  /** A placeholder the user replaces: never overwrites one that exists. */
  placeholder?: boolean;
}

/** What the summary reports. */
export interface OpenApiSummary extends LeftOut {
  title: string;
  operations: number;
  /**
   * Each flow: its tag, or for untagged operations split by path, the first segment (`/guilds`);
   * `added`: steps copied from other flows for what its operations read.
   */
  flows: { file: string; steps: number; tag?: string; under?: string; added?: number }[];
  /** What the converter inferred, one line each: `{slug} of GET /articles/{slug} ← POST /articles $.json.article.slug`. */
  inferred?: string[];
  /** The first server's URL, as the document writes it; and the base path the flows keep. */
  server?: string;
  basePath: string;
  env: EnvVar[];
  placeholders: Placeholder[];
  optional: number;
  /** The operations of the document's `webhooks` (3.1), which are not converted, and their names. */
  webhooks?: { operations: number; names: string[] };
  /** The operations the bundle left out, each reaching a `$ref` to nothing (`broken_refs.ts`). */
  broken?: string[];
}

/** The flows of a document and the summary. */
export interface OpenApiResult {
  files: OutFile[];
  summary: OpenApiSummary;
}

/** How to convert: the bundled document, its name in comments, the `openapi:` checks' path. */
export interface OpenApiInput {
  document: Node;
  /** The document as the user named it: `api/openapi.yaml`. */
  source: string;
  /** The path the `openapi:` checks name, relative to the output folder; none: no such checks. */
  documentRef?: string;
}

/**
 * Converts a bundled document.
 *
 * @example
 * ```ts
 * import { convertOpenApi } from "./convert.ts";
 * const document = { openapi: "3.0.3", info: { title: "Pets" }, servers: [{ url: "https://x.test/v1" }],
 *   paths: { "/pets": { get: { tags: ["pets"], responses: { "200": {} } } } } };
 * const { files, summary } = convertOpenApi({ document, source: "api.yaml" });
 * if (files[0].path !== "pets.yaml" || !files[0].text.includes("url: ${ENV.BASE_URL}/v1/pets")) {
 *   throw new Error(files[0].text);
 * }
 * if (summary.basePath !== "/v1" || summary.env[0].name !== "BASE_URL") throw new Error();
 * ```
 */
export function convertOpenApi(input: OpenApiInput): OpenApiResult {
  const doc = readSecurity(input.document);
  const all = operationsOf(doc);
  const info = isNode(doc.info) ? doc.info : {};
  const title = typeof info.title === "string" && info.title.trim() ? info.title.trim() : "api";
  const about = { title, resources: ownResources(doc) };
  const stopping = all.filter((op) => stopsServer(op, about));
  // A step flowrun cannot send (TRACE) would make its whole flow fail to load.
  const unsendable = all.filter((op) => !stopping.includes(op) && methodProblem(op.method));
  const ops = all.filter((op) => !stopping.includes(op) && !unsendable.includes(op));
  if (all.length === 0) {
    throw new UsageError(
      "bad-openapi",
      `"${input.source}" has no operations under "paths": there is nothing to convert.`,
      "Give the document that describes the API's paths (a document of webhooks only sends nothing).",
    );
  }
  // The flows' openapi: checks read the document: one the loader refuses fails every flow.
  if (input.documentRef !== undefined) assertCheckable(input.document, input.source);
  const server = firstServer(doc);
  const links = { ...inferredLinks(doc, ops), login: loginOf(doc, ops) };
  const inferred = withOwnRead(doc, ops, withOwnAccount(doc, links));
  const ambiguous = ambiguousOps(inferred);
  const auth = new AuthSchemes(doc, server, inferred.login);
  const shared: Shared = {
    inferred,
    doc,
    auth,
    basePath: keptBasePath(doc, basePathOf(server)),
    documentRef: input.documentRef,
    placeholders: [],
    files: [],
    optional: 0,
  };
  const left = { title, source: input.source, stopping, unsendable, ambiguous };
  const kept = ops.filter((op) => !ambiguous.has(op));
  const { files, flows, seconds } = writeFlows(doc, kept, shared, left);
  for (const { path, what } of shared.files) {
    files.push({ path, text: `placeholder: replace with ${what}\n`, placeholder: true });
  }
  return {
    files,
    summary: {
      title,
      operations: all.length,
      flows,
      server,
      basePath: shared.basePath,
      env: [{ name: "BASE_URL", what: "the API's origin" }, ...auth.env.values()],
      placeholders: shared.placeholders,
      optional: shared.optional,
      ...inferredLines(doc, inferred, ops, seconds),
      ...webhooksOf(doc),
      ...leftOutLines(stopping, unsendable, ambiguous),
    },
  };
}

/** Where in its producer's answer a link reads its value, for the summary. */
function linkWhere(link: ParamLink, name: (op: OpenApiOperation) => string): string {
  if (link.from === "location") {
    const at = link.fromEnd ? `segment ${link.fromEnd + 1} from the end` : "last segment";
    return `its Location header's ${at}`;
  }
  if (link.fresh) return "(a new name of the run's own, for what the call makes)";
  if (link.search) {
    return `${searchPath(link.search)} (the first anywhere in its answer, undescribed)`;
  }
  if (link.from === "client") return "(the run's own name, which the client names there)";
  const how = link.from === "links"
    ? " (the document's links)"
    : link.match
    ? ` (the run's own, after ${name(link.after!)})`
    : link.from === "listing"
    ? ` (the ${link.path.includes("-1") ? "last" : "first"} of its listing${
      link.after ? `, after ${name(link.after)}` : ""
    })`
    : "";
  const sent = link.match && `<the ${link.match} ${name(link.after!)} sent>`;
  return `${sent ? matchPath(link.path, link.match!, sent) : capturePath(link.path)}${how}`;
}

/** What was inferred, for the summary: each parameter's producer, the second producers, the login. */
function inferredLines(
  doc: Node,
  inferred: Inferred,
  ops: OpenApiOperation[],
  seconds: Set<string>,
): { inferred?: string[] } {
  const lines: string[] = [];
  const name = (op: OpenApiOperation) => `${op.method} ${op.template}`;
  for (const op of ops) {
    for (const link of [...inferred.params.get(op) ?? [], ...inferred.body?.get(op) ?? []]) {
      // A body property's link names its place in the body (`order.petId`, `petIds[]`).
      const param = "body" in link
        ? link.param
        : op.template.includes(`{${link.param}}`)
        ? `{${link.param}}`
        : `query ${link.param}`;
      lines.push(`${param} of ${name(op)} ← ${name(link.producer)} ${linkWhere(link, name)}`);
    }
  }
  const { login } = inferred;
  lines.push(...seconds, ...sessionLines(login, doc), ...answerJwtLines(login, doc));
  if (login) {
    for (const [scheme, served] of login.schemes) {
      const sent = served.bearer ? "Bearer <token>" : `${served.prefix}<token>`;
      lines.push(
        `"${scheme}" (${served.where}) ← ${name(login.op)} ${
          login.path ? capturePath(login.path) : "a member named like a token (its description)"
        }, sent "${sent}"${
          login.register
            ? `, signed in as the account ${name(login.register)} registers${
              login.registerAnswers ? " (whose own answer a flow that does not log in reads)" : ""
            }; ${ownAccountHint(doc, login)}`
            : ""
        }`,
      );
    }
  }
  return lines.length > 0 ? { inferred: lines } : {};
}

/**
 * The operations of a 3.1 document's `webhooks`: requests the API sends,
 * which a suite cannot make, named in the summary so they are not left out
 * silently (Redocly's Museum API has one beside its paths).
 */
function webhooksOf(doc: Node): { webhooks?: { operations: number; names: string[] } } {
  if (!isNode(doc.webhooks)) return {};
  const names: string[] = [];
  let operations = 0;
  for (const [name, item] of Object.entries(doc.webhooks)) {
    const node = deref(doc, item);
    const count = isNode(node) ? OPENAPI_METHODS.filter((m) => isNode(node[m])).length : 0;
    if (count === 0) continue;
    names.push(name);
    operations += count;
  }
  return operations === 0 ? {} : { webhooks: { operations, names } };
}

/**
 * One flow file per tag, untagged operations in one named for the API (or,
 * more than `MAX_UNTAGGED_IN_ONE_FLOW`, one per first path segment).
 */
function writeFlows(
  doc: Node,
  ops: OpenApiOperation[],
  shared: Shared,
  { title, source, stopping, unsendable, ambiguous }: {
    title: string;
    source: string;
    stopping: OpenApiOperation[];
    unsendable: OpenApiOperation[];
    ambiguous: Map<OpenApiOperation, string>;
  },
): { files: OutFile[]; flows: OpenApiSummary["flows"]; seconds: Set<string> } {
  const fileNames = new UniqueNames();
  const flowNames = new Set<string>();
  const files: OutFile[] = [];
  const flows: OpenApiSummary["flows"] = [];
  const seconds = new Set<string>();
  for (const { tag, under, ops: group } of flowGroups(doc, ops)) {
    // The operations on the root path (`/`) stay named for the API.
    // A blank tag (Bungie's "") names no flow: the flow is named for the API.
    const base = tag?.trim() ||
      (under === undefined || under === "/" ? title : `${title} ${under}`);
    let name = base;
    for (let n = 2; flowNames.has(name); n++) name = `${base} (${n})`;
    flowNames.add(name);
    // A tag may be a pasted paragraph; a file name past 255 bytes cannot be written.
    const stem = (under === undefined ? snake(name) : snake(under) || snake(name))
      .slice(0, 70).replace(/_+$/, "");
    const file = `${fileNames.take(stem || "api")}.yaml`;
    const builder = new FlowBuilder(file, shared);
    const { ops: steps, added } = withPrerequisites(group, doc, shared.inferred);
    // An operation ending what an earlier one ended gets its own item (second_producer.ts).
    const own = ownItems(steps, shared.inferred);
    for (const op of steps) builder.add(op, own.get(op));
    for (const { why } of own.values()) seconds.add(why);
    const header = [
      `Generated by flowrun convert openapi from ${source} (${title}).`,
      tag !== undefined
        ? `The operations tagged "${tag}".`
        : under === undefined
        ? "The operations without a tag, in one flow named for the API."
        : `The operations without a tag under ${under}.`,
      "Set BASE_URL to the API's origin; the flows add the server's base path.",
      ...leftOut(stopping, tag, "it stops the server: run it by hand, after the suite"),
      ...leftOut(unsendable, tag, "flowrun cannot send METHOD"),
      ...leftOut(ambiguous.keys(), tag, (op) => ambiguous.get(op)!),
    ];
    files.push({ path: file, text: builder.text(name, header) });
    flows.push({
      file,
      steps: steps.length + own.size,
      tag,
      ...(under === undefined ? {} : { under }),
      ...(added > 0 ? { added } : {}),
    });
  }
  return { files, flows, seconds };
}

/**
 * Most untagged operations kept in one flow. A flow stops at its first
 * failed step, so Discord's 242 untagged operations in one flow made any
 * failure skip the rest of the suite; more than this many are split by
 * their path's first segment (`/guilds/…` → `guilds.yaml`), which also
 * keeps a create and the reads of what it created together.
 */
export const MAX_UNTAGGED_IN_ONE_FLOW = 50;

/** A flow's operations: a tag's, the untagged ones, or the untagged ones under a path segment. */
interface FlowGroup {
  tag?: string;
  under?: string;
  ops: OpenApiOperation[];
}

/** The flows to write: by tag, then the untagged operations (split when there are many). */
function flowGroups(doc: Node, ops: OpenApiOperation[]): FlowGroup[] {
  const groups: FlowGroup[] = [];
  for (const [tag, group] of byTag(doc, ops)) {
    if (tag !== undefined || group.length <= MAX_UNTAGGED_IN_ONE_FLOW) {
      groups.push({ tag, ops: group });
      continue;
    }
    const bySegment = new Map<string, OpenApiOperation[]>();
    for (const op of group) {
      const under = `/${op.template.split("/").find((s) => s !== "") ?? ""}`;
      const list = bySegment.get(under);
      if (list) list.push(op);
      else bySegment.set(under, [op]);
    }
    for (const [under, list] of bySegment) groups.push({ under, ops: list });
  }
  return groups;
}

/** Operations grouped by their first tag: the document's tag order, then first appearance. */
function byTag(doc: Node, ops: OpenApiOperation[]): Map<string | undefined, OpenApiOperation[]> {
  const groups = new Map<string | undefined, OpenApiOperation[]>();
  const declared = Array.isArray(doc.tags) ? doc.tags : [];
  for (const t of declared) {
    const name = isNode(t) ? t.name : undefined;
    if (typeof name === "string" && ops.some((o) => o.tag === name)) groups.set(name, []);
  }
  for (const op of ops) {
    const group = groups.get(op.tag);
    if (group) group.push(op);
    else groups.set(op.tag, [op]);
  }
  return groups;
}

/** The first server's URL, its `{variables}` replaced by their defaults. */
function firstServer(doc: Node): string | undefined {
  const server = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  if (!isNode(server) || typeof server.url !== "string") return undefined;
  const variables = isNode(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const v = Object.hasOwn(variables, name) ? variables[name] : undefined;
    return isNode(v) && v.default !== undefined ? String(v.default) : whole;
  });
}

/**
 * The path of a server URL, without a trailing slash: `https://x.test/v1/` → `/v1`.
 *
 * @example
 * ```ts
 * import { basePathOf } from "./convert.ts";
 * if (basePathOf("https://x.test/v1/") !== "/v1" || basePathOf("/api") !== "/api" || basePathOf(undefined) !== "") {
 *   throw new Error();
 * }
 * ```
 */
export function basePathOf(server: string | undefined): string {
  if (server === undefined) return "";
  let path: string;
  try {
    path = new URL(server, "http://base.invalid/").pathname;
  } catch {
    return "";
  }
  return path.replace(/\/+$/, "").replaceAll("${", () => "$${");
}
