/**
 * A response value that is a piece of the path its own request sent: whole segments, with or
 * without their slashes (`/foo`, `foo/bar`, `/foo/`). The server echoes what the flow wrote in the
 * clear (etcd answers `PUT /v2/keys/foo` with `{"node": {"key": "/foo"}}`); it issued nothing,
 * and masking it hid the step's own URL in every report.
 *
 * @module
 */

/**
 * Whether `value` is one or more whole segments of `url`'s path, decoded.
 *
 * @example
 * ```ts
 * import { isSentPathPiece } from "./sent_path.ts";
 * const url = "http://h.test/v2/keys/foo/bar%20baz?wait=true";
 * if (!isSentPathPiece("/foo", url) || !isSentPathPiece("foo/bar baz", url)) throw new Error();
 * if (isSentPathPiece("/fo", url) || isSentPathPiece("wait=true", url)) throw new Error();
 * ```
 */
export function isSentPathPiece(value: string, url: string): boolean {
  const piece = value.replace(/^\/+|\/+$/g, "");
  if (piece === "" || url === "") return false;
  return `/${sentPath(url)}/`.includes(`/${piece}/`);
}

/** `url`'s path without its outer slashes, percent-decoded where that is valid. */
function sentPath(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return "";
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // A path with a stray `%` is compared as sent.
  }
  return path.replace(/^\/+|\/+$/g, "");
}
