/**
 * `convert har` on a journey that signs out and signs in again: the sign-out (a link answered
 * `302` to the login page, or a script's `fetch('/logout')` answered `OK` as text/html, as
 * Federated Wiki's is), then the login page, then its form posted. The login form holds a hidden
 * token the server makes afresh for each page it renders and checks on the post, so the flow
 * must load the page again after the sign-out and post what that page holds. (DokuWiki's recording
 * ends on the login page after its sign-out, which then feeds nothing and is dropped; this is
 * that page when the user goes on.) Each case runs twice on one instance of the server the test
 * starts, with only what the summary asks for.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const PASSWORD = "quay-Pw-4410";

/** Whether the browser navigated (it asks for a page), not a script. */
const accepts = (req: Request) => req.headers.get("accept")?.includes("text/html") ?? false;

/** A server-rendered app: a login form with a one-time token, a session cookie, a JSON `/api/me`. */
function startApp() {
  const forms = new Set<string>();
  const sessions = new Set<string>();
  const signIns: string[] = [];
  const html = (body: string, headers: Record<string, string> = {}) =>
    new Response(`<!doctype html><html><body>${body}</body></html>`, {
      headers: { "content-type": "text/html; charset=utf-8", ...headers },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=([^;]*)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (url.pathname === "/login" && req.method === "GET" && !accepts(req)) {
      return new Response(sessions.has(sid) ? "Signed in" : "Signed out");
    }
    if (url.pathname === "/login" && req.method === "GET") {
      const token = crypto.randomUUID().replaceAll("-", "");
      forms.add(token);
      return html(
        `<form method="post" action="/login"><input type="hidden" name="csrf" value="${token}">` +
          `<input name="user" value=""><input type="password" name="pass"><button>Sign in</button></form>`,
      );
    }
    if (url.pathname === "/login") {
      const form = new URLSearchParams(await req.text());
      if (!forms.delete(form.get("csrf") ?? "") || form.get("pass") !== PASSWORD) {
        return html("<p>Bad token or password</p>", {});
      }
      const made = crypto.randomUUID();
      sessions.add(made);
      signIns.push(form.get("user") ?? "");
      return new Response(null, {
        status: 302,
        headers: { location: "/home", "set-cookie": `sid=${made}; Path=/; HttpOnly` },
      });
    }
    if (url.pathname === "/logout") {
      sessions.delete(sid);
      return accepts(req)
        ? new Response(null, { status: 302, headers: { location: "/login" } })
        : new Response("OK", { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (!sessions.has(sid)) return Response.json({ error: "sign in" }, { status: 401 });
    if (url.pathname === "/api/me") return Response.json({ user: "ann" });
    return html(`<p>Welcome</p><script src="/app.js"></script>`);
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    signIns,
    close: () => server.shutdown(),
  };
}

type Entry = Record<string, unknown>;

function exchange(
  method: string,
  url: string,
  kind: "document" | "fetch",
  answer: { status?: number; type?: string; text: string; headers?: [string, string][] },
  request: { body?: string; headers?: [string, string][] } = {},
): Entry {
  const nv = (pairs: [string, string][]) => pairs.map(([name, value]) => ({ name, value }));
  const accept = kind === "document" ? "text/html,application/xhtml+xml" : "*/*";
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    _resourceType: kind,
    request: {
      method,
      url,
      headers: nv([["Accept", accept], ...(request.headers ?? [])]),
      ...(request.body === undefined ? {} : {
        postData: { mimeType: "application/x-www-form-urlencoded", text: request.body },
      }),
    },
    response: {
      status: answer.status ?? 200,
      headers: nv([["Content-Type", answer.type ?? "text/html"], ...(answer.headers ?? [])]),
      content: { mimeType: answer.type ?? "text/html", text: answer.text },
    },
  };
}

/** The login page as the server renders it, holding `token`. */
const loginPage = (token: string) =>
  `<!doctype html><html><body><form method="post" action="/login"><input type="hidden" name="csrf" value="${token}">` +
  `<input name="user" value=""><input type="password" name="pass"><button>Sign in</button></form></body></html>`;

/** Sign in (page, post, home), sign out the `how` way, sign in again, read `/api/me`. */
function journey(origin: string, how: "link" | "script" | "probe"): string {
  const entries: Entry[] = [];
  const sids = ["5b0e1c6a-3f7d-4a8e-9c21-0d4b7e8f1a23", "9e2d4f6b-8a1c-4d3e-b5f7-1c2e3d4f5a6b"];
  const tokens = ["4f1c2e9a8b7d4c3e9a1b2c3d4e5f6a7b", "8d7c6b5a4f3e4d2c8b1a9f8e7d6c5b4a"];
  for (const [i, token] of tokens.entries()) {
    entries.push(exchange("GET", `${origin}/login`, "document", { text: loginPage(token) }));
    entries.push(exchange("POST", `${origin}/login`, "document", {
      status: 302,
      text: "",
      headers: [["Location", "/home"], ["Set-Cookie", `sid=${sids[i]}; Path=/; HttpOnly`]],
    }, { body: `csrf=${token}&user=ann&pass=${PASSWORD}` }));
    const session: [string, string][] = [["Cookie", `sid=${sids[i]}`]];
    entries.push(exchange("GET", `${origin}/home`, "document", {
      text: `<!doctype html><html><body><p>Welcome</p></body></html>`,
    }, { headers: session }));
    entries.push(exchange("GET", `${origin}/api/me`, "fetch", {
      type: "application/json",
      text: '{"user":"ann"}',
    }, { headers: session }));
    if (i === 1) break;
    entries.push(
      how === "link"
        ? exchange("GET", `${origin}/logout`, "document", {
          status: 302,
          text: "",
          headers: [["Location", "/login"]],
        }, { headers: session })
        : exchange("POST", `${origin}/logout`, "fetch", { text: "OK" }, { headers: session }),
    );
    // The page's script asks the login path first (answered a word), then the browser goes there.
    if (how === "probe") {
      entries.push(exchange("GET", `${origin}/login`, "fetch", { text: "Signed out" }));
    }
  }
  return JSON.stringify({ log: { version: "1.2", entries } });
}

for (const how of ["link", "script", "probe"] as const) {
  Deno.test(`convert har: the login page after a sign-out (${how}) and its form's post are both kept; the flow signs in again, twice`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sign-in-again-" });
    const app = startApp();
    try {
      const { converted, flow } = await convertHar(dir, journey(app.origin, how));
      assert.equal(flow.match(/# GET \S+\/login →/g)?.length, how === "probe" ? 3 : 2, flow);
      assert.equal(flow.match(/# POST \S+\/login →/g)?.length, 2, flow);
      const asked = /Set before running: ([^.]*)\./.exec(converted.stderr)?.[1].split(", ") ?? [];
      const env = Object.fromEntries(asked.map((name) => [name, PASSWORD]));
      for (const n of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env });
        assert.equal(out.code, 0, `run ${n}\n${out.stdout}\n${flow}\n${converted.stderr}`);
      }
      assert.deepEqual(app.signIns, ["ann", "ann", "ann", "ann"]);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
