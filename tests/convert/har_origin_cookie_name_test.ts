/**
 * `convert har` on a login cookie whose NAME spells the server's own address,
 * as Jupyter Notebook's has it (tests/real/notebook_har_test.ts): a login
 * sets `username-127-0-0-1-46155` (the request's host and port, `.` and `:`
 * made `-`), so a fresh instance on another port sets another name, and the
 * capture `{cookie: username-127-0-0-1-46155}` failed the login there ("the
 * response sets no cookie"), every later step skipped.
 *
 * What the converter does: the span of the name that spells the host and
 * port the answer came from is the instance's by evidence (the recorded
 * URL's own host), so it is read from the fresh `Set-Cookie` by a pattern,
 * as a name holding an id the answer hands out is (cookie_names.ts), and the
 * `Cookie` header names the cookie by that capture. Widened: the host
 * spelled with `.`, `_` or `-` and the port alone; a name holding a number
 * that is not the port stays as it was.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** Spells `host` (`127.0.0.1:8888`) the way a cookie name of the stand-in does. */
type Spell = (host: string) => string;

/** A stand-in whose login sets a cookie named `prefix` + the spelling of its own host. */
function standIn(spell: Spell) {
  const token = crypto.randomUUID().replaceAll("-", "");
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const name = spell(url.host);
    if (url.pathname === "/login") {
      const headers = new Headers({ location: "/" });
      headers.append("set-cookie", `${name}=${token}; Path=/; HttpOnly`);
      headers.append("set-cookie", "theme-2024=dark; Path=/");
      return new Response(null, { status: 302, headers });
    }
    const cookie = req.headers.get("cookie") ?? "";
    seen.push(cookie);
    if (!cookie.includes(`${name}=${token}`)) {
      return Response.json({ error: "login first" }, { status: 403 });
    }
    return Response.json({ items: [] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/** The recording: a login on 127.0.0.1:8888 and one call sending its cookie back. */
function recording(spell: Spell): string {
  const name = spell("127.0.0.1:8888");
  const value =
    "2|1:0|10:1795713442|23:username-cookie|44:ZjA0YTk3NmQ4NTk0NGQ1OTg0ZjhkZDE4MmQ1YjVhNzg=";
  const entry = (method: string, path: string, response: Record<string, unknown>, cookie = "") => ({
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method,
      url: `http://127.0.0.1:8888${path}`,
      headers: cookie ? [{ name: "Cookie", value: cookie }] : [],
      cookies: [],
      ...(method === "POST"
        ? {
          postData: {
            mimeType: "application/x-www-form-urlencoded",
            text: "password=hunter2-typed",
            params: [{ name: "password", value: "hunter2-typed" }],
          },
        }
        : {}),
    },
    response,
    _resourceType: method === "POST" ? "document" : "xhr",
  });
  const login = {
    status: 302,
    headers: [
      { name: "Location", value: "/" },
      { name: "Set-Cookie", value: `${name}=${value}; Path=/; HttpOnly` },
      { name: "Set-Cookie", value: "theme-2024=dark; Path=/" },
    ],
    cookies: [],
    content: { mimeType: "text/html", text: "" },
  };
  const list = {
    status: 200,
    headers: [],
    cookies: [],
    content: { mimeType: "application/json", text: '{"items":[]}' },
  };
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", "/login", login),
        entry("GET", "/api/items", list, `${name}=${value}; theme-2024=dark`),
      ],
    },
  });
}

const SPELLINGS: [string, Spell][] = [
  ["the host and port with dashes", (h) => `username-${h.replaceAll(/[.:]/g, "-")}`],
  ["the host and port with underscores", (h) => `sess_${h.replaceAll(/[.:]/g, "_")}_v2`],
  ["the host as written and the port", (h) => `login.${h.replace(":", "-")}`],
  ["the port alone", (h) => `user-${h.split(":")[1]}`],
];

for (const [what, spell] of SPELLINGS) {
  Deno.test(`convert har: a login cookie named for ${what} of the server is read by a pattern and sent under the fresh name`, async () => {
    const dir = await Deno.makeTempDir();
    const fresh = standIn(spell);
    try {
      await Deno.writeTextFile(`${dir}/in.har`, recording(spell));
      const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
      assert.equal(converted.code, 0, converted.stderr);
      const flow = await Deno.readTextFile(`${dir}/f.yaml`);
      assert.match(flow, /\{ header: set-cookie, regex: /, flow);
      // The cookie named for a year, not the port, keeps its recorded name.
      assert.match(flow, /; theme-2024=\$\{steps\.login\.capture\.theme_2024\}/, flow);
      const run = await runCli(["run", `${dir}/f.yaml`], {
        env: { BASE_URL: fresh.origin, LOGIN_PASSWORD: "hunter2-typed" },
      });
      assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
      assert.equal(fresh.seen.length, 1, fresh.seen.join("\n"));
      assert.ok(fresh.seen[0].startsWith(spell(new URL(fresh.origin).host)), fresh.seen[0]);
    } finally {
      await fresh.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
