/**
 * An operation's request body in the flow format's spelling: JSON as
 * `body` (a map or list as YAML), a URL-encoded form as `form`, multipart
 * as `multipart` (binary fields as placeholder files, or an image where the
 * document states one: `part_type.ts`), text as a string
 * body with its content type, anything else as a placeholder `body_file`.
 * The value is the document's (the media type's `example` or first of
 * `examples`) or generated from its schema (JSON with the optional
 * properties the document gives an example of: `ExampleMaker.withExamples`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { givenExample, literal, simpleText, toYNode } from "./params.ts";
import { isSoleUpdate, somethingToUpdate } from "./patch_body.ts";
import { itemKeys } from "./item_key.ts";
import { itemMembers, jsonPatchOnItem } from "./json_patch.ts";
import type { OpenApiOperation } from "./operations.ts";
import { manyToUpdate } from "./many_update.ts";
import { oneChange, patchesOneItem } from "./one_change.ts";
import { withSummaryNamed } from "./summary_named.ts";
import { withRefusalNamed } from "./refusal_named.ts";
import { withLoneMember } from "./lone_member.ts";
import { withoutServerDefaults } from "./server_defaults.ts";
import { withCreateRequired } from "./create_required.ts";
import { somethingToCreate } from "./empty_create.ts";
import { leavesFileOut } from "./optional_files.ts";
import { updateNode } from "./tag_create.ts";
import { summaryBodySchema, withSummaryBody } from "./summary_body.ts";
import { withSiblingBody } from "./sibling_body.ts";
import { withSchemaRequired } from "./example_required.ts";
import { withOptionalNames } from "./named_optional.ts";
import { withAnswerRequired } from "./answer_required.ts";
import { makesItem } from "./makes_item.ts";
import { documentPath } from "./fixed_segment.ts";
import { madeImagePart, statedPartTypes, statedPlaceholderType } from "./part_type.ts";

/** A file the flows read that the user must replace with a real one. */
export interface PlaceholderFile {
  /** Relative to the output folder: `files/upload_photo_file.bin`. */
  path: string;
  /** What it stands for, for the summary. */
  what: string;
}

/** A request body's fields of the step's `request`, and what goes with it. */
export interface BodyParts {
  fields: [string, YNode][];
  headers: [string, string][];
  files: PlaceholderFile[];
  /** Optional members left out (`multipart image (a file)`), for the step's comment. */
  leftOut?: string[];
  /** The schema the operation's summary names, when the document gives no body (summary_body.ts). */
  named?: string;
}

/**
 * The step's comments on its body: the schema its summary named, the optional members left out.
 *
 * @example
 * ```ts
 * import { bodyComments } from "./body.ts";
 * const lines = bodyComments({ fields: [], headers: [], files: [], leftOut: ["multipart a (a file)"] });
 * if (lines.join() !== "optional, left out: multipart a (a file)") throw new Error();
 * ```
 */
export function bodyComments(body: BodyParts): string[] {
  return [
    ...body.named === undefined
      ? []
      : [`body: the schema ${body.named} its summary names (the document gives the write none)`],
    ...body.leftOut ? [`optional, left out: ${body.leftOut.join(", ")}`] : [],
  ];
}

/** The media type to send: JSON first, then forms, multipart, text, then the first listed. */
function pickMedia(content: Node): string | undefined {
  const types = Object.keys(content).filter((t) => isNode(content[t]) || content[t] === null);
  const find = (re: RegExp) => types.find((t) => re.test(t));
  return find(/^application\/(.+\+)?json\b/i) ?? find(/json/i) ??
    find(/^application\/x-www-form-urlencoded\b/i) ?? find(/^multipart\/form-data\b/i) ??
    find(/^text\//i) ?? types[0];
}

/**
 * The body parts of an operation; empty without a `requestBody`.
 *
 * @example
 * ```ts
 * import { bodyParts } from "./body.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const op = { requestBody: { content: { "application/x-www-form-urlencoded": {
 *   schema: { type: "object", required: ["user"], properties: { user: { type: "string" } } } } } } };
 * const parts = bodyParts({}, new ExampleMaker({}), op, "login");
 * if (parts.fields[0][0] !== "form") throw new Error();
 * ```
 */
export function bodyParts(
  doc: unknown,
  maker: ExampleMaker,
  op: Node,
  step: string,
  method?: string,
  create = false,
  soleUpdate = false,
  keys: ReadonlySet<string> = new Set(),
  oneItem = false,
  members: [string, Node][] = [],
  template = "",
  signUp = false,
): BodyParts {
  const out: BodyParts = { fields: [], headers: [], files: [] };
  const body = deref(doc, op.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : undefined;
  const type = content && pickMedia(content);
  if (!content || type === undefined) return out;
  const media = isNode(content[type]) ? content[type] as Node : {};
  const own = givenExample(doc, media);
  const json = /json/i.test(type);
  // JSON of no schema is any JSON; an object is what servers' JSON parsers take (Express's
  // strict default and Adonis's refuse a bare `null`: 400, 422).
  // An example leaving out a member its own schema requires is sent with it (example_required.ts).
  const named = own.given
    ? (json ? withSchemaRequired(doc, maker, media.schema, own.value) : own.value)
    : json && media.schema === undefined
    ? {}
    : generated(doc, maker, { op, schema: media.schema, type, method, create, template, signUp });
  // An update of nothing is no request (LoopBack: 400; RealWorld's `{"user": {}}`: 500), nor of
  // many (Directus's `{keys, data}`: many_update.ts).
  const update = (v: unknown) => method === "PATCH" ? manyToUpdate(doc, maker, media.schema, v) : v;
  // A PATCH of one item changes one member, not each optional member's example (one_change.ts).
  const changed = oneItem ? oneChange(doc, maker, op, media.schema, named, keys) : named;
  const sole = soleUpdate && !create;
  // An item's only update that requires nothing sends what its create requires too: a server may
  // set every column (create_required.ts).
  const whole = (v: unknown) =>
    sole ? withCreateRequired(doc, maker, template, media.schema, v, keys) : v;
  // A PUT of one setting sends the one member its schema declares (lone_member.ts).
  const lone = (v: unknown) => withLoneMember(doc, maker, method, template, media.schema, v);
  // A JSON Patch changes a member the item has (`members`), whatever a shared schema's example
  // names (json_patch.ts).
  const value = !own.given && json
    ? jsonPatchOnItem(
      doc,
      maker,
      { type, schema: media.schema, members, keys },
      lone(update(whole(somethingToUpdate(doc, maker, method, media.schema, changed, sole, keys)))),
    )
    : named;
  writeBody(doc, { type, media, value, step }, out);
  return out;
}

/**
 * The body parts of an operation's step ({@linkcode bodyParts}), told
 * whether it creates and whether it is its item's only update (a PUT
 * with no PATCH beside it: `patch_body.ts`); `signUp` when it is the
 * sign-up, which makes an account as a create makes an item
 * (`named_optional.ts`). None for a GET or HEAD.
 *
 * @example
 * ```ts
 * import { stepBody } from "./body.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const schema = { type: "object", properties: { name: { type: "string" } } };
 * const node = { requestBody: { content: { "application/json": { schema } } } };
 * const doc = { paths: { "/tasks/{id}": { put: node } } };
 * const op = { method: "PUT", template: "/tasks/{id}", node, params: [], name: "put", index: 0 };
 * const parts = stepBody(doc, new ExampleMaker(doc), op, "put");
 * // No PATCH beside it: the PUT updates something, not nothing.
 * if (!JSON.stringify(parts.fields).includes("name")) throw new Error(JSON.stringify(parts.fields));
 * ```
 */
export function stepBody(
  doc: unknown,
  maker: ExampleMaker,
  op: OpenApiOperation,
  step: string,
  signUp = false,
): BodyParts {
  // A GET or HEAD sends none, whatever the document gives (the step's comment says so).
  if (op.method === "GET" || op.method === "HEAD") return { fields: [], headers: [], files: [] };
  const sole = isSoleUpdate(doc, op.method, documentPath(op));
  // The names paths give the item are its keys, which an update leaves alone (item_key.ts).
  const keys = op.method === "PATCH" || sole ? itemKeys(doc, op.template) : undefined;
  const create = op.role === "create";
  const one = patchesOneItem(op.method, op.template);
  // A PATCH whose schema names no member is made from its tag's PUT's (tag_create.ts).
  // A write the document gives no body whose summary names a schema sends it (summary_body.ts).
  const named = summaryBodySchema(doc, op);
  // A create given no body sends what its item's update takes (sibling_body.ts).
  const node = withSiblingBody(doc, op, withSummaryBody(doc, op, updateNode(doc, op)));
  const members = op.method === "PATCH" ? itemMembers(doc, documentPath(op)) : [];
  const parts = bodyParts(
    doc,
    maker,
    node,
    step,
    op.method,
    create,
    sole,
    keys,
    one,
    members,
    op.template,
    signUp,
  );
  return named === undefined ? parts : { ...parts, named };
}

/** A body made from the schema, as the document gives none. */
function generated(
  doc: unknown,
  maker: ExampleMaker,
  { op, schema, type, method, create, template, signUp }: {
    op: Node;
    schema: unknown;
    /** The media type sent: JSON, or a form, multipart's file alone a placeholder, no content. */
    type: string;
    method?: string;
    create: boolean;
    template: string;
    /** Whether it is the sign-up, which makes an account as a create makes an item. */
    signUp: boolean;
  },
): unknown {
  const json = /json/i.test(type);
  const made = withoutServerDefaults(
    doc,
    schema,
    (json ? maker.withExamples() : maker).make(schema),
  );
  // A form sign-up's too; a form's other POSTs are as often searches (STAPI's `/animal/search`).
  const names = (v: unknown) => withOptionalNames(doc, maker, template, schema, v);
  // A multipart create of nothing but the placeholder file makes nothing (`empty_create.ts`): an
  // Express users API's answered 400 "name" is required. Only where its items have paths of their
  // own: a form POST is as often a search (STAPI's); a URL-encoded create of nothing is left as it
  // was (Twilio's trunk takes an empty form; its `DomainName` "must end with pstn.twilio.com").
  const makes = create && /^multipart\//i.test(type) && isNode(doc) && makesItem(doc, { template });
  const form = makes ? somethingToCreate(doc, maker, method ?? "", schema, made) : made;
  if (!json) return signUp ? names(form) : form;
  // A schema that requires nothing: what the operation's summary says it changes, too.
  // And what its documented refusals say is missing (refusal_named.ts).
  const summed = withSummaryNamed(doc, maker, op, schema, made);
  const said = withRefusalNamed(doc, maker, op, schema, summed);
  // A create of nothing makes nothing (Jupyter's sessions: 400): `empty_create.ts`.
  const some = create ? somethingToCreate(doc, maker, method ?? "", schema, said) : said;
  // Then its optional names: a server may keep them NOT NULL (named_optional.ts); and a POST's to
  // a listed collection, what each listed item must hold (answer_required.ts).
  const where = { method: method ?? "", template };
  const held = (v: unknown) => create ? withAnswerRequired(doc, maker, op, schema, v, where) : v;
  return create || signUp ? held(names(some)) : some;
}

/** The chosen media type's body, in the flow format's spelling for it. */
function writeBody(
  doc: unknown,
  { type, media, value, step }: { type: string; media: Node; value: unknown; step: string },
  out: BodyParts,
): void {
  const structured = isNode(value) || Array.isArray(value);
  if (/json/i.test(type)) {
    out.fields.push(["body", structured ? toYNode(value) : literal(JSON.stringify(value ?? null))]);
    if (!/^application\/json$/i.test(type) || !structured) out.headers.push(["Content-Type", type]);
  } else if (/^application\/x-www-form-urlencoded/i.test(type)) {
    out.fields.push(["form", formMap(isNode(value) ? value : {})]);
  } else if (/^multipart\/form-data/i.test(type)) {
    out.fields.push(["multipart", multipart(doc, media, value, step, out)]);
  } else if (/^text\//i.test(type) && !structured) {
    out.fields.push(["body", literal(String(value ?? "text"))]);
    out.headers.push(["Content-Type", type]);
  } else {
    const path = `files/${step}.bin`;
    out.files.push({ path, what: `the ${type} body of step ${step}` });
    out.fields.push(["body_file", path]);
    if (type !== "*/*") out.headers.push(["Content-Type", type]);
  }
}

function formMap(value: Node): YNode {
  return {
    kind: "map",
    entries: Object.keys(value).map((k) => {
      const v = value[k];
      // A form's field name is a template, as its value: a `${` in the document is text.
      return [
        literal(k),
        Array.isArray(v) ? v.map((x) => literal(simpleText(x))) : formScalar(v),
      ];
    }),
  };
}

function formScalar(v: unknown): YNode {
  if (typeof v === "number" || typeof v === "boolean") return v;
  if (isNode(v)) return literal(JSON.stringify(v));
  return literal(simpleText(v));
}

/**
 * Multipart fields: text as it is, binary properties as placeholder files;
 * an optional file beside a required text is left out (`optional_files.ts`),
 * named in `out.leftOut`, which the step's comment lists.
 */
function multipart(
  doc: unknown,
  media: Node,
  value: unknown,
  step: string,
  out: BodyParts,
): YNode {
  const schema = deref(doc, media.schema);
  const properties = isNode(schema) && isNode(schema.properties) ? schema.properties : {};
  const fields = isNode(value) ? value : {};
  const property = (name: string) =>
    deref(doc, Object.hasOwn(properties, name) ? properties[name] : undefined);
  const binary = (name: string) => isBinary(doc, property(name));
  const file = (name: string) =>
    fileEntry(step, name, out.files, statedPartTypes(media, name, property(name)));
  const sent = Object.keys(fields);
  const leftOut = (name: string) => leavesFileOut(schema, sent, binary, name);
  const entries: [string, YNode][] = [];
  for (const name of sent) {
    if (!binary(name)) entries.push([literal(name), formScalar(fields[name])]);
    else if (leftOut(name)) (out.leftOut ??= []).push(`multipart ${name} (a file)`);
    else entries.push([literal(name), file(name)]);
  }
  // An upload whose file the schema does not require still sends one: an upload of nothing
  // leaves nothing to read back (LoopBack's file transfer listed none, and its download 404'd).
  const unsent = Object.keys(properties).find((n) => binary(n) && !Object.hasOwn(fields, n));
  if (unsent === undefined || entries.some(([, v]) => isNode(v) && v.kind === "map")) {
    return { kind: "map", entries };
  }
  if (leftOut(unsent)) (out.leftOut ??= []).push(`multipart ${unsent} (a file)`);
  else entries.push([literal(unsent), file(unsent)]);
  return { kind: "map", entries };
}

/**
 * A multipart file member: an image the flow holds where the document states an image type
 * (`part_type.ts`), else a placeholder file named for the step and the member, sent with the
 * one type the document states, if it states one.
 */
function fileEntry(step: string, name: string, files: PlaceholderFile[], types: string[]): YNode {
  const stem = `${step}_${name.replace(/[^A-Za-z0-9_-]+/g, "_")}`;
  const image = madeImagePart(types, stem);
  if (image) return image;
  const path = `files/${stem}.bin`;
  files.push({ path, what: `the file step ${step} uploads as "${name}"` });
  const entries: [string, YNode][] = [["file", path]];
  const type = statedPlaceholderType(types);
  if (type !== undefined) entries.push(["content_type", type]);
  return { kind: "map", entries };
}

function isBinary(doc: unknown, property: unknown): boolean {
  if (!isNode(property)) return false;
  if (property.type === "array") return isBinary(doc, deref(doc, property.items));
  return property.format === "binary" || property.format === "base64" ||
    typeof property.contentMediaType === "string" || typeof property.contentEncoding === "string";
}
