/**
 * `convert har a.har b.har` on two recordings of one sign-in whose password is a plain word typed
 * into the login page's `type="password"` input under a name no rule knows (`pword`): a factory
 * account (`admin` / `admin`) or a word (`sunflower`), the same in both recordings. One recording
 * asks `LOGIN_PASSWORD` for it; two wrote it into the flow as a constant, because a secret-named
 * value both recordings sent as a word is taken for the app's own (`X-Atlassian-Token: no-check`).
 * A value typed into a password input is what the user holds, however plain and however equal:
 * it is asked, as with one recording, and never written.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:7312";

/** A stand-in that signs in `user` with the password it was set up with, then answers `/me`. */
function standIn(user: string, password: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/signin") {
      const form = new URLSearchParams(await req.text());
      return form.get("uname") === user && form.get("pword") === password
        ? new Response(null, {
          status: 302,
          headers: { location: "/me", "set-cookie": "ses=k7; Path=/" },
        })
        : new Response("wrong password", { status: 403 });
    }
    if (path === "/me" && req.headers.get("cookie")?.includes("ses=k7")) {
      return Response.json({ name: user });
    }
    return new Response("sign in first", { status: 401 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording: the sign-in page, its form posted, the account read. */
function recording(user: string, password: string, session: string) {
  const page = '<form action="/signin" method="post"><input type="text" name="uname">' +
    '<input type="password" name="pword"><input type="submit"></form>';
  return harOf([
    { url: `${AT}/`, html: page },
    {
      method: "POST",
      url: `${AT}/signin`,
      mime: "application/x-www-form-urlencoded",
      body: `uname=${user}&pword=${password}`,
      status: 302,
      headers: [["Location", "/me"]],
      setCookies: [["ses", session]],
    },
    { url: `${AT}/me`, headers: [["Cookie", `ses=${session}`]], json: { name: user } },
  ]);
}

for (const [user, password] of [["admin", "admin"], ["ann", "sunflower"]]) {
  Deno.test(`convert har with two recordings: the plain password ${password} typed into a password input in both is asked, never written`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-plain-password-" });
    const app = standIn(user, "Quay-Lantern-58");
    try {
      const { converted, flow } = await convertHars(dir, [
        recording(user, password, "c1a9e7d3b5f24680"),
        recording(user, password, "d2b8f6e4c0a13579"),
      ]);
      assert.doesNotMatch(flow, new RegExp(`pword: "?${password}`), flow);
      const asked = converted.stderr.match(/Set before running: (.*)\./)?.[1].split(", ");
      assert.deepEqual(asked, ["LOGIN_PASSWORD"], converted.stderr);
      const env = { BASE_URL: app.origin, LOGIN_PASSWORD: "Quay-Lantern-58" };
      const run = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
