/**
 * Spelling A or B of what the converter writes: references to environment
 * variables, vars and captures, JSONPath roots, and capture forms.
 *
 * @module
 */
import type { JsonPath, Source } from "./model.ts";
import { yflow, type YNode, type YScalar } from "./yaml_out.ts";

/**
 * The pattern of a capture of the whole body as text (an answer docs save
 * and send later: `curl_saved.ts`); spelling A writes it `$.body`.
 *
 * @example
 * ```ts
 * import { WHOLE_BODY } from "./spelling.ts";
 * if (new RegExp(WHOLE_BODY).exec("a\nb")?.[0] !== "a\nb") throw new Error();
 * ```
 */
export const WHOLE_BODY = "[\\s\\S]*";

/** A control character, which a JSONPath string must escape. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f]/g;

/** The short escapes of a JSONPath string, which every engine reads. */
const CONTROL_ESCAPES: Record<string, string> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

/**
 * Expressions in one spelling.
 *
 * @example
 * ```ts
 * import { Spelling } from "./spelling.ts";
 * const a = new Spelling("a"), b = new Spelling("b");
 * if (a.capRef("login", "token") !== "${steps.login.capture.token}") throw new Error();
 * if (b.capRef("login", "token") !== "${steps.login.token}") throw new Error();
 * if (a.jsonPath(["items", 0, "id"]) !== "$.json.items[0].id" || b.jsonPath(["id"]) !== "$.id") {
 *   throw new Error();
 * }
 * ```
 */
export class Spelling {
  constructor(readonly name: "a" | "b") {}

  envRef(name: string, fallback?: string): string {
    const tail = fallback === undefined ? "" : `:-${fallback}`;
    return this.name === "a" ? `\${ENV.${name}${tail}}` : `\${${name}${tail}}`;
  }

  varRef(name: string): string {
    return this.name === "a" ? `\${vars.${name}}` : `\${${name}}`;
  }

  capRef(step: string, key: string): string {
    return this.name === "a" ? `\${steps.${step}.capture.${key}}` : `\${steps.${step}.${key}}`;
  }

  jsonPath(path: JsonPath): string {
    // A JSONPath string holds no raw control character (RFC 9535): those are escaped.
    const quote = (t: string) =>
      `'${
        t.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replace(CONTROL, (ch) =>
          CONTROL_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)
      }'`;
    // The path is a template: `${` in a member's name is literal, spelled `\u0024{`.
    const member = (k: string) =>
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `[${quote(k).replaceAll("${", "\\u0024{")}]`;
    let out = this.name === "a" ? "$.json" : "$";
    for (const p of path) {
      if (typeof p === "number") out += `[${p}]`;
      else if (typeof p === "string") out += member(p);
      else {
        // A number is compared as one: a JSON-RPC member's `id: 4` is no `'4'`.
        const literal = (v: string | number) => typeof v === "number" ? String(v) : quote(v);
        const terms = [p, ...p.also ?? []].map((t) => `@${member(t.key)} == ${literal(t.value)}`);
        out += `[?${terms.join(" && ")}]`;
      }
    }
    return out;
  }

  /** A capture in the output: a path, `{path, first: true}` for a filter, `{cookie}` or `{header}`. */
  captureNode(source: Source): YNode {
    if (source.kind === "cookie") return yflow([["cookie", source.name]]);
    if (source.kind === "bytes") return yflow([["body", "base64"]]);
    if (source.kind === "header") {
      const fields: [string, YScalar][] = [["header", source.name]];
      if (source.query) fields.push(["query", source.query]);
      if (source.rel) fields.push(["rel", source.rel]);
      if (source.regex) fields.push(["regex", source.regex]);
      if (source.as) fields.push(["as", source.as]);
      return yflow(fields);
    }
    if (source.kind === "regex") {
      // The whole body as text (curl_saved.ts): spelling A names it, as checks do.
      if (this.name === "a" && source.pattern === WHOLE_BODY && !source.as) return "$.body";
      const fields: [string, YScalar][] = [["regex", source.pattern]];
      if (source.as) fields.push(["as", source.as]);
      return yflow(fields);
    }
    const path = this.jsonPath(source.path);
    if (source.regex) return yflow([["path", path], ["regex", source.regex]]);
    return source.path.some((p) => typeof p === "object")
      ? yflow([["path", path], ["first", true]])
      : path;
  }

  /** Literal text in a template: `${` must be written `$${`. */
  lit(text: string): string {
    return text.replaceAll("${", () => "$${");
  }
}
