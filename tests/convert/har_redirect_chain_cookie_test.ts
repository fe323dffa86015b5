/**
 * `convert har` on chrome-har's recording of a form login followed by a chain
 * of redirects, as Jupyter Notebook's login makes it
 * (tests/real/notebook_har_test.ts): `POST /login` answers 302 to `/`, which
 * answers 302 to `/tree`. The login's `Set-Cookie` is recorded on the LAST
 * hop's response (`GET /tree`), two hops after the response that set it,
 * while `GET /` already sent the cookie. redirects.ts moved such a cookie one
 * hop back only, to `GET /`, whose own request sent it: the conversion asked
 * for a `SESSION_COOKIE` the user cannot know, and captured the login cookie
 * from `GET /`, which sets nothing on a fresh instance.
 *
 * What the converter does: the cookie goes back along the chain to the hop
 * whose request did not send it yet, the one that set it. Widened: chains of
 * one, two and three redirects after the login.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const PATHS = ["/", "/home", "/tree", "/tree/files"];

/** A stand-in: the login sets `sid` and redirects through `hops` pages; the API needs `sid`. */
function standIn(hops: number) {
  const token = crypto.randomUUID();
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const cookie = req.headers.get("cookie") ?? "";
    if (url.pathname === "/login") {
      return new Response(null, {
        status: 302,
        headers: { location: PATHS[0], "set-cookie": `sid=${token}; Path=/` },
      });
    }
    const hop = PATHS.indexOf(url.pathname);
    if (hop >= 0 && hop < hops) {
      return new Response(null, { status: 302, headers: { location: PATHS[hop + 1] } });
    }
    if (hop === hops) {
      return new Response("<html>files</html>", { headers: { "content-type": "text/html" } });
    }
    seen.push(cookie);
    if (cookie !== `sid=${token}`) return Response.json({ error: "log in" }, { status: 403 });
    return Response.json({ files: [] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/** chrome-har's shape: every hop after the login sends the cookie, the last one "sets" it. */
function recording(hops: number): string {
  const sid = "sid=2|1:0|10:1795713441|3:sid|44:OGY0ZDFhN2ItMmI2Ny00ZjFhLWE2YzItYjNmMjY1ZTg=";
  const entry = (method: string, path: string, status: number, extra: Record<string, unknown>) => ({
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method,
      url: `http://127.0.0.1:8888${path}`,
      headers: extra.cookie ? [{ name: "Cookie", value: extra.cookie }] : [],
      cookies: [],
      ...(extra.form
        ? {
          postData: {
            mimeType: "application/x-www-form-urlencoded",
            text: "password=typed-by-the-user",
            params: [{ name: "password", value: "typed-by-the-user" }],
          },
        }
        : {}),
    },
    response: {
      status,
      headers: [
        ...(extra.location ? [{ name: "Location", value: extra.location }] : []),
        ...(extra.sets ? [{ name: "Set-Cookie", value: `${sid}; Path=/` }] : []),
      ],
      cookies: [],
      content: extra.json
        ? { mimeType: "application/json", text: '{"files":[]}' }
        : { mimeType: "text/html", text: status === 200 ? "<html>files</html>" : "" },
      redirectURL: extra.location ?? "",
    },
    _resourceType: extra.json ? "xhr" : "document",
  });
  const entries = [entry("POST", "/login", 302, { form: true, location: PATHS[0] })];
  for (let hop = 0; hop < hops; hop++) {
    entries.push(entry("GET", PATHS[hop], 302, { cookie: sid, location: PATHS[hop + 1] }));
  }
  entries.push(entry("GET", PATHS[hops], 200, { cookie: sid, sets: true }));
  entries.push(entry("GET", "/api/files", 200, { cookie: sid, json: true }));
  return JSON.stringify({ log: { entries } });
}

for (const hops of [0, 1, 2]) {
  Deno.test(`convert har: a login's cookie recorded ${hops + 1} redirect(s) late is captured from the login, nothing else asked`, async () => {
    const dir = await Deno.makeTempDir();
    const fresh = standIn(hops);
    try {
      await Deno.writeTextFile(`${dir}/in.har`, recording(hops));
      const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
      assert.equal(converted.code, 0, converted.stderr);
      const flow = await Deno.readTextFile(`${dir}/f.yaml`);
      assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./, converted.stderr);
      assert.match(flow, /sid: \{ cookie: sid \}/, flow);
      const run = await runCli(["run", `${dir}/f.yaml`], {
        env: { BASE_URL: fresh.origin, LOGIN_PASSWORD: "typed-by-the-user" },
      });
      assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
      assert.equal(fresh.seen.length, 1, fresh.seen.join("\n"));
    } finally {
      await fresh.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
