/**
 * The converters' last check: the flow they are about to write, loaded as
 * `flowrun validate` loads it (`loadFlow`, the entry `cli/validate.ts`
 * reaches through `loadFlowsDeferred`). A flow that does not load is never
 * written: the problems say what the converter could not express, and the
 * user gets them instead of a file that `run` refuses.
 *
 * Every converter calls it with its output and the files it writes beside
 * it: `await assertLoads(yaml, files)` before saving.
 *
 * @module
 */
import { withEngines } from "../load/engines.ts";
import { loadFlow } from "../load/load_flow.ts";
import { UsageError } from "../model/errors.ts";

/** Problems named in the message; the rest are counted. */
const SHOWN = 3;

/**
 * Throws {@linkcode UsageError} `unloadable-flow` when `yaml` does not load as
 * a flow: each problem with its line, variables aside (the user sets them
 * before running). `files` are those the converter writes beside the flow,
 * by path relative to it; any other file the flow names is the user's, and
 * taken as present.
 *
 * @example
 * ```ts
 * import { assertLoads } from "./write_check.ts";
 * await assertLoads("name: f\nsteps:\n  - name: s\n    request: {url: \"${ENV.BASE_URL}/me\"}\n");
 * const refused = await assertLoads("name: f\nsteps:\n  - name: s\n    request: {url: https://a.test}\n    captures: {}\n")
 *   .then(() => false, () => true);
 * if (!refused) throw new Error("a flow with an unknown key was accepted");
 * ```
 */
export async function assertLoads(
  yaml: string,
  files: Iterable<{ path: string; text: string | Uint8Array<ArrayBuffer> }> = [],
): Promise<void> {
  const written = new Map([...files].map((f) => [f.path, f.text]));
  const { problems } = await withEngines(() =>
    loadFlow(yaml, "converted.yaml", {
      checkEnv: false,
      readFile: (path) => {
        const text = written.get(path) ?? "";
        return { bytes: typeof text === "string" ? new TextEncoder().encode(text) : text };
      },
    })
  );
  if (problems.length === 0) return;
  // Each message is a sentence; the list ends with one period, not two.
  const listed = problems.slice(0, SHOWN).map((p) =>
    `line ${p.line}: ${p.message.replace(/\.$/, "")}`
  );
  const more = problems.length > SHOWN ? ` (and ${problems.length - SHOWN} more)` : "";
  throw new UsageError(
    "unloadable-flow",
    `The converted flow does not load, so it was not written: ${listed.join("; ")}${more}.`,
    "The recording holds something no flow can express here; change or drop that request (--exclude-url) and convert again, and please report it.",
  );
}
