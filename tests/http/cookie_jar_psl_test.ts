/**
 * The cookie jar follows RFC 6265bis as browsers do: no cookie for a public
 * suffix (the Public Suffix List, ICANN and private sections), the
 * `__Secure-` and `__Host-` prefixes enforced, and `Secure` cookies neither
 * set from nor sent to plain http (loopback hosts count as secure, as in
 * browsers). The jar decides from the request URL alone, so most cases are
 * checked on the jar; one run goes end to end through a local server that
 * answers as a proxy for hosts under `co.uk`, without any DNS.
 */
import assert from "node:assert/strict";
import { CookieJar, publicSuffixes } from "../../lib/http/cookie_jar.ts";
import { runCli } from "../support/cli.ts";

await publicSuffixes.load();

/** Whether a cookie set by a response to `from` is sent on a request to `to`. */
function sent(from: string, setCookie: string, to: string): string | undefined {
  const jar = new CookieJar();
  jar.store(from, [setCookie]);
  return jar.header(to);
}

Deno.test("a cookie for a public suffix is refused; a public suffix's own host keeps it host-only", () => {
  const refused: [string, string, string][] = [
    ["https://a.example.com/", "c=1; Domain=com", "https://victim.com/"],
    ["https://a.example.com/", "c=1; Domain=.COM", "https://a.example.com/"],
    ["https://shop.example.co.uk/", "c=1; Domain=co.uk", "https://bank.other.co.uk/"],
    ["https://shop.example.co.uk/", "c=1; Domain=.co.uk; Path=/", "https://shop.example.co.uk/"],
    ["https://me.github.io/", "c=1; Domain=github.io", "https://you.github.io/"],
    ["https://a.b.c.kawasaki.jp/", "c=1; Domain=c.kawasaki.jp", "https://x.c.kawasaki.jp/"],
    ["https://a.appspot.com/", "c=1; Domain=appspot.com", "https://b.appspot.com/"],
    ["http://app.test/", "c=1; Domain=test", "http://other.test/"],
    ["https://a.example.com/", "c=1; Domain=.", "https://a.example.com/"],
  ];
  for (const [from, line, to] of refused) {
    assert.equal(sent(from, line, to), undefined, `${from} ${line} → ${to}`);
  }
  // Not suffixes: the registrable domain, and one in Unicode (IDNA, as URLs spell it).
  assert.equal(
    sent("https://shop.example.co.uk/", "c=1; Domain=example.co.uk", "https://x.example.co.uk/"),
    "c=1",
  );
  assert.equal(
    sent("https://a.xn--bcher-kva.de/", "c=1; Domain=bücher.de", "https://b.xn--bcher-kva.de/"),
    "c=1",
  );
  // The suffix's own host: host-only, so it reaches nobody under it.
  const jar = new CookieJar();
  jar.store("https://github.io/", ["own=1; Domain=github.io"]);
  assert.equal(jar.header("https://github.io/"), "own=1");
  assert.equal(jar.header("https://me.github.io/"), undefined);
});

Deno.test("__Secure- and __Host- cookies keep their prefixes' promises", () => {
  const cases: [string, string, boolean][] = [
    ["https://app.example/", "__Secure-s=1", false],
    ["https://app.example/", "__Secure-s=1; Secure", true],
    ["http://app.example/", "__Secure-s=1; Secure", false],
    ["https://app.example/", "__secure-s=1", false],
    ["https://app.example/", "__Host-h=1; Secure; Path=/", true],
    ["https://app.example/", "__Host-h=1; Secure; Path=/; Domain=app.example", false],
    ["https://a.app.example/", "__Host-h=1; Secure; Path=/; Domain=app.example", false],
    ["https://app.example/", "__Host-h=1; Secure", false],
    ["https://app.example/", "__Host-h=1; Secure; Path=/app", false],
    ["https://app.example/", "__Host-h=1; Path=/", false],
    ["http://app.example/", "__Host-h=1; Secure; Path=/", false],
    ["https://app.example/", "__HOST-h=1; Path=/", false],
    // Loopback is a secure origin, as in browsers: local test servers can use the prefixes.
    ["http://localhost/", "__Host-h=1; Secure; Path=/", true],
    ["http://127.0.0.1/", "__Secure-s=1; Secure", true],
  ];
  for (const [url, line, kept] of cases) {
    assert.equal(sent(url, line, url) !== undefined, kept, `${url} ${line}`);
  }
});

Deno.test("Secure cookies are neither set from nor sent to plain http, nor overwritten from it", () => {
  assert.equal(sent("http://app.example/", "s=1; Secure", "https://app.example/"), undefined);
  assert.equal(sent("https://app.example/", "s=1; Secure", "http://app.example/"), undefined);
  assert.equal(sent("https://app.example/", "s=1; Secure", "https://app.example/"), "s=1");
  assert.equal(sent("http://localhost:8080/", "s=1; Secure", "http://localhost:8080/"), "s=1");
  assert.equal(sent("http://api.localhost/", "s=1; Secure", "http://api.localhost/"), "s=1");
  const jar = new CookieJar();
  jar.store("https://app.example/", ["sid=good; Secure; Path=/"]);
  jar.store("http://app.example/", ["sid=evil; Path=/"]);
  jar.store("http://a.app.example/", ["sid=evil; Domain=app.example; Path=/x"]);
  assert.equal(jar.header("https://app.example/x"), "sid=good");
  // A different name is not shadowing anything.
  jar.store("http://app.example/", ["theme=dark; Path=/"]);
  assert.equal(jar.header("https://app.example/"), "sid=good; theme=dark");
});

Deno.test("end to end: a cookie set for co.uk by one shop never reaches another site", async () => {
  // One local server plays every co.uk host: it is the run's HTTP proxy, so requests to
  // http://shop.example.co.uk/ reach it in absolute form, named by host, with no DNS.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const host = req.headers.get("host") ?? "";
    if (url.pathname === "/login") {
      const headers = new Headers();
      headers.append("set-cookie", "wide=leak; Domain=co.uk; Path=/");
      headers.append("set-cookie", "site=mine; Domain=example.co.uk; Path=/");
      headers.append("set-cookie", "__Host-bad=1; Path=/; Domain=example.co.uk; Secure");
      headers.append("set-cookie", "sec=1; Secure; Path=/");
      return new Response("{}", { headers });
    }
    return Response.json({ host, cookie: req.headers.get("cookie") ?? "" });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-psl-" });
  try {
    await Deno.writeTextFile(
      `${dir}/shops.yaml`,
      `name: shops
options: {cookie_jar: true}
steps:
  - name: login
    request: {method: POST, url: "http://shop.example.co.uk/login"}
  - name: same site
    request: {url: "http://www.example.co.uk/"}
    assert:
      json:
        - {path: $.json.host, equals: www.example.co.uk}
        - {path: $.json.cookie, equals: "site=mine"}
  - name: other site
    request: {url: "http://bank.other.co.uk/"}
    assert:
      json: [{path: $.json.cookie, equals: ""}]
`,
    );
    const run = await runCli([
      "run",
      `${dir}/shops.yaml`,
      "--proxy",
      `http://127.0.0.1:${server.addr.port}`,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
