/**
 * Red-team of `--workers`: what a run tells a person on the way (the OAuth2
 * device_code line: where to approve the device, with the user code) goes
 * through the run's `notice` when a worker fetches the token, as on one
 * thread: the CLI writes it through its redactor, a library user gets it.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { notingServer, suite } from "../support/workers.ts";

Deno.test("a worker that fetches a device_code token tells the person through the run's notice", async () => {
  const api = notingServer(({ path }) => {
    if (path === "/device") {
      return Response.json({
        device_code: "dc-0123456789abcdef",
        user_code: "WDJB-MJHT",
        verification_uri: "https://idp.test/device",
        interval: 1,
      });
    }
    if (path === "/token") return Response.json({ access_token: "at-fedcba9876543210" });
    return Response.json({});
  });
  const auth = `auth:
  oauth2:
    grant_type: device_code
    token_url: ${api.base}/token
    device_authorization_url: ${api.base}/device
    client_id: app
`;
  const files: Record<string, string> = {
    // Main's first flow needs no token: a worker's flow asks for it first.
    "flows/a.yaml": `name: a\nsteps:\n  - name: get\n    request: {url: "${api.base}/a"}\n`,
  };
  for (const n of [1, 2, 3, 4]) {
    files[`flows/f${n}.yaml`] =
      `name: f${n}\n${auth}steps:\n  - name: get\n    request: {url: "${api.base}/x?n=${n}"}\n`;
  }
  const dir = await suite(files);
  try {
    const loaded = await loadFlows([`${dir}/flows`], { setupFiles: [] });
    const notices: string[] = [];
    const result = await runFlows(loaded.flows, {
      jobs: 3,
      workers: { count: 3, checkSetup: true },
      notice: (line) => void notices.push(line),
    });
    assert.equal(result.status, "passed", JSON.stringify(result.flows.map((f) => f.steps)));
    assert.equal(api.seen.filter((s) => s.path === "/device").length, 1);
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0], /WDJB-MJHT/);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
