/**
 * Seeded random requests to sign: paths, queries, headers, bodies, services and credentials
 * drawn from a fixed seed, so a failure names a case that comes back on every run.
 *
 * @module
 */
import type { SigCase } from "./sigv4_cases.ts";
// The robustness tests' seeded generator (mulberry32): the same seed, the same numbers.
import { random } from "../support/hostile.ts";

const UNRESERVED = "ABCXYZabcxyz0189-._~";
const RESERVED = "!$&'()*+,;=:@/?#[]% \"<>^`{|}";
const UTF8 = ["é", "ø", "ß", "€", "☃", "世", "🚀"];
const VISIBLE = "abcXYZ0189-._~!$&'()*+,;=:@/?#[]%\"<>^`{|}\\";
const SERVICES = ["execute-api", "s3", "es", "sts", "dynamodb"];
const REGIONS = ["eu-north-1", "us-east-1", "ap-southeast-2", "sa-east-1"];
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"];

/** Random draws from one seed. */
class Draw {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[] | string): T {
    return items[this.int(items.length)] as T;
  }
  /** Text of up to `max` characters: unreserved mostly, reserved and UTF-8 often. */
  text(max: number): string {
    let out = "";
    for (let n = this.int(max + 1); n > 0; n--) {
      const roll = this.next();
      out += roll < 0.55
        ? this.pick(UNRESERVED)
        : roll < 0.85
        ? this.pick(RESERVED)
        : this.pick(UTF8);
    }
    return out;
  }
  /**
   * `text` percent-encoded as a client may send it: escapes in either case, safe characters raw
   * (unreserved ones now and then escaped too).
   */
  encode(text: string, rawToo: string): string {
    let out = "";
    for (const c of text) {
      const unreserved = UNRESERVED.includes(c) && this.chance(0.9);
      if (unreserved || (rawToo.includes(c) && this.chance(0.5))) out += c;
      else {
        const hex = [...new TextEncoder().encode(c)].map((b) => b.toString(16).padStart(2, "0"));
        const upper = this.chance(0.7);
        out += hex.map((h) => `%${upper ? h.toUpperCase() : h}`).join("");
      }
    }
    return out;
  }
}

/**
 * A path as sent: segments (some empty, `.` or `..` in the middle) percent-encoded. It never ends
 * in a dot segment: there RFC 3986 and the SDKs part ways (tests/http/sigv4_test.ts).
 */
function path(d: Draw): string {
  const segments: string[] = [];
  for (let n = d.int(5); n > 0; n--) {
    const roll = d.next();
    segments.push(
      roll < 0.1
        ? ""
        : roll < 0.17
        ? "."
        : roll < 0.24
        ? ".."
        : d.encode(d.text(8), "!$&'()*+,;=:@"),
    );
  }
  const last = segments.at(-1);
  if (last === "." || last === "..") segments.push(d.chance(0.5) ? "" : "end");
  return `/${segments.join("/")}`;
}

/** A query as sent: pairs (a name sometimes again, a value sometimes empty or without '='). */
function query(d: Draw): string {
  const pairs: string[] = [];
  const names: string[] = [];
  for (let n = d.int(6); n > 0; n--) {
    const name = names.length > 0 && d.chance(0.25) ? d.pick(names) : d.text(6) || "n";
    names.push(name);
    const encodedName = d.encode(name, "!$'()*,;:@/?");
    // '+' and '=' are sent escaped: raw, their meaning is a matter of the server's parser.
    pairs.push(
      d.chance(0.1) ? encodedName : `${encodedName}=${d.encode(d.text(8), "!$'()*,;:@/?")}`,
    );
  }
  return pairs.join("&");
}

/** Header values: visible ASCII with runs of spaces and tabs, sometimes on several lines. */
function headerValue(d: Draw): string {
  let out = "";
  for (let n = d.int(12); n > 0; n--) {
    const roll = d.next();
    out += roll < 0.15
      ? " ".repeat(1 + d.int(3))
      : roll < 0.2
      ? "\t"
      : roll < 0.23
      ? "\n "
      : d.pick(VISIBLE);
  }
  return out;
}

function headers(d: Draw, host: string): [string, string][] {
  const out: [string, string][] = [[d.chance(0.5) ? "Host" : "host", host]];
  const names: string[] = [];
  for (let n = d.int(5); n > 0; n--) {
    const again = names.length > 0 && d.chance(0.2);
    const name = again ? d.pick(names) : `x-flow-${d.int(1000)}`;
    names.push(name);
    out.push([
      [...name].map((c) => (d.chance(0.3) ? c.toUpperCase() : c)).join(""),
      headerValue(d),
    ]);
  }
  if (d.chance(0.3)) {
    out.push(["Content-Type", d.pick(["application/json", "text/plain; charset=utf-8"])]);
  }
  return out;
}

/** The `i`th random case of `seed`. */
function randomCase(d: Draw, seed: number, i: number): SigCase {
  const service = d.pick(SERVICES);
  const s3 = service === "s3";
  const method = d.pick(METHODS);
  const host = `h${d.int(100)}.flowrun.test${d.chance(0.2) ? `:${1024 + d.int(60000)}` : ""}`;
  const token = d.chance(0.3) ? `tok/${d.int(1e9)}+${d.int(1e9)}==` : undefined;
  return {
    name: `random #${i} of seed ${seed}`,
    method,
    path: path(d),
    query: query(d),
    headers: headers(d, host),
    body: method === "GET" || method === "HEAD" ? "" : d.text(40),
    service,
    region: d.pick(REGIONS),
    accessKeyId: `AKID${d.int(1e9)}`,
    secretAccessKey: `sec/${d.int(1e9)}+Key=${d.int(1e9)}`,
    sessionToken: token,
    date: new Date(946684800000 + d.int(3155760000) * 1000).toISOString().replace(".000", ""),
    contentSha256: s3 || d.chance(0.4),
    unsignedPayload: s3 && d.chance(0.3),
  };
}

/**
 * `count` random requests from `seed`.
 *
 * @example
 * ```ts
 * import { randomCases } from "./sigv4_random.ts";
 * if (JSON.stringify(randomCases(7, 3)) !== JSON.stringify(randomCases(7, 3))) throw new Error();
 * ```
 */
export function randomCases(seed: number, count: number): SigCase[] {
  const d = new Draw(random(seed));
  return Array.from({ length: count }, (_, i) => randomCase(d, seed, i));
}
