/**
 * The parts of a multipart body as the runtime parses them, in a form two
 * bodies can be compared in whatever their boundaries: `[name, value]` for a
 * text part, `[name, file name, type, bytes]` for a file.
 *
 * @module
 */

/**
 * The parts of `request`'s multipart body, in order.
 *
 * @example
 * ```ts
 * import { formParts } from "./form_parts.ts";
 * const data = new FormData();
 * data.append("a", "1");
 * const parts = await formParts(new Request("http://x.test/", { method: "POST", body: data }));
 * if (JSON.stringify(parts) !== '[["a","1"]]') throw new Error(JSON.stringify(parts));
 * ```
 */
export async function formParts(request: Request): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [name, value] of await request.formData()) {
    out.push(
      typeof value === "string"
        ? [name, value]
        : [name, value.name, value.type, [...new Uint8Array(await value.arrayBuffer())]],
    );
  }
  return out;
}
