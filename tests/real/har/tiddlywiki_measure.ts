/**
 * One way of turning TiddlyWiki recordings into a flow (`flowrun convert
 * har` with its options), the flow run on a fresh instance as a new user
 * runs it, then once more on that instance, and what the wiki then holds:
 * the same flow cut after its save of the renamed tiddler is run there and
 * the tiddler read back, so a conversion that passes every step
 * yet sends another tiddler than the browser did is seen. Every CLI call is
 * a subprocess killed after a bound.
 *
 * @module
 */
import { parse, stringify } from "yaml";
import { type Measure, measureWith, runOnce, runTwiceOn, type TwoRuns } from "./measure.ts";
import { startTiddlyWiki } from "./tiddlywiki.ts";
import { RENAMED_TITLE } from "./tiddlywiki_journey.ts";

/** The journey's tiddler as the wiki holds it after the flow's save of its new title. */
export interface Held {
  text?: string;
  tags?: string;
  created?: string;
  modified?: string;
}

/** What one way gave: {@linkcode Measure}, and the tiddler the wiki held. */
export interface TwMeasure extends Measure {
  held?: Held;
}

/** TiddlyWiki asks for no password: a variable beyond the base URL gets nothing a user knows. */
const known = () => undefined;

/** Whether a step saves the renamed tiddler (`PUT …/tiddlers/Orders%20shipped`). */
function savesTiddler(step: { request?: { method?: string; url?: string } }): boolean {
  const url = step.request?.url ?? "";
  return step.request?.method === "PUT" &&
    decodeURIComponent(url.slice(url.lastIndexOf("/") + 1)) === RENAMED_TITLE;
}

/** Runs the flow up to its last save of the renamed tiddler, then reads it from the wiki. */
async function heldAfterSaves(
  flowPath: string,
  origin: string,
  env: Record<string, string>,
): Promise<Held | undefined> {
  const flow = parse(await Deno.readTextFile(flowPath)) as { steps: Record<string, unknown>[] };
  const last = flow.steps.findLastIndex(savesTiddler);
  if (last < 0) return undefined;
  const cut = `${flowPath}.saves.yaml`;
  await Deno.writeTextFile(cut, stringify({ ...flow, steps: flow.steps.slice(0, last + 1) }));
  await runOnce(cut, env, `${cut}.report.json`);
  const r = await fetch(`${origin}/recipes/default/tiddlers/${encodeURIComponent(RENAMED_TITLE)}`);
  if (!r.ok) {
    await r.body?.cancel();
    return undefined;
  }
  return await r.json();
}

/** Runs `flowPath` on a fresh instance twice, then reads what its saves leave there. */
async function runFresh(flowPath: string): Promise<TwoRuns & Pick<TwMeasure, "held">> {
  const instance = await startTiddlyWiki();
  try {
    const two = await runTwiceOn(instance, flowPath, known);
    return { ...two, held: await heldAfterSaves(flowPath, instance.origin, two.env) };
  } finally {
    await instance.close();
  }
}

/**
 * Converts `hars` with `options` into `dir/LABEL.yaml` (`--verify` against a
 * fresh instance of its own when asked), then runs the flow on another
 * fresh instance, twice, and reads back what its saves left.
 */
export function measureTw(
  label: string,
  dir: string,
  hars: string[],
  options: { verify?: boolean; args?: string[] } = {},
): Promise<TwMeasure> {
  const verifier = options.verify ? { start: startTiddlyWiki, env: {} } : undefined;
  return measureWith(label, dir, hars, options.args, verifier, runFresh);
}
