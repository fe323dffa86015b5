/**
 * The measure the HAR tests of server-rendered apps with a login share
 * (DokuWiki, Redmine, WordPress, phpMyAdmin): convert a stored recording with the default options,
 * run it on a fresh instance with only what its summary asks (the password
 * the user knows), twice; `--verify` it against one instance and run the
 * verified flow on another; record a journey now and run that.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths, type Recordings } from "../support/record_har.ts";
import { type FlowRun, runsOf } from "./measure.ts";
import { type Instance, type Launch, realTest, unlessAsked, withInstance } from "./servers.ts";
import { ignoreBrowser } from "../support/browser.ts";
import { publicRecording } from "./unleash_journey.ts";

/** An app whose journey logs in with a password the user knows. */
export interface LoginApp {
  /** Its name in the lines the runs print (`dokuwiki`). */
  name: string;
  /** A fresh instance of it. */
  launch: () => Launch;
  /** The password the summary asks for as `LOGIN_PASSWORD`. */
  password: string;
}

/**
 * A launch of fresh instances that remembers each one's folder, latest last, so a test can read
 * what its runs left there (the database, the mail, the files).
 *
 * @example
 * ```ts
 * import { remembered } from "./har_login_app.ts";
 * const folders: string[] = [];
 * const seeded: string[] = [];
 * const base = () => ({
 *   command: ["true"],
 *   seed: async (dir: string) => void seeded.push(dir),
 *   origin: () => undefined,
 * });
 * await remembered(base, folders)().seed!("/tmp/instance-1");
 * if (seeded.join() !== "/tmp/instance-1") throw new Error("the base's seed runs too");
 * if (folders.join() !== "/tmp/instance-1") throw new Error();
 * ```
 */
export function remembered(base: () => Launch, folders: string[]): () => Launch {
  return () => {
    const launch = base();
    return {
      ...launch,
      seed: async (dir) => {
        folders.push(dir);
        await launch.seed?.(dir);
      },
    };
  };
}

/** A {@linkcode LoginApp} that remembers its instances' folders. */
export interface RememberedApp extends LoginApp {
  /** The folder of the instance started last. */
  latest(): string;
}

/**
 * The login app `name` of `launch`'s fresh instances, whose folders are
 * {@linkcode remembered}: its runs' checks read what they left in the
 * latest (the database, the mail, the files).
 *
 * @example
 * ```ts
 * import { rememberedApp } from "./har_login_app.ts";
 * const base = () => ({ command: ["true"], origin: () => undefined });
 * const app = rememberedApp("demo", base, "secret");
 * await app.launch().seed!("/tmp/instance-1");
 * if (app.latest() !== "/tmp/instance-1" || app.name !== "demo") throw new Error();
 * ```
 */
export function rememberedApp(name: string, launch: () => Launch, password: string): RememberedApp {
  const folders: string[] = [];
  return { name, launch: remembered(launch, folders), password, latest: () => folders.at(-1)! };
}

/** A converted flow: where it is, its text and the conversion's summary. */
export interface Converted {
  flowPath: string;
  flow: string;
  summary: string;
}

/**
 * Converts `har` with the default options into `dir`, the flow named for
 * the recording's file.
 *
 * @example
 * ```ts ignore
 * import { convertHar } from "./har_login_app.ts";
 * const { flow, summary } = await convertHar("/tmp/journey.pw.har", "/tmp/out");
 * ```
 */
export async function convertHar(har: string, dir: string): Promise<Converted> {
  const flowPath = `${dir}/${har.split("/").at(-1)}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath]);
  assert.equal(converted.code, 0, converted.stderr);
  return { flowPath, flow: await Deno.readTextFile(flowPath), summary: converted.stderr };
}

/**
 * Converts the stored recording `har` of `app`: it names no host path, the
 * summary asks for the password, and the flow does not hold it.
 *
 * @example
 * ```ts ignore
 * import { convertStored } from "./har_login_app.ts";
 * import { dokuwikiLaunch, LOGIN } from "./dokuwiki.ts";
 * const app = { name: "dokuwiki", launch: dokuwikiLaunch, password: LOGIN.password };
 * const { flowPath, flow } = await convertStored(app, "/tmp/journey.pw.har", "/tmp/out");
 * ```
 */
export async function convertStored(
  app: Pick<LoginApp, "password">,
  har: string,
  dir: string,
): Promise<Converted> {
  assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
  const converted = await convertHar(har, dir);
  assert.match(converted.summary, /Set before running: LOGIN_PASSWORD\./);
  assert.ok(!converted.flow.includes(app.password), converted.flow);
  return converted;
}

/**
 * Runs the flow at `flowPath` `runs` times on `w` with only what its header
 * asks for, printing each run's count; `after(origin)` reads what a run left.
 *
 * @example
 * ```ts ignore
 * import { runAsUser } from "./har_login_app.ts";
 * const { env, results } = await runAsUser(app, w, flowPath, flow, 2);
 * ```
 */
export async function runAsUser<T = Record<never, never>>(
  app: LoginApp,
  w: Instance,
  flowPath: string,
  flow: string,
  runs: number,
  after: (origin: string) => Promise<T> = () => Promise.resolve({} as T),
): Promise<{ env: Record<string, string>; results: (FlowRun & T)[] }> {
  const known = (name: string) => name === "LOGIN_PASSWORD" ? app.password : undefined;
  const env = userEnv(flow, w.origin, known);
  const results = await runsOf(flowPath, env, runs, async ({ steps, passed }, n) => {
    const found = await after(w.origin);
    console.error(
      `${app.name}, run ${n}: ${passed} of ${steps.length} steps passed on a fresh instance with ${
        Object.keys(env).join(", ")
      }`,
    );
    return found;
  });
  return { env, results };
}

/**
 * Runs the converted flow twice on one fresh instance of `app`: only the
 * base URL and the password asked, each run passes all of its `steps`
 * steps and prints no password. Each run with what `after` found.
 *
 * @example
 * ```ts ignore
 * import { convertStored, passesTwice } from "./har_login_app.ts";
 * const converted = await convertStored(app, "/tmp/journey.pw.har", "/tmp/out");
 * await passesTwice(app, converted, 15);
 * ```
 */
export async function passesTwice<T = Record<never, never>>(
  app: LoginApp,
  { flowPath, flow }: Converted,
  steps: number,
  after?: (origin: string) => Promise<T>,
): Promise<(FlowRun & T)[]> {
  return await withInstance(app.launch(), async (w) => {
    const { env, results } = await runAsUser(app, w, flowPath, flow, 2, after);
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
    for (const { run, steps: done, passed } of results) {
      assert.equal(done.length, steps, flow);
      assert.equal(passed, done.length, `${run.stdout}\n${flow}`);
      assert.equal(run.code, 0, run.stdout);
      assert.ok(!run.stdout.includes(app.password), run.stdout);
    }
    return results;
  });
}

/**
 * `convert har --verify` of `har` against a fresh instance of `app` repairs
 * nothing it need not, and the verified flow passes all of its `steps`
 * steps on another fresh instance.
 *
 * @example
 * ```ts ignore
 * import { verifiedPasses } from "./har_login_app.ts";
 * await verifiedPasses(app, "/tmp/journey.pw.har", "/tmp/out", 15);
 * ```
 */
export async function verifiedPasses(
  app: LoginApp,
  har: string,
  dir: string,
  steps: number,
): Promise<void> {
  const flowPath = `${dir}/verified.yaml`;
  const verified = await withInstance(app.launch(), async (w) =>
    await runCli(
      ["convert", "har", har, "--verify", w.origin, "-o", flowPath],
      { env: { LOGIN_PASSWORD: app.password } },
    ));
  console.error(`${app.name} --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
  assert.equal(verified.code, 0, verified.stderr);
  assert.doesNotMatch(verified.stderr, /could not make/, verified.stderr);
  await withInstance(app.launch(), async (w) => {
    const env = { BASE_URL: w.origin, LOGIN_PASSWORD: app.password };
    const run = await runCli(["run", flowPath], { env });
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, new RegExp(`${steps} steps: ${steps} passed`));
  });
}

/** Runs the flow at `flowPath` (its text `flow`) on fresh instances: every step passes, at least `minSteps`. */
export type FreshRun = (flowPath: string, flow: string, minSteps: number) => Promise<void>;

/**
 * Records `app`'s journey now in Chromium (`record`, on a fresh instance),
 * both forms, and runs each converted with `run`: unless told, twice on
 * another fresh instance, every step passing, at least `minSteps` of them.
 *
 * @example
 * ```ts ignore
 * import { freshPasses } from "./har_login_app.ts";
 * import { recordJourney } from "./dokuwiki_journey.ts";
 * await freshPasses(app, recordJourney, "/tmp/out", 13);
 * ```
 */
export async function freshPasses(
  app: LoginApp,
  record: (origin: string) => Promise<Recordings>,
  dir: string,
  minSteps: number,
  run?: FreshRun,
): Promise<void> {
  for (const { form, flowPath, flow } of await recordedNow(app, record, dir)) {
    await (run ?? twiceOnFresh(app, form))(flowPath, flow, minSteps);
  }
}

/** Two runs on one fresh instance of `app`; `form` names the recording in a failure. */
function twiceOnFresh(app: LoginApp, form: string): FreshRun {
  return (flowPath, flow, minSteps) =>
    withInstance(app.launch(), async (w) => {
      const { results } = await runAsUser(app, w, flowPath, flow, 2);
      for (const { run, steps, passed } of results) {
        assert.ok(
          steps.length >= minSteps && passed === steps.length,
          `${form}\n${run.stdout}\n${flow}`,
        );
      }
    });
}

/**
 * Records `app`'s journey now in Chromium (`record`, on a fresh instance), both forms, each made
 * public (no host path), written under `dir` and converted with default options.
 *
 * @example
 * ```ts ignore
 * import { recordedNow } from "./har_login_app.ts";
 * import { recordJourney } from "./dokuwiki_journey.ts";
 * for (const { form, flowPath } of await recordedNow(app, recordJourney, "/tmp/out")) {
 *   console.log(form, flowPath);
 * }
 * ```
 */
export async function recordedNow(
  app: { launch: () => Launch },
  record: (origin: string) => Promise<Recordings>,
  dir: string,
): Promise<(Converted & { form: string })[]> {
  const recorded = await withInstance(app.launch(), async (a) => {
    const { playwright, chromeHar } = await record(a.origin);
    return { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) };
  });
  const converted = [];
  for (const [form, har] of Object.entries(recorded)) {
    assert.deepEqual(hostPaths(har), [], form);
    await Deno.writeTextFile(`${dir}/${form}.har`, har);
    converted.push({ form, ...await convertHar(`${dir}/${form}.har`, dir) });
  }
  return converted;
}

/** What {@linkcode loginAppTests} needs of one app. */
export interface LoginAppSuite {
  /** The app's name in the tests' names (`DokuWiki`). */
  label: string;
  app: LoginApp;
  /** The folder of its stored recordings, `journey.pw.har` and `journey.cdp.har`. */
  fixtures: string;
  /** Why its tests are ignored here (`[ignored: …]`), or "". */
  missing: string;
  /** How many steps the verified flow passes. */
  steps: number;
  /** Converts a stored recording and runs it (twice on one fresh instance unless `claims` say otherwise), with its own checks. */
  storedPassesTwice: (name: string, dir: string) => Promise<void>;
  /** Records its journey now (the fourth test, asked for with `<NAME>_FRESH=1`). */
  record: (origin: string) => Promise<Recordings>;
  /** The fewest steps a journey recorded now has. */
  freshMin: number;
  /** How a journey recorded now is run, when not twice on one fresh instance. */
  freshRun?: FreshRun;
  /** What the two stored recordings' tests say they prove, when not that each passes twice. */
  claims?: { playwright: string; chromeHar: string };
}

/** What the stored recordings' tests of {@linkcode loginAppTests} claim unless told. */
const TWICE = {
  playwright: "passes every step on a fresh instance and again on the same one",
  chromeHar: "passes every step too, twice",
};

/**
 * Registers the four tests every login app's HAR file has: each stored form passes twice on a
 * fresh instance, `--verify` then the verified flow on another, and a journey recorded now (only
 * when `<NAME>_FRESH` is set).
 *
 * @example
 * ```ts ignore
 * import { loginAppTests } from "./har_login_app.ts";
 * loginAppTests({ label: "DokuWiki", app, fixtures, missing, steps: 15, storedPassesTwice,
 *   record: recordJourney, freshMin: 13 });
 * ```
 */
export function loginAppTests(suite: LoginAppSuite): void {
  const { label, app, fixtures, missing, claims = TWICE } = suite;
  realTest(
    `${label}, recorded in Chromium (Playwright's HAR), ${claims.playwright}, only the password asked for`,
    missing,
    (dir) => suite.storedPassesTwice("journey.pw.har", dir),
  );
  realTest(
    `${label}: chrome-har's recording of the same journey ${claims.chromeHar}`,
    missing,
    (dir) => suite.storedPassesTwice("journey.cdp.har", dir),
  );
  realTest(
    `${label}: --verify against a live instance repairs nothing it need not and the verified flow passes on another fresh instance`,
    missing,
    (dir) => verifiedPasses(app, `${fixtures}journey.pw.har`, dir, suite.steps),
  );
  realTest(
    `${label}: a journey recorded now in Chromium passes on a fresh instance`,
    missing + unlessAsked(`${app.name.toUpperCase()}_FRESH`),
    (dir) => freshPasses(app, suite.record, dir, suite.freshMin, suite.freshRun),
    ignoreBrowser,
  );
}
