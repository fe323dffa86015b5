/**
 * The text the document states for a property, in any of the ways it
 * states one: its `example`, `default` or an `examples` entry that fits,
 * its `const` or `enum`'s first (`example_fits.ts`), a sample in words
 * ("e.g. “example.com.”") or values listed in words ("Must be REPLACE or
 * DELETE", `prose_sample.ts`), or a kind the document names only in words
 * (PowerDNS's metadata `kind`, "Name of the metadata": `SOA-EDIT`,
 * `named_kind.ts`). A server may accept only such a value: PowerDNS
 * refuses a metadata kind the run made up (422), so an item the client
 * names by such a property is sent the stated value, never one of the
 * run's own.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { givenValue } from "./example_fits.ts";
import { listedValue, proseSample } from "./prose_sample.ts";
import { namedKind } from "./named_kind.ts";

/**
 * The text the document states for property `name` (schema `p`, dereferenced by `deref`), if it
 * states one (see the module); a value that is no text, or holds a `$` (a template's `${` would be read as one), is none.
 *
 * @example
 * ```ts
 * import { statedText } from "./stated_value.ts";
 * const same = (n: unknown) => n;
 * const doc = { definitions: { Zone: { properties: { soa_edit: { type: "string",
 *   description: "The SOA-EDIT metadata item" } } }, Metadata: { properties: { kind: {} } } } };
 * const kind = { type: "string", description: "Name of the metadata" };
 * if (statedText(doc, "kind", kind, same) !== "SOA-EDIT") throw new Error();
 * if (statedText({}, "value", { type: "string", example: "#c154c1" }, same) !== "#c154c1") throw new Error();
 * if (statedText({}, "mode", { type: "string", enum: ["a", "b"] }, same) !== "a") throw new Error();
 * if (statedText({}, "name", { type: "string" }, same) !== undefined) throw new Error();
 * if (statedText({}, "n", { type: "integer", example: 3 }, same) !== undefined) throw new Error();
 * ```
 */
export function statedText(
  doc: unknown,
  name: string,
  p: Node,
  deref: (node: unknown) => unknown,
): string | undefined {
  const given = givenValue(p, deref);
  const value = given.found
    ? given.value
    : proseSample(p) ?? listedValue(p) ?? namedKind(doc, name, p);
  return typeof value === "string" && value !== "" && !value.includes("$") ? value : undefined;
}
