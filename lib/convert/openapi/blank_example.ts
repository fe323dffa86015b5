/**
 * An object example that is a blank form says the body's shape, not its
 * values. A Fastify shopping-list API's schemas, made by `zod-to-json-schema`
 * and served by `@fastify/swagger`, carry `example: {namaKategori: ""}` and
 * `{nama: "", catatan: "", gambar_url: "", idKategori: 0}`: each member is
 * its type's empty value. Sent as given, every create was refused 422
 * ("The Nama Kategori is required"), and what it would have made was
 * never read, updated or deleted. An object whose every leaf is empty (`""`,
 * `0`, `false`, `null`, an empty list or object), with at least one empty
 * text, is such a form: the evidence is the example's own values, every one
 * of them blank, never a member's name. The value is then made from the
 * schema, as for a schema giving no example; an example holding one real
 * value (`{name: "Rex", age: 0}`) is the author's and is sent.
 *
 * @module
 */

/** How deep into an example's objects and lists its leaves are read. */
const MAX_DEPTH = 6;

/**
 * Whether `value` is a blank form: a non-empty object whose leaves are all
 * empty values, one of them an empty text.
 *
 * @example
 * ```ts
 * import { isBlankForm } from "./blank_example.ts";
 * if (!isBlankForm({ nama: "", idKategori: 0, items: [{ jumlah: 0 }] })) throw new Error();
 * if (isBlankForm({ name: "Rex", age: 0 })) throw new Error("a real value");
 * if (isBlankForm({ offset: 0, limit: 0 })) throw new Error("no empty text");
 * if (isBlankForm("")) throw new Error("a scalar is no form");
 * ```
 */
export function isBlankForm(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  if (Object.keys(value).length === 0) return false;
  const seen = { text: false };
  return allBlank(value, seen, 0) && seen.text;
}

function allBlank(value: unknown, seen: { text: boolean }, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (value === "") return (seen.text = true);
  if (value === null || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.every((v) => allBlank(v, seen, depth + 1));
  if (typeof value === "object") {
    return Object.values(value).every((v) => allBlank(v, seen, depth + 1));
  }
  return false;
}
