/**
 * The leak corpus: secrets of many shapes (4 to 10,000 characters, JWTs,
 * base64 with `+` and `/`, base64url, non-ASCII, characters every format
 * escapes) enter a run every way a secret can (a secret-named environment
 * variable, `--secret`, `--var`, secret headers, set-cookie, captures of every
 * type, secret-named response keys, a second user's JWT nobody sends, the
 * credentials of `auth:` oauth2, aws_sigv4 and digest), and a
 * local server echoes them back everywhere a value can land (bodies in eight
 * escape styles, headers, a redirect's Location, the URL path and query,
 * error text). For passing, failing, erroring and interrupted runs, no
 * artifact may hold any planted secret, raw or in any decoding docs/secrets.md
 * promises, nor any 16-character piece of one; the HTML report is also read
 * as rendered text in headless Chromium. The decoders here are written
 * independently of lib/secrets, so the test does not grade its own homework.
 */
import assert from "node:assert/strict";
import { ignoreBrowser, whyBrowserIgnored, withPage } from "./support/browser.ts";
import { runCli, spawnCli } from "./support/cli.ts";
import { entityDecode } from "./support/hostile.ts";

/** A small seeded generator, so a failure reproduces. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}
const next = random(20261122);
const pick = (alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const b64url = (s: string) => btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const jwt = (sub: string) =>
  `${b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${
    b64url(JSON.stringify({ sub, iat: 1763800000, scope: "read write" }))
  }.${pick(B64.slice(0, 62), 43)}`;

const S = {
  short: "k9Z!",
  // Query-safe characters: a server decodes `+` in a query as a space, which would change it.
  long: pick(`${B64.slice(0, 62)}-_.~!*:@`, 10_000),
  jwt: jwt("user-1"),
  otherJwt: jwt("user-2"),
  b64: `${pick(B64, 30)}+/${pick(B64, 10)}==`,
  b64url: pick(B64.slice(0, 62) + "-_", 40),
  unicode: `pässwörd-✓-🔑-${pick("abcdefgh", 12)}`,
  escapes: `a&b<c>"d'e/f\\g%h#i?j=k+l m;<!--<script>${pick("xyz0123", 10)}`,
  cookie: pick(B64.slice(0, 62), 32),
  captured: `cap-${pick(B64.slice(0, 62), 40)}`,
  listed: `lst-${pick(B64.slice(0, 62), 24)}`,
  nested: `nst-${pick(B64.slice(0, 62), 24)}`,
  late: `late-${pick(B64.slice(0, 62), 30)}`,
  // Short (no 16-character piece to find), with both quotes and what a URL encodes.
  quotes: `q'"é ${pick("abcdefgh", 6)}`,
  // An OAuth2 token endpoint's answer (auth: oauth2): the token and refresh token are secrets.
  oauth: `oat-${pick(B64.slice(0, 62), 36)}`,
  oauthRefresh: `ort-${pick(B64.slice(0, 62), 36)}`,
};
const ALL = Object.entries(S);

// ---------------------------------------------------------------------------
// The hostile echo server.

/** Escapes every character as `\uXXXX`, as some serialisers may. */
const allEscaped = (json: string) =>
  json.replace(/"((?:[^"\\]|\\.)*)"/g, (_, inner: string) => {
    const value = JSON.parse(`"${inner}"`) as string;
    return `"${
      [...value].map((c) => {
        let out = "";
        for (let i = 0; i < c.length; i++) {
          out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase()}`;
        }
        return out;
      }).join("")
    }"`;
  });
/** System.Text.Json's default: HTML-sensitive characters, `+` and non-ASCII as `\u00XX`. */
const aspNet = (json: string) =>
  json.replace(
    /[+<>&'\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}`,
  );
/** Go's encoding/json: `<`, `>`, `&` as lower-case `\u003c`… */
const goJson = (json: string) =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const entities = (s: string, numeric: boolean) =>
  s.replace(
    /[&<>"'\u0080-\uffff]/g,
    (c) =>
      numeric
        ? `&#x${c.codePointAt(0)!.toString(16)};`
        : ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" } as Record<
          string,
          string
        >)[c] ?? `&#${c.charCodeAt(0)};`,
  );

const STYLES = ["raw", "allu", "aspnet", "go", "html", "xml", "pct", "b64"] as const;
type Style = (typeof STYLES)[number];

function styled(got: unknown, style: Style): Response {
  const json = JSON.stringify(got);
  const utf8 = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));
  switch (style) {
    case "raw":
      return new Response(json, { headers: { "content-type": "application/json" } });
    case "allu":
      return new Response(allEscaped(json), { headers: { "content-type": "application/json" } });
    case "aspnet":
      return new Response(aspNet(json), { headers: { "content-type": "application/json" } });
    case "go":
      return new Response(goJson(json), { headers: { "content-type": "application/json" } });
    case "html":
      return new Response(`<html><body><pre>${entities(json, false)}</pre></body></html>`, {
        headers: { "content-type": "text/html" },
      });
    case "xml":
      return new Response(`<?xml version="1.0"?><echo data="${entities(json, true)}"/>`, {
        headers: { "content-type": "application/xml" },
      });
    case "pct":
      return new Response(`data=${encodeURIComponent(json)}`, {
        headers: { "content-type": "text/plain" },
      });
    case "b64": {
      const chunks: string[] = [];
      const bytes = utf8(json);
      for (let i = 0; i < bytes.length; i += 3000) chunks.push(bytes.slice(i, i + 3000));
      return new Response(`blob:${btoa(chunks.join(""))}`, {
        headers: { "content-type": "text/plain" },
      });
    }
  }
}

function leakServer() {
  const hung = new AbortController();
  let reachedHang: () => void = () => {};
  const hang = new Promise<void>((resolve) => (reachedHang = resolve));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const body = await request.text();
    const got = {
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(request.headers),
      body,
    };
    const echo = {
      "x-echo": encodeURIComponent(S.long.slice(0, 3000)),
      "x-echo-key": request.headers.get("x-api-key") ?? "",
    };
    if (url.pathname === "/login") {
      const response = Response.json({
        ok: true,
        data: { refresh_token: S.nested, token_type: "Bearer" },
        other_user: { name: "bob", value: S.otherJwt },
        info: { value: S.captured, list: [S.listed] },
      });
      response.headers.append("set-cookie", `sid=${S.cookie}; Path=/; HttpOnly`);
      return response;
    }
    if (url.pathname === "/oauth2/token") {
      return Response.json({
        access_token: S.oauth,
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: S.oauthRefresh,
      });
    }
    // A Digest challenge (auth: digest) until the request answers one; then the echo.
    if (
      url.pathname.startsWith("/digest/") &&
      !request.headers.get("authorization")?.startsWith("Digest ")
    ) {
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": 'Digest realm="leak", qop="auth", nonce="n-1", opaque="o"' },
      });
    }
    if (url.pathname === "/profile") {
      return Response.json({ session_info: { id: S.captured, n: 1 }, keys: [S.listed, "x"] });
    }
    if (url.pathname === "/redirect") {
      return new Response(null, {
        status: 302,
        headers: {
          location: `/landing/${encodeURIComponent(S.long.slice(0, 2000))}?k=${
            encodeURIComponent(S.escapes)
          }&u=${encodeURIComponent(S.unicode)}`,
        },
      });
    }
    if (url.pathname === "/error") {
      return new Response(
        `internal error for ${got.query.access ?? ""} key ${S.escapes} ${S.unicode}`,
        { status: 500, headers: { "content-type": "text/plain", ...echo } },
      );
    }
    if (url.pathname === "/hang") {
      reachedHang();
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 15_000);
        hung.signal.addEventListener("abort", () => (clearTimeout(timer), resolve(null)));
      });
      return Response.json({ late: true });
    }
    const style = (url.pathname.split("/")[2] ?? "raw") as Style;
    const response = styled(got, style);
    for (const [k, v] of Object.entries(echo)) response.headers.set(k, v);
    return response;
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    hang,
    close: async () => {
      hung.abort();
      await server.shutdown();
    },
  };
}

// ---------------------------------------------------------------------------
// Flows: every entry way, for one echo style, ending as `mode` says.

type Mode = "failing" | "passing" | "erroring" | "interrupted";

function flowText(style: Style, mode: Mode, deadPort: number): string {
  const json = ["raw", "allu", "aspnet", "go"].includes(style);
  const last = mode === "failing"
    ? json
      ? `        - { path: $.json.query.access, equals: "not the token" }
        - { path: "$.json.headers['x-api-key']", equals: "nope" }
        - { path: $.json.body, equals: "nope" }`
      : `        - { path: $.json.anything, exists: true }`
    : json
    ? `        - { path: $.json.query.access, equals: "\${ENV.LEAK_API_TOKEN}" }
        - { path: "$.json.headers['x-api-key']", equals: "\${vars.k}" }`
    : `        - { path: $.status, equals: 200 }`;
  const extra = mode === "erroring"
    ? `
  - name: dead
    request: { method: POST, url: "http://127.0.0.1:${deadPort}/x?token=\${ENV.LEAK_API_TOKEN}&p=\${api_password}&q=\${ENV.QUOTE_SECRET}", body: { q: "\${ENV.QUOTE_SECRET}" } }`
    : mode === "interrupted"
    ? `
  - name: hang
    request: { url: "\${ENV.LEAK_BASE}/hang?token=\${ENV.LEAK_API_TOKEN}&c=\${steps.profile.capture.session}" }`
    : "";
  return `name: "leak ${style} ${mode}"
vars:
  k: "${S.b64}"
steps:
  - name: login
    request:
      method: POST
      url: "\${ENV.LEAK_BASE}/login?q=\${vars.k}&late=${S.late}"
      body: { user: ann, password: "\${api_password}" }
    assert:
      status: 200
      json:
        - { path: $.json.info, exists: true }
        - { path: $.json.data, exists: true }
        - { path: $.json.other_user.value, type: string }
  - name: oauth_echo
    auth:
      oauth2:
        grant_type: client_credentials
        token_url: "\${ENV.LEAK_BASE}/oauth2/token"
        client_id: app
        client_secret: "\${api_password}"
    request: { url: "\${ENV.LEAK_BASE}/echo/${style}/oauth" }
    assert: { status: 200 }
  - name: sigv4_echo
    auth:
      aws_sigv4:
        region: us-east-1
        service: execute-api
        access_key_id: "\${vars.k}"
        secret_access_key: "\${api_password}"
        session_token: "\${ENV.LEAK_API_TOKEN}"
    request: { method: POST, url: "\${ENV.LEAK_BASE}/echo/${style}/sigv4", body: { n: 1 } }
    assert: { status: 200 }
  - name: digest_echo
    auth:
      digest: { username: ann, password: "\${api_password}" }
    request: { url: "\${ENV.LEAK_BASE}/digest/${style}" }
    assert: { status: 200 }
  - name: profile
    request:
      url: "\${ENV.LEAK_BASE}/profile?s=${S.late}"
      headers: { cookie: "sid=${S.cookie}" }
    capture:
      session: $.json.session_info
      api_keys: $.json.keys
    assert:
      status: 200
  - name: redirect
    request: { url: "\${ENV.LEAK_BASE}/redirect" }
    assert: { status: 302 }
  - name: error
    request: { url: "\${ENV.LEAK_BASE}/error?access=\${ENV.LEAK_API_TOKEN}" }
    assert: { status: 500 }${extra}
  - name: echo
    request:
      method: POST
      url: "\${ENV.LEAK_BASE}/echo/${style}/\${ENV.B64URL_KEY}?access=\${ENV.LEAK_API_TOKEN}&pw=\${api_password}&late=${S.late}&n=\${ENV.PLAIN_VALUE}&qs=\${ENV.QUOTE_SECRET}"
      headers:
        authorization: "Bearer ${S.jwt}"
        x-api-key: "\${vars.k}"
        x-note: "\${ENV.PLAIN_VALUE}"
        x-short: "\${ENV.SHORT_SECRET}"
      body:
        note: "\${ENV.PLAIN_VALUE}"
        token: "\${ENV.LEAK_API_TOKEN}"
        nested: { pw: "\${api_password}", url: "\${ENV.B64URL_KEY}", short: "\${ENV.SHORT_SECRET}" }
        session: "\${steps.profile.capture.session}"
        keys: "\${steps.profile.capture.api_keys}"
    assert:
      json:
${last}
  - name: late
    request:
      url: "\${ENV.LEAK_BASE}/echo/raw?x=1"
      headers: { x-api-key: "${S.late}" }
`;
}

// ---------------------------------------------------------------------------
// The checks: independent decoders, every form, every 16-character piece.

const jsonUnescape = (t: string) =>
  t.replace(/\\u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
    .replace(
      /\\(["\\/bfnrt])/g,
      (_, c) => ({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as Record<string, string>)[c] ?? c,
    );
const percentDecode = (t: string) =>
  t.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/** A POSIX shell's single quoting undone: `'\''` (close, escaped quote, reopen) is a `'`. */
const shellUnquote = (t: string) => t.replaceAll("'\\''", "'");

function decodings(text: string): string[] {
  const J = jsonUnescape, E = entityDecode, P = percentDecode, Q = shellUnquote;
  return [
    ...new Set([
      // A curl line, shell-quoted, as it stands in the console, in JSON and HTML (and its URL).
      Q(text),
      Q(J(text)),
      J(Q(text)),
      J(Q(J(text))),
      P(Q(text)),
      P(Q(J(text))),
      P(Q(text).replaceAll("+", " ")),
      Q(E(text)),
      text,
      J(text),
      J(J(text)),
      E(text),
      J(E(text)),
      E(J(text)),
      P(text),
      P(J(text)),
      J(P(text)),
      P(text.replaceAll("+", " ")),
      P(E(text)),
      J(J(E(text))),
    ]),
  ];
}

const WINDOW = 16;
/** Every 16-character piece of every secret, by its first two characters. */
const pieces = new Map<string, Set<string>>();
for (const [, secret] of ALL) {
  for (let i = 0; i + WINDOW <= secret.length; i++) {
    const piece = secret.slice(i, i + WINDOW);
    const key = piece.slice(0, 2);
    if (!pieces.has(key)) pieces.set(key, new Set());
    pieces.get(key)!.add(piece);
  }
}

function findPiece(text: string): string | undefined {
  for (let i = 0; i + WINDOW <= text.length; i++) {
    const set = pieces.get(text.slice(i, i + 2));
    if (set?.has(text.slice(i, i + WINDOW))) return text.slice(i, i + WINDOW);
  }
  return undefined;
}

function base64Decodings(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(/[A-Za-z0-9+/_-]{12,}/g) ?? []) {
    for (let skip = 0; skip < 4; skip++) {
      let b = run.slice(skip).replaceAll("-", "+").replaceAll("_", "/");
      b = b.slice(0, b.length - (b.length % 4));
      try {
        out.push(new TextDecoder().decode(Uint8Array.from(atob(b), (c) => c.charCodeAt(0))));
      } catch {
        // Not base64 at this offset.
      }
    }
  }
  return out;
}

function assertNoLeak(where: string, text: string): void {
  for (const [n, decoded] of [...decodings(text), ...base64Decodings(text)].entries()) {
    if (Deno.env.get("LEAK_DEBUG") && findPiece(decoded)) {
      const p = findPiece(decoded)!;
      console.error(where, n, decoded.slice(decoded.indexOf(p) - 600, decoded.indexOf(p) + 50));
    }
    for (const [name, secret] of ALL) {
      assert.ok(!decoded.includes(secret), `${where} holds the ${name} secret`);
    }
    const piece = findPiece(decoded);
    const at = piece === undefined ? -1 : decoded.indexOf(piece);
    assert.equal(
      piece,
      undefined,
      `${where} holds a piece of a secret: …${JSON.stringify(decoded.slice(at - 150, at + 40))}`,
    );
  }
  const forms = ALL.flatMap(([, s]) => [
    encodeURIComponent(s),
    encodeURIComponent(s).toLowerCase(),
    JSON.stringify(s).slice(1, -1),
    aspNet(JSON.stringify(s)).slice(1, -1),
  ]).flatMap((form) => [form, form.replaceAll("'", "'\\''")]);
  for (const form of forms) assert.ok(!text.includes(form), `${where} holds ${form.slice(0, 40)}`);
}

const ENV = {
  LEAK_API_TOKEN: S.long,
  PLAIN_VALUE: S.escapes,
  B64URL_KEY: S.b64url,
  SHORT_SECRET: S.short,
  QUOTE_SECRET: S.quotes,
};

async function artifacts(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (
    const name of ["junit.xml", "report.json", "report.html", "run.log.ndjson", "manifest.json"]
  ) {
    out[name] = await Deno.readTextFile(`${dir}/${name}`);
  }
  return out;
}

async function writeFlows(dir: string, mode: Mode, deadPort: number): Promise<void> {
  await Deno.mkdir(`${dir}/flows`, { recursive: true });
  for (const style of STYLES) {
    await Deno.writeTextFile(`${dir}/flows/${style}.yaml`, flowText(style, mode, deadPort));
  }
}

function deadPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

const args = (dir: string) => [
  "run",
  `${dir}/flows`,
  "--out-dir",
  `${dir}/out`,
  "--verbose",
  "--secret",
  "PLAIN_VALUE",
  "--secret",
  "SHORT_SECRET",
  "--secret",
  "QUOTE_SECRET",
  "--var",
  `api_password=${S.unicode}`,
  "--run-id",
  "leak",
];

for (const mode of ["failing", "passing", "erroring"] as const) {
  Deno.test(`no planted secret leaks from a ${mode} run, in any artifact or encoding`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-leak-" });
    const api = leakServer();
    try {
      await writeFlows(dir, mode, deadPort());
      const run = await runCli(args(dir), { env: { ...ENV, LEAK_BASE: api.url } });
      assert.equal(run.code, mode === "passing" ? 0 : 1, run.stdout.slice(0, 3000) + run.stderr);
      const files = await artifacts(`${dir}/out`);
      for (
        const [where, text] of Object.entries({ ...files, stdout: run.stdout, stderr: run.stderr })
      ) {
        assertNoLeak(`${mode}: ${where}`, text);
      }
      // Masking is visible, and what is not secret stays readable.
      assert.match(run.stdout, /\*\*\*/);
      assert.ok(files["report.json"].includes("/profile?s="), "URLs stay readable");
      if (mode === "failing") {
        assert.match(run.stdout, /\$\.json\.query\.access: expected "not the token", got "\*\*\*"/);
      }
    } finally {
      await api.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("no planted secret leaks from an interrupted run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-leak-" });
  const api = leakServer();
  try {
    await writeFlows(dir, "interrupted", 0);
    const child = spawnCli([...args(dir), "--jobs", "1"], { env: { ...ENV, LEAK_BASE: api.url } });
    const output = child.output();
    // Bounded: a flow that never reaches /hang fails the test instead of stalling it.
    const reached = await Promise.race([api.hang.then(() => true), output.then(() => false)]);
    if (reached) child.kill("SIGINT");
    const { code, stdout, stderr } = await output;
    const decoder = new TextDecoder();
    assert.ok(reached, decoder.decode(stdout).slice(0, 2000) + decoder.decode(stderr));
    assert.equal(code, 130);
    const files = await artifacts(`${dir}/out`);
    const all = { ...files, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
    for (const [where, text] of Object.entries(all)) assertNoLeak(`interrupted: ${where}`, text);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: `the HTML report of a failing run shows no secret as rendered text${whyBrowserIgnored}`,
  ignore: ignoreBrowser,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-leak-" });
    const api = leakServer();
    try {
      await writeFlows(dir, "failing", 0);
      const run = await runCli(args(dir), { env: { ...ENV, LEAK_BASE: api.url } });
      assert.equal(run.code, 1);
      const text = await withPage(async (page) => {
        await page.goto(`file://${dir}/out/report.html`);
        // Open every flow and every step, so all details are built and shown.
        for (let round = 0; round < 5; round++) {
          const closed = page.locator('[aria-expanded="false"]');
          const n = await closed.count();
          if (n === 0) break;
          for (let i = n - 1; i >= 0; i--) await closed.nth(i).click();
        }
        return await page.locator("body").innerText();
      }, { deadlineMs: 90_000 });
      assert.ok(text.includes("echo"), "the page shows the steps");
      assertNoLeak("rendered report.html", text);
    } finally {
      await api.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
