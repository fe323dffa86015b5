/**
 * `convert har a.har b.har` on a journey whose login page (an HTML page the flow drops) declares
 * the password input under a name no rule knows (`p`), and whose form post goes to a path not
 * named like a login (`/do`). One recording reads the dropped page's `type="password"` input and
 * asks `LOGIN_PASSWORD`. Two recordings did not: the page was not read, so the password typed
 * differently in each became a variable whose default is the first password, written into the
 * flow and printed in its header; and a password typed the same in both (one account recorded
 * twice) was written into the flow as is. The page is evidence whether one recording is given or
 * two: the credential is asked, never written, in either case.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar, convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:7312";

/** A stand-in that signs in with the password it was set up with, then answers `/api/me`. */
function standIn(password: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") {
      return new Response("<form></form>", { headers: { "content-type": "text/html" } });
    }
    if (path === "/do") {
      const form = new URLSearchParams(await req.text());
      return form.get("p") === password
        ? Response.json({ ok: true }, { headers: { "set-cookie": "sid=s9; Path=/" } })
        : Response.json({ ok: false }, { status: 401 });
    }
    if (path === "/api/me" && req.headers.get("cookie")?.includes("sid=s9")) {
      return Response.json({ name: "ann" });
    }
    return Response.json({}, { status: 401 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording: the login page, its form posted with `password`, the account read. */
function recording(password: string, sid: string) {
  return harOf([
    { url: `${AT}/login`, html: '<form><input name="u"><input type="password" name="p"></form>' },
    {
      method: "POST",
      url: `${AT}/do`,
      mime: "application/x-www-form-urlencoded",
      body: `u=ann&p=${password}`,
      json: { ok: true },
      setCookies: [["sid", sid]],
    },
    { url: `${AT}/api/me`, headers: [["Cookie", `sid=${sid}`]], json: { name: "ann" } },
  ]);
}

const CASES = [
  { name: "one recording", hars: [recording("harbour-Gull-41", "a8f3c2d19e7b4a6c")] },
  {
    name: "two recordings, passwords typed differently",
    hars: [
      recording("harbour-Gull-41", "a8f3c2d19e7b4a6c"),
      recording("quay-Tern-77", "b7e2d4f1a9c3e5d8"),
    ],
  },
  {
    name: "two recordings, the same password",
    hars: [
      recording("harbour-Gull-41", "a8f3c2d19e7b4a6c"),
      recording("harbour-Gull-41", "b7e2d4f1a9c3e5d8"),
    ],
  },
];

for (const c of CASES) {
  Deno.test(`convert har, ${c.name}: a dropped login page's password input makes its field a credential, asked and never written`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-dropped-login-" });
    const app = standIn("Pine-Gate-93");
    try {
      const { converted, flow } = c.hars.length === 1
        ? await convertHar(dir, c.hars[0])
        : await convertHars(dir, c.hars);
      for (const typed of ["harbour-Gull-41", "quay-Tern-77"]) {
        assert.ok(!flow.includes(typed), `${typed}\n${flow}`);
        assert.ok(!converted.stderr.includes(typed), converted.stderr);
      }
      const asked = converted.stderr.match(/Set before running: (.*)\./)?.[1].split(", ");
      assert.deepEqual(asked, ["LOGIN_PASSWORD"], converted.stderr);
      const env = { BASE_URL: app.origin, LOGIN_PASSWORD: "Pine-Gate-93" };
      const run = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
