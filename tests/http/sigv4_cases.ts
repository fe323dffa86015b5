/**
 * Requests to sign, written here: the shapes AWS's signing test suite exercises (methods, query
 * order and escapes, header whitespace and duplicates, paths with dot segments and UTF-8, bodies,
 * session tokens) on our own hosts and values, and seeded random ones. Each is signed by flowrun
 * and by independent signers (tests/http/sigv4_references.ts) in tests/http/sigv4_test.ts.
 *
 * @module
 */

/** A request and how it is signed. */
export interface SigCase {
  name: string;
  method: string;
  /** The path as sent: percent-encoded as in the request line (or raw, as a client may send it). */
  path: string;
  /** The query as sent, without its `?`; every `%` starts a valid UTF-8 escape. */
  query: string;
  /** Every header, `host` among them; a name may come again (in any case). */
  headers: [string, string][];
  body: string;
  service: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Signed at this moment (whole seconds). */
  date: string;
  /** Send and sign `x-amz-content-sha256`. */
  contentSha256: boolean;
  /** S3's `UNSIGNED-PAYLOAD` instead of the body's hash (with `contentSha256`). */
  unsignedPayload?: boolean;
  /** `false`: the session token goes along unsigned. */
  signSessionToken?: boolean;
}

const HOST = "api.flowrun.test";
const BASE: Omit<SigCase, "name" | "path" | "query" | "headers"> = {
  method: "GET",
  body: "",
  service: "execute-api",
  region: "eu-north-1",
  accessKeyId: "AKIDFLOWRUNTEST0001",
  secretAccessKey: "fl0wRun/Secret+Key=For/Signing/Tests0001",
  date: "2024-02-29T23:59:58Z",
  contentSha256: false,
};

/** A case from its differences to a plain GET of `/` at {@linkcode HOST}. */
function named(name: string, fields: Partial<SigCase>): SigCase {
  const headers = fields.headers ?? [];
  const hasHost = headers.some(([n]) => n.toLowerCase() === "host");
  return {
    ...BASE,
    name,
    path: "/",
    query: "",
    ...fields,
    headers: hasHost ? headers : [["Host", HOST], ...headers],
  };
}

const S3 = { service: "s3", contentSha256: true } as const;
const TOKEN = "FwoGZXIvYXdzEFlowRunSessionToken//+/=0123456789";

/** The shapes of the old vendored suite, each written anew with our own values. */
export const NAMED_CASES: SigCase[] = [
  named("get, plain", {}),
  named("post, plain", { method: "POST" }),
  named("get, a path", { path: "/v1/items" }),
  named("query: names sorted by code point", { query: "zeta=1&Alpha=2&alpha=3&_under=4&Zeta=5" }),
  named("query: a repeated name, sorted by value", { query: "k=b&k=a&k=B&k=&k=a" }),
  named("query: empty values, with and without '='", { query: "flag&empty=&x=1" }),
  named("query: unreserved characters as they are", { query: "-_.~=-_.~&abcXYZ019=~t" }),
  named("query: reserved characters escaped", {
    query:
      "q=%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D%25&raw=a:b@c/d?e!f$g'h(i)j*k,l;m",
  }),
  named("query: lower-case escapes and '=' in a value", { query: "t=%2a%7e%5b&eq=a=b=c" }),
  named("query: spaces and pluses", { query: "q=a%20b&p=a+b&s=%2B" }),
  named("query: UTF-8", { query: "city=K%C3%B8benhavn&%E2%82%AC=%F0%9F%9A%80&raw=ø" }),
  named("headers: a name three times, in three cases", {
    headers: [["X-Flow-Tag", "beta"], ["x-flow-tag", " alpha "], ["X-FLOW-TAG", "gamma  ray"]],
  }),
  named("headers: inner runs of spaces, leading and trailing spaces and tabs", {
    headers: [["X-Flow-Note", "  two   inner    spaces  "], ["X-Flow-Tab", "\ttabbed\t\tvalue\t"]],
  }),
  named("headers: a value on several lines", {
    headers: [["X-Flow-Lines", "first line\n  second line\n\tthird"]],
  }),
  named("headers: values with colons", {
    headers: [["X-Flow-Time", "12:34:56"], ["X-Flow-Url", "http://x.test:8080/p"]],
  }),
  named("headers: names in upper and mixed case", {
    headers: [["X-FLOW-UPPER", "v"], ["x-Flow-Mixed", "w"], ["A-First", "1"]],
  }),
  named("headers: a stale x-amz-date is replaced", {
    headers: [["X-Amz-Date", "20000101T000000Z"]],
  }),
  named("path: UTF-8, escaped", { path: "/caf%C3%A9/%E2%98%83/%F0%9F%9A%80" }),
  named("path: UTF-8, raw", { path: "/café/☃" }),
  named("path: spaces, pluses and reserved characters", { path: "/a%20b/c+d/e$f/g:h@i/j!k" }),
  named("path: an escaped slash and percent", { path: "/a%2Fb/c%25d" }),
  named("path: dot segments normalized", { path: "/a/./b/../c/" }),
  named("path: empty segments normalized", { path: "//a//b///c" }),
  named("path: '.' alone", { path: "/./" }),
  named("path: '..' past the root", { path: "/../x/../../y" }),
  named("path: dot segments kept for S3", { ...S3, path: "/bucket//key/./x/../y" }),
  named("path: an S3 key with reserved characters", {
    ...S3,
    path: "/photos/2024%20summer/a+b$c=d&e.jpg",
  }),
  named("path: an S3 key in UTF-8 and with '~'", { ...S3, path: "/k%C3%B8ge/~user/%E2%82%AC" }),
  named("post: a form body and its content type", {
    method: "POST",
    headers: [["Content-Type", "application/x-www-form-urlencoded; charset=utf-8"]],
    body: "name=flow&value=1",
  }),
  named("post: a JSON body with x-amz-content-sha256", {
    method: "POST",
    headers: [["content-type", "application/json"]],
    body: '{"note":"flowrun","n":1}',
    contentSha256: true,
  }),
  named("post: a UTF-8 body", { method: "PUT", body: "Grüße, 世界 🚀", contentSha256: true }),
  named("S3: put with the body's hash", { ...S3, method: "PUT", path: "/b/k", body: "hello" }),
  named("S3: put with UNSIGNED-PAYLOAD", {
    ...S3,
    method: "PUT",
    path: "/b/k",
    body: "hello",
    unsignedPayload: true,
  }),
  named("session token, signed", { sessionToken: TOKEN }),
  named("session token, signed, with a stale one sent", {
    method: "POST",
    sessionToken: TOKEN,
    headers: [["x-amz-security-token", "stale"]],
  }),
  named("session token, sent unsigned", { sessionToken: TOKEN, signSessionToken: false }),
  named("a host with a port", { headers: [["host", `${HOST}:8443`]] }),
];
