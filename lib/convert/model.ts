/**
 * The conversion's own model, shared by its stages: steps as they are built
 * (request templates, captures, checks, loops) and where captured values come
 * from. The helpers over recorded JSON and URLs are in `json.ts`.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import type { UniqueNames } from "./names.ts";
import type { YMap, YNode, YScalar } from "./yaml_out.ts";
import type { JsonPath } from "./json.ts";
import type { CountBound } from "./poll_counts.ts";

export type { JsonPath } from "./json.ts";

/** Where a captured value comes from: the JSON body, a cookie the response set, a header, … */
export type Source =
  /**
   * A member of a JSON answer; `regex` cuts a value from its text (HTML a member holds), the
   * value of the field `name`.
   */
  | { kind: "json"; path: JsonPath; regex?: string; name?: string }
  | { kind: "cookie"; name: string }
  /**
   * A header, or one part of it: a URL's `query` parameter, a `Link` relation's URL, a regex's
   * group (`as: number` when a later JSON body sends it as a number).
   */
  | { kind: "header"; name: string; query?: string; rel?: string; regex?: string; as?: "number" }
  /**
   * A page's text; `as: json-string` when the page wrote it inside a script's string, escaped;
   * `as: url-decoded` when a link wrote it percent-encoded; `as: html-decoded` when an
   * attribute wrote it with character references.
   */
  | {
    kind: "regex";
    name: string;
    pattern: string;
    as?: "json-string" | "url-decoded" | "html-decoded";
  }
  /** The body's bytes as base64 (`{body: base64}`): a saved answer that may not be text. */
  | { kind: "bytes" };

export interface Producer {
  step: Step;
  source: Source;
  secret: boolean;
}

export interface Check {
  path: JsonPath;
  /** An XPath expression on an XML answer, checked instead of `path` (multistatus.ts). */
  xpath?: string;
  op: "type" | "equals" | "exists";
  value: YScalar;
}

export interface Step {
  name: string;
  records: HarRecord[];
  /** The record whose request is sent. */
  first: HarRecord;
  /** The record whose response is asserted on (the last poll). */
  last: HarRecord;
  noun: string;
  method: string;
  url: string;
  headers: [string, string][];
  body?: YNode;
  /** A urlencoded body as `form:` fields (then `body` is unset). */
  form?: YNode;
  /** A `multipart:` body: field → template, file → `{file, content_type?, filename?}`. */
  multipart?: YNode;
  /** A `body_file:` path, relative to the flow (`convert curl`'s `--data-binary @file`, `-T`). */
  bodyFile?: string;
  /** A `body_base64:` template: bytes an earlier answer gave (`convert curl`'s saved answer). */
  bodyBase64?: string;
  /** The step's `options:` (`convert curl`'s `-k`, `-L`, `-m`, `-x`, `--cert`). */
  options?: YNode;
  /** The step's `auth:` (`convert curl`'s `-u`, `--digest`, `--aws-sigv4`). */
  auth?: YNode;
  /** Template values of the request body's top-level fields, for `equals`. */
  sent: Map<string, { raw: unknown; template: YNode }>;
  captures: [string, Source][];
  captureNames: UniqueNames;
  captureByPath: Map<string, string>;
  uses: Set<string>;
  checks: Check[];
  /**
   * Checks written as they are, after `checks` (`convert curl`'s `$.status`
   * below 400 for a command with no pasted answer: `curl_status_default.ts`).
   */
  ownChecks?: YNode[];
  /** The `status:` written instead of the recorded one (`curl_status_default.ts`, spelling B). */
  ownStatus?: YNode;
  /** `always: true`: sent though a step before it failed (`curl_every_command.ts`). */
  always?: boolean;
  /**
   * A bounded poll: until `path` equals `value`, or, with `shows`, until the body's text contains
   * it (a read of what a write before it sent: `correlate/shown_later.ts`).
   */
  loop?: {
    maxAttempts: number;
    sleepMs: number;
    path: JsonPath;
    value: YScalar;
    values: string[];
    shows?: string;
    /** `shows` is a value a write answered, not one it sent (`correlate/listed_later.ts`). */
    answered?: boolean;
    /** Counts a page waited for, each until it reaches its recorded final value (poll_counts.ts). */
    bounds?: CountBound[];
  };
  /**
   * A recorded WebSocket's `websocket:` map after its URL and headers
   * (`correlate/websocket_step.ts`): the step is written with it instead of `request:`.
   */
  websocket?: YMap;
  /**
   * A recorded event stream's `sse:` map after its URL and headers
   * (`correlate/sse_step.ts`): the step is written with it instead of `request:`.
   */
  sse?: YMap;
  /** A recorded gRPC call's `grpc:` map (`har_grpc.ts`): the step is written with it alone. */
  grpc?: YMap;
  /** Comment lines written over the step after its recorded request (`--verify`'s findings). */
  remarks?: string[];
}

export interface EnvVar {
  about: string;
  fallback?: string;
}
