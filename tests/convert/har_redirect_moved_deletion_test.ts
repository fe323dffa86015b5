/**
 * `convert har` on chrome-har's recording of a sign-out that deletes the session cookie on a
 * redirect, as Jingo's does: `GET /logout` answers 302 to the home with `Set-Cookie: sid=;
 * expires=… 1970`. chrome-har recorded the deletion on the chain's last hop (the home), and that
 * hop without cookies. The conversion filled them from the cookies earlier answers set, and the
 * deletion came too late: the home was sent the old session, which a session kept in its cookie
 * still honours, and the server redirected it to the editor, 302 where 200 was recorded.
 *
 * The evidence: a response deletes a cookie its own request did not send, the redirect chain led
 * to it, and a hop back along the chain sent that cookie: the browser stopped sending it after
 * that hop's answer, which deleted it. The deletion is moved to that hop, so the jar drops the
 * cookie there. A deletion on a page whose request sent the cookie stays where it is.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";

const AT = "http://127.0.0.1:7461";
const DELETION = "sid=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT";

/**
 * A site whose session lives in its cookie (as cookie-session's does: signing out only deletes the
 * cookie, the old value stays good), signing out on a redirect to its home, which sends a
 * signed-in user to the editor.
 */
function standIn() {
  const sessions = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    const signedIn = sid !== undefined && sessions.has(sid);
    if (path === "/login") {
      const id = crypto.randomUUID();
      sessions.add(id);
      return Response.json({ ok: true }, { headers: { "set-cookie": `sid=${id}; path=/` } });
    }
    if (path === "/api/me") return Response.json({ user: signedIn ? "editor" : null });
    if (path === "/logout") {
      return new Response(null, {
        status: 302,
        headers: { location: "/api/home", "set-cookie": `${DELETION}` },
      });
    }
    if (path === "/api/home" && signedIn) {
      return new Response(null, { status: 302, headers: { location: "/api/editor" } });
    }
    return Response.json({ page: "welcome" });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One chrome-har entry: request cookies, response status, `Location` and `Set-Cookie` lines. */
function entry(
  i: number,
  method: string,
  path: string,
  answer: { status: number; location?: string; setCookie?: string; json?: unknown; html?: string },
  cookie?: string,
) {
  const headers = [
    ...(answer.location ? [{ name: "location", value: answer.location }] : []),
    ...(answer.setCookie ? [{ name: "set-cookie", value: answer.setCookie }] : []),
  ];
  const text = answer.html ?? (answer.json === undefined ? "" : JSON.stringify(answer.json));
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    request: {
      method,
      url: `${AT}${path}`,
      headers: [
        { name: "Accept", value: answer.html ? "text/html" : "application/json" },
        ...(cookie ? [{ name: "Cookie", value: cookie }] : []),
      ],
    },
    response: {
      status: answer.status,
      headers,
      content: { mimeType: answer.html ? "text/html" : "application/json", text },
      redirectURL: answer.location ?? "",
    },
  };
}

/** The recording: sign in, read who is signed in, sign out; the deletion on the chain's last hop. */
function recording(deletionOnLast: boolean): string {
  const sid = "sid=9f1c2b7e-41d5-4c3a-8e2f-6b0a9d3c5e71";
  return JSON.stringify({
    log: {
      entries: [
        entry(0, "POST", "/login", {
          status: 200,
          json: { ok: true },
          setCookie: `${sid}; path=/`,
        }),
        entry(1, "GET", "/api/me", { status: 200, json: { user: "editor" } }, sid),
        entry(2, "GET", "/logout", {
          status: 302,
          location: "/api/home",
          ...(deletionOnLast ? {} : { setCookie: DELETION }),
        }, sid),
        entry(3, "GET", "/api/home", {
          status: 200,
          json: { page: "welcome" },
          ...(deletionOnLast ? { setCookie: DELETION } : {}),
        }),
      ],
    },
  });
}

Deno.test("convert har: a sign-out's cookie deletion chrome-har recorded on the redirect chain's last hop goes back to the hop whose request last sent the cookie, so the hops after it send no session and the flow passes twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-moved-deletion-" });
  const app = standIn();
  try {
    await Deno.writeTextFile(`${dir}/r.har`, recording(true));
    const flow = await convertHarFile(`${dir}/r.har`, `${dir}/flow.yaml`);
    await runCliTwice(`${dir}/flow.yaml`, app.origin, flow);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: the same journey recorded with the deletion on the sign-out converts to the same flow", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-moved-deletion-" });
  try {
    await Deno.writeTextFile(`${dir}/moved.har`, recording(true));
    await Deno.writeTextFile(`${dir}/kept.har`, recording(false));
    const moved = await convertHarFile(`${dir}/moved.har`, `${dir}/moved.yaml`);
    const kept = await convertHarFile(`${dir}/kept.har`, `${dir}/kept.yaml`);
    const body = (flow: string) => flow.slice(flow.indexOf("\nname:"));
    assert.equal(body(moved), body(kept));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
