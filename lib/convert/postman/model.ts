/**
 * A Postman collection as the converter reads it, whatever its version:
 * v2.0 and v2.1 differ in how a URL, an auth block and a header list may be
 * written, and `input.ts` folds both into these shapes.
 *
 * @module
 */

/** One `key`/`value` pair of a header, query, form or variable list. */
export interface PmPair {
  key: string;
  value: string;
  /** `file` for a form-data file part. */
  type?: string;
  /** A form-data file's path(s). */
  src?: string;
  /** A form-data part's own content type. */
  contentType?: string;
  disabled?: boolean;
  /** A header's description, as the collection writes it (header_evidence.ts reads it). */
  description?: string;
  /**
   * Set on a header holding an importer's type placeholder (`<string>`) that nothing in the
   * collection ties to a credential: sent as written, as Newman sends it, never asked for.
   */
  asWritten?: true;
}

/** An auth block: its type and its settings by name (v2.0 maps and v2.1 lists both fold here). */
export interface PmAuth {
  type: string;
  settings: Record<string, string>;
}

/** A request's body. */
export interface PmBody {
  mode: string;
  raw?: string;
  /** `raw`'s language (`json`, `text`, `xml`, …), from `options.raw.language`. */
  language?: string;
  /**
   * Set on a body a script's `JSON.stringify(…)` made (a `pm.sendRequest`'s): each quoted
   * `{{x}}` stands for a value JSON.stringify writes with its own type, not Postman's text.
   */
  stringified?: true;
  pairs?: PmPair[];
  /** `file` mode's path. */
  file?: string;
  graphql?: { query: string; variables?: string };
}

/** A script of an item: `prerequest` or `test`, its source, and where it came from. */
export interface PmScript {
  listen: "prerequest" | "test";
  source: string;
  /** The item (collection, folder or request) whose script it is. */
  owner: string;
}

/** A request item, with what it inherits already gathered along its folder path. */
export interface PmRequest {
  name: string;
  /** The folders above it, outermost first (empty at the top level). */
  folders: string[];
  method: string;
  url: string;
  headers: PmPair[];
  body?: PmBody;
  /** The auth that applies: its own, else the nearest folder's, else the collection's. */
  auth?: PmAuth;
  /** Where `auth` comes from, for the summary (`collection`, a folder name, `request`). */
  authFrom?: string;
  /** Scripts that run for it, in Postman's order: collection, folders, the request. */
  scripts: PmScript[];
  /** `false` when the collection, a folder or the request turns redirect following off. */
  followRedirects?: boolean;
  /**
   * For a request a test script sends: the conditions on what the step before it captured
   * (`name`) it is sent under, as the script's `if` reads the response (response_send.ts).
   */
  sentIf?: { name: string; op: string; value: unknown }[];
}

/** A top-level part of a collection: a folder (with every request under it) or a loose request. */
export interface PmUnit {
  /** The folder's name; `undefined` for a request at the top level. */
  folder?: string;
  requests: PmRequest[];
}

/** A whole collection. */
export interface PmCollection {
  name: string;
  /** `2.0` or `2.1` (a collection without a schema is read as 2.1). */
  version: string;
  /** Collection and folder variables, outermost first; a later one of a name wins. */
  variables: PmPair[];
  units: PmUnit[];
  /** The deepest folder nesting seen. */
  depth: number;
}

/** An environment (or globals) file: its name and its enabled values. */
export interface PmEnvironment {
  name: string;
  values: PmPair[];
}
