/**
 * A page's form as a browser submits it: the fields of its controls, read
 * from the HTML a recording kept, for an upload whose body the recording
 * did not keep.
 *
 * @module
 */
/**
 * What a form's required text field holds in the flow when the page gave it
 * no default: the user must have typed something, and the recording does not
 * say what.
 *
 * @example
 * ```ts
 * import { TYPED_PLACEHOLDER } from "./form_fields.ts";
 * if (TYPED_PLACEHOLDER !== "(not recorded)") throw new Error();
 * ```
 */
export const TYPED_PLACEHOLDER = "(not recorded)";

/**
 * A field of a form, as the browser sends it when the form is submitted: a
 * text value, or a file part named by its file (a multipart part's shape).
 */
export interface FormField {
  name: string;
  /** A text field's value. */
  value?: string;
  /** A file input's file name (its presence makes the field a file part). */
  fileName?: string;
  /** Whether the value is a placeholder for what the user typed (a required field the page left empty). */
  typed?: boolean;
  /** Whether the page left this optional field empty: sent empty, as an untouched field is. */
  blank?: boolean;
}

/**
 * A text field or textarea the page left empty: a placeholder when the form
 * requires it (the user typed something), else empty, as the browser sends an
 * untouched field. "(not recorded)" in an optional field was taken by a real
 * server for a category to create and a name to give the upload.
 */
const emptyField = (name: string, attrs: Map<string, string>): FormField =>
  attrs.has("required")
    ? { name, value: TYPED_PLACEHOLDER, typed: true }
    : { name, value: "", blank: true };

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

/**
 * A tag's attributes, names in lower case; a boolean attribute has the value "".
 *
 * @example
 * ```ts
 * import { tagAttributes } from "./form_fields.ts";
 * const attrs = tagAttributes('<input name="a" required value="x&amp;y">');
 * if (attrs.get("value") !== "x&y" || attrs.get("required") !== "") throw new Error();
 * ```
 */
export function tagAttributes(tag: string): Map<string, string> {
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
 * and text fields keep the page's value; a required text field or textarea
 * the page left empty holds {@linkcode TYPED_PLACEHOLDER} (the user typed
 * something; the recording does not say what), an optional one is sent
 * empty; a select sends its selected option, else its
 * first; a file input becomes a file part named as the form names it
 * (with `eachFile`, as a multipart body sends them, every file input, even
 * one named like another: the server keeps every file).
 *
 * @example
 * ```ts
 * import { formFields } from "./form_fields.ts";
 * const fields = formFields(
 *   '<input type="hidden" name="authenticity_token" value="t&amp;1"><input name="caption" required>' +
 *     '<input type="file" name="doc" accept=".pdf"><input type="checkbox" name="x" value="1">' +
 *     '<select name="v"><option value="a">A<option value="b" selected>B</select>',
 * );
 * const shown = fields.map((f) => `${f.name}=${f.fileName ?? f.value}`).join(" ");
 * if (shown !== "authenticity_token=t&1 caption=(not recorded) doc=upload.pdf v=b") throw new Error(shown);
 * const twice = '<input type="file" name="a"><input type="file" name="a">';
 * if (formFields(twice).length !== 1 || formFields(twice, true).length !== 2) throw new Error();
 * ```
 */
export function formFields(body: string, eachFile = false): FormField[] {
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
  // A multipart body sends a part for each file input, and the server keeps every file.
  const kept = (f: FormField, i: number) =>
    (eachFile && f.fileName !== undefined) || fields.findIndex((g) => g.name === f.name) === i;
  return fields.filter(kept).map((f) =>
    eachFile && f.fileName !== undefined ? f : last.get(f.name)!
  );
}

/** What one named, enabled control sends; `after` is the page after its tag. */
function controlField(
  kind: string,
  name: string,
  type: string,
  attrs: Map<string, string>,
  after: string,
): FormField | undefined {
  if (kind === "textarea") return textareaField(name, attrs, after);
  if (kind === "select") return selectField(name, after);
  return inputField(name, type, attrs);
}

/** A textarea sends its text; one left empty is {@linkcode emptyField}. */
function textareaField(name: string, attrs: Map<string, string>, after: string): FormField {
  const text = unescapeHtml(/^([\s\S]{0,20000}?)<\/textarea>/i.exec(after)?.[1] ?? "").replace(
    /^\r?\n/,
    "",
  );
  return text === "" ? emptyField(name, attrs) : { name, value: text };
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

/** An input: a file part, a checked box, a hidden value, or a text field ({@linkcode emptyField} when empty). */
function inputField(name: string, type: string, attrs: Map<string, string>): FormField | undefined {
  if (type === "file") return { name, fileName: acceptedName(attrs.get("accept")) };
  if (type === "checkbox" || type === "radio") {
    return attrs.has("checked") ? { name, value: attrs.get("value") ?? "on" } : undefined;
  }
  const value = attrs.get("value") ?? "";
  return value === "" && type !== "hidden" ? emptyField(name, attrs) : { name, value };
}
