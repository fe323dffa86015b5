/**
 * What the OAuth2 interop tests share: the flows they run against the
 * oidc-provider of `oidc_provider.ts`, and the CLI run that reads the JSON
 * report back.
 */
import assert from "node:assert/strict";
import { runCli } from "./cli.ts";
import { CLIENT_SECRET, type Idp } from "./oidc_provider.ts";
import { withFiles } from "./with_files.ts";

export const ENV = { CLIENT_SECRET, WRONG_SECRET: "not-the-SECRET-value" };
/** Requests 300 ms apart that outlive a 2 s token. */
export const STEPS = 7;

/** An auth file with the provider's token URL and these lines of the oauth2 block. */
export const authFile = (idp: Idp, lines: string) =>
  `auth:
  oauth2:
    token_url: ${idp.issuer}/token
${lines.replace(/^/gm, "    ")}
`;

/** `steps` GETs of the protected API, each `delay` after the last. */
export const flow = (idp: Idp, steps = 1, delay = "0ms") =>
  `name: protected
steps:
${
    Array.from({ length: steps }, (_, i) =>
      `  - name: me ${i}
    request: {url: "${idp.api}/me"}
    options: {delay: ${delay}}
    assert:
      status: 200
      json:
        - {path: $.json.scope, contains: "api:read"}
`).join("")
  }`;

/** The CLI run with an auth file and a flow; its exit code, output and JSON report. */
export async function run(
  idp: Idp,
  auth: string,
  flowText: string,
  env: Record<string, string> = ENV,
) {
  return await withFiles({ "auth.yaml": authFile(idp, auth), "f.yaml": flowText }, async (dir) => {
    const r = await runCli(
      ["run", `${dir}/f.yaml`, "--auth-file", `${dir}/auth.yaml`, "--report-json", `${dir}/r.json`],
      { env },
    );
    const json = await Deno.readTextFile(`${dir}/r.json`).catch(() => "");
    return { ...r, json };
  });
}

/** No client secret (each test's holds SECRET) and none of `tokens` in any output. */
export function assertNoSecret(
  r: { stdout: string; stderr: string; json: string },
  tokens: string[],
) {
  for (const text of [r.stdout, r.stderr, r.json]) {
    assert.ok(!text.includes("SECRET"), `a client secret in ${text}`);
    for (const token of tokens) assert.ok(!text.includes(token), `a token in ${text}`);
  }
}

/**
 * The API calls of a run of {@linkcode STEPS} steps whose 2 s tokens are renewed ahead of time:
 * every step was answered with a live token, and the renewals were `grants` (2 or 3). On a busy
 * machine a request can still reach the provider after its token's last second (the provider counts
 * whole seconds): then the API's 401 makes flowrun fetch a token and send again, one dead call
 * followed by a live one, and one grant more — what a client should do, so the test allows it.
 */
export function assertRenewed(idp: Idp, grants: number): void {
  const active = idp.calls.map((c) => c.active);
  assert.equal(active.filter(Boolean).length, STEPS, JSON.stringify(active));
  const dead = active.filter((a) => !a).length;
  assert.ok(active.every((a, i) => a || active[i + 1] === true), JSON.stringify(active));
  assert.ok(grants >= 2 && grants <= 3 + dead, `${grants} grants for ${JSON.stringify(active)}`);
}
