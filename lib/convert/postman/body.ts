/**
 * A Postman body in the flow format's own spelling: raw JSON → `body` (a
 * map, `{{x}}` inside strings and as whole values both carried over; typed
 * `text/plain` when no language is named, as Newman sends it), other
 * raw text → `body` text, urlencoded → `form`, form-data → `multipart`
 * (files as `{file}`), binary → `body_file`, GraphQL → `graphql`.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import type { PmBody, PmPair } from "./model.ts";
import { render } from "./template.ts";
import { table } from "../table.ts";
import { notReadAsFlow } from "../uploads.ts";
import { keepsType } from "./dynamic.ts";
import { partType } from "./file_types.ts";
import type { Known, Typed } from "./typed_value.ts";
// A flow's builder gives its bodies what they read of its variables by this (typed_value.ts).
export { bodyValues } from "./typed_value.ts";

/** A body as request fields, with the files it reads and what could not be carried. */
export interface BodyOut {
  fields: [string, YNode][];
  /** Paths (relative to the flow) of files the body reads: written as placeholders. */
  files: string[];
  /** The content type the body implies, when the request sets none. */
  contentType?: string;
  notes: string[];
}

type Resolve = (name: string, written?: string) => string;

const MARK = "\ue000";
/** A placeholder written outside a JSON string (`"n": {{n}}`): its text is JSON there. */
const BARE = "\ue001";
/** Text that is a JSON number (of no more digits than a double keeps), boolean or null. */
const SCALAR = /^(-?(0|[1-9]\d{0,14})(\.\d{1,15})?|true|false|null)$/;

/**
 * Raw text that is JSON once its `{{x}}` are read as values: the value, with
 * each `{{x}}` rendered; `undefined` when it is not JSON.
 *
 * @example
 * ```ts
 * import { jsonBody } from "./body.ts";
 * const v = jsonBody('{"n": {{count}}, "s": "a {{b}}"}', (n) => `\${vars.${n}}`);
 * if (JSON.stringify(v) !== '{"n":"${vars.count}","s":"a ${vars.b}"}') throw new Error(JSON.stringify(v));
 * ```
 */
export function jsonBody(raw: string, resolve: Resolve): unknown {
  const names: Placeholder[] = [];
  let text = "";
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === "{" && raw[i + 1] === "{") {
      const end = raw.indexOf("}}", i + 2);
      if (end > 0 && !raw.slice(i + 2, end).includes("{")) {
        const placeholder = { name: raw.slice(i + 2, end).trim(), written: raw.slice(i, end + 2) };
        // Inside a string the server reads the text as JSON: `\"` arrives as `"`.
        if (inString) placeholder.written = decoded(placeholder.written);
        const at = names.push(placeholder) - 1;
        text += inString ? `${MARK}${at}${MARK}` : `"${BARE}${at}${BARE}"`;
        i = end + 1;
        continue;
      }
    }
    if (c === "\\" && inString) {
      text += c + (raw[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === '"') inString = !inString;
    text += c;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  try {
    return fill(value, names, resolve);
  } catch (error) {
    // Nested past the stack: such a body is sent as the text it is.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** A `{{…}}` of a JSON body: its name, and its text as the server reads it. */
interface Placeholder {
  name: string;
  written: string;
}

/** The text a JSON string's raw characters stand for; the raw text when they are no valid string. */
function decoded(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`);
  } catch {
    return raw;
  }
}

function fill(value: unknown, names: Placeholder[], resolve: Resolve): unknown {
  const bare = typeof value === "string" ? value.match(new RegExp(`^${BARE}(\\d+)${BARE}$`)) : null;
  if (bare) {
    // Newman puts the value's text there: a number, boolean or null known now is that JSON value.
    const text = resolve(names[Number(bare[1])].name, names[Number(bare[1])].written);
    return SCALAR.test(text) ? JSON.parse(text) : text;
  }
  if (typeof value === "string") {
    return value.replaceAll("${", () => "$${").replace(
      new RegExp(`[${MARK}${BARE}](\\d+)[${MARK}${BARE}]`, "g"),
      (_, i) => resolve(names[Number(i)].name, names[Number(i)].written),
    );
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, names, resolve));
  if (typeof value === "object" && value !== null) {
    // Keys may hold placeholders too (`{"{{field}}": 1}`).
    return Object.fromEntries(
      Object.entries(value).map((
        [k, v],
      ) => [fill(k, names, resolve) as string, fill(v, names, resolve)]),
    );
  }
  return value;
}

/**
 * A JSON value as a YAML node: maps keep their order.
 *
 * @example
 * ```ts
 * import { yamlValue } from "./body.ts";
 * import { toYaml, ymap } from "../yaml_out.ts";
 * if (toYaml([], ymap([["body", yamlValue({ a: [1] })]])) !== "body:\n  a: [1]\n") throw new Error();
 * ```
 */
export function yamlValue(value: unknown): YNode {
  if (Array.isArray(value)) return value.map(yamlValue);
  if (typeof value === "object" && value !== null) {
    return ymap(Object.entries(value).map(([k, v]) => [k, yamlValue(v)]));
  }
  return value as YNode;
}

function grouped(pairs: PmPair[], resolve: Resolve): [string, YNode][] {
  const map = new Map<string, string[]>();
  for (const p of pairs) {
    if (p.disabled) continue;
    const list = map.get(p.key) ?? [];
    list.push(render(p.value, resolve));
    map.set(p.key, list);
  }
  return [...map].map(([k, v]) => [render(k, resolve), v.length === 1 ? v[0] : v]);
}

/**
 * A file the collection names, as a path beside the flow (`files/<base name>`),
 * never one `run DIR/` reads as a flow.
 */
function filePath(src: string): string {
  const base = src.split(/[\\/]/).pop()?.replace(/[^\w.-]/g, "_") || "upload.bin";
  return notReadAsFlow(`files/${base.replace(/^\.+/, "_")}`);
}

/** The name Postman sends a file part under (its base name), when the placeholder's differs. */
function sentName(src: string, path: string): string | undefined {
  const base = src.split(/[\\/]/).pop() ?? "";
  return base !== "" && `files/${base}` !== path ? base : undefined;
}

const LANGUAGES = table<string>({
  json: "application/json",
  xml: "application/xml",
  html: "text/html",
  text: "text/plain",
  javascript: "application/javascript",
});

/**
 * The request fields of a body; no fields for an empty one.
 *
 * @example
 * ```ts
 * import { bodyFields } from "./body.ts";
 * const out = bodyFields({ mode: "urlencoded", pairs: [{ key: "a", value: "{{x}}" }] }, (n) => `\${vars.${n}}`);
 * if (out.fields[0][0] !== "form") throw new Error();
 * ```
 */
export function bodyFields(
  body: PmBody,
  resolve: Resolve,
  known: Known = () => undefined,
  typed: Typed = () => false,
): BodyOut {
  const out: BodyOut = { fields: [], files: [], notes: [] };
  switch (body.mode) {
    case "raw":
      return rawBody(body, resolve, out, known, typed);
    case "urlencoded": {
      const form = grouped(body.pairs ?? [], resolve);
      if (form.length > 0) out.fields.push(["form", ymap(form)]);
      return out;
    }
    case "formdata":
      return formData(body.pairs ?? [], resolve, out);
    case "file":
      if (body.file) {
        const path = filePath(body.file);
        out.files.push(path);
        out.fields.push(["body_file", path]);
        out.notes.push(`the body is the file "${body.file}": put it at ${path}`);
      }
      return out;
    case "graphql":
      return graphql(body, resolve, out);
  }
  out.notes.push(`the body mode "${body.mode}" is not converted`);
  return out;
}

function rawBody(
  body: PmBody,
  resolve: Resolve,
  out: BodyOut,
  known: Known,
  typed: Typed,
): BodyOut {
  const raw = body.raw ?? "";
  if (raw.trim() === "") return out;
  const json = body.language === undefined || body.language === "json"
    ? jsonBody(raw, resolve)
    : undefined;
  if (
    json !== undefined && typeof json === "object" && json !== null && exact(json) &&
    !typedInString(body, resolve, typed) && !bareScalars(raw, known)
  ) {
    out.fields.push(["body", yamlValue(json)]);
    // No language is Postman's "Text": Newman sends it as text/plain, however JSON it looks.
    if (body.language === undefined) out.contentType = "text/plain";
    return out;
  }
  out.fields.push(["body", render(raw, resolve)]);
  // JSON whose numbers a parse would change (past 2^53, 1e400) is sent as the text it is, and so
  // is JSON with `"{{$timestamp}}"` or `"{{id}}"` (a captured number): text in Postman, which puts
  // each value's text into the body, a number as "${NOW.UNIX}" alone in a flow's map.
  out.contentType = LANGUAGES[body.language ?? (json !== undefined ? "json" : "text")] ??
    "text/plain";
  return out;
}

/**
 * Whether a `{{x}}` stands outside a JSON string (`"year": {{year}}`) and every such variable's
 * known value is a JSON number, boolean or null: Postman puts the text there, so "2010" is a
 * number to the server, where a map's value would send the variable as the text it holds. Such
 * a body is sent as text. One whose value is not known so stays a map (a value a script sets).
 */
function bareScalars(raw: string, known: Known): boolean {
  const names: string[] = [];
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "\\" && inString) i++;
    else if (raw[i] === '"') inString = !inString;
    else if (!inString && raw.startsWith("{{", i)) {
      const end = raw.indexOf("}}", i + 2);
      if (end < 0) return false;
      names.push(raw.slice(i + 2, end).trim());
      i = end + 1;
    }
  }
  const scalar = (v?: string) => v !== undefined && /^(-?\d+(\.\d+)?|true|false|null)$/.test(v);
  return names.length > 0 && names.every((n) => scalar(known(n)));
}

/**
 * Whether a JSON string of the body is one placeholder (`"{{$timestamp}}"`,
 * `"{{totalprice}}"`) whose value may be a number or a boolean when sent
 * (`${NOW.UNIX}`, a data row's `123`, a captured id): Newman sends its text
 * there, so the server reads a string; a map's value that is exactly one
 * expression would keep the other type.
 */
function typedInString(body: PmBody, resolve: Resolve, typed: Typed): boolean {
  return [...(body.raw ?? "").matchAll(/"(\{\{([^{}]+)\}\})"/g)].some((m) => {
    const expr = resolve(m[2].trim(), decoded(m[1]));
    // JSON.stringify keeps a value's type (`111`), where Postman's `{{x}}` puts in its text.
    return keepsType(expr) || (!body.stringified && typed(m[2].trim(), expr));
  });
}

/** Whether every number of a parsed body is one JSON, and a flow, hold exactly. */
function exact(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === "number") {
    return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value));
  }
  if (typeof value !== "object" || value === null) return true;
  return Object.values(value).every((v) => exact(v, depth + 1));
}

function formData(pairs: PmPair[], resolve: Resolve, out: BodyOut): BodyOut {
  const fields: [string, YNode][] = [];
  for (const p of pairs) {
    if (p.disabled) continue;
    // A part's name is a template in a flow, as Newman resolves it: `{{x}}` read, `${` escaped.
    const name = render(p.key, resolve);
    if (p.type === "file" && !p.src) {
      // No file chosen: Newman sends the part empty with filename="", as a browser does.
      const path = filePath(`${p.key}.bin`);
      out.files.push(path);
      fields.push([name, ymap([["file", path], ["filename", ""]])]);
      out.notes.push(
        `the form field "${p.key}" has no file chosen: sent empty, as Newman sends it`,
      );
    } else if (p.type === "file") {
      const path = filePath(p.src!);
      out.files.push(path);
      const type = partType(p.src!, path, p.contentType);
      fields.push([
        name,
        ymap([["file", path], ["filename", sentName(p.src!, path)], ["content_type", type]]),
      ]);
      out.notes.push(`the form field "${p.key}" uploads "${p.src}": put it at ${path}`);
    } else fields.push([name, render(p.value, resolve)]);
  }
  if (fields.length > 0) out.fields.push(["multipart", ymap(fields)]);
  return out;
}

function graphql(body: PmBody, resolve: Resolve, out: BodyOut): BodyOut {
  const g = body.graphql;
  if (!g || g.query.trim() === "") return out;
  const variables = g.variables?.trim() ? jsonBody(g.variables, resolve) : undefined;
  if (g.variables?.trim() && variables === undefined) {
    out.notes.push("the GraphQL variables are not JSON and were left out");
  }
  out.fields.push([
    "graphql",
    ymap([["query", render(g.query, resolve)], [
      "variables",
      variables === undefined ? undefined : yamlValue(variables),
    ]]),
  ]);
  return out;
}
