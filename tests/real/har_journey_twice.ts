/**
 * What the HAR tests of single-page apps with a login (Ghost, Homebridge UI)
 * prove of a converted journey: run twice on one fresh instance with only
 * the base URL and the password asked, it replays every request of the
 * journey and passes every step each time; `--verify` against a fresh
 * instance passes every step and writes no password.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { runsOf, saysRun } from "./measure.ts";

/** The requests a journey must replay, and how a sent path is written to compare with them. */
export interface Journey {
  /** Method and path, each id written as `ID` (`DELETE /api/users/ID`). */
  requests: readonly string[];
  /** A sent path as `requests` write it (its ids as `ID`). */
  path: (pathname: string) => string;
}

/**
 * Runs the flow at `flowPath` (its text `flow`) twice on the instance at
 * `origin` as its header asks, `known` giving what a user knows: only
 * `BASE_URL` and `LOGIN_PASSWORD` may be asked, each run sends every request
 * of `journey`, passes every step and exits 0. Says each run's count as
 * `WHAT, run N: …` on stderr.
 *
 * @example
 * ```ts ignore
 * import { journeyPassesTwice } from "./har_journey_twice.ts";
 * const journey = { requests: ["POST /api/login"], path: (p: string) => p };
 * await journeyPassesTwice(origin, flowPath, flow, () => "secret", "app HAR pw", journey);
 * ```
 */
export async function journeyPassesTwice(
  origin: string,
  flowPath: string,
  flow: string,
  known: (name: string) => string | undefined,
  what: string,
  journey: Journey,
): Promise<void> {
  const env = userEnv(flow, origin, known);
  assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
  for (const { run, steps, passed } of await runsOf(flowPath, env, 2, saysRun(what))) {
    const sent = steps.filter((s) => s.request).map((s) =>
      `${s.request!.method} ${journey.path(new URL(s.request!.url).pathname)}`
    );
    for (const request of journey.requests) {
      assert.ok(sent.includes(request), `${request} not sent`);
    }
    assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
    assert.equal(run.code, 0, run.stdout);
  }
}

/**
 * `convert har --verify` of `har` into `flowPath` against the fresh instance
 * `onFresh` gives, the password set as `LOGIN_PASSWORD`: it says what it
 * verified as `WHAT --verify: …` on stderr, every step passes, and the flow
 * written does not hold the password. The flow's text.
 *
 * @example
 * ```ts ignore
 * import { verifiedFlow } from "./har_journey_twice.ts";
 * const flow = await verifiedFlow("app", har, flowPath, "secret", (convert) => convert(origin));
 * ```
 */
export async function verifiedFlow(
  what: string,
  har: string,
  flowPath: string,
  password: string,
  onFresh: (convert: (origin: string) => Promise<CliRun>) => Promise<CliRun>,
): Promise<string> {
  const verified = await onFresh((origin) =>
    runCli(["convert", "har", har, "--verify", origin, "-o", flowPath], {
      env: { LOGIN_PASSWORD: password },
    })
  );
  console.error(`${what} --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
  assert.equal(verified.code, 0, verified.stderr);
  assert.match(verified.stderr, /Verified \d+ steps against \S+: all pass\.\n/);
  const flow = await Deno.readTextFile(flowPath);
  assert.ok(!flow.includes(password), flow);
  return flow;
}
