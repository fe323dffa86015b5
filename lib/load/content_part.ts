/**
 * A multipart part whose bytes are text the flow holds, `{content, filename?,
 * content_type?}`: an earlier answer a capture holds, sent as a file part
 * (with a filename) or as a part with neither filename nor type (without),
 * its line breaks as they are. A text field's line breaks go out as CRLF, as
 * a browser's form sends them; a file's bytes never change, so an answer
 * saved to a file and sent again (`curl -F f=@saved`, `-F 'f=<saved'`) must
 * keep its own.
 *
 * @module
 */
import type { YAMLMap } from "yaml";
import type { MultipartPart } from "../model/flow.ts";
import type { ValueTemplate } from "../expr/template.ts";
import { fromBase64 } from "../_util/base64.ts";
import type { Loading } from "./context.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { plainString } from "./not_allowed.ts";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { describe } from "./describe.ts";

/**
 * Reads `{content, filename?, content_type?}` or `{content_base64, filename,
 * content_type?}`; a map or list as content is a problem (the part is text).
 * Without `content_type`, a filename's part is `application/octet-stream`, as
 * curl sends a file it cannot name. Bytes are a file's: `content_base64`
 * needs its `filename`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", method: POST, multipart: {f: {content: "a\\nb", filename: a.json}}}\n',
 *   "f.yaml",
 * );
 * const part = flow?.steps[0].request.multipart?.[0];
 * if (part?.kind !== "content" || part.filename !== "a.json") throw new Error();
 * ```
 */
export function contentPart(
  ctx: Loading,
  e: Entry,
  v: YAMLMap,
  what: string,
  owner: TemplateUse["owner"],
): MultipartPart | undefined {
  const bytes = ctx.entries(v).some((p) => p.key === "content_base64");
  const key = bytes ? "content_base64" : "content";
  const part = ctx.map(v, `part "${e.key}" of ${what}`, "part", [
    key,
    "content_type",
    "filename",
  ], { required: bytes ? [key, "filename"] : [key] });
  const content = part?.get(key);
  if (!part || !content) return undefined;
  const value = bytes
    ? base64Text(ctx, content, `"content_base64" of part "${e.key}" of ${what}`, owner)
    : textValue(ctx, content, `"content" of part "${e.key}" of ${what}`, owner);
  if (!value) return undefined;
  const type = part.get("content_type");
  const name = part.get("filename");
  const filename = name && plainString(ctx, name, `"filename" of part "${e.key}"`);
  const contentType = type && plainString(ctx, type, `"content_type" of part "${e.key}"`);
  if (bytes && filename === undefined) return undefined;
  const typed = contentType !== undefined ? { contentType } : {};
  return bytes ? { name: e.key, kind: "base64", value, filename: filename!, ...typed } : {
    name: e.key,
    kind: "content",
    value,
    ...(filename !== undefined ? { filename } : {}),
    ...typed,
  };
}

/** A part's text: a value, not a map or list. */
function textValue(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
): ValueTemplate | undefined {
  const node = ctx.deref(entry.value);
  if (isMap(node) || isSeq(node)) {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be text, got ${describe(node)}.`,
      node,
      'For example: {content: "${steps.export.capture.snapshot}", filename: snapshot.json}',
    );
    return undefined;
  }
  return ctx.value(node, owner);
}

/**
 * Base64 text (`body_base64`, a part's `content_base64`): a string, most often
 * an expression (`${steps.export.capture.dump}` of a `{body: base64}`
 * capture); written text that is not base64 is a problem now, an
 * expression's value is checked when the request is made.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow, problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", method: POST, body_base64: "H4sI"}\n',
 *   "f.yaml",
 * );
 * if (problems.length !== 0 || flow?.steps[0].request.bodyBase64?.kind !== "const") throw new Error();
 * ```
 */
export function base64Text(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
): ValueTemplate | undefined {
  const node = ctx.deref(entry.value);
  const written = isScalar(node) ? node.value : undefined;
  if (isMap(node) || isSeq(node) || (written !== undefined && typeof written !== "string")) {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be base64 text, got ${describe(node)}.`,
      node ?? entry.keyNode,
      'For example: body_base64: "${steps.export.capture.dump}", of a capture {dump: {body: base64}}.',
    );
    return undefined;
  }
  const value = ctx.value(node, owner);
  if (value?.kind === "const" && typeof value.value === "string" && !fromBase64(value.value)) {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be base64 text (RFC 4648).`,
      node ?? entry.keyNode,
      "Write the bytes as base64 (A-Z, a-z, 0-9, + and /, = to pad), or capture them with {body: base64}.",
    );
    return undefined;
  }
  return value;
}
