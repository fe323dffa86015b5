/**
 * `convert har` on a Playwright recording of an admin sign-in whose page's scripts were answered
 * with a second session cookie. EverShop 2.2.1's server gives every request without one, its
 * bundles too, a storefront `sid`; the admin page itself sets only the admin session `asid`
 * (measured by hand, docs/real-servers-har.md). The sign-in and every later request sent both.
 * The converter took `sid` for a cookie whose `Set-Cookie` the recording lost, read it from the
 * answer before its first sender (the page, which set `asid` only), and the run failed on that
 * first step: "the response sets no cookie sid", every other step skipped. The recording shows
 * which answer set it: a script the flow drops. A value only a dropped answer set is that old
 * instance's and no step can read it: the request goes without it, as on a first visit (the same
 * rule the cookies held for a request chrome-har recorded without hold,
 * `har_held_cookie_dropped_page_test.ts`). A cookie sent that no recorded answer set keeps its
 * handling (`har_lost_set_cookie_test.ts`).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harEntry } from "../support/har_entry.ts";

const PASSWORD = "Tidewater-Lamp-31";

/** A stand-in: every answer without the storefront cookie sets one; the admin session is `asid`. */
function standIn() {
  const sessions = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const cookies = req.headers.get("cookie") ?? "";
    const asid = /(?:^|; )asid=([^;]+)/.exec(cookies)?.[1];
    const headers = new Headers();
    if (!/(?:^|; )sid=/.test(cookies)) {
      headers.append("set-cookie", `sid=s%3A${crypto.randomUUID()}; Path=/; HttpOnly`);
    }
    if (path === "/admin/login") {
      headers.append("set-cookie", `asid=s%3A${crypto.randomUUID()}; Path=/; HttpOnly`);
      headers.set("content-type", "text/html");
      return new Response("<html><body>sign in</body></html>", { headers });
    }
    if (req.method === "POST" && path === "/admin/user/login") {
      const body = await req.json();
      if (body.password !== PASSWORD || asid === undefined) {
        return Response.json({ error: "no" }, { status: 401, headers });
      }
      sessions.add(asid);
      return Response.json({ ok: true }, { headers });
    }
    await req.body?.cancel();
    if (path === "/api/shelves") {
      return asid !== undefined && sessions.has(asid)
        ? Response.json({ shelves: [] }, { headers })
        : Response.json({ error: "sign in" }, { status: 401, headers });
    }
    headers.set("content-type", "application/javascript");
    return new Response("void 0;", { headers });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

const AT = "http://127.0.0.1:18752";
const ADMIN = "s%3AuQ6ee1C8MFpBX9qlXrzB7HF77tLTMkws.s4RT";
const SHOP_A = "s%3ATVmEPGkdeaTIqBEk_ABtXIrSQk3rQwF6.y%2By";
const SHOP_B = "s%3ARiTi4sjQWxlx63ScF2oEmmvEGphiU78f.%2Fyl";

function entry(method: string, path: string, o: {
  mime: string;
  text: string;
  cookie?: string;
  setCookie?: string;
  body?: string;
}) {
  return harEntry(AT, method, path, { started: "2026-12-01T01:21:51.000Z", ...o });
}

/** Playwright's form: every request with its cookies; two scripts each answered a new `sid`. */
function recording(): string {
  const both = `asid=${ADMIN}; sid=${SHOP_B}`;
  const script = (path: string, cookie: string, sid: string) =>
    entry("GET", path, {
      mime: "application/javascript",
      text: "void 0;",
      cookie,
      setCookie: `sid=${sid}; Path=/; HttpOnly`,
    });
  return JSON.stringify({
    log: {
      creator: { name: "Playwright" },
      entries: [
        entry("GET", "/admin/login", {
          mime: "text/html",
          text: "<html><body>sign in</body></html>",
          setCookie: `asid=${ADMIN}; Path=/; HttpOnly`,
        }),
        script("/assets/vendor.js", `asid=${ADMIN}`, SHOP_A),
        script("/assets/login.js", `asid=${ADMIN}`, SHOP_B),
        entry("POST", "/admin/user/login", {
          mime: "application/json",
          text: '{"ok":true}',
          cookie: both,
          body: JSON.stringify({ email: "keeper@quay.test", password: PASSWORD }),
        }),
        entry("GET", "/api/shelves", {
          mime: "application/json",
          text: '{"shelves":[]}',
          cookie: both,
        }),
      ],
    },
  });
}

Deno.test("convert har: a cookie only a dropped script's answer set is not sent, not asked and not read from the page; the run passes twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-asset-cookie-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.doesNotMatch(converted.stderr, /SESSION_COOKIE/);
    assert.ok(!flow.includes(SHOP_B) && !flow.includes(PASSWORD), flow);
    assert.doesNotMatch(flow, /cookie: sid\b|(?<![a-z])sid=/, flow);
    const asked = [...flow.matchAll(/^#\s+([A-Z][A-Z0-9_]+)\s/gm)].map((m) => m[1])
      .filter((name) => name !== "BASE_URL");
    assert.deepEqual(asked, ["LOGIN_PASSWORD"], flow);
    const env = { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD };
    for (const run of [1, 2]) {
      const result = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(result.code, 0, `run ${run}\n${result.stdout}\n${flow}`);
    }
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
