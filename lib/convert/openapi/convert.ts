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
import { FlowBuilder } from "./flow.ts";
import type { Placeholder, Shared } from "./shared.ts";
import { loginOf } from "./session_login.ts";
import { withOwnAccount } from "./own_account.ts";
import { withOwnRead } from "./own_read.ts";
import { withAccountParent } from "./account_parent.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";
import { withPrerequisites } from "./prerequisites.ts";
import { withSignInSignUps } from "./signin_signup.ts";
import { withAccountSubject } from "./account_subject.ts";
import { inferredLinks } from "./producers.ts";
import { inferredLines } from "./inferred_lines.ts";
import { ownResources, stopsServer } from "./stops.ts";
import { passedDocument } from "./document_passes.ts";
import { keptBasePath } from "./paths_hold_base.ts";
import { ownItems } from "./second_producer.ts";
import { SIGN_IN_FILE, signInOnce } from "./sign_in_once.ts";
import { bodilessWrites } from "./bodiless.ts";
import { undescribedBodies } from "./undescribed_body.ts";
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
  /** The creates and updates the document gives nothing to send (`bodiless.ts`): `POST /posts`. */
  bodiless?: string[];
  /** The writes whose body the document describes no member of (`undescribed_body.ts`). */
  undescribed?: string[];
  /** The administrators' operations (`for_admins.ts`), each with what says so: `GET /users`. */
  admins?: [string, string][];
  /** The setup flow the run signs in with once (`sign_in_once.ts`), passed with `--setup`. */
  signIn?: { file: string; steps: number; hands: "token" | "session cookie" };
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
 * Converts a bundled document. A delete of many that selects nothing is
 * read as taking its path's update of many's list (many_delete.ts).
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
  const { document: doc, read: manyDeletes } = passedDocument(input.document); // document_passes.ts
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
  const links = withOwnAccount(doc, { ...inferredLinks(doc, ops), login: loginOf(doc, ops) }, ops);
  const parented = withAccountParent(doc, ops, withOwnRead(doc, ops, links));
  const inferred = withAccountSubject(doc, withSignInSignUps(doc, ops, parented));
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
  const { files, flows, seconds, signIn } = writeFlows(doc, kept, shared, left);
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
      ...inferredLines(doc, inferred, ops, new Set([...seconds, ...manyDeletes])),
      ...webhooksOf(doc),
      ...leftOutLines(stopping, unsendable, ambiguous),
      ...(signIn ? { signIn } : {}),
      ...namedWrites(bodilessWrites(doc, kept), shared.admins, undescribedBodies(doc, kept)),
    },
  };
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
): Written {
  const fileNames = new UniqueNames();
  const flowNames = new Set<string>();
  const files: OutFile[] = [];
  const flows: OpenApiSummary["flows"] = [];
  const seconds = new Set<string>();
  const groups = flowGroups(doc, ops).map((g) => ({
    ...g,
    group: g.ops,
    ...withPrerequisites(g.ops, doc, shared.inferred),
  }));
  const once = signInOnce(shared, groups.map((g) => g.ops));
  for (const { tag, under, ops: all, group } of groups) {
    // A flow signing in with the run's one sign-in does not send it (sign_in_once.ts).
    const setup = once?.serves(all, doc) ? once : undefined;
    const steps = setup ? all.filter((op) => !setup.ops.has(op)) : all;
    if (steps.length === 0) continue;
    const added = steps.filter((op) => !group.includes(op)).length;
    const { name, file } = flowNaming(tag, under, title, { flowNames, fileNames });
    shared.flow = { own: new Set(group), all: new Set(all) };
    const builder = new FlowBuilder(file, shared, setup);
    // An operation ending what an earlier one ended gets its own item (second_producer.ts).
    const own = ownItems(all, shared.inferred);
    for (const op of all) builder.add(op, own.get(op));
    for (const { why } of own.values()) seconds.add(why);
    const header = [
      `Generated by flowrun convert openapi from ${source} (${title}).`,
      whichOperations(tag, under),
      "Set BASE_URL to the API's origin; the flows add the server's base path.",
      ...(setup ? [SIGNED_IN] : []),
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
  if (!once) return { files, flows, seconds };
  const head = [`Generated by flowrun convert openapi from ${source} (${title}).`, ...SIGN_IN_HEAD];
  files.push({ path: SIGN_IN_FILE, text: once.text(head) });
  const hands = once.login.session ? "session cookie" : "token";
  return { files, flows, seconds, signIn: { file: SIGN_IN_FILE, steps: once.ops.size, hands } };
}

/** A flow's name (its tag's, else the API's) and file name, each unique. */
function flowNaming(
  tag: string | undefined,
  under: string | undefined,
  title: string,
  taken: { flowNames: Set<string>; fileNames: UniqueNames },
): { name: string; file: string } {
  // The operations on the root path (`/`) stay named for the API.
  // A blank tag (Bungie's "") names no flow: the flow is named for the API.
  const base = tag?.trim() ||
    (under === undefined || under === "/" ? title : `${title} ${under}`);
  let name = base;
  for (let n = 2; taken.flowNames.has(name); n++) name = `${base} (${n})`;
  taken.flowNames.add(name);
  // A tag may be a pasted paragraph; a file name past 255 bytes cannot be written.
  const stem = (under === undefined ? snake(name) : snake(under) || snake(name))
    .slice(0, 70).replace(/_+$/, "");
  return { name, file: `${taken.fileNames.take(stem || "api")}.yaml` };
}

/** The header line saying which operations a flow holds. */
function whichOperations(tag: string | undefined, under: string | undefined): string {
  return tag !== undefined
    ? `The operations tagged "${tag}".`
    : under === undefined
    ? "The operations without a tag, in one flow named for the API."
    : `The operations without a tag under ${under}.`;
}

/** What `writeFlows` wrote: the files, the flows, the second producers' lines, the setup flow. */
interface Written {
  files: OutFile[];
  flows: OpenApiSummary["flows"];
  seconds: Set<string>;
  signIn?: OpenApiSummary["signIn"];
}

/** The line of a flow that signs in through the run's setup flow. */
const SIGNED_IN =
  `It signs in through the setup flow ${SIGN_IN_FILE}: run it as the summary says (--setup).`;

/** The setup flow's header. */
const SIGN_IN_HEAD = [
  "The run's one sign-in, which every flow reads as ${setup.NAME}: run once per run",
  "by --setup, as the summary's command does. Hidden, so a run of the folder never reads it as a",
  "flow. Its steps check only that each is accepted (2xx): when it fails, the run skips every flow.",
];

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

/**
 * The summary's writes sent with no body or with one the document describes nothing of, and the
 * administrators' operations, when any.
 */
function namedWrites(
  bodiless: string[],
  admins: Map<string, string> | undefined,
  undescribed: string[],
): Pick<OpenApiSummary, "bodiless" | "admins" | "undescribed"> {
  return {
    ...(bodiless.length > 0 ? { bodiless } : {}),
    ...(undescribed.length > 0 ? { undescribed } : {}),
    ...(admins ? { admins: [...admins] } : {}),
  };
}
