/**
 * The request of `flowrun send` as a flow file: what is loaded, checked and
 * run to send it, and what `--flow` prints. One text for both, so the
 * printed flow sends the same bytes when a suite runs it. Values stay as
 * written (`${ENV.TOKEN}`, not the token); the YAML is written by the
 * converter's writer (`lib/convert/yaml_out.ts`), which always reads back
 * as the same values.
 *
 * @module
 */
import { toYaml, type YMap, ymap, type YNode } from "../../lib/convert/yaml_out.ts";
import { shellWord } from "../../lib/http/curl.ts";
import { NAME_PATTERN } from "../../lib/model/names.ts";
import type { SendBody, SendRequest } from "./request.ts";

/** The request's body as flow keys: `body`, `body_file` or `form`. */
function bodyEntry(body: SendBody | undefined): [string, YNode | undefined] {
  if (!body) return ["body", undefined];
  if (body.kind === "file") return ["body_file", body.path];
  if (body.kind === "form") return ["form", ymap(body.fields)];
  return ["body", body.text];
}

/**
 * A step name for the request: its method and the last word of its path
 * (`post_items`), or only the method when the path ends in no plain word.
 *
 * @example
 * ```ts
 * import { stepName } from "./flow.ts";
 * if (stepName("POST", "http://x.test/v1/items?page=2") !== "post_items") throw new Error();
 * if (stepName("GET", "${ENV.BASE_URL}/") !== "get") throw new Error();
 * ```
 */
export function stepName(method: string, url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/[?#].*$/, "");
  const word = path.split("/").filter(Boolean).at(-1);
  const name = `${method.toLowerCase()}_${word ?? ""}`.replace(/_$/, "");
  return NAME_PATTERN.test(name)
    ? name
    : NAME_PATTERN.test(method.toLowerCase())
    ? method.toLowerCase()
    : "send";
}

/**
 * The flow file of one request: a comment saying how to run it (with the
 * run options given to `send`, `runArgs`), then a flow of one step.
 *
 * @example
 * ```ts
 * import { sendFlow } from "./flow.ts";
 * const text = sendFlow({
 *   method: "POST",
 *   url: "${ENV.BASE_URL}/items",
 *   headers: [["content-type", "application/json"]],
 *   body: { kind: "text", text: '{"name": "box"}' },
 *   follow: false,
 * }, ["--timeout", "5s"]);
 * if (!text.includes("#   flowrun run FILE --timeout 5s\n")) throw new Error(text);
 * if (!text.includes("      body: '{\"name\": \"box\"}'\n")) throw new Error(text);
 * ```
 */
export function sendFlow(request: SendRequest, runArgs: readonly string[]): string {
  const name = stepName(request.method, request.url);
  const requestMap: YMap = ymap([
    ["method", request.method],
    ["url", request.url],
    ["headers", request.headers.length > 0 ? ymap(request.headers) : undefined],
    bodyEntry(request.body),
  ]);
  const step = ymap([
    ["name", name],
    ["request", requestMap],
    ["options", request.follow ? ymap([["follow_redirects", true]]) : undefined],
  ]);
  const run = ["flowrun", "run", "FILE", ...runArgs.map(shellWord)].join(" ");
  return toYaml(
    ["The request flowrun send sent, as a flow. Save it and run it with:", `  ${run}`],
    ymap([["name", name], ["steps", [step]]]),
  );
}
