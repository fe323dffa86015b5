/**
 * `convert har` on a sign-in whose account name and password are the same word: an appliance's
 * factory account (ZoneMinder 1.36's `admin`/`admin` once its authentication is on), typed once
 * into the login page's plain text box and once into its password box. The converter read the one
 * value sent under two names as a password typed twice (a new password and its confirmation),
 * made it a password the run chooses (`${RANDOM.PASSWORD}`) in both fields, and the sign-in was
 * refused on every run: 2 of 17 steps passed.
 *
 * The rule (correlate/chosen_passwords.ts): a value is typed twice only under two names no page
 * declared a visible text box (`<input type="text">`): what the user typed in plain view is a
 * name, and a name that equals a password is no confirmation. The password is then asked once,
 * as any sign-in's to an account that exists. A confirmation typed into two password boxes (or
 * two names no page declared, a dialog's JSON) is still the run's own
 * (har_one_password_test.ts, har_dialog_password_test.ts).
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const WORD = "gatehouse";
const LOGIN = '<form method="post"><input type="text" name="username">' +
  '<input type="password" name="password"><button>Sign in</button></form>';

/** An app with one account whose name is its password, a session cookie and a camera list. */
function applianceApp() {
  const sessions = new Set<string>();
  const cameras: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const origin = url.origin;
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : "");
    if (url.pathname === "/login/" && req.method === "POST") {
      if (form.get("username") !== WORD || form.get("password") !== WORD) {
        return htmlPage(origin, 200, "wrong name or password");
      }
      const fresh = crypto.randomUUID();
      sessions.add(fresh);
      const answer = htmlPage(origin, 302, "", "/cameras/");
      answer.headers.set("set-cookie", `sid=${fresh}; Path=/`);
      return answer;
    }
    if (url.pathname === "/login/") return htmlPage(origin, 200, LOGIN);
    if (!sessions.has(sid)) return htmlPage(origin, 302, "", "/login/");
    if (url.pathname === "/cameras/" && req.method === "POST") {
      cameras.push(form.get("name") ?? "");
      return htmlPage(origin, 302, "", "/cameras/");
    }
    return htmlPage(origin, 200, `<ul>${cameras.map((c) => `<li>${c}</li>`).join("")}</ul>`);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, cameras, close: () => server.shutdown() };
}

/** The journey as Chromium recorded it: sign in with the factory account, add a camera. */
function recording(): string {
  const har = JSON.parse(pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/login/", text: LOGIN },
    {
      method: "POST",
      path: "/login/",
      ...formPost(`username=${WORD}&password=${WORD}`),
      location: "/cameras/",
    },
    { method: "GET", path: "/cameras/", text: "<ul></ul>" },
    { method: "POST", path: "/cameras/", ...formPost("name=Lobby"), location: "/cameras/" },
    { method: "GET", path: "/cameras/", text: "<ul><li>Lobby</li></ul>" },
  ]));
  const entries = har.log.entries;
  entries[1].response.headers.push({ name: "Set-Cookie", value: "sid=s1; Path=/" });
  entries[1].response.cookies.push({ name: "sid", value: "s1" });
  for (const e of entries.slice(2)) {
    e.request.headers.push({ name: "Cookie", value: "sid=s1" });
    e.request.cookies.push({ name: "sid", value: "s1" });
  }
  return JSON.stringify(har);
}

Deno.test("convert har: a sign-in whose name equals its password asks the password once, the run chooses none", async () => {
  const app = applianceApp();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording());
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.ok(!flow.includes("RANDOM.PASSWORD"), flow);
    const asked = /Set before running: (.*)\./.exec(converted.stderr)?.[1]?.split(", ") ?? [];
    assert.equal(asked.length, 1, converted.stderr);
    for (const n of [1, 2]) {
      const env = { BASE_URL: app.origin, [asked[0]]: WORD };
      const run = await runCli(["run", `${dir}/app.yaml`], { env });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
    }
    assert.deepEqual(app.cameras, ["Lobby", "Lobby"]);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
