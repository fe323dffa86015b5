/**
 * A received response as the checks see it: status, lower-cased headers and
 * the body text, parsed as JSON lazily (once, and only if a path needs it).
 *
 * @module
 */
import { type CompiledPath, select, type Selection } from "../expr/path.ts";
import { Redactor } from "../secrets/redactor.ts";
import type { Masking } from "../model/masking.ts";
import { bodyBytes, type HeldBytes } from "./held_bytes.ts";

/**
 * What a path selected, plus whether the body could be read as JSON at all.
 *
 * @example
 * ```ts
 * import type { ResponseSelection } from "./response.ts";
 * const selection: ResponseSelection = { found: false, value: undefined, bodyNotJson: true };
 * if (!selection.bodyNotJson) throw new Error();
 * ```
 */
export interface ResponseSelection extends Selection {
  /** Set when the path reads the body and the body is not JSON. */
  bodyNotJson?: boolean;
}

/**
 * A body too large to hold in memory (past `--max-body-memory`), kept in a
 * temporary file: checks of status, headers and cookies run on its
 * response; checks and captures that read the body fail with `reason`.
 *
 * @example
 * ```ts
 * import { ReceivedResponse, type SpilledBody } from "./response.ts";
 * const spilled: SpilledBody = {
 *   bytes: 300, memoryCap: 100, head: "{\"a\"", reason: "the body is too large",
 *   chunks: () => [new Uint8Array(300)], close() {},
 * };
 * const r = new ReceivedResponse(200, {}, spilled);
 * if (r.text !== "" || r.json.ok || r.spilled?.bytes !== 300) throw new Error();
 * ```
 */
export interface SpilledBody {
  /** The body's size in bytes, after decompression. */
  readonly bytes: number;
  /** The most body bytes held in memory, which this body passed. */
  readonly memoryCap: number;
  /** The body's first 64 KiB, decoded, for reports. */
  readonly head: string;
  /** Why checks cannot read the body, and what to do. */
  readonly reason: string;
  /** The body's bytes, read back from the file piece by piece. */
  chunks(): Iterable<Uint8Array>;
  /** Frees the temporary file (also done when the response is collected). */
  close(): void;
}

/**
 * A received HTTP response.
 *
 * @example
 * ```ts
 * import { ReceivedResponse } from "./response.ts";
 * const r = new ReceivedResponse(200, { "content-type": "text/plain; charset=utf-8" }, "hello");
 * if (r.json.ok || r.contentType !== "text/plain") throw new Error();
 * ```
 */
export class ReceivedResponse {
  /** Lower-cased names; `set-cookie` values joined with ", " like other repeated headers. */
  readonly headers: Record<string, string>;
  #parsed?: { ok: true; value: unknown } | { ok: false };
  #document?: Record<string, unknown>;
  #headDoc?: Record<string, unknown>;
  #parsedCookies?: Record<string, SetCookie>;

  #cookies(): Record<string, SetCookie> {
    return this.#parsedCookies ??= parseCookies(this.setCookies);
  }

  /** Each `Set-Cookie` line on its own (joined, they cannot be split back reliably). */
  readonly setCookies: readonly string[];

  /** The URL of the response: the request's, or after redirects the final one. */
  url?: string;

  /** Milliseconds from sending the request to the whole body read. */
  durationMs?: number;

  /**
   * With a cookie jar, the cookies it holds for the response's URL once the
   * response is kept (a redirect's included), by name: `$.jar.<name>`.
   */
  jar?: Record<string, string>;

  /** The body, decoded as UTF-8; empty when it was {@linkcode spilled}. */
  readonly text: string;

  /** Set when the body was too large to hold in memory and went to a temporary file. */
  readonly spilled?: SpilledBody;

  /** The bytes of a body whose text does not give them back (held_bytes.ts). */
  readonly #held?: Uint8Array;

  /** A response: its status, lower-cased headers, body and `Set-Cookie` lines. */
  constructor(
    readonly status: number,
    headers: Record<string, string>,
    body: string | HeldBytes | SpilledBody,
    setCookies?: readonly string[],
  ) {
    this.headers = headers;
    this.text = typeof body === "string" ? body : "text" in body ? body.text : "";
    if (typeof body !== "string" && "text" in body) this.#held = body.bytes;
    else if (typeof body !== "string") this.spilled = body;
    this.setCookies = setCookies ??
      (headers["set-cookie"] ? headers["set-cookie"].split(/,\s*(?=[^;=,\s]+=)/) : []);
  }

  /**
   * The value of the last cookie named `name` that the response sets
   * (names compare exactly, as browsers do), or `undefined`.
   *
   * @example
   * ```ts
   * import { ReceivedResponse } from "./response.ts";
   * const r = new ReceivedResponse(200, {}, "", ["sid=s-1; Path=/; HttpOnly", "XSRF-TOKEN=x%3D1; Path=/"]);
   * if (r.cookie("sid") !== "s-1" || r.cookie("XSRF-TOKEN") !== "x%3D1") throw new Error();
   * if (r.cookie("SID") !== undefined) throw new Error();
   * ```
   */
  cookie(name: string): string | undefined {
    return Object.hasOwn(this.#cookies(), name) ? this.#cookies()[name].value : undefined;
  }

  /**
   * The body's bytes as the server sent them (decompressed): kept when they
   * are not UTF-8, else its text's UTF-8; undefined when it was spilled.
   *
   * @example
   * ```ts
   * import { ReceivedResponse } from "./response.ts";
   * const r = new ReceivedResponse(200, {}, { text: "\ufffd", bytes: new Uint8Array([0xff]) });
   * if (r.bytes?.[0] !== 0xff || r.text !== "\ufffd") throw new Error();
   * ```
   */
  get bytes(): Uint8Array | undefined {
    return this.spilled ? undefined : bodyBytes(this.text, this.#held);
  }

  /** The body parsed as JSON, or `{ok: false}` when it is empty or not JSON. */
  get json(): { ok: true; value: unknown } | { ok: false } {
    if (this.spilled) return { ok: false };
    if (!this.#parsed) {
      try {
        // Blank is not JSON either way; the test spares a trimmed copy of a large body.
        this.#parsed = !/\S/.test(this.text)
          ? { ok: false }
          : { ok: true, value: JSON.parse(this.text) };
      } catch {
        this.#parsed = { ok: false };
      }
    }
    return this.#parsed;
  }

  /**
   * Evaluates a path against this response: the body for `body` paths, the
   * `{json, status, headers}` document for `response` paths.
   *
   * @example
   * ```ts
   * import { ReceivedResponse } from "./response.ts";
   * import { compilePath } from "../expr/path.ts";
   * const r = new ReceivedResponse(201, { "content-type": "application/json" }, '{"id": 7}');
   * if (r.select(compilePath("$.json.id", "response")).value !== 7) throw new Error();
   * if (r.select(compilePath("$.status", "response")).value !== 201) throw new Error();
   * if (r.select(compilePath("$.id", "body")).value !== 7) throw new Error();
   * ```
   */
  select(path: CompiledPath): ResponseSelection {
    // Paths that never need the body do not parse it.
    if (
      path.root === "response" &&
      /^\$\s*(\.\s*|\[\s*['"])(status|headers|cookies|jar|url|duration_ms)\b/.test(path.source)
    ) {
      return select(path, this.#head());
    }
    if (this.spilled) {
      return { found: false, value: path.singular ? null : [], problem: this.spilled.reason };
    }
    if (path.root === "body") {
      const json = this.json;
      return json.ok
        ? select(path, json.value)
        : { found: false, value: path.singular ? null : [], bodyNotJson: true };
    }
    if (!this.#document) {
      const json = this.json;
      // Without a JSON body there is no `json` member, so `$.json…` matches nothing instead of `undefined`.
      this.#document = json.ok
        ? { json: json.value, ...this.#head(), body: this.text }
        : { ...this.#head(), body: this.text };
    }
    const selection: ResponseSelection = select(path, this.#document);
    if (!selection.found && !this.json.ok && readsBody(path)) selection.bodyNotJson = true;
    return selection;
  }

  /** The members of the response document that do not need the body. */
  #head(): Record<string, unknown> {
    return this.#headDoc ??= {
      status: this.status,
      headers: this.headers,
      cookies: this.#cookies(),
      ...(this.url !== undefined ? { url: this.url } : {}),
      ...(this.durationMs !== undefined ? { duration_ms: this.durationMs } : {}),
      ...(this.jar !== undefined ? { jar: this.jar } : {}),
    };
  }

  /**
   * Frees what the response holds outside memory (a spilled body's file).
   *
   * @example
   * ```ts
   * import { ReceivedResponse } from "./response.ts";
   * new ReceivedResponse(200, {}, "small").close();
   * ```
   */
  close(): void {
    this.spilled?.close();
  }

  /** The content type without parameters, if the response named one. */
  get contentType(): string | undefined {
    return this.headers["content-type"]?.split(";")[0].trim() || undefined;
  }

  /**
   * The start of the body for humans: at most `max` characters, on one line
   * when it is JSON, masked by `masking` before it is cut.
   *
   * @example
   * ```ts
   * import { ReceivedResponse } from "./response.ts";
   * const r = new ReceivedResponse(200, {}, "x".repeat(500));
   * if (!r.excerpt(10).startsWith("xxxxxxxxxx…")) throw new Error(r.excerpt(10));
   * ```
   */
  excerpt(max = 300, masking: Masking = NO_SECRETS): string {
    if (this.spilled) {
      const head = masking.redact(this.spilled.head);
      const shown = head.length <= max ? head : masking.head(head, max);
      return `${shown} (${this.spilled.bytes} bytes in all, kept in a temporary file)`;
    }
    const json = this.json;
    const text = masking.redact(json.ok ? JSON.stringify(json.value) : this.text);
    return text.length <= max
      ? text
      : `${masking.head(text, max)} (${text.length - max} more characters)`;
  }
}

/**
 * A cookie the response sets, as `$.cookies.<name>` shows it.
 *
 * @example
 * ```ts
 * import { parseSetCookie, type SetCookie } from "./response.ts";
 * const cookie: SetCookie = parseSetCookie("sid=1; HttpOnly")!.cookie;
 * if (cookie.value !== "1" || !cookie.http_only) throw new Error();
 * ```
 */
export interface SetCookie {
  /** The value, quotes removed. */
  value: string;
  /** The `Path` attribute. */
  path?: string;
  /** The `Domain` attribute, as written. */
  domain?: string;
  /** The `Expires` attribute, as written. */
  expires?: string;
  /** The `Max-Age` attribute, in seconds. */
  max_age?: number;
  /** Whether it is `Secure`. */
  secure: boolean;
  /** Whether it is `HttpOnly`. */
  http_only: boolean;
  /** The `SameSite` attribute. */
  same_site?: string;
}

/**
 * One `Set-Cookie` line: the cookie's name, its value as sent (`raw`, for
 * sending it back) and as read (quotes removed), and its attributes.
 *
 * @example
 * ```ts
 * import { parseSetCookie } from "./response.ts";
 * const c = parseSetCookie('sid="s 1"; Domain=.app.test; Path=/; Max-Age=60; Secure')!;
 * if (c.name !== "sid" || c.raw !== '"s 1"' || c.cookie.value !== "s 1") throw new Error();
 * if (c.cookie.domain !== ".app.test" || c.cookie.max_age !== 60 || !c.cookie.secure) throw new Error();
 * ```
 */
export function parseSetCookie(
  line: string,
): { name: string; raw: string; cookie: SetCookie } | undefined {
  const [pair, ...attributes] = line.split(";");
  const eq = pair.indexOf("=");
  if (eq === -1) return undefined;
  const raw = pair.slice(eq + 1).trim();
  const cookie: SetCookie = {
    value: raw.replace(/^"(.*)"$/, "$1"),
    secure: false,
    http_only: false,
  };
  for (const attribute of attributes) {
    const [key, ...rest] = attribute.split("=");
    const value = rest.join("=").trim();
    switch (key.trim().toLowerCase()) {
      case "path":
        cookie.path = value;
        break;
      case "domain":
        cookie.domain = value;
        break;
      case "expires":
        cookie.expires = value;
        break;
      case "max-age":
        if (/^-?\d+$/.test(value)) cookie.max_age = Number(value);
        break;
      case "secure":
        cookie.secure = true;
        break;
      case "httponly":
        cookie.http_only = true;
        break;
      case "samesite":
        cookie.same_site = value;
        break;
    }
  }
  return { name: pair.slice(0, eq).trim(), raw, cookie };
}

/**
 * The cookies `Set-Cookie` lines set, by name (the last line of a name
 * wins, as in a browser), with their attributes.
 *
 * @example
 * ```ts
 * import { parseCookies } from "./response.ts";
 * const c = parseCookies(["sid=s-1; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=60"]);
 * if (c.sid.value !== "s-1" || !c.sid.http_only || c.sid.same_site !== "Lax" || c.sid.max_age !== 60) {
 *   throw new Error(JSON.stringify(c));
 * }
 * ```
 */
export function parseCookies(lines: readonly string[]): Record<string, SetCookie> {
  const out: Record<string, SetCookie> = {};
  for (const line of lines) {
    const parsed = parseSetCookie(line);
    if (parsed) out[parsed.name] = parsed.cookie;
  }
  return out;
}

/** Masks only what is secret by shape (JWTs) when no run redactor is given. */
const NO_SECRETS = new Redactor();

function readsBody(path: CompiledPath): boolean {
  return path.source.replace(/\s/g, "").match(/^\$(\.json|\[['"]json['"]\])/) !== null;
}
