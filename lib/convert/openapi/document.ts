/**
 * Whether a parsed file is a document `convert openapi` reads: an OpenAPI
 * 3.0, 3.1 or 3.2 document with paths (3.2 keeps 3.1's schemas and adds
 * to it: Express-Zod-API writes it), or a Swagger 2.0 one (upgraded by
 * `swagger2.ts`). Checked before any file its `$ref`s name is read.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { UsageError } from "../../model/errors.ts";

/**
 * Throws a usage error (code `bad-openapi`) naming what the document is
 * when it is no OpenAPI 3 document with paths.
 *
 * @example
 * ```ts
 * import { checkDocument } from "./document.ts";
 * checkDocument({ openapi: "3.1.0", paths: {} }, "api.yaml");
 * checkDocument({ swagger: "2.0", paths: {} }, "api.yaml");
 * try {
 *   checkDocument({ swagger: "1.2", paths: {} }, "api.yaml");
 *   throw new Error("not refused");
 * } catch (error) {
 *   if (!(error as Error).message.includes("Swagger 1.2")) throw error;
 * }
 * ```
 */
export function checkDocument(document: unknown, source: string): void {
  if (!isNode(document)) {
    throw new UsageError(
      "bad-openapi",
      `"${source}" is not an OpenAPI document: it holds ${
        Array.isArray(document) ? "a list" : JSON.stringify(document ?? null)
      }, not an object.`,
      HINT,
    );
  }
  if (document.swagger !== undefined && document.swagger !== "2.0") {
    throw new UsageError(
      "bad-openapi",
      `"${source}" is a Swagger ${
        String(document.swagger)
      } document; convert openapi reads Swagger 2.0, OpenAPI 3.0, 3.1 and 3.2.`,
      "Convert it to OpenAPI 3 first (npx swagger2openapi " + source +
        " -o openapi.yaml, or the Swagger Editor's Edit → Convert to OpenAPI 3), then convert that.",
    );
  }
  const version = document.swagger === "2.0" ? "3.0" : document.openapi;
  if (typeof version !== "string" || !/^3\.[012](\.|$)/.test(version)) {
    throw new UsageError(
      "bad-openapi",
      `"${source}" is not an OpenAPI 3.0, 3.1 or 3.2 document: its "openapi" field is ${
        version === undefined ? "missing" : JSON.stringify(version)
      }.`,
      HINT,
    );
  }
  if (!isNode(document.paths)) {
    throw new UsageError(
      "bad-openapi",
      `"${source}" has no "paths": there is nothing to convert.`,
      "Give the document that describes the API's paths (a document of webhooks only sends nothing).",
    );
  }
}

const HINT = 'Give the API\'s OpenAPI document: JSON or YAML that starts with "openapi: 3.x".';
