/**
 * Uploads in a recording: a multipart body read back into its fields and
 * files, so the flow can send it as a `multipart:` map (its own boundary,
 * every value encoded by the runner) with each file read from a file beside
 * the flow. Browsers never keep an upload's bytes in a HAR, so such a file is
 * a placeholder the user replaces; the recorded file name is kept.
 *
 * @module
 */
import { FILE_PLACEHOLDER, multipartText } from "./har_input.ts";
import { loadBodies } from "./har_bodies.ts";
import type { HarRecord } from "./har_model.ts";

/** One part of a recorded multipart body. */
export interface UploadPart {
  name: string;
  /** A text field's value. */
  value?: string;
  /** A file part's recorded file name (its presence makes the part a file). */
  fileName?: string;
  contentType?: string;
  /** A file part's recorded content, when the recording holds it. */
  content?: string;
}

/**
 * The text of a placeholder file.
 *
 * @example
 * ```ts
 * import { PLACEHOLDER_TEXT } from "./uploads.ts";
 * if (!PLACEHOLDER_TEXT.endsWith("\n")) throw new Error();
 * ```
 */
export const PLACEHOLDER_TEXT = `${FILE_PLACEHOLDER}\n`;

/**
 * The parts of a multipart body, or `undefined` when the text is not one
 * (no part with a `Content-Disposition` name).
 *
 * @example
 * ```ts
 * import { multipartParts } from "./uploads.ts";
 * const text = '--b\r\nContent-Disposition: form-data; name="t"\r\n\r\nQ3\r\n' +
 *   '--b\r\nContent-Disposition: form-data; name="f"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n\r\n--b--\r\n';
 * const [t, f] = multipartParts(text, "b")!;
 * if (t.value !== "Q3" || f.fileName !== "a.csv" || f.contentType !== "text/csv" || f.content !== "") {
 *   throw new Error(JSON.stringify([t, f]));
 * }
 * ```
 */
export function multipartParts(text: string, boundary: string): UploadPart[] | undefined {
  const chunks = text.split(`--${boundary}`).slice(1);
  const parts: UploadPart[] = [];
  for (const chunk of chunks) {
    if (chunk.startsWith("--")) break;
    const body = chunk.replace(/^\r?\n/, "");
    const end = /\r?\n\r?\n/.exec(body);
    const head = end ? body.slice(0, end.index) : body;
    const content = end ? body.slice(end.index + end[0].length).replace(/\r?\n$/, "") : "";
    const disposition = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const contentType = /^content-type:\s*(.+?)\s*$/im.exec(head)?.[1];
    parts.push(
      fileName === undefined ? { name, value: content } : { name, fileName, contentType, content },
    );
  }
  return parts.length > 0 ? parts : undefined;
}

/**
 * A placeholder's path that `run DIR/` and `validate DIR/` never read as a
 * flow: a file named like one (`schema.yaml`, `data.yml`, which collections
 * and forms upload) gets `.upload` after its name, since discovery reads
 * every `*.yaml` and `*.yml` under the folder (and would read the user's
 * real file put there too). The flow sends it under its own name
 * (`filename:`).
 *
 * @example
 * ```ts
 * import { notReadAsFlow } from "./uploads.ts";
 * if (notReadAsFlow("files/schema.yaml") !== "files/schema.yaml.upload") throw new Error();
 * if (notReadAsFlow("files/a.YML") !== "files/a.YML.upload" || notReadAsFlow("a.pdf") !== "a.pdf") {
 *   throw new Error();
 * }
 * ```
 */
export function notReadAsFlow(path: string): string {
  return /\.ya?ml$/i.test(path) ? `${path}.upload` : path;
}

/**
 * Where a placeholder for an uploaded file goes, relative to the flow:
 * `uploads/` and the recorded base name made safe for any file system (and
 * never read as a flow: {@linkcode notReadAsFlow}).
 *
 * @example
 * ```ts
 * import { placeholderPath } from "./uploads.ts";
 * if (placeholderPath("C:\\scans\\Cover 1.pdf") !== "uploads/Cover_1.pdf") throw new Error();
 * if (placeholderPath("../..") !== "uploads/upload.bin") throw new Error();
 * if (placeholderPath("openapi.yaml") !== "uploads/openapi.yaml.upload") throw new Error();
 * ```
 */
export function placeholderPath(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const safe = base.replace(/[^\w.-]+/g, "_").replace(/^[.]+/, "").slice(0, 100);
  return notReadAsFlow(`uploads/${safe === "" || safe === "_" ? "upload.bin" : safe}`);
}

/**
 * The recorded base name of a file part, when it differs from the
 * placeholder's (then the flow names it with `filename:`).
 *
 * @example
 * ```ts
 * import { sentFileName } from "./uploads.ts";
 * if (sentFileName("../a b.pdf") !== "a b.pdf" || sentFileName("plan.csv") !== undefined) throw new Error();
 * if (sentFileName("spec.yaml") !== "spec.yaml") throw new Error();
 * ```
 */
export function sentFileName(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  return base !== "" && `uploads/${base}` !== placeholderPath(fileName) ? base : undefined;
}

/**
 * What a form's text field holds in the flow when the page gave it no
 * default: the user typed it.
 *
 * @example
 * ```ts
 * import { TYPED_PLACEHOLDER } from "./uploads.ts";
 * if (TYPED_PLACEHOLDER !== "(not recorded)") throw new Error();
 * ```
 */
export const TYPED_PLACEHOLDER = "(not recorded)";

/** A field of a form, as the browser sends it when the form is submitted. */
export interface FormField extends UploadPart {
  /** Whether the value is a placeholder for what the user typed. */
  typed?: boolean;
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };
const unescapeHtml = (text: string) =>
  text.replace(
    /&(#x[\da-f]+|#\d+|amp|quot|apos|lt|gt);/gi,
    (_, e: string) =>
      e[0] === "#"
        ? String.fromCodePoint(
          e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)),
        )
        : ENTITIES[e.toLowerCase()],
  );

/** A tag's attributes, names in lower case; a boolean attribute has the value "". */
function tagAttributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const inner = tag.replace(/^<\w+/, "").replace(/\/?>$/, "");
  for (
    const a of inner.matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)
  ) {
    const name = a[1].toLowerCase();
    if (!out.has(name)) out.set(name, unescapeHtml(a[2] ?? a[3] ?? a[4] ?? ""));
  }
  return out;
}

/** The file name a placeholder gets: `upload` and the first extension the input accepts. */
function acceptedName(accept: string | undefined): string {
  const ext = accept?.split(",").map((a) => a.trim()).find((a) => /^\.\w{1,8}$/.test(a));
  const mime = accept?.split(",").map((a) => a.trim().toLowerCase()).find((a) =>
    /^\w+\/[\w.+-]+$/.test(a)
  );
  const fromMime = mime && /\/(png|jpeg|gif|webp|pdf|csv|plain|json|zip)$/.exec(mime)?.[1];
  const suffix = ext ??
    (fromMime
      ? `.${fromMime === "plain" ? "txt" : fromMime === "jpeg" ? "jpg" : fromMime}`
      : ".bin");
  return `upload${suffix.toLowerCase()}`;
}

/**
 * The fields a form sends, in document order: named inputs, textareas and
 * selects that are not disabled; checkboxes and radios only when checked;
 * the submit button only when it is the form's one named submitter. Hidden
 * and text fields keep the page's value; a text field or textarea the page
 * left empty holds {@linkcode TYPED_PLACEHOLDER} (the user typed it; the
 * recording does not say what); a select sends its selected option, else its
 * first; a file input becomes a file part named as the form names it.
 *
 * @example
 * ```ts
 * import { formFields } from "./uploads.ts";
 * const fields = formFields(
 *   '<input type="hidden" name="authenticity_token" value="t&amp;1"><input name="caption">' +
 *     '<input type="file" name="doc" accept=".pdf"><input type="checkbox" name="x" value="1">' +
 *     '<select name="v"><option value="a">A<option value="b" selected>B</select>',
 * );
 * const shown = fields.map((f) => `${f.name}=${f.fileName ?? f.value}`).join(" ");
 * if (shown !== "authenticity_token=t&1 caption=(not recorded) doc=upload.pdf v=b") throw new Error(shown);
 * ```
 */
export function formFields(body: string): FormField[] {
  const fields: FormField[] = [];
  const submits: FormField[] = [];
  let unnamedSubmits = 0;
  const tags = /<(input|textarea|select|button)\b[^>]{0,4000}>/gi;
  for (const tag of body.matchAll(tags)) {
    const kind = tag[1].toLowerCase();
    const attrs = tagAttributes(tag[0]);
    const name = attrs.get("name");
    const type = (attrs.get("type") ?? (kind === "button" ? "submit" : "text")).toLowerCase();
    if (kind === "button" || ["submit", "image"].includes(type)) {
      if (name && !attrs.has("disabled")) submits.push({ name, value: attrs.get("value") ?? "" });
      else unnamedSubmits++;
      continue;
    }
    if (!name || attrs.has("disabled") || ["reset", "button"].includes(type)) continue;
    const field = controlField(kind, name, type, attrs, body.slice(tag.index! + tag[0].length));
    if (field) fields.push(field);
  }
  // Which button was pressed is not recorded: only a form with one submitter says.
  if (submits.length === 1 && unnamedSubmits === 0) fields.push(submits[0]);
  // A map holds one value per name; a server reads the last (Rails' hidden "0" before a checked box).
  const last = new Map(fields.map((f) => [f.name, f]));
  return fields.filter((f, i) => fields.findIndex((g) => g.name === f.name) === i)
    .map((f) => last.get(f.name)!);
}

/** What one named, enabled control sends; `after` is the page after its tag. */
function controlField(
  kind: string,
  name: string,
  type: string,
  attrs: Map<string, string>,
  after: string,
): FormField | undefined {
  if (kind === "textarea") return textareaField(name, after);
  if (kind === "select") return selectField(name, after);
  return inputField(name, type, attrs);
}

/** A textarea sends its text; one left empty was typed into. */
function textareaField(name: string, after: string): FormField {
  const text = unescapeHtml(/^([\s\S]{0,20000}?)<\/textarea>/i.exec(after)?.[1] ?? "").replace(
    /^\r?\n/,
    "",
  );
  return text === "" ? { name, value: TYPED_PLACEHOLDER, typed: true } : { name, value: text };
}

/** A select sends its selected option, else its first; none without options. */
function selectField(name: string, after: string): FormField | undefined {
  const options = [...(/^([\s\S]{0,20000}?)<\/select>/i.exec(after)?.[1] ?? "")
    .matchAll(/<option\b[^>]*>([^<]*)/gi)].map((o) => ({
      attrs: tagAttributes(/<option\b[^>]*>/i.exec(o[0])![0]),
      text: o[1],
    }));
  const chosen = options.find((o) => o.attrs.has("selected")) ?? options[0];
  return chosen
    ? { name, value: chosen.attrs.get("value") ?? unescapeHtml(chosen.text.trim()) }
    : undefined;
}

/** An input: a file part, a checked box, a hidden value, or a text field (typed when empty). */
function inputField(name: string, type: string, attrs: Map<string, string>): FormField | undefined {
  if (type === "file") return { name, fileName: acceptedName(attrs.get("accept")) };
  if (type === "checkbox" || type === "radio") {
    return attrs.has("checked") ? { name, value: attrs.get("value") ?? "on" } : undefined;
  }
  const value = attrs.get("value") ?? "";
  return value === "" && type !== "hidden"
    ? { name, value: TYPED_PLACEHOLDER, typed: true }
    : { name, value };
}

/** Where a form posts: its action resolved against the page (no action: the page itself), no fragment. */
function formTarget(attrs: Map<string, string>, page: URL): string | undefined {
  try {
    const target = new URL(attrs.get("action") || page.href, page);
    return `${target.origin}${target.pathname}${target.search}`;
  } catch {
    return undefined;
  }
}

/**
 * The form of a page that posted an upload: a `POST` form whose action is the
 * upload's URL (a multipart one first); else, for an upload the browser sent
 * as a page navigation, the page's one multipart form.
 */
function uploadForm(html: string, page: URL, upload: HarRecord): FormField[] | undefined {
  const url = `${upload.url.origin}${upload.url.pathname}${upload.url.search}`;
  const forms = [...html.matchAll(/<form\b[^>]{0,4000}>([\s\S]{0,200000}?)<\/form>/gi)].map((f) => {
    const attrs = tagAttributes(/^<form\b[^>]*>/i.exec(f[0])![0]);
    return {
      body: f[1],
      posts: (attrs.get("method") ?? "get").toLowerCase() === upload.method.toLowerCase(),
      multipart: /^multipart\/form-data/i.test(attrs.get("enctype") ?? ""),
      target: formTarget(attrs, page),
    };
  }).filter((f) => f.posts);
  const byAction = forms.filter((f) => f.target === url).sort((a, b) =>
    Number(b.multipart) - Number(a.multipart)
  );
  const multipart = forms.filter((f) => f.multipart);
  const form = byAction[0] ??
    (upload.resourceType === "document" && multipart.length === 1 ? multipart[0] : undefined);
  const fields = form ? formFields(form.body) : [];
  return fields.some((f) => f.fileName !== undefined) ? fields : undefined;
}

const isPage = (r: HarRecord) =>
  r.method === "GET" &&
  (r.resourceType === "document" || /^(text\/html|application\/xhtml\+xml)$/.test(r.mimeType));

/** Where the fields of an upload filled by {@linkcode fillUploadsFromForms} came from. */
export interface FormSource {
  /** `GET /path` of the page whose form posted the upload. */
  page: string;
  /** Fields the user typed into, which hold {@linkcode TYPED_PLACEHOLDER}. */
  typed: string[];
}

const FILLED = new WeakMap<HarRecord, FormSource>();

/**
 * The form an upload's fields were read from, when the browser recorded no
 * body and {@linkcode fillUploadsFromForms} found the form that posted it.
 *
 * @example
 * ```ts
 * import { formSource } from "./uploads.ts";
 * import { parseHar } from "./har_model.ts";
 * const [r] = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "https://a.test/" }, response: { status: 200, content: {} } },
 * ] } }), []).records;
 * if (formSource(r) !== undefined) throw new Error();
 * ```
 */
export function formSource(r: HarRecord): FormSource | undefined {
  return FILLED.get(r);
}

/**
 * Uploads the browser recorded without their body (Chromium keeps no part of
 * a multipart body) get the body the form that posted them sends: the fields
 * of the last page before the upload, on its host, whose form posts to the
 * upload's URL ({@linkcode formFields}; each file part empty, so the flow
 * sends a placeholder file). An upload a script sent with `FormData` has no
 * such form and is left as it is ({@linkcode formSource} tells which were
 * filled, for the note on uploads). Returns how many were filled.
 *
 * @example
 * ```ts
 * import { fillUploadsFromForms, formSource } from "./uploads.ts";
 * import { parseHar } from "./har_model.ts";
 * const har = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "GET", url: "https://app.test/docs/new" }, _resourceType: "document",
 *     response: { status: 200, content: { mimeType: "text/html", text:
 *       '<form method="post" action="/docs" enctype="multipart/form-data"><input name="title" value="Q3"><input type="file" name="doc"></form>' } } },
 *   { request: { method: "POST", url: "https://app.test/docs",
 *       headers: [{ name: "content-type", value: "multipart/form-data; boundary=b" }] },
 *     response: { status: 302, content: { mimeType: "text/html", text: "" } }, _resourceType: "document" },
 * ] } }), []);
 * if (fillUploadsFromForms([har.records[1]], har.records) !== 1) throw new Error();
 * if (!har.records[1].bodyText?.includes('name="doc"; filename="upload.bin"')) throw new Error(har.records[1].bodyText);
 * if (formSource(har.records[1])?.page !== "GET /docs/new") throw new Error();
 * ```
 */
export function fillUploadsFromForms(uploads: HarRecord[], records: HarRecord[]): number {
  let filled = 0;
  for (const upload of uploads) {
    const type = upload.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ??
      upload.bodyMime ?? "";
    if (!/^multipart\/form-data/i.test(type) || (upload.bodyText ?? "").trim() !== "") continue;
    const pages = records.filter((r) =>
      r.index < upload.index && r.url.host === upload.url.host && isPage(r)
    ).reverse();
    loadBodies(pages, []);
    for (const page of pages) {
      const fields = page.responseText === undefined
        ? undefined
        : uploadForm(page.responseText, page.url, upload);
      if (!fields) continue;
      upload.bodyText = multipartText(type, fields.map((f) => ({ ...f, value: f.value ?? "" })));
      FILLED.set(upload, {
        page: `GET ${page.url.pathname}`,
        typed: fields.filter((f) => f.typed).map((f) => f.name),
      });
      filled++;
      break;
    }
  }
  return filled;
}
