/**
 * `convert openapi` on the RealWorld project's own OpenAPI documents (3.1
 * and 3.0) against a THIRD real RealWorld backend (conduit_moleculer.ts:
 * Moleculer microservices, NeDB files), converted with default options and
 * run twice as the summary prints it (realworld_openapi.ts). Today's count
 * is the floor.
 */
import { conduitMoleculerPackages, withConduitMoleculer } from "./conduit_moleculer.ts";
import { measureOpenApi, type RealWorldBackend } from "./realworld_openapi.ts";
import { prepare, realTest, start } from "./servers.ts";

const prepared = await prepare(conduitMoleculerPackages());

/** The operations accepted on 2026-11-26, on each run, by both documents (all, at the first run). */
const backend: RealWorldBackend = {
  label: "Moleculer",
  with: (fn) => withConduitMoleculer(prepared.install!.prefix, start, fn),
  floor: 19,
  broken: [],
};

for (const [form, name] of [["3.1", "conduit.yaml"], ["3.0", "conduit-3.0.yaml"]]) {
  realTest(
    `the RealWorld project's OpenAPI ${form} document, converted and run twice on a third RealWorld backend (Moleculer), gets a 2xx on all ${backend.floor} of its operations each run, with no literal credential`,
    prepared.ignoredBecause,
    (dir) => measureOpenApi(backend, name, dir),
  );
}
