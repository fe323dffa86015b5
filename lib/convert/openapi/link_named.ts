/**
 * A web address a text property's name asks for where its schema says no
 * more than `string`. `@nestjs/swagger` documents a DTO's `@IsUrl()` member as
 * `{type: string}` (no `format`), and the server refuses "string" (400 "image
 * must be a URL address", "each value in images must be a URL address",
 * "avatar must be a URL address": a fake store's products, categories and
 * users, every create refused and each read, update and delete of the item
 * skipped). The name is the evidence, its last word: a link's (`url`, `uri`,
 * `link`, `href`, `website`, `homepage`) or a picture's, which an API keeps
 * as the picture's address (`image`, `img`, `avatar`, `photo`, `picture`,
 * `thumbnail`, `logo`), singular or plural (`images`, a list of addresses),
 * in any case style (`imageUrl`, `avatar_url`, `profileImage`). A picture's
 * word names other things too (a container's or a machine's image: AWS
 * Image Builder's `parentImage`, "The base image for the container recipe",
 * an ARN or an AMI id), so it counts only where the schema has no
 * description or one that calls the value an address. A name whose word is
 * used for other things still (`icon`: `mdi:home`; `cover`, `banner`) is left
 * alone, and so is any schema that says more (a `format`, `pattern`, `enum`,
 * an example, a default), or too little room for an address. A URL is what
 * such a property holds in the APIs that check it, and a text that one that
 * does not check keeps as it is.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** The last word of a name that asks for a link. */
const LINK_WORDS = new Set(["url", "uri", "link", "href", "website", "homepage"]);

/** The last word of a name that asks for a picture, which APIs keep as its address. */
const PICTURE_WORDS = new Set(["image", "img", "avatar", "photo", "picture", "thumbnail", "logo"]);

/** What a schema may say that gives or shapes the value itself: then it is the schema's. */
const SAYS_MORE = ["format", "pattern", "enum", "const", "example", "examples", "default"];

/** The address sent for a link's name. */
export const LINK_SAMPLE = "https://example.com/";

/** The address sent for a picture's name: a path with a picture's extension, as some check. */
export const PICTURE_SAMPLE = "https://example.com/image.png";

/** A name's last word, lower case and singular: `imageUrl` → `url`, `images` → `image`. */
function lastWord(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[^A-Za-z0-9]+/);
  const last = (words.filter((w) => w !== "").at(-1) ?? "").toLowerCase();
  return last.length > 3 && last.endsWith("s") ? last.slice(0, -1) : last;
}

/** Words of a description that call the value an address. */
const SAYS_ADDRESS = /\b(?:url|uri|link|address|https?:)/i;

/**
 * The address a name asks for, if any: a link's, or a picture's where the
 * schema (`s`, or a list's) has no description or one that says address.
 */
function addressFor(name: string, s: Node): string | undefined {
  const word = lastWord(name);
  if (LINK_WORDS.has(word)) return LINK_SAMPLE;
  if (!PICTURE_WORDS.has(word)) return undefined;
  const said = typeof s.description === "string" ? s.description : undefined;
  return said === undefined || SAYS_ADDRESS.test(said) ? PICTURE_SAMPLE : undefined;
}

/** Whether a schema is text and says nothing more of its value, with room for `text`. */
function plainText(s: unknown, text: string): boolean {
  if (!isNode(s) || s.type !== "string") return false;
  if (SAYS_MORE.some((k) => Object.hasOwn(s, k))) return false;
  return typeof s.maxLength !== "number" || s.maxLength >= text.length;
}

/**
 * The value of request property `name` (schema `property`, its `$ref`s
 * resolved by `deref`) when its name asks for an address and its schema
 * says only `string`, or is a list of such (see the module); undefined
 * otherwise.
 *
 * @example
 * ```ts
 * import { namedLink } from "./link_named.ts";
 * const text = { type: "string" };
 * if (namedLink("image", text) !== "https://example.com/image.png") throw new Error();
 * if (namedLink("avatar_url", text) !== "https://example.com/") throw new Error();
 * const list = namedLink("images", { type: "array", items: text });
 * if (JSON.stringify(list) !== '["https://example.com/image.png"]') throw new Error();
 * if (namedLink("title", text) !== undefined || namedLink("icon", text) !== undefined) throw new Error();
 * if (namedLink("url", { type: "string", format: "hostname" }) !== undefined) throw new Error();
 * if (namedLink("parentImage", { type: "string", description: "The base image" }) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function namedLink(
  name: string,
  property: unknown,
  deref: (node: unknown) => unknown = (n) => n,
): string | string[] | undefined {
  if (!isNode(property)) return undefined;
  const address = addressFor(name, property);
  if (address === undefined) return undefined;
  if (plainText(property, address)) return address;
  if (property.type !== "array" || !plainText(deref(property.items), address)) return undefined;
  if (SAYS_MORE.some((k) => Object.hasOwn(property, k)) || (property as Node).maxItems === 0) {
    return undefined;
  }
  const least = typeof property.minItems === "number" ? property.minItems : 1;
  return Array.from({ length: Math.min(Math.max(least, 1), 3) }, () => address);
}
