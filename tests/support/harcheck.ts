/**
 * The QA checks of a flow converted from a HAR, as `harcheck.py` of the
 * projectly app runs them, for any recorded app: recorded secret values
 * (passwords, tokens, cookies, CSRF values, signatures) left in the flow,
 * noise headers kept, analytics cookies named, and ids a server produced
 * still written literally in requests or assertions.
 */
import { parse } from "yaml";

/** What the checks found; every list is empty for a good conversion. */
export interface HarCheck {
  /** `where in the HAR: first characters` of each recorded secret the flow still holds. */
  leaks: string[];
  /** Noise header names the flow's requests still send. */
  noiseHeaders: string[];
  /** Analytics cookie names the flow names. */
  analyticsCookies: string[];
  /** `where in the HAR: value` of each server id still literal outside comments. */
  literalIds: string[];
}

const SECRET_KEY =
  /(pass(word|wd)?|secret|token|jwt|api[-_]?key|apikey|session|sid|auth|credential|code_verifier|csrf|xsrf|signature|sig)$|^(code|password)$/i;

// `if-match` is not noise: optimistic-concurrency writes need it (issue 38, class 6).
const NOISE =
  /^(:|sec-|user-agent$|referer$|origin$|accept-(encoding|language)$|cache-control$|pragma$|if-(?!match$)|x-request-id$|x-correlation-id$|traceparent$|x-client-data$|dpr$|downlink$|device-memory$|rtt$|viewport-width$|ect$|x-requested-with$|upgrade-insecure|priority$|dnt$|te$|host$|content-length$|connection$)/;

const ANALYTICS_COOKIE = /\b(_ga\w*|_gid|_fbp|__utm\w|_hj\w+|ajs_\w+|mp_\w+)=/g;

const ID_KEY = /(^id$|_id$|Id$|^uuid$|^key$)/;

type Json = unknown;
type Entry = {
  request?: {
    url?: string;
    headers?: { name?: string; value?: string }[];
    postData?: { text?: string; params?: { name?: string; value?: unknown }[] };
  };
  response?: {
    headers?: { name?: string; value?: string }[];
    content?: { text?: string; encoding?: string };
  };
};

function walk(o: Json, f: (key: string, v: Json) => void, key = ""): void {
  if (Array.isArray(o)) { for (const v of o) walk(v, f, key); }
  else if (o !== null && typeof o === "object") {
    for (const [k, v] of Object.entries(o)) walk(v, f, k);
  } else f(key, o);
}

function tryJson(text: string): Json | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function responseText(e: Entry): string {
  const content = e.response?.content ?? {};
  let text = content.text ?? "";
  if (content.encoding === "base64") {
    try {
      text = new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
    } catch {
      text = "";
    }
  }
  return text;
}

/** The secret values a recording holds, each with where it was first seen. */
function recordedSecrets(entries: Entry[]): Map<string, string> {
  const secrets = new Map<string, string>();
  const add = (v: Json, where: string) => {
    if (v === null || v === undefined) return;
    const s = String(v);
    if (s.length >= 6 && !["bearer", "basic", "null", "true", "false"].includes(s.toLowerCase())) {
      if (!secrets.has(s)) secrets.set(s, where);
    }
  };
  entries.forEach((e, i) => {
    for (const h of e.request?.headers ?? []) {
      const n = (h.name ?? "").toLowerCase();
      const v = h.value ?? "";
      if (n === "authorization" || n === "proxy-authorization") {
        const [scheme, cred] = v.split(/\s+(.*)/s);
        add(cred ?? v, `#${i} ${n}`);
        if (scheme.toLowerCase() === "basic" && cred) {
          try {
            const plain = atob(cred);
            if (plain.includes(":")) add(plain.slice(plain.indexOf(":") + 1), `#${i} basic`);
          } catch { /* not base64 */ }
        }
      } else if (n === "cookie") {
        for (const part of v.split(";")) {
          const eq = part.indexOf("=");
          if (eq > 0) add(part.slice(eq + 1).trim(), `#${i} cookie ${part.slice(0, eq).trim()}`);
        }
      } else if (
        !n.startsWith(":") && /token|secret|key|auth|csrf|xsrf|session/.test(n) &&
        n !== "sec-websocket-key"
      ) add(v, `#${i} header ${n}`);
    }
    for (const h of e.response?.headers ?? []) {
      if ((h.name ?? "").toLowerCase() !== "set-cookie") continue;
      for (const line of (h.value ?? "").split("\n")) {
        const first = line.split(";")[0];
        const eq = first.indexOf("=");
        if (eq > 0) add(first.slice(eq + 1), `#${i} set-cookie ${first.slice(0, eq)}`);
      }
    }
    const url = URL.canParse(e.request?.url ?? "") ? new URL(e.request!.url!) : undefined;
    for (const [k, v] of url?.searchParams ?? []) {
      if (SECRET_KEY.test(k)) add(v, `#${i} query ${k}`);
    }
    const text = e.request?.postData?.text ?? "";
    const body = tryJson(text);
    if (body !== undefined) {
      walk(
        body,
        (k, v) => SECRET_KEY.test(k) && typeof v === "string" && add(v, `#${i} body ${k}`),
      );
    } else {
      for (const [k, v] of new URLSearchParams(text)) {
        if (SECRET_KEY.test(k)) add(v, `#${i} form ${k}`);
      }
    }
    for (const p of e.request?.postData?.params ?? []) {
      if (SECRET_KEY.test(p.name ?? "")) add(p.value, `#${i} param ${p.name}`);
    }
    const reply = tryJson(responseText(e));
    walk(
      reply,
      (k, v) => SECRET_KEY.test(k) && typeof v === "string" && add(v, `#${i} response ${k}`),
    );
  });
  return secrets;
}

/** Header names of every step's request, lower case, parsed from the flow. */
function flowHeaders(flow: string): string[] {
  const doc = parse(flow) as { steps?: { request?: { headers?: Record<string, unknown> } }[] };
  // The browser's Origin and Referer on the base URL's (`${origin:vars.base_url}`) are no
  // recorded noise: a CSRF check wants them (lib/convert/correlate/origin_header.ts,
  // referer_header.ts).
  const ownOrigin = ([n, v]: [string, unknown]) =>
    /^(?:origin|referer)$/.test(n.toLowerCase()) && typeof v === "string" &&
    v.startsWith("${origin:");
  return (doc.steps ?? []).flatMap((s) => Object.entries(s.request?.headers ?? {}))
    .filter((h) => !ownOrigin(h)).map(([n]) => n.toLowerCase());
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Runs the checks on a recording and the flow converted from it.
 *
 * @example
 * ```ts
 * import { harCheck } from "./harcheck.ts";
 * const har = JSON.stringify({ log: { entries: [{ request: { url: "https://a.test/x",
 *   headers: [{ name: "authorization", value: "Bearer tok-123456" }] } }] } });
 * const found = harCheck(har, "steps: []\n# tok-123456\n");
 * if (found.leaks.length !== 1) throw new Error();
 * ```
 */
export function harCheck(har: string, flow: string): HarCheck {
  const entries: Entry[] = JSON.parse(har).log?.entries ?? [];
  // YAML escapes: compare against a lightly unescaped copy too.
  const compared = `${flow}\n${flow.replaceAll('\\"', '"')}`;
  const leaks: string[] = [];
  for (const [value, where] of recordedSecrets(entries)) {
    const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
    if (forms.some((f) => compared.includes(f))) leaks.push(`${where}: ${value.slice(0, 12)}…`);
  }
  const noiseHeaders = [...new Set(flowHeaders(flow).filter((h) => NOISE.test(h)))];
  const analyticsCookies = [...new Set([...flow.matchAll(ANALYTICS_COOKIE)].map((m) => m[1]))];
  const lines = flow.split("\n").filter((l) =>
    !l.trimStart().startsWith("#") && !l.trimStart().startsWith("status:")
  ).join("\n");
  const ids = new Map<string, string>();
  entries.forEach((e, i) => {
    walk(tryJson(responseText(e)), (k, v) => {
      if (!ID_KEY.test(k) || typeof v === "boolean") return;
      if (
        (typeof v === "number" && Number.isInteger(v) && v >= 100) ||
        (typeof v === "string" && v.length >= 6)
      ) { if (!ids.has(String(v))) ids.set(String(v), `#${i} ${k}`); }
    });
  });
  const literalIds = [...ids].filter(([v]) =>
    new RegExp(`(?<![\\w-])${escapeRe(v)}(?![\\w-])`).test(lines)
  ).map(([v, where]) => `${where}: ${v}`);
  return { leaks, noiseHeaders, analyticsCookies, literalIds };
}
