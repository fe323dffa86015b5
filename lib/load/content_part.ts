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
import type { Loading } from "./context.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { plainString } from "./not_allowed.ts";
import { isMap, isSeq } from "./nodes.ts";
import { describe } from "./describe.ts";

/**
 * Reads `{content, filename?, content_type?}`; a map or list as content is a
 * problem (the part is text). Without `content_type`, a filename's part is
 * `application/octet-stream`, as curl sends a file it cannot name.
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
  const part = ctx.map(v, `part "${e.key}" of ${what}`, "part", [
    "content",
    "content_type",
    "filename",
  ], { required: ["content"] });
  const content = part?.get("content");
  if (!part || !content) return undefined;
  const node = ctx.deref(content.value);
  if (isMap(node) || isSeq(node)) {
    ctx.problem(
      "wrong-type",
      `Expected "content" of part "${e.key}" of ${what} to be text, got ${describe(node)}.`,
      node,
      'For example: {content: "${steps.export.capture.snapshot}", filename: snapshot.json}',
    );
    return undefined;
  }
  const value = ctx.value(node, owner);
  if (!value) return undefined;
  const type = part.get("content_type");
  const name = part.get("filename");
  const filename = name && plainString(ctx, name, `"filename" of part "${e.key}"`);
  const contentType = type && plainString(ctx, type, `"content_type" of part "${e.key}"`);
  return {
    name: e.key,
    kind: "content",
    value,
    ...(filename !== undefined ? { filename } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
  };
}
