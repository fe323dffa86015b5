/**
 * Test files that call the synchronous `loadFlow` (or the YAML limits, or
 * `compilePath`) on any YAML or JSONPath load the full YAML parser and the
 * full JSONPath engine first, as `mod.ts` does; the CLI loads them on demand
 * (tests/cli/cli_test.ts covers that path in a fresh process).
 *
 * @module
 */
import { yamlEngine } from "../../lib/load/yaml_engine.ts";
import { pathEngine } from "../../lib/expr/path_engine.ts";

await yamlEngine.load();
await pathEngine.load();
