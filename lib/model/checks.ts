/**
 * What a loaded step checks on a response and takes from it: the `assert`
 * and `loop.until` blocks (status, path, schema and XPath checks, check
 * groups with conditions), a step's `if` conditions, and captures. Part of
 * the loaded flow (`flow.ts`, which re-exports these).
 *
 * @module
 */
import type { ValueTemplate } from "./template.ts";
import type { CompiledPath } from "./path.ts";
import type { Operator } from "./operators.ts";

/**
 * The names accepted by the `type` operator.
 *
 * @example
 * ```ts
 * import { TYPE_NAMES } from "./checks.ts";
 * if (TYPE_NAMES.join() !== "string,number,integer,boolean,object,array,null") throw new Error();
 * ```
 */
export const TYPE_NAMES = [
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
] as const;

/** One `{path, <operator>: expected}` check. An item with several operators loads as several checks. */
export interface PathCheck {
  path: CompiledPath;
  operator: Operator;
  expected: ValueTemplate;
  /** The check's `name`, shown before its message. */
  name?: string;
  /** `each: true`: the operator applies to every value the path selects. */
  each?: boolean;
  /**
   * The `at` paths of the groups the check is in, outermost first: its path
   * is evaluated on what they select (`$` is that value), on each value
   * when one selects several.
   */
  base?: CompiledPath[];
  /** The conditional groups the check is in, outermost first, and the branch it is in. */
  groups?: { group: CheckGroup; branch: "then" | "else" }[];
  /** The check file it is written in, when not the step's own file (`line` and `column` are in it). */
  file?: string;
  line: number;
  column: number;
}

/**
 * A group of checks with a condition (`{if, checks, else}` in a check
 * list): its `checks` are evaluated when every condition holds, its `else`
 * checks when one does not; the branch not taken is reported as one skipped
 * result naming the condition.
 */
export interface CheckGroup {
  /** The group's `name`, which leads the names of its checks. */
  name?: string;
  /** Conditions on the response (`path`, rooted like the group's `at`) or on values (`value`). */
  when: GroupCondition[];
  /** How many checks each branch holds, for the skipped result's message. */
  counts: { then: number; else: number };
  /** The check file it is written in, when not the step's own file. */
  file?: string;
  line: number;
  column: number;
}

/** A condition of a check group: on the response, like a check, or on a value, like a step's `if`. */
export type GroupCondition =
  | (Condition & { kind: "value" })
  | {
    kind: "path";
    path: CompiledPath;
    /** The `at` paths of the enclosing groups. */
    base?: CompiledPath[];
    operator: Operator;
    expected: ValueTemplate;
    line: number;
    column: number;
  };

/** A bound on the status (`lt: 400`): the code, or a stand-in 0 with its expression in `from`. */
export interface StatusBound {
  op: "lt" | "lte" | "gt" | "gte";
  value: number;
  /** The bound written as `${…}`, rendered when the check runs. */
  from?: ValueTemplate;
}

/** `status: 200`, `status: {anyOf: [...]}`, `status: {in: [...]}` or bounds (`{lt: 400}`). */
export interface StatusCheck {
  /** `equals` for a bare integer; `anyOf` or `in` as written; `bounds` for `lt`, `gte`, …. */
  operator: "equals" | "anyOf" | "in" | "bounds";
  /** The codes (none for bounds); a code written as `${…}` is a stand-in here, its value taken from `from`. */
  expected: number[];
  /** With `bounds`: every one must hold. */
  bounds?: StatusBound[];
  /**
   * When some code is written as an expression: each code's value, in order,
   * rendered when the check runs and then checked to be a status code.
   */
  from?: ValueTemplate[];
  line: number;
  column: number;
}

/** The checks of an `assert` block or a `loop.until` block. */
export interface Checks {
  status?: StatusCheck;
  paths: PathCheck[];
  /** `schema` and `openapi` checks of the JSON body. */
  schemas?: SchemaCheck[];
  /** `{xpath, <operator>}` checks of an XML or HTML body. */
  xpaths?: XPathCheck[];
}

/** One `{xpath: "//title", <operator>: expected}` check of an XML or HTML body. */
export interface XPathCheck {
  xpath: string;
  operator: Operator;
  expected: ValueTemplate;
  name?: string;
  line: number;
  column: number;
}

/**
 * A compiled validator: the violations of a value (each at a JSON pointer,
 * `""` for the whole value), empty when it is valid.
 * @ignore
 */
export type Validate = (value: unknown) => { at: string; message: string }[];

/**
 * `schema` (a JSON Schema, inline or from a file) or `openapi` (an OpenAPI 3
 * document): the JSON body must match. Compiled before the run.
 * @ignore
 */
export type SchemaCheck =
  | {
    kind: "schema";
    /** The file as written, or `inline schema`. */
    source: string;
    schema: unknown;
    /** The flow file the check is written in. */
    file: string;
    line: number;
    column: number;
    validate?: Validate;
  }
  | {
    kind: "openapi";
    source: string;
    document: unknown;
    file: string;
    line: number;
    column: number;
    /** The validator holding the document, and each response schema compiled so far. */
    ajv?: unknown;
    compiled?: Map<string, Validate>;
  };

/**
 * The keys that name where a capture's value comes from, in its map form.
 *
 * @example
 * ```ts
 * import { CAPTURE_SOURCES } from "./checks.ts";
 * if (CAPTURE_SOURCES.join() !== "path,header,cookie,regex,xpath,body") throw new Error();
 * ```
 */
export const CAPTURE_SOURCES = ["path", "header", "cookie", "regex", "xpath", "body"] as const;

/**
 * Where a captured value comes from: a JSONPath (every match as a list when
 * the path is not singular, unless `first`), a response header (or a part of
 * it: one query parameter of the URL it holds, `{header: location, query: code}`;
 * the first group of a regular expression over its value, `{header, regex}`; the
 * URL of a `Link` relation, `{header: link, rel: next}`), a cookie the
 * response sets, the first group of a regular expression over the body text (or over the
 * text a path selects, `{path: $.json.authorization, regex: '^Bearer (.+)$'}`),
 * or the body's bytes as base64 (`{body: base64}`: text cannot hold bytes that
 * are not UTF-8, an archive's or an image's, which `body_base64` sends back); with `as`, turned into that type (`{header: location, regex: …, as: number}`).
 */
export type CaptureSource =
  & (
    | {
      kind: "path";
      path: CompiledPath;
      first: boolean;
      /** The first group of a regular expression over the text the path selects (`{path, regex}`). */
      regex?: { pattern: RegExp; source: string };
    }
    | {
      kind: "header";
      name: string;
      query?: string;
      regex?: { pattern: RegExp; source: string };
      rel?: string;
    }
    | { kind: "cookie"; name: string }
    | { kind: "regex"; pattern: RegExp; source: string }
    | { kind: "xpath"; expression: string }
    | { kind: "body"; encoding: "base64" }
  )
  & {
    /** The claim of the JWT the source gives (`claim: sub`; of a list, the first it holds), kept before `as` turns it. */
    claim?: string | readonly string[];
    as?: CaptureType;
    /** Finding nothing leaves the capture unset instead of failing the step (`optional: true`). */
    optional?: true;
    /**
     * Conditions on the response (`when`, written like a check group's `if`): the source is read
     * only when they hold; otherwise the capture is `otherwise`'s value, or left unset.
     */
    when?: GroupCondition[];
    /** What the capture keeps when `when` does not hold: usually an earlier step's capture. */
    otherwise?: ValueTemplate;
  };

/**
 * The types a capture's `as` turns its value into: `number` (a text holding
 * a JSON number, an id cut from a `Location` path, sent as a number in a
 * JSON body), `string` (a number or boolean as its text) and `json-string`
 * (the inside of a JSON or script string literal a regex cut from a page,
 * its escapes undone: `abc+\\` is `abc+\`), `url-decoded` (a query value a
 * regex cut from a page's link as the link wrote it, read as a server reads
 * a query: `%2A` is `*`, `+` a space), `html-decoded` (an attribute's value
 * a regex cut from a page as the page wrote it, its character references
 * read as a browser reads them: `&lt;m.1&gt;` is `<m.1>`) and `length` (a list's count of
 * elements or a text's length, as a script's `.length` reads them: a count
 * kept to compare a later answer with).
 *
 * @example
 * ```ts
 * import { CAPTURE_TYPES } from "./checks.ts";
 * if (CAPTURE_TYPES.join() !== "number,string,json-string,url-decoded,html-decoded,length") throw new Error();
 * ```
 */
export const CAPTURE_TYPES = [
  "number",
  "string",
  "json-string",
  "url-decoded",
  "html-decoded",
  "length",
] as const;

/** One of {@linkcode CAPTURE_TYPES}. */
export type CaptureType = typeof CAPTURE_TYPES[number];

/** One condition of a step's `if`: an operator on a value (`{value: "${…}", gt: 0}`). */
export interface Condition {
  /** The value as written, for messages. */
  source: string;
  value: ValueTemplate;
  operator: Operator;
  expected: ValueTemplate;
  line: number;
  column: number;
}

/** A value taken from the response into the step's captures. */
export interface Capture {
  name: string;
  from: CaptureSource;
  line: number;
  column: number;
}
