/**
 * `flowrun convert openapi`: an OpenAPI 3.0, 3.1 or 3.2 document (JSON or YAML,
 * its `$ref`s across files included) → a starter suite, one flow per tag,
 * a step per operation, and a summary of the environment variables to set
 * and the placeholders to fill in. `cli/convert_openapi.ts` reads and
 * writes the files; this folder reads them only through the reader it is
 * given.
 *
 * Where things live:
 *
 * - **Read**: `bundle.ts` (the document and the files its `$ref`s name,
 *   made one document with local `$ref`s only; `refs.ts` resolves a `$ref`
 *   and refuses URLs and files outside the document's folder),
 *   `document.ts` (is it OpenAPI 3 with paths), `limits.ts`.
 * - **Understand**: `operations.ts` (operations, parameters, names, step
 *   order), `examples.ts` (a value for a schema), `params.ts`, `body.ts`,
 *   `auth.ts` (an operation's `security` → its `auth:` block, or headers,
 *   query and cookies for several schemes at once; the blocks per kind in
 *   `auth_blocks.ts`, `auth_bearer.ts` and `auth_oauth2.ts`, credentials
 *   from environment variables), `responses.ts` (statuses, JSON schemas,
 *   what a create returns).
 * - **Write**: `flow.ts` (one flow: steps, captures, placeholder vars;
 *   `auth_place.ts` puts a block shared by its steps at flow level; what the
 *   flows share in `shared.ts`), `convert.ts` (flows by tag),
 *   `sign_in_once.ts` (the run's one sign-in: a setup flow the flows read
 *   the token of), `summary.ts` (`inferred_lines.ts`: what was inferred).
 *
 * @example
 * ```ts
 * import { bundleDocument, checkDocument, convertOpenApi, formatOpenApiSummary } from "./mod.ts";
 * const text = "openapi: 3.0.3\ninfo: {title: Ping}\npaths:\n  /ping:\n    get:\n      responses: {'200': {description: ok}}\n";
 * const read = () => Promise.resolve(new TextEncoder().encode(text));
 * const { document } = await bundleDocument("/api/ping.yaml", read, (d) => checkDocument(d, "ping.yaml"), (f) => f);
 * const { files, summary } = convertOpenApi({ document, source: "ping.yaml" });
 * if (files[0].path !== "ping.yaml" || !formatOpenApiSummary(summary, { dir: "out", document: "ping.yaml" }).includes("1 operation")) {
 *   throw new Error();
 * }
 * ```
 *
 * @module
 */
export { type Bundled, bundleDocument, type ReadFile } from "./bundle.ts";
export { checkDocument } from "./document.ts";
export {
  convertOpenApi,
  type OpenApiInput,
  type OpenApiResult,
  type OpenApiSummary,
  type OutFile,
} from "./convert.ts";
export { formatOpenApiSummary, type SummaryPlaces } from "./summary.ts";
export { upgradeSwagger2 } from "./swagger2.ts";
