/**
 * The media type a document states for a multipart file: the media type's
 * `encoding` of the property (`{image: {contentType: "image/*"}}`, OpenAPI
 * 3.x), else the property's own `contentMediaType` (3.1). Without it, a
 * placeholder named `.bin` goes as `application/octet-stream`, which an
 * upload filter checking for an image refuses (an Express recipes API's
 * create, 400 "Only image files are allowed"), even once the user has put a
 * real picture there as the summary asks. A stated type that admits a PNG
 * is sent as a 1×1 PNG the flow holds, a real image and nothing to fill in;
 * another stated type, one the converter cannot make, keeps its placeholder
 * and is sent as that type.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";

/** A 1×1 transparent PNG (signature, IHDR, IDAT, IEND; each chunk's CRC right). */
const ONE_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/**
 * The types the document states for multipart property `name`, each
 * lower-cased: `encoding`'s `contentType` (a comma-separated list), else
 * the property's `contentMediaType`; none when it states none.
 *
 * @example
 * ```ts
 * import { statedPartTypes } from "./part_type.ts";
 * const media = { encoding: { image: { contentType: "image/png, image/jpeg" } } };
 * if (statedPartTypes(media, "image", {}).join() !== "image/png,image/jpeg") throw new Error();
 * if (statedPartTypes({}, "doc", { contentMediaType: "Application/PDF" })[0] !== "application/pdf") {
 *   throw new Error();
 * }
 * if (statedPartTypes({}, "file", { format: "binary" }).length !== 0) throw new Error();
 * ```
 */
export function statedPartTypes(media: Node, name: string, property: unknown): string[] {
  const encoding = isNode(media.encoding) && isNode(media.encoding[name])
    ? media.encoding[name]
    : undefined;
  const stated = typeof encoding?.contentType === "string"
    ? encoding.contentType
    : isNode(property) && typeof property.contentMediaType === "string"
    ? property.contentMediaType
    : "";
  return stated.split(",").map((t) => t.trim().toLowerCase()).filter((t) => t !== "");
}

/**
 * The multipart entry of a file whose document states `types`: a 1×1 PNG
 * (`{content_base64, filename, content_type: image/png}`) where one of them
 * admits a PNG (`image/*`, `image/png`); else none, the caller's
 * placeholder then sent with the stated type (see `statedPlaceholderType`).
 *
 * @example
 * ```ts
 * import { madeImagePart } from "./part_type.ts";
 * const part = JSON.stringify(madeImagePart(["image/*"], "post_recipes_image"));
 * if (!part.includes('"content_type","image/png"')) throw new Error();
 * if (madeImagePart(["application/pdf"], "x") !== undefined) throw new Error();
 * if (madeImagePart([], "x") !== undefined) throw new Error();
 * ```
 */
export function madeImagePart(types: string[], stem: string): YNode | undefined {
  if (!types.some((t) => t === "image/*" || t === "image/png")) return undefined;
  return {
    kind: "map",
    entries: [
      ["content_base64", ONE_PIXEL_PNG],
      ["filename", `${stem}.png`],
      ["content_type", "image/png"],
    ],
  };
}

/**
 * The content type a placeholder file is sent with: the first stated type
 * that names one type (no `*`); none when the document states none.
 *
 * @example
 * ```ts
 * import { statedPlaceholderType } from "./part_type.ts";
 * if (statedPlaceholderType(["application/pdf"]) !== "application/pdf") throw new Error();
 * if (statedPlaceholderType(["video/*"]) !== undefined) throw new Error();
 * ```
 */
export function statedPlaceholderType(types: string[]): string | undefined {
  return types.find((t) => !t.includes("*"));
}
