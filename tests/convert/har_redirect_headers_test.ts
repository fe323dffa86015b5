/**
 * `convert har` on chrome-har's recording of a form sign-in that renews the
 * session (LDAP Account Manager 8.3, by hand in docs/real-servers-har.md):
 * `POST /login.php` answers 302 with the renewed session's `Set-Cookie`,
 * then `/main.php` 302 to the list page. chrome-har gave the list page
 * (`200`) the sign-in's header block, its `Location: ./main.php` and the
 * `Set-Cookie`, and recorded the list's request with no `Cookie` at all. The
 * flow sent the list page the session from before the sign-in (the server had
 * dropped it: the sign-in page again, no form token) and every later step was
 * skipped.
 *
 * What the converter does (lib/convert/redirects.ts): a response that does
 * not redirect yet records the `Location` a hop of the chain that led to it
 * answered was given that hop's headers; the cookies it sets go back to the
 * hop, where they are captured, when the hop recorded none of their names.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:3000";
const HTML = "text/html; charset=utf-8";
const TOKEN = "Tk7qP2wX9mRz4LbN";

/** A sign-in that renews the session, and a list that wants the renewed one and its form token. */
function signInStandIn() {
  const sessions = new Map<string, boolean>();
  const listed: string[] = [];
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=([^;]*)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const page = (body: string, init: ResponseInit = {}) =>
      new Response(`<html><body>${body}</body></html>`, {
        ...init,
        headers: { "content-type": HTML, ...(init.headers ?? {}) },
      });
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    if (url.pathname === "/login.php" && !form) {
      const fresh = `s${++n}x${crypto.randomUUID().slice(0, 8)}`;
      sessions.set(fresh, false);
      return page("<form></form>", { headers: { "set-cookie": `sid=${fresh}; Path=/` } });
    }
    if (url.pathname === "/login.php") {
      if (!sessions.has(sid) || form?.get("username") !== "keeper") {
        return page("no", { status: 403 });
      }
      sessions.delete(sid);
      const renewed = `s${++n}y${crypto.randomUUID().slice(0, 8)}`;
      sessions.set(renewed, true);
      const headers = new Headers({ location: "./main.php" });
      headers.append("set-cookie", `sid=${renewed}; Path=/; HttpOnly`);
      headers.append("set-cookie", "lang=en_GB; Path=/");
      return new Response(null, { status: 302, headers });
    }
    if (url.pathname === "/main.php") {
      return new Response(null, { status: 302, headers: { location: "list.php?type=user" } });
    }
    if (!sessions.get(sid)) return page("<form>sign in</form>");
    if (!form) {
      return page(`<form><input type="hidden" name="sec_token" value="${sid}-${TOKEN}"></form>`);
    }
    if (form.get("sec_token") !== `${sid}-${TOKEN}`) return page("bad token", { status: 403 });
    listed.push(form.get("filter") ?? "");
    return page("listed");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, listed, close: () => server.shutdown() };
}

/** One chrome-har entry. */
function entry(
  i: number,
  method: string,
  path: string,
  status: number,
  requestHeaders: { name: string; value: string }[],
  responseHeaders: { name: string; value: string }[],
  text = "",
  postText?: string,
) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: {
      method,
      url: `${ORIGIN}${path}`,
      headers: postText === undefined ? requestHeaders : [
        ...requestHeaders,
        { name: "Content-Type", value: "application/x-www-form-urlencoded" },
      ],
      cookies: [],
      ...(postText === undefined
        ? {}
        : { postData: { mimeType: "application/x-www-form-urlencoded", text: postText } }),
    },
    response: {
      status,
      headers: [{ name: "Content-Type", value: HTML }, ...responseHeaders],
      cookies: [],
      content: { mimeType: HTML, text },
      redirectURL: "",
    },
    _resourceType: "document",
  };
}

/** The sign-in chain as chrome-har wrote it, the renewed cookies in `setCookies`' spelling. */
function recording(setCookies: { name: string; value: string }[]): string {
  const old = "s1xa1b2c3d4", renewed = "s2ye5f6a7b8";
  const cookie = (sid: string) => [{ name: "Cookie", value: `sid=${sid}` }];
  const entries = [
    entry(0, "GET", "/login.php", 200, [], [{ name: "Set-Cookie", value: `sid=${old}; Path=/` }]),
    entry(
      1,
      "POST",
      "/login.php",
      302,
      cookie(old),
      [{ name: "Location", value: "./main.php" }],
      "",
      "username=keeper",
    ),
    entry(2, "GET", "/main.php", 302, [], [{ name: "Location", value: "list.php?type=user" }]),
    entry(3, "GET", "/list.php?type=user", 200, [], [
      { name: "Location", value: "./main.php" },
      ...setCookies.map((c) => ({ ...c, value: c.value.replaceAll("RENEWED", renewed) })),
    ], `<form><input type="hidden" name="sec_token" value="${renewed}-${TOKEN}"></form>`),
    entry(
      4,
      "POST",
      "/list.php?type=user",
      200,
      cookie(renewed),
      [],
      "listed",
      `sec_token=${renewed}-${TOKEN}&filter=ada`,
    ),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "chrome-har" }, entries } });
}

const SPELLINGS: Record<string, { name: string; value: string }[]> = {
  "one header per cookie": [
    { name: "Set-Cookie", value: "sid=RENEWED; Path=/; HttpOnly" },
    { name: "Set-Cookie", value: "lang=en_GB; Path=/" },
  ],
  "cookies on lines of one header": [
    { name: "Set-Cookie", value: "sid=RENEWED; Path=/; HttpOnly\nlang=en_GB; Path=/" },
  ],
};

for (const [spelling, setCookies] of Object.entries(SPELLINGS)) {
  Deno.test(`convert har: chrome-har's redirect headers on the page it led to (${spelling}) go back to the sign-in, twice on one instance`, async () => {
    const app = signInStandIn();
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/app.har`, recording(setCookies));
      const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
      assert.equal(converted.code, 0, converted.stderr);
      assert.match(converted.stderr, /the headers of POST \/login\.php \(302\)/, converted.stderr);
      const flow = await Deno.readTextFile(`${dir}/app.yaml`);
      for (const run of [1, 2]) {
        const got = await runCli(["run", `${dir}/app.yaml`], { env: { BASE_URL: app.origin } });
        assert.equal(got.code, 0, `run ${run}\n${got.stdout}\n${flow}`);
      }
      assert.deepEqual(app.listed, ["ada", "ada"]);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
