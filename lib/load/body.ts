/**
 * A request's body beyond JSON: `form` (URL-encoded), `multipart` (fields
 * and files), `body_file` (a file's bytes) and `graphql` (`query`,
 * `variables`, `operation_name`). At most one body per request; files are
 * read when the flow loads, relative to the flow file, so a missing one is a
 * problem before anything is sent.
 *
 * @module
 */
import type { Node, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import type { Template, ValueTemplate } from "../expr/template.ts";
import type { DataFile, MultipartPart, RequestSpec } from "../model/flow.ts";
import { readBesideFlow } from "./flow_file.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { getOwn } from "../_util/own_property.ts";
import { plainString, refuseExpression } from "./not_allowed.ts";
import { lossyNumber } from "./quote_hint.ts";
import { fieldName } from "./field_name.ts";
import { base64Text, contentPart } from "./content_part.ts";
import { sniffedType } from "./sniffed_type.ts";
import { HTTP_BODY_KEYS } from "../kinds/mod.ts";

/** The request keys that each give a body: the `request:` kind's own list. */
export const BODY_KEYS = HTTP_BODY_KEYS;

/**
 * Content types by file extension, for multipart files that do not name one.
 *
 * @example
 * ```ts
 * import { CONTENT_TYPES } from "./body.ts";
 * if (CONTENT_TYPES.png !== "image/png") throw new Error();
 * ```
 */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  json: "application/json",
  xml: "application/xml",
  csv: "text/csv",
  txt: "text/plain",
  html: "text/html",
  zip: "application/zip",
};

/**
 * The body keys of a request: the parts of its spec they set.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", method: POST, body: {a: 1}}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[0].request.body?.kind !== "const") throw new Error();
 * ```
 */
export function loadBody(
  ctx: Loading,
  map: Map<string, Entry>,
  label: string,
  owner: TemplateUse["owner"],
): Pick<RequestSpec, "body" | "form" | "multipart" | "bodyFile" | "bodyBase64" | "graphql"> {
  const given = BODY_KEYS.filter((k) => map.has(k));
  if (given.length > 1) {
    ctx.problem(
      "conflicting-keys",
      `"${given[1]}" and "${given[0]}" of ${label} both give the request a body.`,
      map.get(given[1])!.keyNode,
      "A request has one body: keep one of them.",
    );
    return {};
  }
  const key = given[0];
  const entry = key && map.get(key)!;
  if (!entry) return {};
  switch (key) {
    case "body":
      return { body: ctx.value(entry.value, owner) };
    case "form":
      return {
        form: valuePairs(ctx, entry, {
          what: `"form" of ${label}`,
          item: "field",
          example: 'For example: form: {user: ann, password: "${ENV.PASSWORD}"}',
          listHint: "A list repeats the field (tag: [a, b]); send structured data as JSON in body.",
          templateNames: true,
        }, owner),
      };
    case "multipart":
      return { multipart: parts(ctx, entry, label, owner) };
    case "body_file": {
      const file = dataFile(ctx, entry, `"body_file" of ${label}`);
      return file ? { bodyFile: file } : {};
    }
    case "body_base64": {
      const value = base64Text(ctx, entry, `"body_base64" of ${label}`, owner);
      return value ? { bodyBase64: value } : {};
    }
    case "graphql":
      return graphql(ctx, entry, label, owner);
  }
}

/** How a map of names to values is named in its messages: a form's fields, a query's parameters. */
export interface PairsWording {
  /** What the whole map is, e.g. `"form" of step "s"`. */
  what: string;
  /** What one entry is: `field`, `query parameter`. */
  item: string;
  /** The hint for a map that is not one. */
  example: string;
  /** The hint for an entry that is not a value or a list of values. */
  listHint: string;
  /** Whether a name may hold `${…}` (a form's `chk_${…}`); else one that does is refused. */
  templateNames?: boolean;
}

/**
 * A map of names to values or lists of values (a form's fields, a URL's
 * query parameters): each entry, a list to be sent as the name repeated.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", method: POST, form: {q: [a, b]}}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[0].request.form?.[0][1].kind !== "const") throw new Error();
 * ```
 */
export function valuePairs(
  ctx: Loading,
  entry: Entry,
  wording: PairsWording,
  owner: TemplateUse["owner"],
): [string, ValueTemplate, Template?][] {
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected ${wording.what} to be a map of ${wording.item}s, got ${describe(node)}.`,
      node ?? entry.keyNode,
      wording.example,
    );
    return [];
  }
  const out: [string, ValueTemplate, Template?][] = [];
  for (const e of ctx.entries(node)) {
    // A query's names are sent as written: an expression in one is refused, not sent as "${…}".
    const named = wording.templateNames
      ? fieldName(ctx, e, owner)
      : refuseExpression(ctx, e.keyNode, `A ${wording.item} name in ${wording.what}`)
      ? undefined
      : { name: e.key };
    if (!named) continue;
    const v = ctx.deref(e.value);
    const bad = isMap(v)
      ? v
      : isSeq(v)
      ? v.items.map((i) => ctx.deref(i)).find((i) => !isScalar(i))
      : undefined;
    if (bad !== undefined) {
      ctx.problem(
        "wrong-type",
        `Expected ${wording.item} "${e.key}" of ${wording.what} to be a value or a list of values, got ${
          describe(bad)
        }.`,
        bad ?? e.keyNode,
        wording.listHint,
      );
      continue;
    }
    // A query or form value is sent as text: a number that loses its text (1.10) is a problem.
    lossyNumber(ctx, { ...e, value: v }, `The ${wording.item} "${e.key}" of ${wording.what}`);
    const value = ctx.value(v, owner);
    if (value) out.push(named.nameFrom ? [named.name, value, named.nameFrom] : [named.name, value]);
  }
  return out;
}

/** A text part: a value, not a list. */
function fieldPart(
  ctx: Loading,
  e: Entry,
  v: Node | null,
  what: string,
  owner: TemplateUse["owner"],
): MultipartPart | undefined {
  const value = isSeq(v) ? undefined : ctx.value(v, owner);
  if (value) return { name: e.key, kind: "field", value };
  ctx.problem(
    "wrong-type",
    `Expected part "${e.key}" of ${what} to be a value or {file: …}, got ${describe(v)}.`,
    v ?? e.keyNode,
    "A text field is a value; a file is {file: path, content_type: …, filename: …}.",
  );
  return undefined;
}

/** A repeated field's item that is a list: each item is one part, a value or a file. */
function listItemProblem(ctx: Loading, e: Entry, item: Node | null, what: string): void {
  ctx.problem(
    "wrong-type",
    `Expected each item of part "${e.key}" of ${what} to be a value or a file, got ${
      describe(item)
    }.`,
    item ?? e.keyNode,
    "A list repeats a field, one part per item: active: [off, on], or files: [{file: a.txt}, {file: b.txt}].",
  );
}

/** A file part, `{file, content_type?, filename?}`: the type from the extension (else its first bytes), the name from the path, unless given. */
function filePart(ctx: Loading, e: Entry, v: YAMLMap, what: string): MultipartPart | undefined {
  const part = ctx.map(v, `part "${e.key}" of ${what}`, "part", [
    "file",
    "content_type",
    "filename",
  ], { required: ["file"] });
  const fileEntry = part?.get("file");
  const file = fileEntry && dataFile(ctx, fileEntry, `the file of part "${e.key}"`);
  if (!part || !file) return undefined;
  const type = part.get("content_type");
  const name = part.get("filename");
  const base = file.path.split("/").at(-1)!;
  // A name of no known type (`.bin`, a converter's placeholder) says nothing: the bytes may.
  const contentType = (type && plainString(ctx, type, `"content_type" of part "${e.key}"`)) ??
    getOwn(CONTENT_TYPES, base.split(".").at(-1)!.toLowerCase()) ?? sniffedType(file.bytes) ??
    "application/octet-stream";
  // `filename: ""` is what a browser (and Newman) sends for a file input with no file chosen.
  const none = name !== undefined && isScalar(name.value) && name.value.value === "";
  const filename = none
    ? ""
    : (name && plainString(ctx, name, `"filename" of part "${e.key}"`)) ?? base;
  return { name: e.key, kind: "file", file, contentType, filename };
}

/** `multipart`: text fields, files as `{file, content_type?, filename?}`, `{content, …}` and `{content_base64, …}` parts. */
function parts(
  ctx: Loading,
  entry: Entry,
  label: string,
  owner: TemplateUse["owner"],
): MultipartPart[] {
  const what = `"multipart" of ${label}`;
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be a map of fields and files, got ${describe(node)}.`,
      node ?? entry.keyNode,
      "For example: multipart: {title: Holiday, photo: {file: data/photo.png}}",
    );
    return [];
  }
  const out: MultipartPart[] = [];
  for (const e of ctx.entries(node)) {
    const named = fieldName(ctx, e, owner);
    if (!named) continue;
    const v = ctx.deref(e.value);
    // A list repeats the field, one part per item (a checkbox's hidden `off` and its `on`; the
    // files of an `<input type=file multiple>`), each a value or a file as a lone part is.
    if (isSeq(v)) {
      for (const item of v.items) {
        const node = ctx.deref(item as Node | null);
        const one = isSeq(node) ? undefined : onePart(ctx, e, node, what, owner);
        if (isSeq(node)) listItemProblem(ctx, e, node, what);
        if (one) out.push({ ...one, ...named });
      }
      continue;
    }
    const part = onePart(ctx, e, v, what, owner);
    if (part) out.push({ ...part, ...named });
  }
  return out;
}

/** One part: a text field's value, `{content}`/`{content_base64}` text or bytes, or a `{file}`. */
function onePart(
  ctx: Loading,
  e: Entry,
  v: Node | null,
  what: string,
  owner: TemplateUse["owner"],
): MultipartPart | undefined {
  return !isMap(v)
    ? fieldPart(ctx, e, v, what, owner)
    : ctx.entries(v).some((p) => p.key === "content" || p.key === "content_base64")
    ? contentPart(ctx, e, v, what, owner)
    : filePart(ctx, e, v, what);
}

/** A file the flow sends, read now through {@linkcode LoadOptions.readFile}. */
function dataFile(ctx: Loading, entry: Entry, what: string): DataFile | undefined {
  const path = plainString(ctx, entry, what);
  if (path === undefined) return undefined;
  const bytes = readBesideFlow(ctx, entry.value, path, what, "sends");
  return bytes && { path, bytes };
}

/** `graphql: {query, variables, operation_name}`: a JSON body in the GraphQL shape. */
function graphql(
  ctx: Loading,
  entry: Entry,
  label: string,
  owner: TemplateUse["owner"],
): Pick<RequestSpec, "body" | "graphql"> {
  const what = `"graphql" of ${label}`;
  const map = ctx.map(ctx.deref(entry.value), what, "graphql", [
    "query",
    "variables",
    "operation_name",
  ], { required: ["query"], anchor: entry.keyNode });
  if (!map) return {};
  const query = map.get("query") && ctx.string(map.get("query"), `"query" of ${what}`);
  const entries: [string, ValueTemplate][] = [];
  if (query !== undefined) {
    const value = ctx.value(map.get("query")!.value, owner);
    if (value) entries.push(["query", value]);
  }
  const variables = map.get("variables");
  if (variables) {
    const node = ctx.deref(variables.value);
    if (!isMap(node)) {
      ctx.problem(
        "wrong-type",
        `Expected "variables" of ${what} to be a map, got ${describe(node)}.`,
        node ?? variables.keyNode,
        'For example: variables: {id: "${steps.create.id}"}',
      );
    } else {
      const value = ctx.value(node, owner);
      if (value) entries.push(["variables", value]);
    }
  }
  const operation = map.get("operation_name");
  if (operation) {
    const name = plainString(ctx, operation, `"operation_name" of ${what}`);
    if (name !== undefined) entries.push(["operationName", { kind: "const", value: name }]);
  }
  return { body: { kind: "map", entries }, graphql: true };
}
