/**
 * Reads a collection's text into {@linkcode PmCollection}: checks it is a
 * Postman collection of v2.0 or v2.1 (a v1 file, a Postman environment, or
 * other JSON is one sentence naming the fix), and folds the version
 * differences (URLs as text or objects, auth settings as maps or lists,
 * headers as text or lists) into one shape. Folders are walked to at most
 * {@linkcode MAX_FOLDER_DEPTH} levels.
 *
 * @module
 */
import { jsonProblem, type PostmanInput, PostmanInputError } from "./errors.ts";
import { MAX_FOLDER_DEPTH } from "./limits.ts";
import type { PmCollection, PmRequest, PmScript, PmUnit } from "./model.ts";
import { auth, body, events, headers, pairs, str, url, withPathVariables } from "./fields.ts";
import { markPlaceholderHeaders } from "./header_evidence.ts";
import { markRefusedCredentials } from "./refused_credentials.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Parses JSON text; a syntax error is a {@linkcode PostmanInputError} of that
 * input, saying where, never quoting the text.
 *
 * @example
 * ```ts
 * import { parseJson } from "./input.ts";
 * if ((parseJson("{\"a\": 1}", "collection") as { a: number }).a !== 1) throw new Error();
 * ```
 */
export function parseJson(text: string, input: PostmanInput): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new PostmanInputError(
      input,
      `The ${input === "collection" ? "collection" : `${input} file`} is not JSON: ${
        jsonProblem(error)
      }.`,
      "Export it from Postman (Export → Collection v2.1, or the environment's Export) and give that .json file.",
    );
  }
}

/** One sentence for JSON that is not a v2 collection; `undefined` when it is one. */
function notACollection(doc: unknown): string | undefined {
  if (!isObject(doc)) return "The file is JSON but not a Postman collection (it is not an object).";
  const schema = isObject(doc.info) ? str(doc.info.schema) : "";
  if (/collection\/v1/.test(schema) || Array.isArray(doc.requests) || Array.isArray(doc.order)) {
    return "The file is a Postman collection in the v1 format, which is not read.";
  }
  if (Array.isArray(doc.values) && !Array.isArray(doc.item)) {
    return "The file is a Postman environment, not a collection; give it with --environment.";
  }
  if (!Array.isArray(doc.item)) {
    return 'The file is JSON but not a Postman collection (it has no "item" list).';
  }
  if (schema && !/collection\/v2\.[01]/.test(schema)) {
    return `The file names the collection schema "${schema}", which is not v2.0 or v2.1.`;
  }
  return undefined;
}

/**
 * The collection in `text`, with its units in collection order.
 *
 * @example
 * ```ts
 * import { readCollection } from "./input.ts";
 * const c = readCollection(JSON.stringify({
 *   info: { name: "Shop", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" },
 *   item: [{ name: "Orders", item: [{ name: "List", request: { method: "GET", url: "{{base}}/orders" } }] }],
 * }));
 * if (c.units[0].folder !== "Orders" || c.units[0].requests[0].url !== "{{base}}/orders") throw new Error();
 * ```
 */
export function readCollection(text: string): PmCollection {
  const parsed = parseJson(text, "collection");
  // The Postman API (and some exports) wrap the collection: {"collection": {info, item}}.
  const doc =
    isObject(parsed) && isObject(parsed.collection) && Array.isArray(parsed.collection.item)
      ? parsed.collection
      : parsed;
  const problem = notACollection(doc);
  if (problem) {
    throw new PostmanInputError(
      "collection",
      problem,
      "Export the collection from Postman or Bruno as Collection v2.1 and convert that file.",
    );
  }
  const root = doc as Json;
  const info = isObject(root.info) ? root.info : {};
  const schema = str(info.schema);
  const walk = new Walk();
  const rootScope: Scope = {
    folders: [],
    scripts: events(root.event, "collection"),
    auth: auth(root.auth),
    authFrom: "collection",
    followRedirects: followRedirects(root, undefined),
  };
  walk.variables.push(...pairs(root.variable ?? root.variables));
  const units = walk.units(root.item as unknown[], rootScope);
  if (units.every((u) => u.requests.length === 0)) {
    throw new PostmanInputError(
      "collection",
      "The collection has no requests (its folders, if any, are empty).",
      "Export the collection that holds the requests, or add requests to this one in Postman.",
    );
  }
  return {
    name: str(info.name) || str(root.name) || "collection",
    version: /v2\.0/.test(schema) ? "2.0" : "2.1",
    variables: walk.variables,
    units: markRefusedCredentials(markPlaceholderHeaders(units)),
    depth: walk.depth,
  };
}

interface Scope {
  folders: string[];
  scripts: PmScript[];
  auth?: ReturnType<typeof auth>;
  authFrom?: string;
  /** `protocolProfileBehavior.followRedirects` of the nearest level that sets it. */
  followRedirects?: boolean;
}

/** An item's `protocolProfileBehavior.followRedirects`, if it sets it. */
function followRedirects(item: Json, outer: boolean | undefined): boolean | undefined {
  const behavior = isObject(item.protocolProfileBehavior) ? item.protocolProfileBehavior : {};
  return typeof behavior.followRedirects === "boolean" ? behavior.followRedirects : outer;
}

/** The walk over folders: what they declare, how deep they go. */
class Walk {
  variables: ReturnType<typeof pairs> = [];
  depth = 0;

  units(items: unknown[], scope: Scope): PmUnit[] {
    const units: PmUnit[] = [];
    for (const item of items) {
      if (!isObject(item)) continue;
      if (Array.isArray(item.item)) {
        units.push({ folder: folderName(item), requests: this.folder(item, scope, 1) });
      } else {
        const loose = units.at(-1);
        const request = this.request(item, scope);
        if (loose && loose.folder === undefined) loose.requests.push(request);
        else units.push({ requests: [request] });
      }
    }
    return units;
  }

  folder(item: Json, outer: Scope, depth: number): PmRequest[] {
    if (depth > MAX_FOLDER_DEPTH) {
      throw new PostmanInputError(
        "collection",
        `The folder "${folderName(item)}" is nested more than ${MAX_FOLDER_DEPTH} levels deep.`,
        "Move its requests into a shallower folder and export the collection again.",
      );
    }
    this.depth = Math.max(this.depth, depth);
    const name = folderName(item);
    this.variables.push(...pairs(item.variable));
    const own = auth(item.auth);
    const scope: Scope = {
      folders: [...outer.folders, name],
      scripts: [...outer.scripts, ...events(item.event, name)],
      auth: own && own.type !== "inherit" ? own : outer.auth,
      authFrom: own && own.type !== "inherit" ? name : outer.authFrom,
      followRedirects: followRedirects(item, outer.followRedirects),
    };
    const out: PmRequest[] = [];
    for (const child of item.item as unknown[]) {
      if (!isObject(child)) continue;
      if (Array.isArray(child.item)) out.push(...this.folder(child, scope, depth + 1));
      else out.push(this.request(child, scope));
    }
    return out;
  }

  request(item: Json, scope: Scope): PmRequest {
    const raw = isObject(item.request) ? item.request : { url: item.request };
    const own = auth(raw.auth);
    const inherits = !own || own.type === "inherit";
    return {
      name: str(item.name) || "request",
      folders: scope.folders,
      method: (str(raw.method) || "GET").toUpperCase(),
      url: withPathVariables(url(raw.url), raw.url),
      headers: headers(raw.header),
      body: body(raw.body),
      auth: inherits ? scope.auth : own,
      authFrom: inherits ? scope.authFrom : "request",
      scripts: [...scope.scripts, ...events(item.event, str(item.name) || "request")],
      followRedirects: followRedirects(item, scope.followRedirects),
    };
  }
}

function folderName(item: Json): string {
  return str(item.name) || "folder";
}
