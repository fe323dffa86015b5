/**
 * An assert's `schema` (inline or a file) and `openapi` (a file): the
 * document read and parsed at load time, so a missing or malformed file is a
 * problem before anything is sent. Compiling it is schema_compile.ts's part.
 *
 * @module
 */
import { isMap } from "./nodes.ts";
import { yamlEngine } from "./yaml_engine.ts";
import { parseBounded } from "./yaml_limits.ts";
import type { SchemaCheck } from "../model/flow.ts";
import { MAX_DEPTH, MAX_DOCUMENT_BYTES } from "../model/limits.ts";
import type { Loading } from "./context.ts";
import type { Entry } from "./entry.ts";
import { plainString } from "./not_allowed.ts";
import { dropUnnamedRefs } from "./unnamed_refs.ts";
import { pointEmbeddedRefs } from "./embedded_refs.ts";
import { nameBareContent } from "./bare_content.ts";
import { placeSlippedPaths } from "./slipped_paths.ts";

/** Why a document cannot be used, and the fix. */
export interface Unusable {
  why: string;
  hint: string;
}

/**
 * The document of a file's bytes: JSON for a `.json` path, else YAML bounded
 * in depth; or why it cannot be read, and the fix. Also `convert openapi`'s
 * reader of every file a document's `$ref`s name.
 *
 * @example
 * ```ts
 * import { parseDocument } from "./schema_document.ts";
 * import { yamlEngine } from "./yaml_engine.ts";
 * await yamlEngine.load();
 * const got = parseDocument(new TextEncoder().encode("a: [1]"), "s.yaml");
 * if (!("document" in got) || !("why" in parseDocument(new Uint8Array([0xff]), "s.json"))) {
 *   throw new Error();
 * }
 * ```
 */
export function parseDocument(bytes: Uint8Array, path: string): { document: unknown } | Unusable {
  const json = /\.json$/i.test(path);
  // Outside the try: needing the full parser is not a problem of the file (the loader retries).
  const yaml = json ? undefined : yamlEngine.get();
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    // The YAML parser recurses several times per level: bounded first, as flow files are, so a
    // document nested 100,000 deep gets a limit, not the stack's end. (JSON.parse does not
    // recurse: a JSON document may nest up to the schema limit, 1,000 levels.)
    const bounded = yaml && parseBounded(text, undefined, MAX_DEPTH);
    if (bounded && "tooDeepAt" in bounded) {
      const line = text.slice(0, bounded.tooDeepAt).split("\n").length;
      return {
        why:
          `as YAML it nests deeper than ${MAX_DEPTH} levels (line ${line}); a JSON file may nest ` +
          "up to 1,000",
        hint: "A schema that describes deep data recurses through a $ref to itself instead.",
      };
    }
    return { document: json ? JSON.parse(text) : yaml!.parse(text, { merge: true }) };
  } catch (error) {
    return {
      why: `it is not ${json ? "JSON" : "YAML or JSON"} (${
        (error as Error).message.split("\n")[0]
      })`,
      hint: "Write the schema as a JSON or YAML document.",
    };
  }
}

/** What is wrong with a parsed document for its key, if anything. */
function wrongDocument(key: string, document: unknown): Unusable | undefined {
  if (document === null || typeof document !== "object") {
    return {
      why: "it holds no schema object",
      hint: "The file must hold a JSON Schema or an OpenAPI document.",
    };
  }
  if (key === "openapi" && !("paths" in document)) {
    return {
      why: 'it has no "paths", so it is not an OpenAPI document',
      hint: "Give the OpenAPI 3 document of the API.",
    };
  }
  return undefined;
}

/**
 * An OpenAPI document from a file's bytes (`--openapi`), or why it cannot
 * be used and the fix: read as `openapi:` checks read theirs.
 *
 * @example
 * ```ts
 * import { openApiDocument } from "./schema_document.ts";
 * const bytes = new TextEncoder().encode('{"openapi": "3.1.0", "paths": {}}');
 * if (!("document" in openApiDocument(bytes, "api.json"))) throw new Error();
 * const wrong = openApiDocument(new TextEncoder().encode("{}"), "api.json");
 * if (!("why" in wrong) || !wrong.why.includes("no \"paths\"")) throw new Error();
 * ```
 */
export function openApiDocument(
  bytes: Uint8Array,
  path: string,
): { document: unknown } | Unusable {
  const parsed = parseDocument(bytes, path);
  if ("why" in parsed) return parsed;
  // Its paths as the flows' checks read them, so coverage names the operations they reached.
  placeSlippedPaths(parsed.document);
  return wrongDocument("openapi", parsed.document) ?? parsed;
}

// The loader reads a file once for all the flows naming it: an OpenAPI document is parsed
// once for all its checks too, so they share one object (compiled once, schema_compile.ts).
const parsedOpenApi = new WeakMap<Uint8Array, Map<boolean, ReturnType<typeof parseDocument>>>();

function parseShared(bytes: Uint8Array, path: string, key: string) {
  if (key !== "openapi") return parseDocument(bytes, path);
  const json = /\.json$/i.test(path);
  const byKind = parsedOpenApi.get(bytes) ?? new Map();
  parsedOpenApi.set(bytes, byKind);
  const known = byKind.get(json);
  if (known) return known;
  const parsed = parseDocument(bytes, path);
  if ("document" in parsed) {
    placeSlippedPaths(parsed.document); // slipped_paths.ts: before any pointer is read
    // Named first: the rewritten pointers then name where the schema stays.
    nameBareContent(parsed.document);
    pointEmbeddedRefs(parsed.document);
    dropUnnamedRefs(parsed.document);
  }
  byKind.set(json, parsed);
  return parsed;
}

/** The file's bytes, or why they could not be read. */
function readDocument(ctx: Loading, path: string) {
  const read = ctx.options.readFile?.(path, ctx.file, MAX_DOCUMENT_BYTES);
  if (!read) {
    return {
      why: "this flow was loaded from its text alone",
      hint: "Load it with loadFlows or the CLI.",
    };
  }
  if ("message" in read) {
    return { why: read.message, hint: "The path is relative to the flow file.", code: read.code };
  }
  return read;
}

/**
 * `schema: {…}` (inline), `schema: schemas/item.json` or
 * `openapi: api/openapi.yaml`: the document, read and parsed now so a
 * missing or malformed file is a problem before anything is sent.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {openapi: api.yaml}\n",
 *   "f.yaml",
 * );
 * if (!problems[0]?.message.includes("loaded from its text alone")) throw new Error();
 * ```
 */
export function loadSchemaCheck(ctx: Loading, entry: Entry, what: string): SchemaCheck[] {
  const node = ctx.deref(entry.value);
  const at = { file: ctx.file, ...ctx.at(entry.keyNode) };
  if (entry.key === "schema" && isMap(node)) {
    return [{ kind: "schema", source: "the inline schema", schema: node.toJSON(), ...at }];
  }
  const path = plainString(ctx, entry, `"${entry.key}" in ${what}`);
  if (path === undefined) return [];
  const read = readDocument(ctx, path);
  const parsed = "bytes" in read ? parseShared(read.bytes, path, entry.key) : read;
  const unusable = "why" in parsed ? parsed : wrongDocument(entry.key, parsed.document);
  if (unusable || !("document" in parsed)) {
    ctx.problem(
      ("code" in read && read.code) || "file-read",
      `Could not use "${path}" for "${entry.key}" in ${what}: ${unusable?.why}.`,
      node,
      unusable?.hint,
    );
    return [];
  }
  const { document } = parsed;
  return entry.key === "schema"
    ? [{ kind: "schema", source: path, schema: document, ...at }]
    : [{ kind: "openapi", source: path, document, ...at }];
}
