/**
 * `convert har` on a journey recorded in Chromium through the web UI of a
 * real Verdaccio (the private npm registry, a single-page app over its own
 * API, installed from npm): a user registered with `npm adduser` and a
 * package published with `npm publish` (the npm CLI against the instance),
 * then in the browser: open the registry's page (it lists the packages), log
 * in, open the package. The UI logs in with `POST /-/verdaccio/sec/login`
 * and sends the token it got as `Authorization: Bearer` on every later call.
 * Recorded on a fresh instance A (both HAR forms), converted with default
 * options, and run once on a fresh instance B (same user, same package)
 * with only the variables the flow asks for: its base URL and the password;
 * then converted with `--verify` against a fresh instance C and run there.
 */
import assert from "node:assert/strict";
import { ignoreBrowser, whyBrowserIgnored } from "../support/browser.ts";
import { convertHarFile, runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { type Recordings, recordSession } from "../support/record_har.ts";
import { readReport } from "./measure.ts";
import { type Instance, prepare, realTest, withInstance } from "./servers.ts";
import { VERDACCIO, verdaccioLaunch as launch } from "./verdaccio.ts";

const prepared = await prepare([VERDACCIO]);

const USER = "ada";
/** What the user types at login: a secret the flow must ask for, never hold. */
const PASSWORD = "Ratchet-Lantern-42";

/** What a user did before opening the UI: `npm adduser`'s request, then `npm publish`. */
async function registerAndPublish(registry: Instance): Promise<void> {
  const added = await fetch(`${registry.origin}/-/user/org.couchdb.user:${USER}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: USER, password: PASSWORD }),
  });
  const { token } = await added.json();
  assert.equal(added.status, 201);
  const pkg = `${registry.dir}/hello-real`;
  await Deno.mkdir(pkg);
  await Deno.writeTextFile(
    `${pkg}/package.json`,
    JSON.stringify({ name: "hello-real", version: "1.0.0", description: "A first package" }),
  );
  await Deno.writeTextFile(`${pkg}/README.md`, "# hello-real\n\nA first package.\n");
  const host = new URL(registry.origin).host;
  await Deno.writeTextFile(
    `${pkg}/.npmrc`,
    `registry=${registry.origin}/\n//${host}/:_authToken=${token}\n`,
  );
  const published = await new Deno.Command("npm", {
    args: ["publish", "--userconfig", `${pkg}/.npmrc`],
    cwd: pkg,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(published.code, 0, new TextDecoder().decode(published.stderr));
}

/** The journey in the registry's web UI. */
function journey(a: Instance): Promise<Recordings> {
  return recordSession(async (page) => {
    const answered = (path: string) => (r: { url(): string }) => new URL(r.url()).pathname === path;
    await Promise.all([
      page.waitForResponse(answered("/-/verdaccio/data/packages")),
      page.goto(`${a.origin}/`),
    ]);
    await page.click("[data-testid=header--button-login]");
    await page.fill("#login--dialog-username", USER);
    await page.fill("#login--dialog-password", PASSWORD);
    await Promise.all([
      page.waitForResponse(answered("/-/verdaccio/data/packages")),
      page.click("[data-testid=login-dialog-form-login-button]"),
    ]);
    await Promise.all([
      page.waitForResponse(answered("/-/verdaccio/data/sidebar/hello-real")),
      page.click("text=hello-real"),
    ]);
  });
}

realTest(
  "a journey through Verdaccio's web UI (log in, open a package), recorded in Chromium, passes on a fresh instance on its first run",
  prepared.ignoredBecause || whyBrowserIgnored,
  async (dir) => {
    const prefix = prepared.install!.prefix;
    const recorded = await withInstance(launch(prefix), async (a) => {
      await registerAndPublish(a);
      return await journey(a);
    });
    for (const [form, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
      const flowPath = `${dir}/${form}.yaml`;
      await Deno.writeTextFile(`${dir}/${form}.har`, har);
      const flow = await convertHarFile(`${dir}/${form}.har`, flowPath);
      // The password typed and the token the server issued are asked for or captured, never kept.
      assert.ok(!flow.includes(PASSWORD), flow);
      const issued = /\\?"token\\?"\s*:\s*\\?"(ey[^"\\]+)/.exec(har)?.[1];
      assert.ok(issued && !flow.includes(issued), `token ${issued?.slice(0, 12)}…\n${flow}`);
      await withInstance(launch(prefix), async (b) => {
        await registerAndPublish(b);
        // The user knows the password; the summary names the variable that holds it.
        const env = userEnv(flow, b.origin, (name) => {
          const said = flow.split("\n").find((l) => l.startsWith(`#   ${name} `)) ?? "";
          return /password/i.test(said) ? PASSWORD : undefined;
        });
        const run = await runCli(["run", flowPath, "--report-json", `${flowPath}.json`], { env });
        const { steps } = await readReport(`${flowPath}.json`);
        const passed = steps.filter((s) => s.status === "passed").length;
        console.error(
          `verdaccio (${form} HAR): ${passed} of ${steps.length} steps passed on a fresh instance with ${
            Object.keys(env).join(", ")
          }`,
        );
        // Goal met 2026-11-25: 5 steps (list, log in, list, readme, sidebar), all passing,
        // the token captured from the login's response.
        assert.ok(steps.length >= 5 && passed === steps.length, `${run.stdout}\n${flow}`);
        assert.equal(run.code, 0, run.stdout);
      });
      // `--verify` against a fresh instance C with the password set, then the flow run there.
      await withInstance(launch(prefix), async (c) => {
        await registerAndPublish(c);
        const verifiedPath = `${dir}/${form}.verified.yaml`;
        const verified = await runCli(
          ["convert", "har", `${dir}/${form}.har`, "--verify", c.origin, "-o", verifiedPath],
          { env: { LOGIN_PASSWORD: PASSWORD } },
        );
        const text = await Deno.readTextFile(verifiedPath).catch(() => "");
        const env = userEnv(
          text,
          c.origin,
          (name) => name === "LOGIN_PASSWORD" ? PASSWORD : undefined,
        );
        const run = await runCli(["run", verifiedPath, "--report-json", `${verifiedPath}.json`], {
          env,
        });
        const { steps } = await readReport(`${verifiedPath}.json`);
        const passed = steps.filter((s) => s.status === "passed").length;
        console.error(
          `verdaccio (${form} HAR), --verify (exit ${verified.code}) then run on that instance: ${passed} of ${steps.length} steps passed; ${
            /^Verified[^\n]*/m.exec(verified.stderr)?.[0] ?? ""
          }`,
        );
        // Goal met 2026-11-25: --verify exits 0 and the verified flow passes whole.
        assert.equal(verified.code, 0, verified.stderr);
        assert.ok(!text.includes(PASSWORD), text);
        assert.ok(steps.length >= 5 && passed === steps.length, `${run.stdout}\n${text}`);
      });
    }
  },
  ignoreBrowser,
);
