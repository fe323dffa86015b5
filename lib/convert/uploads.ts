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
import { type FormField, formFields, tagAttributes } from "./form_fields.ts";

export { type FormField, formFields, TYPED_PLACEHOLDER } from "./form_fields.ts";

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
  const fields = form ? formFields(form.body, true) : [];
  return fields.some((f) => f.fileName !== undefined) ? fields : undefined;
}

const isPage = (r: HarRecord) =>
  r.method === "GET" &&
  (r.resourceType === "document" || /^(text\/html|application\/xhtml\+xml)$/.test(r.mimeType));

/** Where the fields of an upload filled by {@linkcode fillUploadsFromForms} came from. */
export interface FormSource {
  /** `GET /path` of the page whose form posted the upload. */
  page: string;
  /** Required fields the user typed into, which hold {@linkcode TYPED_PLACEHOLDER}. */
  typed: string[];
  /** Optional fields the page left empty, sent empty. */
  blank?: string[];
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
        blank: fields.filter((f) => f.blank).map((f) => f.name),
      });
      filled++;
      break;
    }
  }
  return filled;
}
