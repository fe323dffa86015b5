/**
 * How deep a JSON document nests, read from its text before it is parsed:
 * `JSON.parse` reads any depth, but the bundler and the example generator
 * walk a document recursively, so a file nested 10,000 deep ran out of
 * stack (exit 3) and one 100,000 deep took minutes copying paths. YAML is
 * bounded by its own parser (`parseBounded`); this bounds JSON the same way.
 *
 * @module
 */

import { parseDocument, type Unusable } from "../../load/schema_document.ts";
import { applyMergeKeys } from "./yaml_merge.ts";

/**
 * The deepest a document of `convert openapi` may nest, JSON or YAML: the
 * YAML parser's bound. Real documents nest a few dozen levels; deep data is
 * described by a schema that names itself through `$ref`.
 */
export const MAX_DOCUMENT_NESTING = 256;

/**
 * The line and column (1-based) where JSON text first nests deeper than
 * `max` levels of `[` and `{`, strings skipped; undefined when it does not.
 * Linear in the text, no recursion.
 *
 * @example
 * ```ts
 * import { tooDeepAt } from "./nesting.ts";
 * if (tooDeepAt('{"a": "[[[["}', 2) !== undefined) throw new Error();
 * if (tooDeepAt('{"a":\n [[1]]}', 2)?.column !== 3) throw new Error();
 * ```
 */
export function tooDeepAt(text: string, max: number): { line: number; column: number } | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return { line, column: i - lineStart + 1 };
    } else if (c === 0x5d || c === 0x7d) depth--;
    if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

/**
 * The document of a file's bytes, as `parseDocument` reads it, or why not;
 * a `.json` file nesting deeper than {@linkcode MAX_DOCUMENT_NESTING} is
 * refused with the line and column where it does; YAML's merge keys are
 * applied (`yaml_merge.ts`).
 *
 * @example
 * ```ts
 * import { readNested } from "./nesting.ts";
 * const deep = new TextEncoder().encode("[".repeat(300) + "]".repeat(300));
 * const got = readNested(deep, "api.json");
 * if (!("why" in got) || !got.why.includes("line 1, column 257")) throw new Error();
 * ```
 */
export function readNested(bytes: Uint8Array, path: string): { document: unknown } | Unusable {
  if (/\.json$/i.test(path)) {
    const text = new TextDecoder().decode(bytes);
    const at = tooDeepAt(text, MAX_DOCUMENT_NESTING);
    if (at) {
      return {
        why:
          `it nests deeper than ${MAX_DOCUMENT_NESTING} levels at line ${at.line}, column ${at.column} ` +
          "(a schema for deep data names itself through a $ref instead)",
        hint: "Write the document as JSON or YAML that nests less deeply.",
      };
    }
  }
  const parsed = parseDocument(bytes, path);
  // Read as YAML: its merge keys (`<<: *commonErrors`) are applied, as YAML 1.1 reads them.
  if ("document" in parsed && !/\.json$/i.test(path)) applyMergeKeys(parsed.document);
  return parsed;
}
