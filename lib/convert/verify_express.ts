/**
 * Whether a capture `--verify` would add (a probe, or a repair's capture)
 * can be written so the flow loads: a member name that no JSONPath engine
 * reads (a control character json-p3 refuses even escaped) makes a path the
 * loader rejects, and one such capture must cost that candidate, never the
 * verification. Checked by loading a one-step flow holding the capture, as
 * written by the same spelling as the flow.
 *
 * @module
 */
import { loadFlow } from "../load/load_flow.ts";
import type { Source } from "./model.ts";
import type { Spelling } from "./spelling.ts";
import { toYaml, ymap } from "./yaml_out.ts";

/**
 * Why a capture from `source` cannot be written in a flow, or `undefined`
 * when it can. The YAML and JSONPath engines must be loaded.
 *
 * @example
 * ```ts
 * import { unexpressible } from "./verify_express.ts";
 * import { Spelling } from "./spelling.ts";
 * import { yamlEngine } from "../load/yaml_engine.ts";
 * import { pathEngine } from "../expr/path_engine.ts";
 * await Promise.all([yamlEngine.load(), pathEngine.load()]);
 * const sp = new Spelling("a");
 * if (unexpressible(sp, { kind: "json", path: ["items", { key: "0", value: "a" }, "id"] })) throw new Error();
 * // A member named with a control character no engine reads, even escaped.
 * const why = unexpressible(sp, { kind: "json", path: ["nul\u0000x"] });
 * if (!why?.includes("JSONPath")) throw new Error(why);
 * ```
 */
export function unexpressible(sp: Spelling, source: Source): string | undefined {
  const step = ymap([
    ["name", "s"],
    ["request", ymap([["url", "http://127.0.0.1/"]])],
    [sp.name === "a" ? "capture" : "extract", ymap([["c", sp.captureNode(source)]])],
  ]);
  const yaml = toYaml([], ymap([["name", "f"], ["steps", [step]]]));
  const { flow, problems } = loadFlow(yaml, "verify.yaml", { checkEnv: false });
  return flow ? undefined : problems[0]?.message ?? "it does not load";
}

/**
 * The flow as converted does not load, so no step of it can be sent.
 *
 * @example
 * ```ts
 * import { UnloadableFlow } from "./verify_express.ts";
 * const error = new UnloadableFlow('Invalid JSONPath "$.json[\'a\u0000\']".');
 * if (error.code !== "unloadable-flow" || !error.message.startsWith("the converted flow")) throw new Error();
 * ```
 */
export class UnloadableFlow extends Error {
  readonly code = "unloadable-flow";
  constructor(readonly problem: string) {
    super(`the converted flow does not load: ${problem}`);
  }
}
