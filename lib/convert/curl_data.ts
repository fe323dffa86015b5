/**
 * curl's request data: the `-d`, `--data-raw`, `--data-binary`,
 * `--data-urlencode` and `--json` pieces of one command joined into the
 * body as curl joins them, `@file` pieces read through the caller, and
 * `--data-urlencode` (and `--url-query`) encoded as curl encodes them.
 * `curl_request.ts` puts the result in the body or, with `-G`, the query.
 *
 * @module
 */
import type { DataPiece } from "./curl_options.ts";
import type { CurlFiles } from "./curl_files.ts";

/** How the data reaches the files it names (`CurlFiles` of curl_files.ts, read only). */
type Files = Pick<CurlFiles, "read" | "refused"> | undefined;

/**
 * The data pieces joined as curl joins them: `&` between pieces, none after
 * a `--json` one; `undefined` with no piece.
 *
 * @example
 * ```ts
 * import { bodyText } from "./curl_data.ts";
 * const notes: string[] = [];
 * const files = { read: (path: string) => path === "b.txt" ? "x\ny" : undefined };
 * const body = bodyText([
 *   { kind: "data", text: "a=1" },
 *   { kind: "data", text: "@b.txt" },
 *   { kind: "urlencode", text: "q=t e" },
 * ], files, notes);
 * if (body !== "a=1&xy&q=t+e" || notes.length !== 0) throw new Error(body);
 * if (bodyText([], files, notes) !== undefined) throw new Error();
 * ```
 */
export function bodyText(
  pieces: DataPiece[],
  files: Files,
  notes: string[],
): string | undefined {
  if (pieces.length === 0) return undefined;
  let out = "";
  pieces.forEach((piece, i) => {
    const joined = i > 0 && !(piece.kind === "json" && pieces[i - 1].kind === "json");
    out += (joined ? "&" : "") + pieceText(piece, files, notes);
  });
  return out;
}

/** One piece's bytes: its text, a file's (newlines removed for `-d`), or URL-encoded. */
function pieceText(piece: DataPiece, files: Files, notes: string[]): string {
  if (piece.kind === "urlencode") return urlencodePiece(piece.text, files, notes);
  if (piece.given || piece.kind === "raw" || !piece.text.startsWith("@")) return piece.text;
  const text = readFile(piece.text.slice(1), files, notes) ?? "";
  return piece.kind === "data" ? text.replace(/[\r\n]/g, "") : text;
}

/**
 * `--data-urlencode`'s forms: `content`, `=content`, `name=content`,
 * `@file`, `name@file`; also `--url-query`'s.
 *
 * @example
 * ```ts
 * import { urlencodePiece } from "./curl_data.ts";
 * const notes: string[] = [];
 * if (urlencodePiece("q=tea & cake!", undefined, notes) !== "q=tea+%26+cake%21") throw new Error();
 * if (urlencodePiece("q@missing.txt", undefined, notes) !== "q=" || notes.length !== 1) throw new Error();
 * ```
 */
export function urlencodePiece(
  text: string,
  files: Files,
  notes: string[],
): string {
  const at = text.search(/[=@]/);
  if (at === -1) return encode(text);
  const name = text.slice(0, at);
  const content = text[at] === "@"
    ? readFile(text.slice(at + 1), files, notes) ?? ""
    : text.slice(at + 1);
  return name === "" ? encode(content) : `${name}=${encode(content)}`;
}

/** curl's URL encoding (7.86 on): letters, digits and `-._~` as they are, a space as `+`, the rest `%XX`. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]|%20/g,
    (ch) => ch === "%20" ? "+" : `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A file's text through the caller; a note when it cannot be had. */
function readFile(path: string, files: Files, notes: string[]): string | undefined {
  if (path === "-") {
    notes.push("Data read from standard input (@-) is not carried; put it in the flow's body.");
    return undefined;
  }
  const text = files?.read(path);
  // A file refused (outside the working directory, past the cap) is said so where it is refused.
  if (text === undefined && files?.refused?.(path, "content") === undefined) {
    notes.push(
      `The file "${path}" the command sends could not be read; its content is missing from the body.`,
    );
  }
  return text;
}
