/**
 * Test files that call the synchronous `loadFlow` (or the YAML limits) on
 * any YAML load the full parser first, as `mod.ts` does; the CLI loads it on
 * demand (tests/cli_test.ts covers that path in a fresh process).
 *
 * @module
 */
import { loadYamlEngine } from "../../lib/load/yaml_engine.ts";

await loadYamlEngine();
