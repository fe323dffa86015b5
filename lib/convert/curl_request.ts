/**
 * What one curl command sends, as the records the convert stages read
 * (one per URL): the method curl would choose, its URL with `-G` data and
 * `--url-query` in the query, the headers curl adds for `-u`, `-b`,
 * `--json`, `-d` and `--oauth2-bearer`, and the body: `-d`, `--data-raw`,
 * `--data-binary`, `--data-urlencode` and `--json` pieces joined as curl
 * joins them (`curl_data.ts`), files read through the caller. What the
 * records cannot hold (a multipart body, a body sent from a file, request
 * options) travels beside them as {@linkcode CurlExtras}.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { parseCookieHeader } from "./_har_fields.ts";
import type { CurlRequest, FormPart } from "./curl_options.ts";
import { heldTimeout } from "./curl_held.ts";
import { bodyText, urlencodePiece } from "./curl_data.ts";
import { expandGlob } from "./curl_glob.ts";
import { bodyFile, type CurlFiles, fileThere } from "./curl_files.ts";
import { proxyOptions } from "./curl_proxy.ts";
import { METHOD } from "../load/context.ts";
import { UNSENDABLE_METHODS } from "../load/request.ts";

export type { CurlFiles } from "./curl_files.ts";

/** What a step needs besides its record. */
export interface CurlExtras {
  /** `-u` and how curl sends it, written as the step's `auth:` (curl_auth.ts). */
  auth?: { scheme: "basic" | "digest" | "aws_sigv4"; user?: string; sigv4?: string };
  multipart?: FormPart[];
  bodyFile?: string;
  options: CurlRequest["options"];
  /**
   * The URL starts with a variable and no scheme (`$APISERVER/apis`): its
   * value is the origin, scheme and all, as curl would use it.
   */
  bareOrigin?: boolean;
  ignored: string[];
  notes: string[];
}

/** A record and its extras. */
export interface CurlRecord {
  record: HarRecord;
  extras: CurlExtras;
}

/**
 * The records of one command, one per URL; what cannot be sent is a note in
 * `notes` (shared by the records' extras, and kept when no record is made).
 *
 * @example
 * ```ts
 * import { curlRecords } from "./curl_request.ts";
 * import { readCurlArgs } from "./curl_options.ts";
 * const [{ record }] = curlRecords(readCurlArgs(["a.test/s", "-G", "-d", "q=tea", "-u", "me:pw"]), 0);
 * if (record.method !== "GET" || record.url.href !== "http://a.test/s?q=tea") throw new Error(record.url.href);
 * const [{ extras }] = curlRecords(readCurlArgs(["a.test/s", "-u", "me:pw", "--digest"]), 0);
 * if (extras.auth?.scheme !== "digest" || extras.auth.user !== "me:pw") throw new Error();
 * ```
 */
export function curlRecords(
  req: CurlRequest,
  index: number,
  files?: CurlFiles,
  notes: string[] = [],
): CurlRecord[] {
  commandNotes(req, notes);
  req = checked(req, notes);
  const fromFile = bodyFile(req, files, notes);
  const body = fromFile === undefined ? bodyText(req.data, files, notes) : "";
  const command: Command = { req, index, files, notes, body, fromFile };
  const urls = req.urls.flatMap((url) => req.globoff ? [url] : globbed(url, notes));
  return urls.flatMap((raw) => urlRecord(raw, command) ?? []);
}

/** One command as {@linkcode curlRecords} reads it, for the record of each of its URLs. */
interface Command {
  req: CurlRequest;
  index: number;
  files: CurlFiles | undefined;
  notes: string[];
  /** The data pieces joined (`""` for a body sent from a file), `undefined` with none. */
  body: string | undefined;
  /** The path of the file the body is sent from (`curl_files.ts`'s `bodyFile`). */
  fromFile: string | undefined;
}

/** The command's own notes, and what it says that no record can carry: no URL, a Host header. */
function commandNotes(req: CurlRequest, notes: string[]): void {
  notes.push(...req.notes);
  if (req.urls.length === 0) {
    notes.push(
      `The command has no URL; nothing was converted${
        req.ignored.length > 0 ? ` (nor its options ${req.ignored.join(", ")})` : ""
      }.`,
    );
  }
  const host = req.headers.find(([n]) => n.toLowerCase() === "host");
  if (host) {
    notes.push(`The Host header "${host[1]}" is not carried: a flow sends the URL's host.`);
  }
}

/** The record of one URL; `undefined`, noted, when the URL or the method cannot be sent. */
function urlRecord(
  raw: string,
  { req, index, files, notes, body, fromFile }: Command,
): CurlRecord | undefined {
  const url = requestUrl(raw, req, req.get ? body : undefined, files, notes);
  if (!url) return undefined;
  const options = proxyOptions(req.options, notes);
  // A query asking the server to hold its answer (`?seconds=60`) gets the time it asks for.
  const timeout = heldTimeout(url, options.timeout);
  const extras: CurlExtras = {
    options: timeout === options.timeout ? options : { ...options, timeout },
    ignored: req.ignored,
    notes,
  };
  if (/^zqzenv\d+zqz/.test(raw)) extras.bareOrigin = true;
  const auth = stepAuth(req, url);
  if (auth) extras.auth = auth;
  const verb = method(req, body !== undefined);
  if (!METHOD.test(verb) || UNSENDABLE_METHODS.has(verb)) {
    notes.push(`The method "${verb}" is not one a flow can send; the request was skipped.`);
    return undefined;
  }
  const headers = partsType(
    req,
    sendable(requestHeaders(req, body !== undefined && !req.get), notes),
    notes,
  );
  const record = baseRecord(index, verb, url, headers);
  if (!req.get && body !== undefined) {
    placeBody({ record, extras }, body, fromFile, files);
  }
  placeParts(req, { record, extras }, files);
  return { record, extras };
}

/**
 * The step's `auth:`: `-u`, else the URL's `user:password@` (taken out of
 * the URL either way: -u wins, as with curl), or `--aws-sigv4` signing; none
 * when the command writes its own Authorization header.
 */
function stepAuth(req: CurlRequest, url: URL): CurlExtras["auth"] {
  const fromUrl = urlCredentials(url);
  const user = req.user ?? fromUrl;
  if ((user === undefined && req.scheme !== "aws_sigv4") || hasHeader(req, "authorization")) {
    return undefined;
  }
  return { scheme: req.scheme ?? "basic", user, sigv4: req.sigv4 };
}

/** `https://user:password@host/`'s `user:password`, removed from the URL; `undefined` with none. */
function urlCredentials(url: URL): string | undefined {
  if (url.username === "" && url.password === "") return undefined;
  const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = "";
  url.password = "";
  return user;
}

/** The URLs curl makes of one URL with globs, noted; the URL itself when it has none. */
function globbed(url: string, notes: string[]): string[] {
  if (!/[[\]{}]/.test(url)) return [url];
  const expanded = expandGlob(url);
  if (!expanded) {
    notes.push(`The URL "${url}" has a glob curl cannot read; it is sent as written (-g does so).`);
    return [url];
  }
  const { urls, more } = expanded;
  if (urls.length > 1) {
    notes.push(
      `The URL "${url}" is a curl glob: ${urls.length} requests${
        more > 0 ? `, and ${more} more that were left out` : ""
      }.`,
    );
  }
  return urls;
}

/** `-F` parts as the step's multipart, `-T`'s file as its body; neither on a GET or HEAD. */
function placeParts(req: CurlRequest, { record, extras }: CurlRecord, files?: CurlFiles): void {
  if (req.form.length === 0 && req.upload === undefined) return;
  if (record.method === "GET" || record.method === "HEAD") {
    extras.notes.push(
      `A ${record.method} request takes no body in a flow: the form or file was left out.`,
    );
  } else if (req.form.length > 0) extras.multipart = req.form;
  else upload(req.upload!, record, extras, files, extras.notes);
}

/**
 * With `-F`, a `Content-Type: multipart/…` the command writes is left out:
 * curl adds its boundary to it, and a flow's `multipart:` writes the type
 * and boundary itself (kept, the header would read as a recorded body).
 */
function partsType(
  req: CurlRequest,
  headers: [string, string][],
  notes: string[],
): [string, string][] {
  if (req.form.length === 0) return headers;
  return headers.filter(([name, value]) => {
    if (name.toLowerCase() !== "content-type" || !/^\s*multipart\//i.test(value)) return true;
    if (!/^\s*multipart\/form-data\s*(;|$)/i.test(value)) {
      notes.push(
        `The Content-Type "${value}" is not carried: a flow sends -F parts as multipart/form-data.`,
      );
    }
    return false;
  });
}

/** Whether the command writes this header itself (`-H`). */
function hasHeader(req: CurlRequest, name: string): boolean {
  return req.headers.some(([n]) => n.toLowerCase() === name);
}

/** The request less what curl would refuse, with a note on that. */
function checked(req: CurlRequest, notes: string[]): CurlRequest {
  if (req.data.length === 0 || req.get || (req.form.length === 0 && req.upload === undefined)) {
    return req;
  }
  // curl refuses to run such a command ("You can only select one HTTP request method").
  const form = req.form.length > 0;
  notes.push(
    `curl refuses ${form ? "-F" : "-T"} together with -d and its kin; the ${
      form ? "form" : "file"
    } is sent and the data left out.`,
  );
  return { ...req, data: [] };
}

/** The body: text on the record, a file as the step's `body_file`; none for GET and HEAD. */
function placeBody(
  { record, extras }: CurlRecord,
  body: string,
  fromFile: string | undefined,
  files: CurlFiles | undefined,
): void {
  if (record.method === "GET" || record.method === "HEAD") {
    extras.notes.push(
      `curl sends this ${record.method} with a body, which a flow cannot: it was left out.`,
    );
  } else if (fromFile === undefined) record.bodyText = body;
  else sendFile(record, fromFile, extras, files, extras.notes);
}

/** A record with no response, as the stages expect one. */
function baseRecord(
  index: number,
  method: string,
  url: URL,
  headers: [string, string][],
): HarRecord {
  const nv = headers.map(([name, value]) => ({ name, value }));
  const cookie = nv.find((h) => h.name.toLowerCase() === "cookie");
  return {
    index,
    method,
    url,
    headers: nv,
    cookies: cookie ? parseCookieHeader(cookie.value) : [],
    // curl sends the cookies its command line gives, none a response set before (no jar).
    cookiesAsWritten: true,
    setCookies: [],
    mimeType: "",
    hasJson: false,
    raw: {},
  };
}

/** The method curl chooses: `-X`, else HEAD for `-I`, POST with data or a form, PUT for `-T`. */
function method(req: CurlRequest, body: boolean): string {
  if (req.method) return req.method.toUpperCase();
  if (req.head) return "HEAD";
  if (req.get) return "GET";
  if (body || req.form.length > 0) return "POST";
  return req.upload !== undefined ? "PUT" : "GET";
}

/** The URL with a scheme (curl assumes http), `-G` data and `--url-query` appended. */
function requestUrl(
  raw: string,
  req: CurlRequest,
  getData: string | undefined,
  files: CurlFiles | undefined,
  notes: string[],
): URL | undefined {
  let text = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  const hash = text.indexOf("#");
  if (hash !== -1) text = text.slice(0, hash);
  const extra = [
    ...(getData !== undefined && getData !== "" ? [getData] : []),
    ...req.urlQuery.map((q) => urlencodePiece(q, files, notes)),
  ];
  if (extra.length > 0) text += (text.includes("?") ? "&" : "?") + extra.join("&");
  // A host of dots alone (`curl ... | jq`) is prose's elision, which no request can reach.
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || /^\.+$/.test(url.hostname)) {
    notes.push(`"${raw}" is not an http(s) URL; it was skipped.`);
    return undefined;
  }
  return url;
}

/** The headers curl sends besides its own: `-H`, then those `-u`, `-b`, data and `--json` add. */
function requestHeaders(req: CurlRequest, hasBody: boolean): [string, string][] {
  const headers = [...req.headers];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  // -u and --aws-sigv4 become the step's auth: (curlRecords), not a header.
  if (req.bearer !== undefined && !has("authorization") && req.scheme !== "aws_sigv4") {
    headers.push(["Authorization", `Bearer ${req.bearer}`]);
  }
  if (req.cookies.length > 0) {
    const cookie = headers.findIndex(([n]) => n.toLowerCase() === "cookie");
    const joined = req.cookies.join("; ");
    if (cookie === -1) headers.push(["Cookie", joined]);
    else headers[cookie] = [headers[cookie][0], `${joined}; ${headers[cookie][1]}`];
  }
  const json = req.data.some((d) => d.kind === "json");
  if (json && !has("accept")) headers.push(["Accept", "application/json"]);
  if (hasBody && !has("content-type")) {
    headers.push([
      "Content-Type",
      json ? "application/json" : "application/x-www-form-urlencoded",
    ]);
  }
  return headers;
}

/** The headers a flow can send: a name that is an HTTP token, a value of one line of Latin-1. */
function sendable(headers: [string, string][], notes: string[]): [string, string][] {
  return headers.filter(([name, value]) => {
    const bad = !METHOD.test(name)
      ? "its name is not an HTTP token"
      : /[\r\n\0]/.test(value)
      ? "its value holds a line break or NUL"
      : /[\u0100-\u{10ffff}]/u.test(value)
      ? "its value holds characters past Latin-1"
      : undefined;
    if (bad) notes.push(`The header "${name}" cannot be sent by a flow (${bad}); it was left out.`);
    return bad === undefined;
  });
}

/** `-T file`: PUT the file's bytes, the URL ending in `/` getting the file's name. */
function upload(
  path: string,
  record: HarRecord,
  extras: CurlExtras,
  files: CurlFiles | undefined,
  notes: string[],
): void {
  if (path === "-" || path === ".") {
    notes.push(`-T ${path} uploads standard input, which is not carried.`);
    return;
  }
  if (record.url.pathname.endsWith("/")) {
    record.url = new URL(
      record.url.href.replace(/\/(?=\?|$)/, `/${encodeURIComponent(path.split("/").at(-1)!)}`),
    );
  }
  if (!record.headers.some((h) => h.name.toLowerCase() === "content-type")) {
    notes.push(
      `curl sends -T ${path} with no Content-Type; the flow sends application/octet-stream (set a content-type header to change it).`,
    );
  }
  sendFile(record, path, extras, files, notes);
}

/**
 * The step's `body_file`, read from beside the flow; a note when the file is not there. The
 * record holds none of the body, and says so: a typed multipart type over it is the file's own.
 */
function sendFile(
  record: HarRecord,
  path: string,
  extras: CurlExtras,
  files: CurlFiles | undefined,
  notes: string[],
): void {
  if (files && !fileThere(files, path)) {
    notes.push(`The file "${path}" the command sends does not exist; create it before running.`);
  }
  extras.bodyFile = files ? files.rebase(path, true) : path;
  record.bodyElsewhere = true;
}
