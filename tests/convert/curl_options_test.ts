/**
 * curl's options as `convert curl` reads them, and the requests they make:
 * each checked against curl's documented behaviour (the end-to-end tests
 * check the same against the real curl).
 */
import assert from "node:assert/strict";
import { readCurlArgs } from "../../lib/convert/curl_options.ts";
import { type CurlFiles, curlRecords } from "../../lib/convert/curl_request.ts";

const FILES: CurlFiles = {
  read: (path) => ({ "body.txt": "a=1\r\nb=2\n", "data.bin": "x\ny", "name.txt": "Jo & Al" })[path],
  rebase: (path) => `../${path}`,
};

const one = (...args: string[]) => curlRecords(readCurlArgs(args), 0, FILES)[0];
const header = (r: ReturnType<typeof one>, name: string) =>
  r.record.headers.find((h) => h.name.toLowerCase() === name)?.value;

Deno.test("short options cluster and take attached values; long ones take the next word", () => {
  const r = readCurlArgs(["-sSLkXPOST", "-HA: b", "-d@body.txt", "--url", "https://a.test/"]);
  assert.equal(r.method, "POST");
  assert.deepEqual(r.headers, [["A", "b"]]);
  assert.deepEqual(r.data, [{ kind: "data", text: "@body.txt" }]);
  assert.deepEqual(r.urls, ["https://a.test/"]);
  assert.deepEqual(r.options, { followRedirects: true, insecure: true });
  assert.deepEqual(r.ignored, []);
});

Deno.test("options curl has that change what is sent are listed; print-only ones are not", () => {
  const r = readCurlArgs([
    "https://a.test/",
    "--ntlm",
    "--http2",
    "-c",
    "jar.txt",
    "--retry",
    "3",
    "-o",
    "out",
    "-w",
    "%{http_code}",
    "--compressed",
    "-v",
    "--frobnicate",
    "-Q",
    "x",
  ]);
  assert.deepEqual(r.urls, ["https://a.test/"]);
  assert.deepEqual(r.ignored, [
    "--ntlm",
    "--http2",
    "-c (--cookie-jar)",
    "--retry",
    "--frobnicate",
    "-Q (--quote)",
  ]);
});

Deno.test("-d pieces join with &, files lose their newlines; --data-binary keeps them", () => {
  const r = one("a.test", "-d", "x=1", "-d", "@body.txt", "--data-binary", "@data.bin");
  assert.equal(r.record.method, "POST");
  assert.equal(r.record.url.href, "http://a.test/");
  assert.equal(r.record.bodyText, "x=1&a=1b=2&x\ny");
  assert.equal(header(r, "content-type"), "application/x-www-form-urlencoded");
});

Deno.test("--data-binary @file alone is the step's body_file, relative to the flow", () => {
  const r = one("https://a.test/up", "--data-binary", "@data.bin", "-H", "Content-Type: a/b");
  assert.equal(r.record.bodyText, undefined);
  assert.equal(r.extras.bodyFile, "../data.bin");
  const missing = one("https://a.test/up", "--data-binary", "@nope.bin");
  assert.match(
    missing.extras.notes.join("\n"),
    /The file "nope\.bin" the command sends does not exist/,
  );
});

Deno.test("--data-urlencode's five forms, as curl 7.86+ encodes them", () => {
  const r = one(
    "https://a.test/",
    "--data-urlencode",
    "a b&c",
    "--data-urlencode",
    "=x=y",
    "--data-urlencode",
    "n=Jo Al (Jr)*~",
    "--data-urlencode",
    "@name.txt",
    "--data-urlencode",
    "who@name.txt",
  );
  assert.equal(
    r.record.bodyText,
    "a+b%26c&x%3Dy&n=Jo+Al+%28Jr%29%2A~&Jo+%26+Al&who=Jo+%26+Al",
  );
});

Deno.test("--json pieces concatenate and set JSON content type and accept", () => {
  const r = one("https://a.test/", "--json", '{"a":', "--json", "1}");
  assert.equal(r.record.bodyText, '{"a":1}');
  assert.equal(header(r, "content-type"), "application/json");
  assert.equal(header(r, "accept"), "application/json");
});

Deno.test("-G puts the data in the query; -I is HEAD; -T is PUT of the file", () => {
  const g = one("https://a.test/s?x=1", "-G", "-d", "q=tea", "--data-urlencode", "t=a b");
  assert.equal(g.record.method, "GET");
  assert.equal(g.record.url.search, "?x=1&q=tea&t=a+b");
  assert.equal(g.record.bodyText, undefined);
  assert.equal(one("https://a.test/", "-I").record.method, "HEAD");
  const t = one("-T", "data.bin", "https://a.test/up/");
  assert.equal(t.record.method, "PUT");
  assert.equal(t.record.url.pathname, "/up/data.bin");
  assert.equal(t.extras.bodyFile, "../data.bin");
});

Deno.test("--url-query appends to the query in --data-urlencode's syntax", () => {
  assert.equal(one("https://a.test/r", "--url-query", "f=a b").record.url.search, "?f=a+b");
});

Deno.test("-u is the step's auth; --oauth2-bearer, -b and -H Cookie make the headers curl sends", () => {
  const r = one("https://a.test/", "-u", "me:pässword", "-b", "a=1", "-H", "Cookie: b=2");
  assert.deepEqual(r.extras.auth, { scheme: "basic", user: "me:pässword", sigv4: undefined });
  assert.equal(header(r, "authorization"), undefined);
  assert.equal(header(r, "cookie"), "a=1; b=2");
  assert.deepEqual(r.record.cookies.map((c) => c.name), ["a", "b"]);
  const digest = one("https://a.test/", "--digest", "-u", "key");
  assert.deepEqual(digest.extras.auth, { scheme: "digest", user: "key", sigv4: undefined });
  // A command's own Authorization header wins over -u, as curl sends it.
  const own = one("https://a.test/", "-u", "a:b", "-H", "Authorization: Token t");
  assert.equal(own.extras.auth, undefined);
  assert.equal(header(own, "authorization"), "Token t");
  assert.equal(
    header(one("https://a.test/", "--oauth2-bearer", "t0k"), "authorization"),
    "Bearer t0k",
  );
  const file = readCurlArgs(["https://a.test/", "-b", "cookies.txt"]);
  assert.match(file.notes[0], /reads cookies from a file/);
});

Deno.test("-H: `Name;` sends it empty, `Name:` removes it, `@file` is a note", () => {
  const r = readCurlArgs(["https://a.test/", "-H", "X-Empty;", "-H", "Accept:", "-H", "@h.txt"]);
  assert.deepEqual(r.headers, [["X-Empty", ""]]);
  assert.match(r.notes[0], /reads headers from a file/);
});

Deno.test("-F: text, @file with type and filename, <file, quoted values, --form-string", () => {
  const r = readCurlArgs([
    "https://a.test/",
    "-F",
    "a=b;type=text/plain",
    "-F",
    "f=@photo.png;type=image/png;filename=p.png",
    "-F",
    "t=<name.txt",
    "-F",
    'q="x;y"',
    "--form-string",
    "s=@not-a-file;type=x",
  ]);
  assert.deepEqual(r.form, [
    { name: "a", value: "b", from: "text", type: "text/plain" },
    { name: "f", value: "photo.png", from: "file", type: "image/png", filename: "p.png" },
    { name: "t", value: "name.txt", from: "contents" },
    { name: "q", value: "x;y", from: "text" },
    { name: "s", value: "@not-a-file;type=x", from: "text" },
  ]);
});

Deno.test("-x, -m and the certificate options become request options", () => {
  const r = readCurlArgs([
    "https://a.test/",
    "-x",
    "proxy.local:3128",
    "-m",
    "2.5",
    "--cert",
    "c.pem",
    "--key",
    "k.pem",
    "--cacert",
    "ca.pem",
  ]);
  assert.deepEqual(r.options, {
    proxy: "http://proxy.local:3128",
    timeout: "2500ms",
    cert: "c.pem",
    key: "k.pem",
    cacert: "ca.pem",
  });
  assert.match(readCurlArgs(["-m", "soon"]).notes[0], /--max-time "soon" is not a number/);
});

Deno.test("a GET with a body, a bad URL, redirections and a missing value are notes", () => {
  const [r] = curlRecords(readCurlArgs(["-X", "GET", "https://a.test/", "-d", "x=1"]), 0);
  assert.equal(r.record.bodyText, undefined);
  assert.match(r.extras.notes[0], /curl sends this GET with a body/);
  assert.equal(curlRecords(readCurlArgs(["ftp://a.test/f"]), 0).length, 0);
  const redirected = readCurlArgs(["https://a.test/", ">", "out.json", "2>&1", "-H"]);
  assert.deepEqual(redirected.urls, ["https://a.test/"]);
  assert.equal(redirected.notes[0], "-H has no value at the end of the command; it was ignored.");
});
