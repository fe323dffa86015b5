/**
 * What `convert curl` changes in the stages it shares with `convert har`: a
 * command is sent as it is written, so its rules take no value from a
 * response, mix no run id into a write and make no value fresh (an
 * `Idempotency-Key` stays the one written); a value holding `$NAME` is the
 * user's own reference and is sent as written. And what a record cannot
 * hold goes onto the step: a `-F` multipart body, a `body_file`, the
 * request options (`-k`, `-L`, `-m`, `-x`, `--cert`, `--key`, `--cacert`), and `-u`, `--digest`
 * and `--aws-sigv4` as its `auth:`.
 *
 * @module
 */
import { keepAddresses } from "./correlate/companion_urls.ts";
import { type Correlator, defaultRules, type Rules } from "./correlate/mod.ts";
import { proxyOption } from "./curl_proxy.ts";
import { curlAuth } from "./curl_auth.ts";
import { fileThere } from "./curl_files.ts";
import type { FormPart } from "./curl_options.ts";
import type { CurlExtras, CurlFiles } from "./curl_request.ts";
import { ENV_MARKER } from "./curl_shell.ts";
import type { HarRecord } from "./har_model.ts";
import type { Step } from "./model.ts";
import { keepHeader } from "./noise_headers.ts";
import { FRESH_HEADER } from "./polls.ts";
import { yflow, ymap, type YNode, type YScalar } from "./yaml_out.ts";
import { table } from "./table.ts";
import { typedOnceIn } from "./correlate/typed_once.ts";
import { acceptedValues, refusedPassword } from "./curl_refused_password.ts";

const hasMarker = (text: string) => new RegExp(ENV_MARKER.source).test(text);

/**
 * The rules of a curl conversion over `c`; `records` are every command's, read for the passwords
 * a command the docs do not show refused sends (curl_refused_password.ts).
 *
 * @example
 * ```ts
 * import { curlRules } from "./curl_steps.ts";
 * import { newCorrelator, NOT_A_BODY } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * c.rules = curlRules(c);
 * const where = { ...NOT_A_BODY, body: true, mutating: true };
 * // deno-lint-ignore no-explicit-any
 * if (c.rules.stringValue("email", "ann@example.com", { name: "create_user", uses: new Set(), first: { method: "POST" } } as any, where) !== "ann@example.com") throw new Error();
 * ```
 */
export function curlRules(c: Correlator, records: readonly HarRecord[] = []): Rules {
  const base = defaultRules(c);
  const accepted = acceptedValues(records);
  // A command's addresses are the user's text, edited there (companion_urls.ts).
  keepAddresses(c);
  return {
    ...base,
    stringValue: (key, value, step, where) =>
      hasMarker(value)
        ? c.sp.lit(value)
        // `-d '{"password":"wrong"}'` answered 401: the docs' refusal, curl_refused_password.ts.
        : refusedPassword(c, [key, value], step, accepted) ?? typedOnceIn(c, value, () =>
          base.stringValue(key, value, step, {
            ...where,
            mutating: false,
          })),
    freshUuid: (_key, value) => c.sp.lit(value),
    headers: (r, step) => headers(c, base, r, step),
  };
}

/**
 * Sends each name a command chose for what it creates as written. The
 * stages shared with `convert har` make such a name the run's own
 * (`example.org.-${RUN_ID}`), as a recording replayed twice needs; a
 * command is the user's own text, whose name may have a form the server
 * checks (a DNS zone's trailing dot, an address). The var stays, so the name
 * is changed in one place. An account a sign-up creates (`keep`,
 * curl_accounts.ts) stays the run's own.
 *
 * @example
 * ```ts
 * import { namesAsWritten } from "./curl_steps.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * c.vars.push(["zone_name", "example.org.-${RUN_ID}"]);
 * c.generated.set("example.org.", "${vars.zone_name}");
 * namesAsWritten(c);
 * if (c.vars[0][1] !== "example.org.") throw new Error(c.vars[0][1]);
 * ```
 */
export function namesAsWritten(c: Correlator, keep: ReadonlySet<string> = new Set()): void {
  for (const [name, ref] of c.generated) {
    if (keep.has(name)) continue;
    const v = c.vars.find(([varName]) => c.sp.varRef(varName) === ref);
    if (v && v[1].includes("RUN_ID")) v[1] = c.sp.lit(name);
  }
}

/** The default header rule, but fresh-looking headers and `$NAME` values sent as written. */
function headers(c: Correlator, base: Rules, r: HarRecord, step: Step): [string, string][] {
  const own = r.headers.filter((h) => hasMarker(h.value));
  const rest: HarRecord = own.length === 0 ? r : {
    ...r,
    headers: r.headers.filter((h) => !hasMarker(h.value)),
    cookies: own.some((h) => h.name.toLowerCase() === "cookie") ? [] : r.cookies,
  };
  // A cookie written in the command is sent even beside an Authorization header (a
  // recording's are dropped there: the browser attaches every cookie it holds).
  const isCookie = (h: { name: string }) => h.name.toLowerCase() === "cookie";
  const cookie = rest.headers.some(isCookie)
    ? base.headers({ ...rest, headers: rest.headers.filter(isCookie) }, step)
    : [];
  const others = base.headers({ ...rest, headers: rest.headers.filter((h) => !isCookie(h)) }, step);
  const at = rest.headers.findIndex(isCookie);
  const before = rest.headers.slice(0, Math.max(at, 0)).filter((h) => keepHeader(h.name)).length;
  const merged = [...others.slice(0, before), ...cookie, ...others.slice(before)];
  const out = merged.map(([name, template]): [string, string] => {
    if (!FRESH_HEADER.test(name)) return [name, template];
    c.replaced.generated--;
    const written = r.headers.find((h) => h.name.toLowerCase() === name)?.value ?? "";
    return [name, c.sp.lit(written)];
  });
  for (const h of own) {
    const name = h.name.toLowerCase();
    if (keepHeader(name) && !out.some(([n]) => n === name)) out.push([name, c.sp.lit(h.value)]);
  }
  return out;
}

/**
 * Puts on `step` what its record could not hold.
 *
 * @example
 * ```ts
 * import { stepExtras } from "./curl_steps.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "upload", uses: new Set(), headers: [] } as any;
 * stepExtras(c, step, { options: { insecure: true }, ignored: [], notes: [], bodyFile: "a.bin" });
 * if (step.bodyFile !== "a.bin" || step.options === undefined) throw new Error();
 * ```
 */
export function stepExtras(
  c: Correlator,
  step: Step,
  extras: CurlExtras,
  files?: CurlFiles,
): void {
  if (extras.multipart) multipart(c, step, extras, files);
  if (extras.auth) step.auth = curlAuth(c, extras.auth, step.first.url.host, extras.notes, step);
  if (extras.bodyFile !== undefined) step.bodyFile = extras.bodyFile;
  if (step.form !== undefined) {
    // `form:` writes this content type itself.
    step.headers = step.headers.filter(([n, v]) =>
      !(n === "content-type" && v.trim().toLowerCase() === "application/x-www-form-urlencoded")
    );
  }
  const entries = requestOptions(c, extras, files);
  if (entries.some(([, v]) => v !== undefined)) step.options = ymap(entries);
}

/** The step's `options:` entries from curl's (TLS files rebased beside the flow). */
function requestOptions(
  c: Correlator,
  extras: CurlExtras,
  files?: CurlFiles,
): [string, YNode | undefined][] {
  const o = extras.options;
  const place = (path: string | undefined) =>
    path === undefined ? undefined : files?.rebase(path) ?? path;
  if (o.cert !== undefined && o.key === undefined) {
    extras.notes.push(
      "--cert without --key: the key is read from the certificate's file, as curl reads it; give client_key if it is elsewhere.",
    );
  }
  return [
    ["insecure", o.insecure],
    ["follow_redirects", o.followRedirects],
    ["cookie_jar", o.cookieJar],
    ["timeout", o.timeout],
    ["proxy", o.proxy === undefined ? undefined : proxyOption(c, o.proxy, extras.notes)],
    ["client_cert", place(o.cert)],
    // Without --key curl reads the key from the certificate's file (a PEM may hold both).
    ["client_key", place(o.key ?? o.cert)],
    ["ca_cert", place(o.cacert)],
  ];
}

/**
 * The extensions curl's `Curl_mime_contenttype` knows (lib/mime.c); a flow
 * guesses these alike. Any other file curl sends as application/octet-stream.
 */
const CURL_PART_TYPES = table<string>({
  gif: "image/gif",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  svg: "image/svg+xml",
  txt: "text/plain",
  htm: "text/html",
  html: "text/html",
  pdf: "application/pdf",
  xml: "application/xml",
});

/**
 * The type curl sends a `-F name=@file` part with when `;type=` is not
 * written, where a flow's guess by extension would differ (`.htm`, `.csv`,
 * `.json`, …); `undefined` where both send the same.
 */
function curlPartType(path: string): string | undefined {
  const base = path.split(/[\\/]/).at(-1)!;
  const ext = base.includes(".") ? base.split(".").at(-1)!.toLowerCase() : "";
  if (ext === "") return undefined;
  if (ext === "htm") return "text/html";
  return Object.hasOwn(CURL_PART_TYPES, ext) ? undefined : "application/octet-stream";
}

/** `-F` parts: text fields as templates, `@file` parts as `{file}`, `<file` parts as their text. */
function multipart(c: Correlator, step: Step, extras: CurlExtras, files?: CurlFiles): void {
  const where = { body: true, mutating: false, login: false, credentials: false };
  const entries: [string, YNode][] = [];
  for (const part of extras.multipart ?? []) {
    // A flow's multipart field name is a template: a written `${` is escaped.
    const name = c.sp.lit(part.name);
    if (entries.some(([n]) => n === name)) {
      extras.notes.push(`The form field "${part.name}" is sent twice; a flow sends it once.`);
      continue;
    }
    if (part.from === "file") {
      entries.push([name, filePart(part, extras, files)]);
      continue;
    }
    const text = fieldText(part, extras, files);
    const value = c.rules.stringValue(part.name, text, step, where);
    const content = part.content ?? (part.from === "contents" ? linesAsTheyAre(text) : undefined);
    entries.push([name, content ? contentPart(value, content) : value]);
  }
  step.multipart = ymap(entries);
  step.headers = step.headers.filter(([name]) => name !== "content-type");
}

/**
 * A `<file` part whose text has line breaks: curl sends the file's bytes, a
 * flow's text field would send each line break as CRLF (as a browser's form
 * does), so it goes as `{content}`, which keeps them.
 */
function linesAsTheyAre(text: string): FormPart["content"] {
  return /[\r\n]/.test(text) ? {} : undefined;
}

/**
 * `{content, filename?, content_type?}`: the text sent as its bytes, as a file
 * when named; `{content_base64, …}` for bytes an answer gave as base64.
 */
function contentPart(value: YNode, content: NonNullable<FormPart["content"]>): YNode {
  return ymap([
    [content.base64 ? "content_base64" : "content", value],
    ["filename", content.filename],
    ["content_type", content.type],
  ]);
}

/**
 * The type curl sends a `-F name=@file` part with when `;type=` is not
 * written: what `Curl_mime_contenttype` knows, else application/octet-stream.
 *
 * @example
 * ```ts
 * import { curlFileType } from "./curl_steps.ts";
 * if (curlFileType("a.json") !== "application/octet-stream") throw new Error();
 * if (curlFileType("notes.TXT") !== "text/plain") throw new Error();
 * ```
 */
export function curlFileType(path: string): string {
  const base = path.split(/[\\/]/).at(-1)!;
  const ext = base.includes(".") ? base.split(".").at(-1)!.toLowerCase() : "";
  return Object.hasOwn(CURL_PART_TYPES, ext) ? CURL_PART_TYPES[ext] : "application/octet-stream";
}

/**
 * An `@file` part as `{file}`: the path as the flow reads it, the type curl
 * sends it with, its filename; a note when the file is not there.
 */
function filePart(part: FormPart, extras: CurlExtras, files?: CurlFiles): YNode {
  const fields: [string, YScalar][] = [["file", files?.rebase(part.value, true) ?? part.value]];
  const type = part.type ?? curlPartType(part.value);
  if (type !== undefined) fields.push(["content_type", type]);
  if (part.filename) fields.push(["filename", part.filename]);
  if (files && !fileThere(files, part.value)) {
    extras.notes.push(
      `The file "${part.value}" the form uploads does not exist; create it before running.`,
    );
  }
  return yflow(fields);
}

/**
 * A text part's value: as written, or a `<file` part's file's text (empty,
 * with a note, when it cannot be read); a `;type=` is noted, a flow does not send it.
 */
function fieldText(part: FormPart, extras: CurlExtras, files?: CurlFiles): string {
  let text = part.value;
  if (part.from === "contents") {
    const read = files?.read(part.value);
    text = read ?? "";
    if (read === undefined && files?.refused?.(part.value, "content") === undefined) {
      extras.notes.push(
        `The file "${part.value}" for the form field "${part.name}" could not be read; the field is empty.`,
      );
    }
  }
  if (part.type) {
    extras.notes.push(`The type of the form field "${part.name}" (${part.type}) is not carried.`);
  }
  return text;
}
