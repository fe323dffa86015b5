/**
 * The parsed form of a flow's strings: `${…}` expressions and the literal
 * text around them, as `parseTemplate` in `expr/template.ts`
 * makes them when a flow is loaded. Types only: the loaded flow holds them,
 * and parsing and evaluation live in `expr/`.
 *
 * @module
 */

/** What an expression refers to. */
export type Ref =
  | { kind: "env"; name: string }
  | { kind: "name"; name: string }
  /** `${vars.name}`, or with `path` a field of a map var: `${vars.article.title}`. */
  | { kind: "var"; name: string; path?: string[] }
  | { kind: "step"; step: string; key: string }
  | { kind: "setup"; name: string }
  | { kind: "random-uuid" }
  | { kind: "random-hex"; length: number }
  /** `${RANDOM.ALPHA_<n>}`: n lowercase letters, `a` to `z`. */
  | { kind: "random-alpha"; length: number }
  /** `${RANDOM.UPPER_<n>}`: n capital letters, `A` to `Z`. */
  | { kind: "random-upper"; length: number }
  /** `${RANDOM.DIGITS_<n>}`: n decimal digits, the first not 0; a number alone. */
  | { kind: "random-digits"; length: number }
  /** `${RANDOM.BOOL}`: true or false. */
  | { kind: "random-bool" }
  /** `${RANDOM.PASSWORD}`: 16 characters a password rule takes (both cases, digits, a sign). */
  | { kind: "random-password" }
  /** `${NOW.UNIX}`, `${NOW.UNIX_MS}`, `${NOW.ISO}`, `${NOW.DATE}`, `${NOW.DATETIME}`, `${NOW.DATETIME_MS}`, shifted by `offsetMs` (`${NOW.UNIX+1h}`). */
  | {
    kind: "now";
    format: "unix" | "unix-ms" | "iso" | "date" | "datetime" | "datetime-ms";
    offsetMs: number;
  }
  | { kind: "run-id" }
  | { kind: "trace-id" };

/** One `${…}` occurrence. */
export interface Expr {
  ref: Ref;
  /** Text after `:-`, used when an environment variable or name is unset. */
  fallback?: string;
  /** The expression as written, e.g. `${vars.x}`. */
  text: string;
  /** Offset of `${` in the template source. */
  offset: number;
  /**
   * `${raw:…}`: inserted into a URL as written, not percent-encoded for the
   * place it lands (a prepared query string, a path with slashes).
   */
  raw?: boolean;
  /**
   * `${origin:…}`: the value's origin (`scheme://host[:port]`), as a
   * browser writes the `Origin` header; the value must be an http(s) URL.
   */
  origin?: boolean;
  /**
   * `${host:…}`: the value's host and port (`host[:port]`), as a page
   * writes its own address without a scheme; the value must be an http(s) URL.
   */
  host?: boolean;
}

/** A parsed string: literal text and expressions in order. */
export interface Template {
  source: string;
  parts: (string | Expr)[];
}

/** A YAML value whose strings were parsed into templates; constants are kept as is. */
export type ValueTemplate =
  | { kind: "const"; value: unknown }
  | { kind: "template"; template: Template }
  | { kind: "list"; items: ValueTemplate[] }
  /** A map; a key written with `${…}` has its template third, expanded when the value is rendered. */
  | { kind: "map"; entries: [string, ValueTemplate, Template?][] };
