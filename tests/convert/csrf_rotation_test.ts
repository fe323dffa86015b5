/**
 * A rotating single-use CSRF token (tests/apps/csrfspa): each response's
 * `X-CSRF-Next` is the next request's `X-CSRF-Token` (or a JSON field, a
 * percent-encoded query value, a cookie). The value sent was produced by
 * the response before it, byte for byte, so it is a capture of that
 * response, whatever the header's or key's name says. The journey is recorded
 * from a running instance, converted by the CLI with default options and run
 * on a fresh instance with only what the flow's header asks for.
 */
import assert from "node:assert/strict";
import { PASSWORD, startCsrfspa } from "../apps/csrfspa/server.ts";
import { recordJourney } from "../apps/csrfspa/journey.ts";
import { assertReplayPassed, convertAndReplay } from "../support/convert_apps.ts";
import { runCli } from "../support/cli.ts";

/**
 * Records the journey on one instance, then runs `fn` with the recording, a
 * fresh folder and a fresh instance; both gone after, whatever `fn` does.
 */
async function recordedThenFresh(
  fn: (har: string, dir: string, app: ReturnType<typeof startCsrfspa>) => Promise<void>,
): Promise<void> {
  const recording = startCsrfspa();
  let har: string;
  try {
    har = await recordJourney(recording.origin);
  } finally {
    await recording.close();
  }
  const dir = await Deno.makeTempDir({ prefix: "flowrun-csrfspa-" });
  const app = startCsrfspa();
  try {
    await fn(har, dir, app);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("csrfspa: a rotating CSRF token is captured from the response before, and the flow passes on a fresh instance", () =>
  recordedThenFresh(async (har, dir, app) => {
    const path = `${dir}/journey.har`;
    await Deno.writeTextFile(path, har);
    const replay = await convertAndReplay(
      path,
      app.origin,
      (name) => name === "LOGIN_PASSWORD" ? PASSWORD : undefined,
    );
    assertReplayPassed(replay);
    assert.deepEqual(app.errors, [], replay.flow);
    assert.equal(app.calls.length, 10, app.calls.join("\n"));
    // Only the password is asked of the user: every token was produced by a response.
    assert.deepEqual(
      Object.keys(replay.env).filter((n) => !/BASE_URL/.test(n)),
      ["LOGIN_PASSWORD"],
      replay.flow,
    );
    assert.match(replay.flow, /\{ header: x-csrf-next \}/, replay.flow);
    // The token in each carrier the script used, and the login's key in a secret-named header.
    const ref = String.raw`\$\{steps\.\w+\.capture\.x_csrf_next\}`;
    for (const carrier of ["x-csrf-token: ", "csrf_token: ", "\\?_csrf=", "; csrf="]) {
      assert.match(replay.flow, new RegExp(`${carrier}${ref}`), carrier);
    }
    assert.match(replay.flow, /x-api-key: \$\{steps\.login\.capture\.api_key\}/, replay.flow);
    for (
      const token of JSON.parse(har).log.entries.flatMap((
        e: { response: { headers: { name: string; value: string }[] } },
      ) => e.response.headers.filter((h) => h.name === "x-csrf-next").map((h) => h.value))
    ) {
      assert.ok(!replay.flow.includes(token), `the flow holds ${token}\n${replay.flow}`);
    }
  }));

Deno.test("csrfspa: --verify against a live instance passes every step with no repair and asks only the password", () =>
  recordedThenFresh(async (har, dir, app) => {
    await Deno.writeTextFile(`${dir}/journey.har`, har);
    const run = await runCli(
      ["convert", "har", `${dir}/journey.har`, "--verify", app.origin, "-o", `${dir}/flow.yaml`],
      { env: { LOGIN_PASSWORD: PASSWORD } },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Verified 10 steps against \S+: all pass\./, run.stderr);
    assert.match(run.stderr, /Set before running: LOGIN_PASSWORD\./, run.stderr);
    assert.deepEqual(app.errors, []);
  }));

const RECORDINGS = new URL("../apps/csrfspa/recordings/", import.meta.url);
const RECORDED = "http://127.0.0.1:8761";

for (const recording of ["journey.pw.har", "journey.cdp.har"]) {
  Deno.test(`csrfspa ${recording} (Chromium): the default conversion passes on a fresh instance`, async () => {
    const har = new URL(recording, RECORDINGS).pathname;
    const app = startCsrfspa();
    try {
      const replay = await convertAndReplay(
        har,
        (recorded) => recorded === RECORDED ? app.origin : recorded,
        (name) => name === "LOGIN_PASSWORD" ? PASSWORD : undefined,
      );
      assertReplayPassed(replay);
      assert.deepEqual(app.errors, [], replay.flow);
      // The API's ten calls, each answered (the page may be kept: it is where the session starts).
      assert.equal(app.calls.filter((c) => c.includes(" /api/")).length, 10, app.calls.join("\n"));
      assert.deepEqual(
        Object.keys(replay.env).filter((n) => !/BASE_URL/.test(n)),
        ["LOGIN_PASSWORD"],
        replay.flow,
      );
      const text = await Deno.readTextFile(har);
      for (const m of text.matchAll(/"x-csrf-next",\s*"value":\s*"([^"]+)"/gi)) {
        assert.ok(!replay.flow.includes(m[1]), `the flow holds ${m[1]}\n${replay.flow}`);
      }
    } finally {
      await app.close();
    }
  });
}
